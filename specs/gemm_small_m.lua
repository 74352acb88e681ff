-- gemm_small_m: the GEMM kernels for small M (decode: M <= 64; up to 128 where fit() says so), served beside the tiled ones.
-- Reading B once at full bandwidth is the whole cost: K is split over the SMs, fp32 partials
-- go to the caller's workspace and a reduction applies the epilogue (see the template).

local function smem(c)
  local pipe = c.stages * (c.bm * c.bk * 2 + c.bn * c.bk * 2)
  local epi = c.warps * 16 * ((c.bn // c.warps) * 4 + 32)
  -- the accumulators of the warps along K past the first, after the epilogue's staging
  local red = (c.kwarps - 1) * c.warps * 32 * (c.bm // 16) * (c.bn // c.warps // 8) * 16
  return math.max(pipe, epi + red)
end

operator "gemm_small_m" {
  doc = "D = act(alpha * A·op(B) + beta * C + bias) for M <= 128: split-K over the SMs",
  serves = "gemm",
  align = function(c) return c.aligned == 1 and 16 or 2 end,
  smem = smem,
}

variant "dtype" { "f16", "bf16" }
variant "layout" { "kn", "nk" }

-- mma.sync and cp.async: sm80 and up (sm90 compiles the same template for sm_90a).
tier "sm80" { template = "gemm_small_m" }
tier "sm90" { template = "gemm_small_m" }

tune "bm"      { 16, 32, 64, tag = "m" }     -- M is padded to it
tune "bn"      { 32, 64, 128, tag = "n" }
tune "bk"      { 64, 128, 256, tag = "k" }
tune "warps"   { 2, 4, tag = "w" }           -- side by side along N
tune "kwarps"  { 1, 2, 4, tag = "kw" }       -- times this many along K, summed at the end
tune "stages"  { 3, 4, 6, 8, tag = "s" }        -- deep: bytes in flight are what it lives on
tune "aligned" { 0, 1, tag = "a" }

constraint "at most the tier's shared memory per block" (function(c)
  return smem(c) <= c.smem_limit
end)

constraint "the warps along K take two or more k16 steps of a stage each" (function(c)
  return (c.bk // 16) % c.kwarps == 0 and c.bk // 16 // c.kwarps >= 2
end)

constraint "at most 256 threads" (function(c)
  return c.warps * c.kwarps <= 8
end)

constraint "warp tiles are n16 multiples and a power of two" (function(c)
  local wn = c.bn // c.warps
  return wn % 16 == 0 and wn & (wn - 1) == 0
end)

constraint "B as [K,N] needs rows of at least 128 bytes for the swizzle" (function(c)
  return c.layout == "nk" or c.bn >= 64
end)

-- as in gemm.lua: a thread's copy rows step by whole swizzle periods
constraint "copy row steps are whole swizzle periods" (function(c)
  local step = 32 * c.warps * c.kwarps * 16
  local b_row = (c.layout == "kn" and c.bn or c.bk) * 2
  return step % (8 * math.max(c.bk * 2, 128)) == 0 and step % (8 * math.max(b_row, 128)) == 0
end)

-- the fastest in the sweep (H200, bf16, L2 flushed): n32 k256 with 4 warps along K at
-- N = 4096 (15.9 us at 1x4096x4096, cuBLAS 17.4; 8 stages where shared memory allows), n128
-- k128 s4 at N = 14336 and 128256 (there both run at the DRAM's rate); fit() weighs them per shape
default { bm = 16, bn = 32, bk = 256, warps = 2, kwarps = 4, stages = 8, aligned = 1 }
default { bm = 16, bn = 32, bk = 256, warps = 2, kwarps = 4, stages = 4, aligned = 1 }
default { bm = 16, bn = 64, bk = 128, warps = 4, kwarps = 1, stages = 6, aligned = 1 }
default { bm = 16, bn = 128, bk = 128, warps = 4, kwarps = 1, stages = 4, aligned = 1 }
default { bm = 16, bn = 128, bk = 64, warps = 4, kwarps = 1, stages = 6, aligned = 1 }
default { bm = 64, bn = 128, bk = 64, warps = 4, kwarps = 1, stages = 4, aligned = 1 }
default { bm = 32, bn = 128, bk = 64, warps = 4, kwarps = 1, stages = 4, aligned = 0 }
