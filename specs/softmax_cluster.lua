-- softmax_cluster: y[r,:] = softmax(x[r,:]) or log_softmax(x[r,:]) for rows longer than one
-- block holds: a thread-block cluster of `cluster` blocks takes a row, each block staging one
-- balanced chunk of it through shared memory (as softmax_staged) and pushing its (max, sum) to
-- the others through distributed shared memory (sm90). Beside softmax_split, which meets
-- through a workspace in global memory, for rows many enough to give every SM a cluster.

operator "softmax_cluster" {
  doc = "y[r,:] = softmax(x[r,:]) or log_softmax(x[r,:]), a row staged across a block cluster",
  serves = "softmax",
  align = function(c) return c.vec * c.bytes end,   -- as softmax_staged
  smem = function(c) return c.smem_kb * 1024 end,
}

variant "dtype" { "f32", "f16", "bf16" }
variant "mode" { "plain", "log" }

-- Clusters and distributed shared memory: sm90.
tier "sm90" { template = "softmax_cluster" }

tune "cluster" { 2, 3, 4, 8, tag = "c" }         -- blocks a row
tune "warps" { 4, 8, 16, tag = "w" }             -- a block: one team
tune "vec"   { 1, 2, 4, 8, tag = "v" }           -- elements per vector
tune "smem_kb" { 16, 32, 64, 96, tag = "s" }     -- a block's stage
tune "regv"  { 0, 3, 4, 5, tag = "rv" }          -- vectors a thread holds beside the stage

constraint "cp.async copies 16-byte vectors" (function(c)
  return c.vec * c.bytes == 16
end)

constraint "a stage holds whole vectors of every thread" (function(c)
  return (c.smem_kb * 1024) % (32 * c.warps * 16) == 0
end)

-- Emitted without a tuning table: rows of about 100k to 130k 2-byte elements (vocabularies of
-- 100003 and 128256) in 2, 3 or 4 chunks; f32 ones in 4 chunks of 128 KB (on an H100 about 1%
-- behind softmax_split at 2048 x 100003, 8 chunks 3%: bench/RESULTS.md).
local function vec16(c) return 16 // c.bytes end
default { dtype = { "f16", "bf16" }, cluster = 2, warps = 8, vec = 8, smem_kb = 96, regv = 3 }
default { dtype = { "f16", "bf16" }, cluster = 3, warps = 8, vec = 8, smem_kb = 64, regv = 5 }
default { dtype = { "f16", "bf16" }, cluster = 4, warps = 8, vec = 8, smem_kb = 32, regv = 5 }
default { dtype = { "f16", "bf16" }, cluster = 4, warps = 8, vec = 8, smem_kb = 64, regv = 0 }
default { dtype = "f32", cluster = 4, warps = 16, vec = 4, smem_kb = 96, regv = 4 }
