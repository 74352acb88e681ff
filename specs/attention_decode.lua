-- attention_decode: decode attention over a KV cache (tileops_attention_kvcache): the few new
-- queries of each sequence against its contiguous or paged cache, split-KV with a log-sum-exp
-- merge, GQA groups packed into the MMA's rows, per-row window and softcap.
--
-- One block serves block_m rows (query heads of one kv head x new queries) over one split of
-- the sequence's keys; `warps` warps each take block_n / warps keys of every K/V tile, which
-- streams through `stages` shared-memory stages. sm80's mma.sync template; the sm90 tier runs
-- it too (the work is memory-bound). sm70 (attention_decode_sm70, f16): fp32 FMAs on the CUDA
-- cores, one key a lane, block_n = 32 keys a warp, no stages (stages = 1).

local dims = { ["64"] = 64, ["96"] = 96, ["128"] = 128, ["256"] = 256 }

-- Shared memory, as the template computes SMEM_TOTAL: the stages (or, after the key loop, the
-- warps' fp32 O exchange, rows padded by 8 floats), rounded up to 1 KB; Q's tile; each warp's
-- row max and sum.
local function smem_sm80(c)
  local d = dims[c.head_dim]
  local pipe = math.max(c.stages * 4 * c.block_n * d, c.warps * c.block_m * (d + 8) * 4)
  pipe = (pipe + 1023) // 1024 * 1024
  return pipe + 2 * c.block_m * d + 8 * c.warps * c.block_m
end

-- sm70, as attention_decode_sm70 computes SMEM_TOTAL: Q's tile as fp32 and each warp's P
-- (block_m x 32 fp32), or after the key loop the warps' O exchange; each warp's row max and sum.
local function smem_sm70(c)
  local d = dims[c.head_dim]
  local main = math.max(4 * c.block_m * d + 128 * c.warps * c.block_m,
                        c.warps * c.block_m * (d + 8) * 4)
  return main + 8 * c.warps * c.block_m
end

local function smem(c)
  return c.tier == "sm70" and smem_sm70(c) or smem_sm80(c)
end

operator "attention_decode" {
  doc = "decode attention over a contiguous or paged KV cache, split-KV, fp32 softmax",
  align = 16,
  smem = smem,
}

variant "dtype" { "f16", "bf16" }
variant "head_dim" { "64", "96", "128", "256", tag = "d" }

tier "sm70" { template = "attention_decode_sm70", only = { dtype = { "f16" } },
              tune = { block_n = { 64, 128 }, warps = { 2, 4 }, stages = { 1 } } }
tier "sm80" { template = "attention_decode" }
tier "sm90" { template = "attention_decode" }

tune "block_m" { 16, 32, tag = "m" }       -- rows (query heads x new queries) per block
tune "block_n" { 32, 64, 128, tag = "n" }  -- keys per K/V tile
tune "warps"   { 2, 4, tag = "w" }         -- each takes block_n / warps keys of a tile
tune "stages"  { 1, 2, 3, 4, tag = "s" }   -- K/V tiles in shared memory (sm70: none, 1)

constraint "sm70: a warp takes 32 keys of a step, 16 rows a block (O lives in registers)" (function(c)
  return c.tier ~= "sm70" or (c.block_n == 32 * c.warps and c.block_m == 16)
end)

constraint "the mma.sync template keeps at least two tiles in flight" (function(c)
  return c.tier == "sm70" or c.stages >= 2
end)

constraint "a warp's keys are whole k16 steps" (function(c)
  return (c.block_n // c.warps) % 16 == 0
end)

constraint "32 rows only up to d128 (O's fp32 fragments: 4 x d / 8 registers a m16 tile)" (function(c)
  return c.block_m == 16 or dims[c.head_dim] <= 128
end)

-- A thread copies one 16-byte chunk column of rows `threads / chunks` apart (chunks per row
-- rounded up to a power of two); the tiles must split evenly.
constraint "tile copies split evenly over the threads" (function(c)
  local chunks = dims[c.head_dim] // 8
  local cols = chunks <= 8 and 8 or chunks <= 16 and 16 or 32
  local threads = 32 * c.warps
  return threads % cols == 0 and c.block_n % (threads // cols) == 0
end)

constraint "at most the tier's shared memory per block" (function(c)
  return smem(c) <= c.smem_limit
end)

-- Emitted without a tuning table, per head dim: 16 rows (decode with GQA up to 16 query heads a
-- kv head) and 32 (speculative steps, MQA); fit() takes the one that reads the cache fewest
-- times. Two or three tiles in flight a block, two blocks an SM.
default { head_dim = "64", block_m = 16, block_n = 128, warps = 4, stages = 3 }
default { head_dim = "64", block_m = 32, block_n = 128, warps = 4, stages = 3 }
default { head_dim = { "96", "128" }, block_m = 16, block_n = 64, warps = 4, stages = 3 }
default { head_dim = { "96", "128" }, block_m = 32, block_n = 64, warps = 4, stages = 3 }
default { head_dim = "256", block_m = 16, block_n = 64, warps = 4, stages = 2 }

-- sm70 (stages = 1: these apply to no other tier, and the ones above to no sm70).
default { head_dim = { "64", "96", "128" }, block_m = 16, block_n = 128, warps = 4, stages = 1 }
default { head_dim = "256", block_m = 16, block_n = 64, warps = 2, stages = 1 }
