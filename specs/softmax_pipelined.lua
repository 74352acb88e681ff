-- softmax_pipelined: rows that fit one shared-memory buffer, each block walking many rows with
-- two buffers so that the next row loads while this one is reduced and written (sm80 and up).
-- Serves tileops_softmax beside specs/softmax.lua; dispatch weighs both.
-- Not yet verified on a GPU: its fit() declines unless TILEOPS_UNVERIFIED=1.

operator "softmax_pipelined" {
  doc = "y[r,:] = softmax(x[r,:]) or log_softmax, two rows in flight a block",
  serves = "softmax",
  align = 16,                                     -- x, y and the row strides: 16-byte vectors
  smem = function(c) return c.smem_kb * 1024 end, -- both buffers
}

variant "dtype" { "f32", "f16", "bf16" }
variant "mode" { "plain", "log" }

tier "sm80" { template = "softmax_pipelined" }
tier "sm90" { template = "softmax_pipelined" }

tune "warps"   { 4, 8, 16, tag = "w" }     -- the block's warps
tune "vec"     { 4, 8, tag = "v" }         -- elements per 16-byte vector
tune "smem_kb" { 16, 32, 64, 128, tag = "s" } -- two buffers: a row holds at most half

constraint "16-byte vectors" (function(c) return c.vec * c.bytes == 16 end)

constraint "at most the tier's shared memory per block" (function(c)
  return c.smem_kb * 1024 <= c.smem_limit
end)

local function vec16(c) return 16 // c.bytes end
default { warps = 4, vec = vec16, smem_kb = 16 }
default { warps = 8, vec = vec16, smem_kb = 32 }
default { warps = 8, vec = vec16, smem_kb = 64 }
default { warps = 16, vec = vec16, smem_kb = 128 }
