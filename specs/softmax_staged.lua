-- softmax_staged: y[r,:] = softmax(x[r,:]) or log_softmax(x[r,:]) for rows longer than
-- registers hold: a block copies its row into shared memory with cp.async, all of it in
-- flight at once (sm80 and up), optionally `regv` more vectors a thread into registers.

operator "softmax_staged" {
  doc = "y[r,:] = softmax(x[r,:]) or log_softmax(x[r,:]), a row staged through shared memory",
  serves = "softmax",
  align = function(c) return c.vec * c.bytes end,   -- as softmax_rows
  smem = function(c) return c.smem_kb * 1024 end,
}

variant "dtype" { "f32", "f16", "bf16" }
variant "mode" { "plain", "log" }

-- cp.async: sm80 and up.
tier "sm80" { template = "softmax_staged" }
tier "sm90" { template = "softmax_staged" }

tune "warps" { 4, 8, 16, 32, tag = "w" }         -- the block: one team
tune "vec"   { 1, 2, 4, 8, tag = "v" }           -- elements per vector
tune "smem_kb" { 16, 32, 64, 96, tag = "s" }     -- the stage
tune "regv"  { 0, 3, 4, 5, tag = "rv" }          -- vectors a thread holds beside the stage

constraint "cp.async copies 16-byte vectors" (function(c)
  return c.vec * c.bytes == 16
end)

constraint "a stage holds whole vectors of every thread" (function(c)
  return (c.smem_kb * 1024) % (32 * c.warps * 16) == 0
end)

-- Emitted without a tuning table: stages of 16, 32 and 64 KB (several blocks a SM); long rows
-- in 64 KB plus 5 vectors a thread in registers (84 KB: f16 4096 x 128256 in 3 chunks a row,
-- softmax_split); f32 rows of 21505 to 32768 in one block of 16 warps, a 96 KB stage plus 4
-- vectors a thread (128 KB, 2 blocks a SM: 8192 x 32000 0.923 of a copy against 0.897 split
-- in 2 chunks; bench/RESULTS.md).
local function vec16(c) return 16 // c.bytes end
default { warps = 4, vec = vec16, smem_kb = 16, regv = 0 }
default { warps = 8, vec = vec16, smem_kb = 32, regv = 0 }
default { warps = 8, vec = vec16, smem_kb = 64, regv = 0 }
default { warps = 8, vec = vec16, smem_kb = 64, regv = 5 }
default { dtype = "f32", warps = 16, vec = 4, smem_kb = 96, regv = 4 }
