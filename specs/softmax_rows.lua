-- softmax_rows: y[r,:] = softmax(x[r,:]) or log_softmax(x[r,:]) for rows that fit a team's
-- registers. A team of `warps` warps holds up to 32 * warps * elems elements of a row; `rows`
-- teams share a block when a team is one warp. Dispatch asks every softmax family's fit() and
-- takes the tightest instance that holds the row (softmax_staged and softmax_split take the
-- longer ones), so the defaults below are a ladder of capacities.

operator "softmax_rows" {
  doc = "y[r,:] = softmax(x[r,:]) or log_softmax(x[r,:]), a row in one team's registers",
  serves = "softmax",
  -- vector loads need x and y equally misaligned: y - x and (ldy - ldx) * size multiples of one
  -- vector (libops/softmax.c); heads and tails of rows take single loads
  align = function(c) return c.vec * c.bytes end,
}

variant "dtype" { "f32", "f16", "bf16" }
variant "mode" { "plain", "log" }   -- softmax, log-softmax

-- No matrix unit: one template serves every tier, compiled for each.
tier "sm70" { template = "softmax_rows" }
tier "sm80" { template = "softmax_rows" }
tier "sm90" { template = "softmax_rows" }

tune "warps" { 1, 4, 8, 16, 32, tag = "w" }      -- warps per row (a team)
tune "rows"  { 1, 2, 4, 8, tag = "r" }           -- teams per block
tune "elems" { 4, 8, 16, 32, 64, tag = "e" }     -- elements a thread holds
tune "vec"   { 1, 2, 4, 8, tag = "v" }           -- elements per vector load
tune "prefetch" { 0, 1, tag = "p" }              -- 1: loads ld.global.nc + L2::256B

constraint "one vector load is at most 16 bytes" (function(c)
  return c.vec * c.bytes <= 16
end)

constraint "a thread holds whole vectors" (function(c)
  return c.elems % c.vec == 0
end)

constraint "at most 128 bytes of a row per thread, to keep registers low" (function(c)
  return c.elems * c.bytes <= 128
end)

constraint "teams of several warps have a block each (they meet at barriers)" (function(c)
  return c.warps == 1 or c.rows == 1
end)

constraint "at most 1024 threads per block" (function(c)
  return 32 * c.warps * c.rows <= 1024
end)

constraint "from sm80 on, long rows take a stage (softmax_staged) or prefetching loads" (function(c)
  return c.tier == "sm70" or c.warps == 1 or c.vec == 1 or c.prefetch == 1
end)

-- ld.global.nc.L1::no_allocate.L2::256B: the prefetch size needs sm_75 PTX and the sm70 tier
-- is compiled for sm_70 (CUDA <= 12); only 16-byte loads take the hint.
constraint "the L2 prefetch hint: sm80 and up, 16-byte loads" (function(c)
  return c.prefetch == 0 or (c.tier ~= "sm70" and c.vec * c.bytes == 16)
end)

-- Emitted without a tuning table. 16-byte vectors: one warp per row up to 1024 elements, each
-- thread holding up to 32 (64 registers at most: 64 f16 elements took 168 to 254 as the
-- compiler kept them converted). On sm70, teams of 4 to 32 warps holding 32 elements a thread.
-- Rows of 1025 to 4096 (sm80 and up) in registers with prefetching loads, 64 bytes a thread:
-- f32 8 warps of 16 elements, f16 and bf16 4 warps of 32 (bench/RESULTS.md).
local function vec16(c) return 16 // c.bytes end
default { warps = 1,  rows = 4, vec = vec16, elems = vec16, prefetch = 0 }
default { warps = 1,  rows = 4, vec = vec16, elems = 16, prefetch = 0 }
default { warps = 1,  rows = 4, vec = vec16, elems = 32, prefetch = 0 }
default { warps = 4,  rows = 1, vec = vec16, elems = 32, prefetch = 0 }
default { warps = 8,  rows = 1, vec = vec16, elems = 32, prefetch = 0 }
default { warps = 16, rows = 1, vec = vec16, elems = 32, prefetch = 0 }
default { warps = 32, rows = 1, vec = vec16, elems = 32, prefetch = 0 }
default { dtype = "f32", warps = 8, rows = 1, vec = 4, elems = 16, prefetch = 1 }
default { dtype = { "f16", "bf16" }, warps = 4, rows = 1, vec = 8, elems = 32, prefetch = 1 }
-- x and y misaligned against each other: element loads, a warp per short row, 8 warps beyond.
default { warps = 1,  rows = 4, vec = 1, elems = 32, prefetch = 0 }
default { warps = 8,  rows = 1, vec = 1, elems = 32, prefetch = 0 }

-- The cases tileops-tune times (make tune; every family serving softmax competes in each):
-- tileops-bench's shapes, decode-sized batches of logits, and log-softmax.
tune_shapes {
  { dtype = { "f32", "f16", "bf16" }, mode = "plain",
    shape = { "4096x4096", "32768x4096", "8192x32000", "4096x128256", "65536x1024", "4x1048576",
              "4096x32001", "2048x100003", "1x32000", "16x128256", "64x32000" } },
  { dtype = "bf16", mode = "log", shape = { "4096x4096", "8192x32000", "4096x128256" } },
}
