-- vector_add: c[i] = a[i] + b[i]. The first operator, and the proof of the pipeline:
-- spec -> tileops-gen -> generated/ -> libtileops.a.
--
-- Memory-bound: 2 reads and 1 write per element, so the tuning space is about bytes in
-- flight (vector width x unroll) and block size. Constraints and defaults are functions of
-- c = { tier, cc, smem_limit, dtype, bytes, <every tuning axis> }.

operator "vector_add" {
  doc = "c[i] = a[i] + b[i] over n elements, fp32 arithmetic",
  -- a vectorized instance needs a, b and c aligned to one vector; the scalar one, to an element
  align = function(c) return c.vec * c.bytes end,
}

variant "dtype" { "f32", "f16", "bf16" }

-- Elementwise work needs no matrix unit: one template serves every tier, compiled for each.
tier "sm70" { template = "vector_add" }
tier "sm80" { template = "vector_add" }
tier "sm90" { template = "vector_add" }

tune "threads" { 128, 256, 512, tag = "t" } -- threads per block
tune "vec"     { 1, 2, 4, 8, tag = "v" }       -- elements per vector load
tune "unroll"  { 1, 2, 4, 8, tag = "u" }    -- vector loads in flight per thread and input

constraint "one vector load is at most 16 bytes" (function(c)
  return c.vec * c.bytes <= 16
end)

constraint "at most 64 bytes in flight per thread and input, to keep registers low" (function(c)
  return c.vec * c.bytes * c.unroll <= 64
end)

-- Emitted without a tuning table, in dispatch preference order: 16-byte vectors when every
-- pointer is 16-byte aligned, then the scalar path that serves any alignment.
default { threads = 256, vec = function(c) return 16 // c.bytes end, unroll = 4 }
default { threads = 256, vec = 1, unroll = 4 }

-- The cases tileops-tune times (make tune).
tune_shapes {
  { dtype = { "f32", "f16", "bf16" }, n = { 4096, 1048576, 16777216, 268435456 } },
}
