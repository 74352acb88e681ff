-- gemm: D = act(alpha * A·op(B) + beta * C + bias) on tensor cores, fp32 accumulation.
--
-- The tiled kernels: one block computes a bm x bn tile of D over all of K with warps_m x
-- warps_n warps, `stages` shared-memory stages in flight. `aligned` instances need every
-- pointer 16-byte aligned and every leading dimension a multiple of 8 elements (the fast
-- path, cp.async); the others take any alignment (element copies through registers). Small M
-- (decode) is served by specs/gemm_small_m.lua beside these; dispatch weighs both.

-- Shared memory of a tiled instance: the pipeline's stages, or the epilogue's fp32 staging
-- if larger (as the templates compute SMEM_TOTAL; they assert the two agree).
local function smem_sm80(c)
  local pipe = c.stages * (c.bm * c.bk * 2 + c.bn * c.bk * 2)
  local epi = c.epi == 1 and c.bm * (c.bn * 4 + 32)                         -- the whole tile
              or c.warps_m * c.warps_n * 16 * ((c.bn // c.warps_n) * 4 + 32) -- m16 per warp
  return math.max(pipe, epi)
end

local function smem_sm70(c)
  local kn = c.layout == "kn"
  local a_stage = c.bm * (c.bk + 8)
  local b_stage = (kn and c.bk or c.bn) * ((kn and c.bn or c.bk) + 8)
  local pipe = 2 * (a_stage + b_stage) * 2
  local epi = c.warps_m * c.warps_n * 16 * ((c.bn // c.warps_n) + 4) * 4
  return math.max(pipe, epi)
end

operator "gemm" {
  doc = "D = act(alpha * A·op(B) + beta * C + bias), tiled on tensor cores, fp32 accumulation",
  align = function(c) return c.aligned == 1 and 16 or 2 end,
  smem = function(c) return c.tier == "sm70" and smem_sm70(c) or smem_sm80(c) end,
}

variant "dtype" { "f16", "bf16" }
variant "layout" { "kn", "nk" }    -- B as [K,N], or as [N,K] (weights: y = x·Wᵀ)

-- sm70: wmma, fp16 only, two stages through registers. sm80: cp.async + ldmatrix + mma.sync.
-- sm90: the sm80 template compiled for sm_90a, beside gemm_wgmma (which fit() prefers from M = 65
-- where TMA can describe the operands; these take unaligned operands).
tier "sm70" { template = "gemm_sm70", only = { dtype = { "f16" } }, tune = { stages = { 2 }, epi = { 0 } } }
tier "sm80" { template = "gemm_sm80" }
tier "sm90" { template = "gemm_sm80" }

tune "bm"      { 64, 128, 256, tag = "m" }
tune "bn"      { 64, 128, 256, tag = "n" }
tune "bk"      { 32, 64, tag = "k" }
tune "warps_m" { 1, 2, 4, tag = "wm" }
tune "warps_n" { 1, 2, 4, tag = "wn" }
tune "stages"  { 2, 3, 4, 5, 6, tag = "s" }
tune "aligned" { 0, 1, tag = "a" }
-- The epilogue (gemm_sm80): 0 = each warp stages one m16 slice of its accumulators at a time
-- and finishes it (the code unrolled per slice, GELU out of line); 1 = the whole tile at once,
-- finished by every thread in one rolled loop, one copy of the loop per activation, inline.
-- H200, bf16 4096^3, 128x256x64 s3, cost over no epilogue (e0 / e1): bias+ReLU +0.4% / +0.2%,
-- bias+GELU tanh +4.8% / +3.0%, erf +6.9% / +3.1%; no epilogue 291.4 / 287.6 us.
tune "epi"     { 0, 1, tag = "e" }

constraint "at most the tier's shared memory per block" (function(c)
  local bytes = c.tier == "sm70" and smem_sm70(c) or smem_sm80(c)
  return bytes <= c.smem_limit
end)

constraint "warp tiles are whole m16 x n16 pieces, n a power of two" (function(c)
  local wm, wn = c.bm // c.warps_m, c.bn // c.warps_n
  return c.bm % (16 * c.warps_m) == 0 and c.bn % (16 * c.warps_n) == 0 and wn & (wn - 1) == 0
end)

constraint "at most 64 x 64 a warp (128 accumulators), 64 x 32 when copies go through registers" (function(c)
  local area = (c.bm // c.warps_m) * (c.bn // c.warps_n)
  return area <= 64 * 64 and (c.aligned == 1 or c.tier == "sm70" or area <= 64 * 32)
end)

constraint "stages split evenly over 64 to 256 threads, swizzle periods whole" (function(c)
  local threads = 32 * c.warps_m * c.warps_n
  local a_rs = threads // (c.bk // 8)
  local b_cols = c.layout == "kn" and c.bn or c.bk
  local b_rows = c.layout == "kn" and c.bk or c.bn
  local b_rs = threads // (b_cols // 8)
  return threads >= 64 and threads <= 256 and threads % 64 == 0 and c.bm % a_rs == 0
     and threads % (b_cols // 8) == 0 and b_rows % b_rs == 0 and c.bm // a_rs <= 32
end)

constraint "B as [K,N] needs rows of at least 128 bytes for the swizzle" (function(c)
  return c.layout == "nk" or c.bn >= 64
end)

-- A thread copies rows `threads * 16 / row_bytes` apart; the swizzle repeats every 8 rows of
-- at least 128 bytes, so that step must be whole periods (else chunks land permuted).
constraint "copy row steps are whole swizzle periods" (function(c)
  if c.tier == "sm70" then return true end
  local step = 32 * c.warps_m * c.warps_n * 16
  local b_row = (c.layout == "kn" and c.bn or c.bk) * 2
  return step % (8 * math.max(c.bk * 2, 128)) == 0 and step % (8 * math.max(b_row, 128)) == 0
end)

constraint "cp.async pipelines (sm80 and up) keep at least 3 stages" (function(c)
  return c.tier == "sm70" or c.stages >= 3
end)

-- Emitted without a tuning table, in dispatch preference order (fit() then weighs them by
-- an estimate of waves and tile efficiency): large tiles for large shapes, smaller ones to
-- fill the SMs, then the any-alignment fallbacks.
-- The 64 tiled configurations from 128x128 up, swept once interior tiles copied without
-- bounds work (the sweep, H200, bf16 B as [N,K], 4096^3 / 8192^3 TFLOP/s): 128x256x64
-- with 3 stages 476 / 498 (144 KB: the sm80 tier's 163 KB holds it too; 256x128x64 s4 478 /
-- 498 needs 192 KB), 128x128x64 with 4 warps and 3 stages 460 / 482 (8 warps of 64x32: 346 /
-- 364); every BK = 32 tile 440-447 at best: a k tile's barrier and copies are paid per 32.
default { bm = 128, bn = 256, bk = 64, warps_m = 2, warps_n = 4, stages = 3, aligned = 1, epi = 1 }
default { bm = 128, bn = 128, bk = 64, warps_m = 2, warps_n = 2, stages = 3, aligned = 1, epi = 1 }
default { bm = 64, bn = 64, bk = 32, warps_m = 2, warps_n = 2, stages = 4, aligned = 1, epi = 1 }
default { bm = 128, bn = 128, bk = 32, warps_m = 2, warps_n = 4, stages = 4, aligned = 0, epi = 1 }
default { bm = 64, bn = 64, bk = 32, warps_m = 2, warps_n = 2, stages = 3, aligned = 0, epi = 1 }
-- sm70 (two stages, fixed by the tier's tune)
default { bm = 128, bn = 128, bk = 32, warps_m = 2, warps_n = 4, stages = 2, aligned = 1, epi = 0 }
default { bm = 64, bn = 64, bk = 32, warps_m = 2, warps_n = 2, stages = 2, aligned = 1, epi = 0 }
default { bm = 128, bn = 128, bk = 32, warps_m = 2, warps_n = 4, stages = 2, aligned = 0, epi = 0 }
default { bm = 64, bn = 64, bk = 32, warps_m = 2, warps_n = 2, stages = 2, aligned = 0, epi = 0 }

-- The cases tileops-tune times (make tune; every family serving gemm competes in each):
-- tileops-bench's squares and LLM shapes (decode to prefill rows against weight matrices), more
-- decode and prefill row counts, and the fused epilogue.
tune_shapes {
  { dtype = { "f16", "bf16" }, layout = { "kn", "nk" }, epilogue = "none",
    shape = { "1024x1024x1024", "2048x2048x2048", "4096x4096x4096", "8192x8192x8192" } },
  { dtype = { "f16", "bf16" }, layout = "nk", epilogue = "none",
    shape = { "1x4096x4096", "1x11008x4096", "1x4096x11008", "1x14336x4096", "1x128256x4096",
              "16x4096x4096", "16x11008x4096", "16x4096x11008", "16x14336x4096", "16x128256x4096",
              "128x4096x4096", "128x11008x4096", "128x4096x11008", "128x14336x4096",
              "128x128256x4096", "4096x11008x4096", "4096x4096x11008", "4096x14336x4096",
              "4096x128256x4096" } },
  { dtype = "bf16", layout = "nk", epilogue = "none",
    shape = { "2x4096x4096", "4x4096x4096", "8x4096x4096", "32x4096x4096", "64x4096x4096",
              "512x4096x4096", "1024x4096x4096", "2048x4096x4096" } },
  { dtype = "bf16", layout = "nk", epilogue = "bias_gelu",
    shape = { "16x11008x4096", "128x11008x4096", "4096x11008x4096", "4096x4096x4096" } },
}
