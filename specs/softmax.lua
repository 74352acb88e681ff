-- softmax: y[r,:] = softmax(x[r,:]) or log_softmax(x[r,:]) over the last dimension.
--
-- Memory-bound: a row is read once into registers and written once. A team of `warps` warps
-- holds up to 32 * warps * elems elements of a row; `rows` teams share a block when a team is
-- one warp. Longer rows are cut into chunks that combine their partial sums (see the
-- template). Dispatch asks each instance's fit() and takes the tightest one that holds the
-- row, so the defaults below are a ladder of capacities.

operator "softmax" {
  doc = "y[r,:] = softmax(x[r,:]) or log_softmax(x[r,:]) over rows of a matrix, fp32 arithmetic",
  -- a vectorized instance needs x, y and both row strides aligned to one vector
  align = function(c) return c.vec * c.bytes end,
  -- the staged path keeps a row chunk in shared memory
  smem = function(c) return c.smem_kb * 1024 end,
}

variant "dtype" { "f32", "f16", "bf16" }
variant "mode" { "plain", "log" }   -- softmax, log-softmax

-- No matrix unit: one template serves every tier, compiled for each.
tier "sm70" { template = "softmax" }
tier "sm80" { template = "softmax" }
tier "sm90" { template = "softmax" }

tune "warps" { 1, 4, 8, 16, 32, tag = "w" }      -- warps per row (a team)
tune "rows"  { 1, 2, 4, 8, tag = "r" }           -- teams per block
tune "elems" { 4, 8, 16, 32, 64, tag = "e" }     -- elements a thread holds
tune "vec"   { 1, 2, 4, 8, tag = "v" }           -- elements per vector load
tune "smem_kb" { 0, 16, 32, 64, 96, tag = "s" }  -- 0: row in registers; else staged in smem
tune "regv"  { 0, 3, 4, 5, tag = "rv" }          -- staged: vectors a thread holds beside the stage
tune "prefetch" { 0, 1, tag = "p" }              -- 1: register loads ld.global.nc + L2::256B

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

constraint "staging uses cp.async: sm80 and up, 16-byte vectors, one team per block" (function(c)
  return c.smem_kb == 0 or (c.tier ~= "sm70" and c.vec * c.bytes == 16 and c.rows == 1)
end)

constraint "from sm80 on, long rows take the staged path (or prefetching register loads)" (function(c)
  return c.tier == "sm70" or c.warps == 1 or c.smem_kb > 0 or c.vec == 1 or c.prefetch == 1
end)

constraint "vectors in registers beside a stage: staged instances only" (function(c)
  return c.regv == 0 or c.smem_kb > 0
end)

-- ld.global.nc.L1::no_allocate.L2::256B: the prefetch size needs sm_75 PTX and the sm70 tier
-- is compiled for sm_70 (CUDA <= 12); only 16-byte loads into registers take the hint.
constraint "the L2 prefetch hint: sm80 and up, 16-byte loads into registers" (function(c)
  return c.prefetch == 0 or
         (c.tier ~= "sm70" and c.vec * c.bytes == 16 and (c.smem_kb == 0 or c.regv > 0))
end)

-- Emitted without a tuning table. 16-byte vectors when x, y and the strides allow it: one
-- warp per row up to 1024 elements, each thread holding up to 32 (64 registers at most: 64
-- f16 elements took 168 to 254 as the compiler kept them converted). Longer rows: on sm80
-- and up, staged through 16, 32 or 64 KB of shared memory (several blocks per SM); on sm70,
-- teams of 4 to 32 warps holding 32 elements a thread.
-- Measured exceptions (drafts/softmax_sweep, H200, ratio to a device copy):
-- - rows of 1025 to 4096 in registers with prefetching loads, 64 bytes a thread: f32 8 warps
--   of 16 elements (32768 x 4096: 0.93, staged w4 s16 0.87); f16 and bf16 4 warps of 32
--   (the sweep's a09, load mode 2 = prefetch 1: 32768 x 4096 0.903 against the s16 stage's
--   0.884, 4096 x 4096 0.916 against 0.822);
-- - long rows staged in 64 KB plus 5 vectors a thread in registers (84 KB chunks: 4096 x
--   128256 f16 in 3 chunks a row, 0.86; 4 chunks of 64 KB 0.80);
-- - f32 rows of 21505 to 32768 in one chunk: 16 warps, a 96 KB stage plus 4 vectors a thread
--   (128 KB, 2 blocks a SM at 64 registers; the sweep's k02: 8192 x 32000 0.923 against
--   0.897 for 2 chunks of the 64 KB stage with tickets). It serves no split row: 2 chunks of
--   ~128 KB a SM lost to 3 of 84 KB there (f16 4096 x 128256: 0.815 against 0.863). Not for
--   f16 / bf16: their 32000 fits the 64 KB stage (0.903) and no longer row was measured.
local function vec16(c) return 16 // c.bytes end
default { warps = 1,  rows = 4, vec = vec16, elems = vec16, smem_kb = 0, regv = 0, prefetch = 0 }
default { warps = 1,  rows = 4, vec = vec16, elems = 16, smem_kb = 0, regv = 0, prefetch = 0 }
default { warps = 1,  rows = 4, vec = vec16, elems = 32, smem_kb = 0, regv = 0, prefetch = 0 }
default { warps = 4,  rows = 1, vec = vec16, elems = vec16, smem_kb = 16, regv = 0, prefetch = 0 }
-- 8 warps of the 16 KB stage: split rows whose chunks are all resident at once (the cooperative
-- launch; fit() prefers it there): f16 4 x 2^20 12.7 -> 12.5 us, 5 x 128256 8.5 -> 8.1
default { warps = 8,  rows = 1, vec = vec16, elems = vec16, smem_kb = 16, regv = 0, prefetch = 0 }
default { warps = 8,  rows = 1, vec = vec16, elems = vec16, smem_kb = 32, regv = 0, prefetch = 0 }
default { warps = 8,  rows = 1, vec = vec16, elems = vec16, smem_kb = 64, regv = 0, prefetch = 0 }
default { warps = 4,  rows = 1, vec = vec16, elems = 32, smem_kb = 0, regv = 0, prefetch = 0 }
default { warps = 8,  rows = 1, vec = vec16, elems = 32, smem_kb = 0, regv = 0, prefetch = 0 }
default { warps = 16, rows = 1, vec = vec16, elems = 32, smem_kb = 0, regv = 0, prefetch = 0 }
default { warps = 32, rows = 1, vec = vec16, elems = 32, smem_kb = 0, regv = 0, prefetch = 0 }
default { warps = 8,  rows = 1, vec = vec16, elems = vec16, smem_kb = 64, regv = 5, prefetch = 0 }
default { dtype = "f32", warps = 8, rows = 1, vec = 4, elems = 16, smem_kb = 0, regv = 0, prefetch = 1 }
default { dtype = { "f16", "bf16" }, warps = 4, rows = 1, vec = 8, elems = 32, smem_kb = 0, regv = 0,
          prefetch = 1 }
default { dtype = "f32", warps = 16, rows = 1, vec = 4, elems = 4, smem_kb = 96, regv = 4, prefetch = 0 }
-- Any alignment: element loads, a warp per short row, teams of 8 warps for the rest.
default { warps = 1,  rows = 4, vec = 1, elems = 32, smem_kb = 0, regv = 0, prefetch = 0 }
default { warps = 8,  rows = 1, vec = 1, elems = 32, smem_kb = 0, regv = 0, prefetch = 0 }
