-- flash_attention: O = softmax(scale * Q·Kᵀ + causal mask) · V, forward (FlashAttention-2).
--
-- One block computes block_m query rows of one head of one sequence over all of its keys:
-- `warps` warps own block_m / warps rows each (one or two m16 tiles), and K and V stream
-- through `stages` shared-memory stages of block_n keys. The head dim is a variant (each one
-- compiled); causal masking, GQA/MQA, variable-length batches and the LSE output are run-time
-- arguments. Every instance needs q, k, v, o 16-byte aligned and their strides multiples of 8
-- elements (cp.async moves 16-byte chunks): there is no unaligned fallback, the runtime
-- rejects such calls with NOT_SUPPORTED. Design notes: docs/ATTENTION.md.

local dims = { ["64"] = 64, ["96"] = 96, ["128"] = 128, ["256"] = 256 }

-- Shared memory, as the template computes SMEM_TOTAL (it asserts the two agree): `stages` K and
-- V tiles [block_n][d]; up to d128 Q's tile (and the output staging) reuses the last stage, which
-- is first written after Q has moved to registers, and may run past it; at d256 Q stays in
-- shared memory, in a region of its own.
local function smem_sm80(c)
  local d = dims[c.head_dim]
  local stage = 4 * c.block_n * d
  if d <= 128 then
    return (c.stages - 1) * stage + math.max(stage, 2 * c.block_m * d)
  end
  return c.stages * stage + 2 * c.block_m * d
end

-- sm70 (flash_attention_sm70, wmma): one K/V tile each in shared memory (the next one waits in
-- registers: stages = 1), Q's tile (up to d128 it moves to registers and its region becomes the
-- S tiles'), each warp's fp32 S tile of 16 x block_n (P is written over it) and 16 row factors
-- a warp. Rows of Q, K, V are padded by 16 bytes, S rows by 4 floats.
local function smem_sm70(c)
  local d = dims[c.head_dim]
  local row = 2 * (d + 8)
  local q = c.block_m * row
  local sp = c.warps * 16 * (c.block_n + 4) * 4
  return 2 * c.block_n * row + (d <= 128 and math.max(q, sp) or q + sp) + 64 * c.warps
end

local function smem(c)
  return c.tier == "sm70" and smem_sm70(c) or smem_sm80(c)
end

operator "flash_attention" {
  doc = "O = softmax(scale * Q·Kᵀ + mask) · V, forward (FlashAttention-2), fp32 softmax",
  align = 16,
  smem = smem,
}

variant "dtype" { "f16", "bf16" }
variant "head_dim" { "64", "96", "128", "256", tag = "d" }

-- sm80: cp.async + ldmatrix + mma.sync; sm90 compiles the same template for sm_90a until the
-- wgmma one lands. sm70: wmma, f16 only (bf16 there is NOT_SUPPORTED).
tier "sm70" { template = "flash_attention_sm70", only = { dtype = { "f16" } },
              tune = { stages = { 1 }, block_n = { 16, 32, 64 } } }
tier "sm80" { template = "flash_attention_sm80", tune = { stages = { 2, 3 }, block_n = { 32, 64, 128 } } }
tier "sm90" { template = "flash_attention_sm80", tune = { stages = { 2, 3 }, block_n = { 32, 64, 128 } } }

tune "block_m" { 64, 128, tag = "m" }     -- query rows per block
tune "block_n" { 16, 32, 64, 128, tag = "n" } -- keys per K/V tile
tune "warps"   { 4, 8, tag = "w" }
tune "stages"  { 1, 2, 3, tag = "s" }     -- K/V tiles in shared memory (sm70: 1, the next in registers)

constraint "at most the tier's shared memory per block" (function(c)
  return smem(c) <= c.smem_limit
end)

constraint "warps own one or two whole m16 tiles of rows (sm70: one)" (function(c)
  local rows = c.block_m // c.warps
  return c.block_m % c.warps == 0 and rows % 16 == 0 and rows <= (c.tier == "sm70" and 16 or 32)
end)

-- A thread copies one 16-byte chunk column of rows `threads / chunks` apart (chunks per row
-- rounded up to a power of two); the tiles must split evenly.
constraint "tile copies split evenly over the threads" (function(c)
  local chunks = dims[c.head_dim] // 8
  local cols = chunks <= 8 and 8 or chunks <= 16 and 16 or 32
  local threads = 32 * c.warps
  local step = threads // cols
  return threads % cols == 0 and c.block_n % step == 0 and c.block_m % step == 0
end)

-- fp32 registers a thread holds through the key loop: O (d/8 n8 tiles) and S (block_n/8) per
-- m16 tile, and Q's fragments up to d128 (d256 keeps Q in shared memory). At 160 ptxas sits at
-- its 255-register limit (d128 n128 w8: 254 on sm_80, 68 bytes of spill on sm_90a, still the
-- fastest measured); beyond it spills run to hundreds of bytes (d128 m128 n64 w4: 392).
constraint "at most 160 accumulator and Q-fragment registers a thread" (function(c)
  if c.tier == "sm70" then return true end -- mma.sync fragments; sm70's wmma tiles fit (no spills)
  local d = dims[c.head_dim]
  local mi = c.block_m // c.warps // 16
  local q = d <= 128 and mi * (d // 16) * 4 or 0
  return mi * (d // 8 * 4 + c.block_n // 8 * 4) + q <= 160
end)

-- Emitted without a tuning table, per head dim, in dispatch preference order (fit() weighs
-- them by an estimate of waves and tile efficiency). All use 128 rows and 8 warps (16 rows a
-- warp, one block per SM) except d256's fallback. H200, bf16, 16k keys: d128 n128 s2 335
-- TFLOP/s, n64 s2 317. The n64 tiles and d256's m64 n32 fit GPUs with 99 KB of shared memory
-- (sm86, sm89), where the larger ones are dropped by dispatch.
default { head_dim = { "64", "96" }, block_m = 128, block_n = 128, warps = 8, stages = 2 }
default { head_dim = { "64", "96" }, block_m = 128, block_n = 64, warps = 8, stages = 2 }
default { head_dim = "128", block_m = 128, block_n = 128, warps = 8, stages = 2 }
default { head_dim = "128", block_m = 128, block_n = 64, warps = 8, stages = 2 }
default { head_dim = "128", block_m = 128, block_n = 64, warps = 8, stages = 3 }
default { head_dim = "256", block_m = 128, block_n = 32, warps = 8, stages = 2 }
default { head_dim = "256", block_m = 64, block_n = 32, warps = 4, stages = 2 }

-- sm70 (stages = 1: these apply to no other tier, and the defaults above to no sm70). All fit
-- the tier's 64 KB (Turing); 16 query rows a warp. H200 through the tier's PTX, f16 d128 16k:
-- m64 n64 w4 125 TFLOP/s, m128 n32 w8 117 (drafts/attention_sm70/harness).
default { head_dim = { "64", "96" }, block_m = 128, block_n = 64, warps = 8, stages = 1 }
default { head_dim = { "64", "96" }, block_m = 64, block_n = 64, warps = 4, stages = 1 }
default { head_dim = "128", block_m = 64, block_n = 64, warps = 4, stages = 1 }
default { head_dim = "128", block_m = 128, block_n = 32, warps = 8, stages = 1 }
default { head_dim = "128", block_m = 64, block_n = 32, warps = 4, stages = 1 }
default { head_dim = "256", block_m = 64, block_n = 16, warps = 4, stages = 1 }
