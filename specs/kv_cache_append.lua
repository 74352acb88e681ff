-- kv_cache_append: tileops_kv_cache_append, a step's new keys and values written into a paged
-- or contiguous KV cache by slot (page * page_size + row, or sequence * rows + position). A
-- copy of 16-byte chunks, one a thread; the dtype only names the instance.

operator "kv_cache_append" {
  doc = "new keys and values written into a paged or contiguous KV cache by slot",
  align = 16,
}

variant "dtype" { "f16", "bf16" }

tier "sm70" { template = "kv_cache_append" }
tier "sm80" { template = "kv_cache_append" }
tier "sm90" { template = "kv_cache_append" }

tune "threads" { 128, 256, tag = "t" }

default { threads = 256 }
