-- softmax_split: y[r,:] = softmax(x[r,:]) or log_softmax(x[r,:]) for rows longer than one block
-- holds: g chunks a row, one block each, whose (max, sum) partials meet through the workspace
-- (a cooperative launch where every chunk is resident, else tickets, else two passes). A chunk
-- is staged through `smem_kb` KB of shared memory (sm80 and up) or held in registers.

operator "softmax_split" {
  doc = "y[r,:] = softmax(x[r,:]) or log_softmax(x[r,:]), a row split across blocks",
  serves = "softmax",
  align = function(c) return c.vec * c.bytes end,   -- as softmax_rows
  smem = function(c) return c.smem_kb * 1024 end,
}

variant "dtype" { "f32", "f16", "bf16" }
variant "mode" { "plain", "log" }

tier "sm70" { template = "softmax_split" }
tier "sm80" { template = "softmax_split" }
tier "sm90" { template = "softmax_split" }

tune "warps" { 4, 8, 16, 32, tag = "w" }         -- the block: one team
tune "elems" { 4, 8, 16, 32, tag = "e" }         -- register chunks: elements a thread holds
tune "vec"   { 1, 2, 4, 8, tag = "v" }           -- elements per vector load
tune "smem_kb" { 0, 16, 32, 64, tag = "s" }      -- 0: the chunk in registers; else staged
tune "regv"  { 0, 3, 4, 5, tag = "rv" }          -- staged: vectors a thread holds beside it

constraint "one vector load is at most 16 bytes" (function(c)
  return c.vec * c.bytes <= 16
end)

constraint "a thread holds whole vectors" (function(c)
  return c.elems % c.vec == 0
end)

constraint "at most 128 bytes of a row per thread, to keep registers low" (function(c)
  return c.elems * c.bytes <= 128
end)

constraint "staging uses cp.async: sm80 and up, 16-byte vectors" (function(c)
  return c.smem_kb == 0 or (c.tier ~= "sm70" and c.vec * c.bytes == 16)
end)

constraint "from sm80 on, vector chunks are staged" (function(c)
  return c.tier == "sm70" or c.smem_kb > 0 or c.vec == 1
end)

constraint "vectors in registers beside a stage: staged instances only" (function(c)
  return c.regv == 0 or c.smem_kb > 0
end)

-- Emitted without a tuning table: 16, 32 and 64 KB stages (8 warps of the 16 KB one for the
-- cooperative launch, where fit() prefers it: f16 4 x 2^20 12.7 -> 12.5 us), 64 KB plus 5
-- vectors a thread (long rows in fewer chunks); on sm70, chunks in the registers of 4 to 32
-- warps; x and y misaligned against each other: element loads, 8 warps.
local function vec16(c) return 16 // c.bytes end
default { warps = 4,  vec = vec16, elems = vec16, smem_kb = 16, regv = 0 }
default { warps = 8,  vec = vec16, elems = vec16, smem_kb = 16, regv = 0 }
default { warps = 8,  vec = vec16, elems = vec16, smem_kb = 32, regv = 0 }
default { warps = 8,  vec = vec16, elems = vec16, smem_kb = 64, regv = 0 }
default { warps = 4,  vec = vec16, elems = 32, smem_kb = 0, regv = 0 }
default { warps = 8,  vec = vec16, elems = 32, smem_kb = 0, regv = 0 }
default { warps = 16, vec = vec16, elems = 32, smem_kb = 0, regv = 0 }
default { warps = 32, vec = vec16, elems = 32, smem_kb = 0, regv = 0 }
default { warps = 8,  vec = vec16, elems = vec16, smem_kb = 64, regv = 5 }
default { warps = 8,  vec = 1, elems = 32, smem_kb = 0, regv = 0 }
