-- softmax_cluster: rows a few times longer than one block's shared memory, split across the
-- blocks of a thread-block cluster that exchange their partial sums in distributed shared
-- memory (sm90 only). Serves tileops_softmax beside specs/softmax.lua; dispatch weighs both.
-- Not yet verified on a GPU: its fit() declines unless TILEOPS_UNVERIFIED=1.

operator "softmax_cluster" {
  doc = "y[r,:] = softmax(x[r,:]) or log_softmax for rows split across a thread-block cluster",
  serves = "softmax",
  align = 16,                                     -- x, y and the row strides: 16-byte vectors
  smem = function(c) return c.smem_kb * 1024 end, -- one block's chunk of the row
}

variant "dtype" { "f32", "f16", "bf16" }
variant "mode" { "plain", "log" }

tier "sm90" { template = "softmax_cluster" }

tune "warps"   { 8, 16, tag = "w" }        -- the block's warps
tune "vec"     { 4, 8, tag = "v" }         -- elements per 16-byte vector
tune "smem_kb" { 64, 96, tag = "s" }       -- KB of the row a block holds

constraint "16-byte vectors" (function(c) return c.vec * c.bytes == 16 end)

default { warps = 8, vec = function(c) return 16 // c.bytes end, smem_kb = 64 }
