-- gemm_wgmma: the Hopper-native GEMM family (sm90 tier only), served beside the tiled and
-- small-M families (`serves = "gemm"`; dispatch weighs all three through fit()).
--
-- A persistent, warp-specialized kernel: one producer warpgroup (one thread) moves A and B
-- tiles global -> shared by TMA into a ring of `stages` slots guarded by full/empty mbarriers;
-- `consumers` warpgroups each multiply 64 rows of the bm x bn tile with wgmma.mma_async from
-- 128-byte-swizzled shared memory into fp32 registers and finish the epilogue from there. The
-- grid is one CTA per SM walking the output tiles in groups of `group` tile rows (L2 reuse).
-- Ragged M, N, K come from TMA's zero fill; every pointer must be 16-byte aligned and every
-- leading dimension a multiple of 8 elements (what TMA can describe), else the sm80 template's
-- any-alignment instances serve the call. Shapes with few tiles (M = 128) fill the SMs by
-- splitting K: across CTAs with fp32 partials in the caller's workspace and a second kernel, or
-- (ksplit > 1) across the CTAs of a cluster, which add their partials through distributed
-- shared memory (no workspace, no second kernel).

-- Shared memory: the ring, two 8 KB epilogue staging blocks and a copy of the tile's bias
-- (bn elements) a consumer warpgroup, plus 1024 bytes to align it to the swizzle atom and 1024
-- for the barriers (as the template computes SMEM_TOTAL; it asserts the two agree).
local function smem(c)
  return c.stages * (c.bm * c.bk * 2 + c.bn * c.bk * 2) + c.consumers * (2 * 8192 + c.bn * 2)
         + 2048
end

operator "gemm_wgmma" {
  doc = "D = act(alpha * A·op(B) + beta * C + bias): TMA + wgmma, warp-specialized, persistent",
  serves = "gemm",
  align = 16,
  smem = smem,
}

-- as specs/gemm.lua, in the same order, so that the variant codes agree
variant "dtype" { "f16", "bf16" }
variant "layout" { "kn", "nk" }    -- B as [K,N] (N-major tiles: wgmma's transposed B), or [N,K]

tier "sm90" { template = "gemm_sm90" }

tune "bm"        { 64, 128, tag = "m" }         -- consumers x 64 rows (m64 wgmma each)
tune "bn"        { 64, 128, 256, tag = "n" }    -- one m64nBNk16 wgmma per k16 step
tune "bk"        { 64, tag = "k" }              -- one 128-byte swizzle row of K
tune "stages"    { 2, 3, 4, 5, 6, 7, 8, 12, tag = "s" }
tune "consumers" { 1, 2, tag = "wg" }           -- consumer warpgroups (plus one producer)
tune "cluster"   { 1, 2, tag = "c" }            -- CTAs a cluster, along M, sharing B by multicast
tune "group"     { 4, 8, 16, tag = "g" }        -- cluster rows of tiles walked together (raster order)
tune "ksplit"    { 1, 2, 3, 4, tag = "ks" }     -- CTAs a cluster, along K, sharing one tile

constraint "at most the tier's shared memory per block" (function(c)
  return smem(c) <= c.smem_limit
end)

-- (or, bm = 64 with two consumers, ping-pong: each takes whole 64-row tiles in turn, so that
-- one's epilogue runs under the other's k loop; no K split then)
constraint "each consumer warpgroup takes 64 rows of the tile" (function(c)
  return c.bm == 64 * c.consumers or (c.bm == 64 and c.consumers == 2 and c.ksplit == 1)
end)

constraint "a 128-byte swizzled box is 64 elements wide" (function(c)
  return c.bk == 64 and c.bn % 64 == 0
end)

constraint "the ring keeps at least 3 slots" (function(c)
  return c.stages >= 3
end)

constraint "a cluster splits M or K, not both" (function(c)
  return c.ksplit == 1 or c.cluster == 1
end)

constraint "the K split's partial sums fit the ring" (function(c)
  return c.ksplit == 1 or c.consumers * (c.bn // 64) * 16384 <= c.stages * (c.bm + c.bn) * c.bk * 2
end)

-- The shapes of the public Hopper kernels
-- (../shared/HOPPER-KERNELS.md: 128x256, 4 stages, 2 consumers; 128x128 with a deeper ring).
default { bm = 128, bn = 256, bk = 64, stages = 4, consumers = 2, cluster = 2, group = 8, ksplit = 1 }
default { bm = 128, bn = 256, bk = 64, stages = 4, consumers = 2, cluster = 1, group = 8, ksplit = 1 }
default { bm = 128, bn = 128, bk = 64, stages = 6, consumers = 2, cluster = 2, group = 8, ksplit = 1 }
default { bm = 128, bn = 128, bk = 64, stages = 6, consumers = 2, cluster = 1, group = 8, ksplit = 1 }
-- K splits in the cluster for M = 128 and 256 at N = 4096 (32 or 64 tiles of 128x128: 96 or
-- 128 CTAs). Clusters of 4 ran 128 x 4096 x 4096 about 11 us slower than of 2 on the H100: fewer
-- of them are resident at once (a cluster stays inside one GPC) than its 32 tiles need.
default { bm = 128, bn = 128, bk = 64, stages = 6, consumers = 2, cluster = 1, group = 8, ksplit = 2 }
default { bm = 128, bn = 128, bk = 64, stages = 6, consumers = 2, cluster = 1, group = 8, ksplit = 3 }
-- 64 x 64 tiles for M = 128 at N = 4096 (cuBLAS's own tile there): 128 CTAs each streaming its
-- whole K through a deep ring, no split, no exchange (a cluster pair sharing B by multicast ran
-- 4-8% slower on the H100).
default { bm = 64, bn = 64, bk = 64, stages = 12, consumers = 1, cluster = 1, group = 8, ksplit = 1 }

-- For make tune to weigh, not in the library unless a tuning table names it: ping-pong 64 x 256
-- tiles (CUTLASS's schedule for hiding the epilogue: bias + GELU costs the cooperative 128 x 256
-- tile about 7% at 4096^3), B shared by a cluster pair as in the 128 x 256 default.
explore { bm = 64, bn = 256, bk = 64, stages = 4, consumers = 2, cluster = 2, group = 8, ksplit = 1 }
