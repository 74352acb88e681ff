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
-- V tiles [block_n][d]; with q_regs Q's tile (and the output staging) reuses the last stage,
-- which is first written after Q has moved to registers, and may run past it; otherwise Q stays
-- in shared memory, in a region of its own.
local function smem_sm80(c)
  local d = dims[c.head_dim]
  local stage = 4 * c.block_n * d
  if c.q_regs == 1 then
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

-- sm80: cp.async + ldmatrix + mma.sync; sm90 compiles the same template for sm_90a, beside
-- flash_attention_wgmma (which fit() prefers). sm70: wmma, f16 only (bf16 there is
-- NOT_SUPPORTED).
tier "sm70" { template = "flash_attention_sm70", only = { dtype = { "f16" } },
              tune = { stages = { 1 }, block_n = { 16, 32, 64 } } }
tier "sm80" { template = "flash_attention_sm80", tune = { block_n = { 32, 64, 128 } } }
tier "sm90" { template = "flash_attention_sm80", tune = { block_n = { 32, 64, 128 } } }

tune "block_m" { 64, 128, tag = "m" }     -- query rows per block
tune "block_n" { 16, 32, 64, 128, tag = "n" } -- keys per K/V tile
tune "warps"   { 4, 8, tag = "w" }
tune "stages"  { 1, 2, 3, tag = "s" }     -- K/V tile pairs in shared memory; 1: one K and one V
                                          -- buffer, FA2's pipeline (sm70: the next in registers)
tune "q_regs"  { 0, 1, tag = "q" }        -- 1: Q's fragments held in registers; 0: re-read from smem

constraint "Q in registers up to d128 (at d256 its fragments do not fit beside O)" (function(c)
  return c.q_regs == 0 or dims[c.head_dim] <= 128
end)

constraint "one stage keeps Q in shared memory (its region cannot alias the K/V buffers)" (function(c)
  return c.tier == "sm70" or c.stages > 1 or c.q_regs == 0
end)

constraint "sm70 holds Q in registers exactly up to d128 (the template's fixed choice)" (function(c)
  return c.tier ~= "sm70" or (c.q_regs == 1) == (dims[c.head_dim] <= 128)
end)

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
-- m16 tile, and Q's fragments with q_regs. With Q in registers, 160 puts ptxas at its
-- 255-register limit (d128 n128 w8: 254 on sm_80, 68 bytes of spill on sm_90a) and beyond it
-- spills run to hundreds of bytes (d128 m128 n64 w4: 392); with Q re-read from shared memory
-- (its fragments live for one k16 step) 192 fits, as in FlashAttention-2's d128 m128 n64 w4.
constraint "at most 160 (Q in registers) or 192 accumulator registers a thread" (function(c)
  if c.tier == "sm70" then return true end -- mma.sync fragments; sm70's wmma tiles fit (no spills)
  local d = dims[c.head_dim]
  local mi = c.block_m // c.warps // 16
  local acc = mi * (d // 8 * 4 + c.block_n // 8 * 4)
  if c.q_regs == 1 then return acc + mi * (d // 16) * 4 <= 160 end
  return acc <= 192
end)

-- Emitted without a tuning table, per head dim, in dispatch preference order (fit() weighs
-- them by an estimate of waves and tile efficiency). Up to d128: FlashAttention-2's own shape,
-- 4 warps of 32 rows with Q re-read from shared memory, two blocks per SM; d256: 8 warps of
-- 16 rows, one block per SM; d96 and d256 with one stage (FA2's pipeline). H200, bf16, 16k
-- keys, non-causal / causal TFLOP/s (the sweep, bench/RESULTS.md): d64 m128 n128 w4 s2
-- q0 334.8 / 330.3 (the former m128 n128 w8 q1: 285.8 / 284.8; s1 331.5 / 329.5); d96 m128
-- n64 w4 s1 347.6 / 348.7 (s2 333.1 / 334.4; the former n128 w8 q1 315.4 / 317.3); d128 m128
-- n64 w4 s2 q0 370.8 / 374.5 (former n128 w8 q1: 334.0 / 335.1; n32 342.6, s3 297.8, s1
-- 341.8, m256 w8 332.3); d256 m128 n64 w8 s1 329.0 / 330.2 (s2, 192 KB: 325.3 / 329.0; the
-- former n32: 284.9 / 283.7). d256's m64 n32 w4 (96 KB) is for GPUs with 99 KB (sm86,
-- sm89), which every other instance here fits.
default { head_dim = "64", block_m = 128, block_n = 128, warps = 4, stages = 2, q_regs = 0 }
default { head_dim = "96", block_m = 128, block_n = 64, warps = 4, stages = 1, q_regs = 0 }
default { head_dim = "128", block_m = 128, block_n = 64, warps = 4, stages = 2, q_regs = 0 }
default { head_dim = "256", block_m = 128, block_n = 64, warps = 8, stages = 1, q_regs = 0 }
default { head_dim = "256", block_m = 64, block_n = 32, warps = 4, stages = 2, q_regs = 0 }

-- sm70 (stages = 1: these apply to no other tier, and the defaults above to no sm70). All fit
-- the tier's 64 KB (Turing); 16 query rows a warp. H200 through the tier's PTX, f16 d128 16k:
-- m64 n64 w4 125 TFLOP/s, m128 n32 w8 117 (the sm70 sweep).
default { head_dim = { "64", "96" }, block_m = 128, block_n = 64, warps = 8, stages = 1, q_regs = 1 }
default { head_dim = { "64", "96" }, block_m = 64, block_n = 64, warps = 4, stages = 1, q_regs = 1 }
default { head_dim = "128", block_m = 64, block_n = 64, warps = 4, stages = 1, q_regs = 1 }
default { head_dim = "128", block_m = 128, block_n = 32, warps = 8, stages = 1, q_regs = 1 }
default { head_dim = "128", block_m = 64, block_n = 32, warps = 4, stages = 1, q_regs = 1 }
default { head_dim = "256", block_m = 64, block_n = 16, warps = 4, stages = 1, q_regs = 0 }

-- The cases tileops-tune times (make tune; every family serving flash_attention competes in
-- each): tileops-bench's grid (hidden 2048, 16k tokens a batch: batch x seqlen x heads x
-- head_dim), causal and not, f16 at head_dim 128, and softcap (Gemma's 30: buckets of their
-- own, its tanh changes which instance pays) at 2k.
tune_shapes {
  { dtype = "bf16", causal = { "off", "on" },
    shape = { "32x512x32x64", "8x2048x32x64", "1x16384x32x64",
              "32x512x16x128", "8x2048x16x128", "1x16384x16x128",
              "32x512x8x256", "8x2048x8x256", "1x16384x8x256" } },
  { dtype = "f16", causal = { "off", "on" }, shape = { "8x2048x16x128", "1x16384x16x128" } },
  { dtype = "bf16", causal = { "off", "on" }, softcap = "30",
    shape = { "8x2048x32x64", "8x2048x16x128", "8x2048x8x256" } },
}
