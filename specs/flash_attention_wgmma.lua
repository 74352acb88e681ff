-- flash_attention_wgmma: the Hopper-native attention family (sm90 tier only), FlashAttention-3's
-- design, served beside flash_attention's FlashAttention-2 instances (`serves =
-- "flash_attention"`; dispatch weighs both through fit()).
--
-- One CTA computes block_m query rows of one head of one sequence: a producer warpgroup loads
-- Q once and K, V tiles of block_n keys by TMA into a ring of `stages` slots on mbarriers;
-- `consumers` warpgroups of 64 rows each compute S = Q·Kᵀ and O += P·V with wgmma (P from
-- registers), the online softmax between them in fp32. Same operator as flash_attention: any
-- stride order, GQA/MQA, bottom-right causal, varlen, LSE; every pointer 16-byte aligned and
-- every stride a multiple of 8 elements (what TMA can describe), as the sm80 instances need.

local dims = { ["64"] = 64, ["96"] = 96, ["128"] = 128, ["256"] = 256 }

-- The head dim in whole 64-column blocks (d96 runs as 128).
local function dp(c)
  return (dims[c.head_dim] + 63) // 64 * 64
end

-- fp32 registers a consumer thread holds through the key loop: S (block_n / 2) and O (dp / 2),
-- and P packed (block_n / 4) unless P goes through shared memory; the budget is 240 registers
-- with two consumers, 160 with three, less about 40 (32 with three) for addresses, row
-- statistics and the softmax. P goes through shared memory where S, O and P would not fit
-- (FlashAttention-3's d64 192 x 192 tile; the template decides the same).
local function budget(c)
  return c.consumers == 2 and 200 or 128
end
local function p_smem(c)
  return c.block_n // 2 + dp(c) // 2 + c.block_n // 4 > budget(c)
end

-- Shared memory, as the template computes SMEM_TOTAL (it asserts the two agree): Q's tile
-- [block_m][dp], twice where a CTA may take several items (head dims up to 128: the loop over
-- work items costs d256 spills) and that fits 227 KB, so that the next item's Q lands during
-- this one's epilogue; `stages` K and V tiles [block_n][dp]; the consumers' P tiles where P
-- goes through shared memory; 1024 bytes to align them to the
-- swizzle atom and 1024 for the barriers.
local function smem(c)
  local q = 2 * c.block_m * dp(c)
  local p = p_smem(c) and c.consumers * c.block_n * 128 or 0
  local one = q + c.stages * 4 * c.block_n * dp(c) + p + 2048
  return (dims[c.head_dim] <= 128 and one + q <= 227 * 1024) and one + q or one
end

operator "flash_attention_wgmma" {
  doc = "O = softmax(scale * Q·Kᵀ + mask) · V, forward: TMA + wgmma, warp-specialized (FlashAttention-3)",
  serves = "flash_attention",
  align = 16,
  smem = smem,
}

-- as specs/flash_attention.lua, in the same order, so that the variant codes agree
variant "dtype" { "f16", "bf16" }
variant "head_dim" { "64", "96", "128", "256", tag = "d" }

tier "sm90" { template = "flash_attention_sm90" }

tune "block_m"   { 128, 192, tag = "m" }     -- consumers x 64 rows
-- keys per K/V tile, the S wgmma's N: 80 and 176 are FlashAttention-3's d256 and d128
-- non-causal tiles (as many keys as shared memory at d256, registers at d128, hold; d128 n176
-- spills 172-220 bytes, most of them addresses of the epilogue's paths, one pair in the loop)
tune "block_n"   { 64, 80, 128, 176, 192, tag = "n" }
tune "stages"    { 2, 3, 4, tag = "s" }      -- K/V tile pairs in the ring
tune "consumers" { 2, 3, tag = "wg" }        -- consumer warpgroups (plus one producer)
tune "pingpong"  { 0, 1, tag = "p" }         -- 1: two consumers take turns issuing their GEMMs

constraint "ping-pong takes two consumer warpgroups" (function(c)
  return c.pingpong == 0 or c.consumers == 2
end)

constraint "each consumer warpgroup takes 64 rows" (function(c)
  return c.block_m == 64 * c.consumers
end)

constraint "80 and 176 keys only as FlashAttention-3 takes them (d256, d128)" (function(c)
  return (c.block_n ~= 80 or c.head_dim == "256") and (c.block_n ~= 176 or c.head_dim == "128")
end)

constraint "at most the tier's shared memory per block" (function(c)
  return smem(c) <= c.smem_limit
end)

-- (see budget above: d64 m192 n128 with three consumers spills 40 bytes of the epilogue's
-- addresses, none in the key loop)
constraint "S and O, and P unless in shared memory, fit the consumer's registers" (function(c)
  return c.block_n // 2 + dp(c) // 2 <= budget(c)
end)

constraint "P in shared memory in whole 64-key blocks" (function(c)
  return not p_smem(c) or c.block_n % 64 == 0
end)

-- FlashAttention-3's shapes (../shared/HOPPER-KERNELS.md): 128 query rows in two consumer
-- warpgroups, 128 keys a tile up to d128, 64 at d256 (its O takes 128 registers); ping-pong
-- first (dispatch prefers it at equal cost), the plain interleave kept beside it. H200, bf16,
-- TFLOP/s in one call (bench/RESULTS.md): d128 16k 558 (p0 in another call: 583 against p1's
-- 585), d256 16k p1 606 / p0 602, causal 593 / 594. Tried and dropped: d128 n64 s4 (509 at
-- 16k, 508 at 2k against n128's 593), d64 m192 n64 three consumers (393 / 368 against m128's
-- 414 / 386). d64 also with 192 keys a tile: its tiles are short, and fewer of them save each
-- one's fixed cost (waits, row reductions, O's rescale) where keys are many (H100: 5% at 2k,
-- 3-8% at 16k), while at 512 keys the padding to 576 costs more (+8%): fit() weighs both.
default { head_dim = "64", block_m = 128, block_n = 128, stages = 4, consumers = 2, pingpong = 1 }
default { head_dim = "64", block_m = 128, block_n = 192, stages = 4, consumers = 2, pingpong = 1 }
default { head_dim = "64", block_m = 128, block_n = 192, stages = 2, consumers = 2, pingpong = 0 }
default { head_dim = "96", block_m = 128, block_n = 128, stages = 2, consumers = 2, pingpong = 1 }
default { head_dim = "128", block_m = 128, block_n = 128, stages = 2, consumers = 2, pingpong = 1 }
default { head_dim = "256", block_m = 128, block_n = 64, stages = 2, consumers = 2, pingpong = 1 }
default { head_dim = { "64", "96", "128", "256" }, block_m = 128, block_n = 128, stages = 2,
          consumers = 2, pingpong = 0 }
default { head_dim = "256", block_m = 128, block_n = 64, stages = 2, consumers = 2, pingpong = 0 }

-- For make tune to weigh, not in the library unless a tuning table names it: FlashAttention-3's
-- d64 causal tile, 192 query rows in three consumer warpgroups (192 rows share each K/V tile's
-- waits; 512 keys pad to 576).
explore { head_dim = "64", block_m = 192, block_n = 128, stages = 2, consumers = 3, pingpong = 0 }

-- And FlashAttention-3's d64 non-causal tile: 192 query rows by 192 keys in three consumer
-- warpgroups, P through shared memory (218 KB with two K/V stages).
explore { head_dim = "64", block_m = 192, block_n = 192, stages = 2, consumers = 3, pingpong = 0 }
