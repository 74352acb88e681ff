-- The tuning table of the NVIDIA H100 80GB HBM3, written by tileops-tune (make tune): for each tuned
-- bucket of calls (or exact shape), the kernel that was fastest on this GPU.
-- us: its median time; noise: half the interquartile range; runner_up and untuned
-- (the cost model's choice) with their times. Do not edit: re-tune.
gpu { name = "NVIDIA H100 80GB HBM3", cc = 90, sms = 132,
      l2_bytes = 52428800, memory_clock_khz = 2619000, memory_bus_bits = 5120, driver = 13000, runtime = 13000,
      commit = "c4c5979", date = "2026-12-05" }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "64" }, class = "full",
       seqlen_q = 512, seqlen_kv = 512, batch_heads = 1024, kernel = "tileops_flash_attention_sm90_bf16_d64_m128_n128_w4_s3_q0",
       us = 242.34, noise = 0.84, runner_up = "tileops_flash_attention_sm90_bf16_d64_m128_n128_w4_s2_q0", runner_up_us = 242.58,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1", untuned_us = 252.22 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "64" }, class = "causal",
       seqlen_q = 512, seqlen_kv = 512, batch_heads = 1024, kernel = "tileops_flash_attention_sm90_bf16_d64_m128_n128_w4_s2_q0",
       us = 217.23, noise = 0.74, runner_up = "tileops_flash_attention_sm90_bf16_d64_m128_n128_w4_s3_q0", runner_up_us = 219.95,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1", untuned_us = 246.43 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "64" }, class = "full",
       seqlen_q = 2048, seqlen_kv = 2048, batch_heads = 256, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1",
       us = 698.24, noise = 0.34, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s3_wg2_p1", runner_up_us = 715.07,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1", untuned_us = 698.24 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "64" }, class = "causal",
       seqlen_q = 2048, seqlen_kv = 2048, batch_heads = 256, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1",
       us = 497.73, noise = 0.43, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s3_wg2_p1", runner_up_us = 499.62,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1", untuned_us = 497.73 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "64" }, class = "full",
       seqlen_q = 16384, seqlen_kv = 16384, batch_heads = 32, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1",
       us = 5053.44, noise = 22.85, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s2_wg2_p1", runner_up_us = 5142.37,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1", untuned_us = 5053.44 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "64" }, class = "causal",
       seqlen_q = 16384, seqlen_kv = 16384, batch_heads = 32, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1",
       us = 2864.74, noise = 5.86, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s2_wg2_p1", runner_up_us = 2801.78,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1", untuned_us = 2864.74 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "128" }, class = "full",
       seqlen_q = 512, seqlen_kv = 512, batch_heads = 512, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1",
       us = 173.26, noise = 0.56, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s3_wg2_p1", runner_up_us = 176.32,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1", untuned_us = 173.26 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "128" }, class = "causal",
       seqlen_q = 512, seqlen_kv = 512, batch_heads = 512, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1",
       us = 178.43, noise = 0.59, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s3_wg2_p1", runner_up_us = 177.74,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1", untuned_us = 178.43 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "128" }, class = "full",
       seqlen_q = 2048, seqlen_kv = 2048, batch_heads = 128, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1",
       us = 465.02, noise = 0.52, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p0", runner_up_us = 493.57,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1", untuned_us = 465.02 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "128" }, class = "causal",
       seqlen_q = 2048, seqlen_kv = 2048, batch_heads = 128, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1",
       us = 440.35, noise = 1.79, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s3_wg2_p1", runner_up_us = 435.23,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1", untuned_us = 440.35 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "128" }, class = "full",
       seqlen_q = 16384, seqlen_kv = 16384, batch_heads = 16, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1",
       us = 3885.31, noise = 288.34, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s3_wg2_p1", runner_up_us = 3607.44,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1", untuned_us = 3885.31 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "128" }, class = "causal",
       seqlen_q = 16384, seqlen_kv = 16384, batch_heads = 16, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1",
       us = 1894.51, noise = 90.80, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p0", runner_up_us = 1941.12,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1", untuned_us = 1894.51 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "256" }, class = "full",
       seqlen_q = 512, seqlen_kv = 512, batch_heads = 256, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1",
       us = 181.95, noise = 6.50, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p0", runner_up_us = 165.30,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1", untuned_us = 181.95 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "256" }, class = "causal",
       seqlen_q = 512, seqlen_kv = 512, batch_heads = 256, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1",
       us = 172.74, noise = 0.44, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p0", runner_up_us = 172.03,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1", untuned_us = 172.74 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "256" }, class = "full",
       seqlen_q = 2048, seqlen_kv = 2048, batch_heads = 64, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1",
       us = 441.81, noise = 0.88, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p0", runner_up_us = 480.69,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1", untuned_us = 441.81 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "256" }, class = "causal",
       seqlen_q = 2048, seqlen_kv = 2048, batch_heads = 64, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1",
       us = 299.14, noise = 2.51, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p0", runner_up_us = 301.44,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1", untuned_us = 299.14 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "256" }, class = "full",
       seqlen_q = 16384, seqlen_kv = 16384, batch_heads = 8, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1",
       us = 3608.64, noise = 199.66, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p0", runner_up_us = 3414.48,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1", untuned_us = 3608.64 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "256" }, class = "causal",
       seqlen_q = 16384, seqlen_kv = 16384, batch_heads = 8, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1",
       us = 2128.06, noise = 246.30, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p0", runner_up_us = 1863.70,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1", untuned_us = 2128.06 }
entry { op = "flash_attention", dtype = "f16", variant = { head_dim = "128" }, class = "full",
       seqlen_q = 2048, seqlen_kv = 2048, batch_heads = 128, kernel = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s2_wg2_p1",
       us = 474.43, noise = 0.60, runner_up = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s2_wg2_p0", runner_up_us = 509.63,
       untuned = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s2_wg2_p1", untuned_us = 474.43 }
entry { op = "flash_attention", dtype = "f16", variant = { head_dim = "128" }, class = "causal",
       seqlen_q = 2048, seqlen_kv = 2048, batch_heads = 128, kernel = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s2_wg2_p1",
       us = 441.57, noise = 2.71, runner_up = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s3_wg2_p1", runner_up_us = 437.86,
       untuned = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s2_wg2_p1", untuned_us = 441.57 }
entry { op = "flash_attention", dtype = "f16", variant = { head_dim = "128" }, class = "full",
       seqlen_q = 16384, seqlen_kv = 16384, batch_heads = 16, kernel = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s2_wg2_p1",
       us = 4111.02, noise = 260.94, runner_up = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s3_wg2_p1", runner_up_us = 3714.54,
       untuned = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s2_wg2_p1", untuned_us = 4111.02 }
entry { op = "flash_attention", dtype = "f16", variant = { head_dim = "128" }, class = "causal",
       seqlen_q = 16384, seqlen_kv = 16384, batch_heads = 16, kernel = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s2_wg2_p1",
       us = 1834.11, noise = 59.78, runner_up = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s2_wg2_p0", runner_up_us = 2002.99,
       untuned = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s2_wg2_p1", untuned_us = 1834.11 }
entry { op = "gemm", dtype = "f16", variant = { layout = "kn" }, class = "none",
       m = 1024, n = 1024, k = 1024, kernel = "tileops_gemm_sm90_f16_kn_m64_n64_k64_wm2_wn2_s4_a1_e1",
       us = 13.04, noise = 0.46, runner_up = "tileops_gemm_sm90_f16_kn_m128_n64_k64_wm2_wn4_s3_a1_e1", runner_up_us = 13.94,
       untuned = "tileops_gemm_sm90_f16_kn_m64_n64_k32_wm2_wn2_s4_a1_e1", untuned_us = 16.37 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 1024, n = 1024, k = 1024, kernel = "tileops_gemm_sm90_f16_nk_m64_n64_k64_wm2_wn2_s4_a1_e1",
       us = 13.34, noise = 0.41, runner_up = "tileops_gemm_sm90_f16_nk_m128_n64_k64_wm2_wn2_s3_a1_e1", runner_up_us = 14.10,
       untuned = "tileops_gemm_sm90_f16_nk_m64_n64_k32_wm2_wn2_s4_a1_e1", untuned_us = 15.73 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "kn" }, class = "none",
       m = 1024, n = 1024, k = 1024, kernel = "tileops_gemm_sm90_bf16_kn_m64_n64_k64_wm2_wn2_s4_a1_e1",
       us = 13.54, noise = 0.50, runner_up = "tileops_gemm_sm90_bf16_kn_m64_n128_k64_wm2_wn2_s3_a1_e1", runner_up_us = 13.65,
       untuned = "tileops_gemm_sm90_bf16_kn_m64_n64_k32_wm2_wn2_s4_a1_e1", untuned_us = 15.31 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 1024, n = 1024, k = 1024, kernel = "tileops_gemm_sm90_bf16_nk_m64_n64_k64_wm2_wn2_s4_a1_e1",
       us = 12.85, noise = 0.25, runner_up = "tileops_gemm_sm90_bf16_nk_m64_n128_k64_wm2_wn2_s3_a1_e1", runner_up_us = 14.24,
       untuned = "tileops_gemm_sm90_bf16_nk_m64_n64_k32_wm2_wn2_s4_a1_e1", untuned_us = 14.93 }
entry { op = "gemm", dtype = "f16", variant = { layout = "kn" }, class = "none",
       m = 2048, n = 2048, k = 2048, kernel = "tileops_gemm_wgmma_sm90_f16_kn_m128_n128_k64_s6_wg2_c1_g4",
       us = 32.96, noise = 0.27, runner_up = "tileops_gemm_wgmma_sm90_f16_kn_m128_n128_k64_s5_wg2_c1_g8", runner_up_us = 33.02,
       untuned = "tileops_gemm_wgmma_sm90_f16_kn_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 40.72 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 2048, n = 2048, k = 2048, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g8",
       us = 33.66, noise = 0.30, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g4", runner_up_us = 33.95,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 39.66 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "kn" }, class = "none",
       m = 2048, n = 2048, k = 2048, kernel = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n128_k64_s6_wg2_c1_g8",
       us = 32.88, noise = 0.32, runner_up = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n128_k64_s6_wg2_c1_g4", runner_up_us = 33.31,
       untuned = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 40.78 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 2048, n = 2048, k = 2048, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g4",
       us = 33.10, noise = 0.36, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8", runner_up_us = 33.81,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 39.54 }
entry { op = "gemm", dtype = "f16", variant = { layout = "kn" }, class = "none",
       m = 4096, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_f16_kn_m128_n256_k64_s4_wg2_c2_g8",
       us = 201.60, noise = 0.42, runner_up = "tileops_gemm_wgmma_sm90_f16_kn_m128_n256_k64_s3_wg2_c1_g8", runner_up_us = 202.00,
       untuned = "tileops_gemm_wgmma_sm90_f16_kn_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 201.60 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 4096, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8",
       us = 200.67, noise = 0.33, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s3_wg2_c1_g8", runner_up_us = 205.60,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 200.67 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "kn" }, class = "none",
       m = 4096, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n256_k64_s4_wg2_c2_g8",
       us = 196.99, noise = 0.36, runner_up = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n256_k64_s3_wg2_c1_g8", runner_up_us = 197.78,
       untuned = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 196.99 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 4096, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8",
       us = 197.86, noise = 0.54, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s3_wg2_c1_g8", runner_up_us = 200.03,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 197.86 }
entry { op = "gemm", dtype = "f16", variant = { layout = "kn" }, class = "none",
       m = 8192, n = 8192, k = 8192, kernel = "tileops_gemm_wgmma_sm90_f16_kn_m128_n256_k64_s4_wg2_c2_g8",
       us = 1531.57, noise = 12.30, runner_up = "tileops_gemm_wgmma_sm90_f16_kn_m128_n256_k64_s4_wg2_c1_g8", runner_up_us = 1658.16,
       untuned = "tileops_gemm_wgmma_sm90_f16_kn_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 1531.57 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 8192, n = 8192, k = 8192, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8",
       us = 1666.94, noise = 80.89, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c1_g8", runner_up_us = 1668.59,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 1666.94 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "kn" }, class = "none",
       m = 8192, n = 8192, k = 8192, kernel = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n256_k64_s4_wg2_c2_g8",
       us = 1662.67, noise = 115.99, runner_up = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n256_k64_s3_wg2_c2_g8", runner_up_us = 1637.50,
       untuned = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 1662.67 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 8192, n = 8192, k = 8192, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8",
       us = 1580.35, noise = 66.21, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c1_g16", runner_up_us = 1616.16,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 1580.35 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 1, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 21.36, noise = 0.40, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 21.23,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 21.36 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 1, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 20.80, noise = 0.24, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 20.80,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 20.80 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 1, n = 11008, k = 4096, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 44.72, noise = 0.54, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 44.74,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 44.72 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 1, n = 11008, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 44.05, noise = 0.48, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 45.30,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 44.05 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 1, n = 4096, k = 11008, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 46.13, noise = 0.50, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 46.74,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 46.13 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 1, n = 4096, k = 11008, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 46.61, noise = 0.61, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n64_k128_w4_kw1_s4_a1", runner_up_us = 47.62,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 46.61 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 1, n = 128256, k = 4096, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 347.34, noise = 0.56, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 348.45,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n128_k64_w4_kw1_s6_a1", untuned_us = 382.37 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 1, n = 128256, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 347.30, noise = 0.56, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 348.40,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n128_k64_w4_kw1_s6_a1", untuned_us = 380.86 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 16, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 20.77, noise = 0.29, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 20.70,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 20.77 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 16, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 21.09, noise = 0.36, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 20.98,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 21.09 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 16, n = 11008, k = 4096, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 44.98, noise = 0.52, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s3_a1", runner_up_us = 45.07,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 44.98 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 16, n = 11008, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s4_a1",
       us = 45.62, noise = 0.56, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", runner_up_us = 44.51,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 44.51 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 16, n = 4096, k = 11008, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 45.25, noise = 0.45, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 45.74,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 45.25 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 16, n = 4096, k = 11008, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 46.38, noise = 0.40, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 46.32,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 46.38 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 16, n = 128256, k = 4096, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 356.59, noise = 0.38, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 356.67,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n128_k64_w4_kw1_s6_a1", untuned_us = 384.83 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 16, n = 128256, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 356.22, noise = 0.39, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 356.64,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n128_k64_w4_kw1_s6_a1", untuned_us = 386.78 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 128, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g8",
       us = 30.00, noise = 0.60, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s5_wg2_c1_g8", runner_up_us = 30.06,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g8", untuned_us = 30.00 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 128, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8",
       us = 29.90, noise = 0.79, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s4_wg2_c1_g8", runner_up_us = 30.11,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8", untuned_us = 29.90 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 128, n = 11008, k = 4096, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g16",
       us = 48.59, noise = 0.42, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g4", runner_up_us = 49.10,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g8", untuned_us = 49.22 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 128, n = 11008, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g4",
       us = 48.51, noise = 0.45, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8", runner_up_us = 48.54,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8", untuned_us = 48.54 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 128, n = 4096, k = 11008, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g8",
       us = 54.27, noise = 0.66, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g16", runner_up_us = 54.06,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g8", untuned_us = 54.27 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 128, n = 4096, k = 11008, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8",
       us = 54.10, noise = 0.73, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g16", runner_up_us = 54.10,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8", untuned_us = 54.10 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 128, n = 128256, k = 4096, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c1_g8",
       us = 383.39, noise = 0.85, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s5_wg2_c1_g8", runner_up_us = 385.23,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c1_g8", untuned_us = 383.39 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 128, n = 128256, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c1_g8",
       us = 383.68, noise = 1.16, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s5_wg2_c1_g8", runner_up_us = 384.29,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c1_g8", untuned_us = 383.68 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 4096, n = 11008, k = 4096, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8",
       us = 542.27, noise = 0.61, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s4_wg2_c1_g8", runner_up_us = 574.59,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 542.27 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 4096, n = 11008, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8",
       us = 527.18, noise = 0.78, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s4_wg2_c1_g8", runner_up_us = 560.98,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 527.18 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 4096, n = 4096, k = 11008, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8",
       us = 491.30, noise = 0.49, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s3_wg2_c1_g8", runner_up_us = 545.62,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 491.30 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 4096, n = 4096, k = 11008, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8",
       us = 482.14, noise = 0.70, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s3_wg2_c1_g8", runner_up_us = 489.76,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 482.14 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 4096, n = 128256, k = 4096, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8",
       us = 6692.42, noise = 129.81, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s3_wg2_c1_g8", runner_up_us = 6824.54,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 6692.42 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 4096, n = 128256, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8",
       us = 6620.56, noise = 173.42, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s3_wg2_c1_g8", runner_up_us = 6702.11,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 6620.56 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 2, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 20.86, noise = 0.32, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 20.85,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 20.86 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 4, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 21.66, noise = 0.46, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 21.42,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 21.66 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 8, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 20.99, noise = 0.33, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 20.96,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 20.99 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 32, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k128_w2_kw4_s8_a1",
       us = 21.73, noise = 0.30, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m32_n32_k256_w2_kw4_s4_a1", runner_up_us = 21.78,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m64_n128_k64_w4_kw1_s4_a1", untuned_us = 27.78 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 64, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m64_n32_k256_w2_kw4_s4_a1",
       us = 23.49, noise = 0.47, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m64_n64_k128_w4_kw1_s6_a1", runner_up_us = 26.61,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m64_n128_k64_w4_kw1_s4_a1", untuned_us = 30.85 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 512, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g16",
       us = 33.84, noise = 0.43, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g4", runner_up_us = 33.86,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c2_g8", untuned_us = 35.81 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 1024, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8",
       us = 56.53, noise = 0.40, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8", runner_up_us = 54.80,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 56.53 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 2048, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8",
       us = 101.42, noise = 0.49, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c1_g4", runner_up_us = 105.25,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 101.42 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "epilogue",
       m = 16, n = 11008, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 47.33, noise = 0.52, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s3_a1", runner_up_us = 46.03,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 47.33 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "epilogue",
       m = 128, n = 11008, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8",
       us = 50.08, noise = 0.46, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g4", runner_up_us = 50.08,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8", untuned_us = 50.08 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "epilogue",
       m = 4096, n = 11008, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8",
       us = 538.90, noise = 0.56, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s3_wg2_c1_g8", runner_up_us = 541.14,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 538.90 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "epilogue",
       m = 4096, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8",
       us = 201.01, noise = 0.35, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s3_wg2_c1_g8", runner_up_us = 205.39,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8", untuned_us = 201.01 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 4096, kernel = "tileops_softmax_rows_sm90_f32_plain_w8_r1_e16_v4_p1",
       us = 51.25, noise = 0.58, runner_up = "tileops_softmax_staged_sm90_f32_plain_w4_v4_s16_rv0", runner_up_us = 49.73,
       untuned = "tileops_softmax_rows_sm90_f32_plain_w8_r1_e16_v4_p1", untuned_us = 51.25 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 4096, kernel = "tileops_softmax_rows_sm90_f16_plain_w4_r1_e32_v8_p1",
       us = 28.62, noise = 0.51, runner_up = "tileops_softmax_rows_sm90_f16_plain_w4_r1_e64_v8_p1", runner_up_us = 28.40,
       untuned = "tileops_softmax_rows_sm90_f16_plain_w4_r1_e32_v8_p1", untuned_us = 28.62 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 4096, kernel = "tileops_softmax_rows_sm90_bf16_plain_w4_r1_e32_v8_p1",
       us = 28.64, noise = 0.50, runner_up = "tileops_softmax_rows_sm90_bf16_plain_w4_r1_e64_v8_p1", runner_up_us = 28.80,
       untuned = "tileops_softmax_rows_sm90_bf16_plain_w4_r1_e32_v8_p1", untuned_us = 28.64 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 32768, cols = 4096, kernel = "tileops_softmax_staged_sm90_f32_plain_w8_v4_s32_rv3",
       us = 357.94, noise = 0.70, runner_up = "tileops_softmax_staged_sm90_f32_plain_w8_v4_s16_rv5", runner_up_us = 359.49,
       untuned = "tileops_softmax_rows_sm90_f32_plain_w8_r1_e16_v4_p1", untuned_us = 367.42 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 32768, cols = 4096, kernel = "tileops_softmax_staged_sm90_f16_plain_w4_v8_s16_rv3",
       us = 183.31, noise = 0.61, runner_up = "tileops_softmax_staged_sm90_f16_plain_w4_v8_s16_rv0", runner_up_us = 184.06,
       untuned = "tileops_softmax_rows_sm90_f16_plain_w4_r1_e32_v8_p1", untuned_us = 188.99 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 32768, cols = 4096, kernel = "tileops_softmax_staged_sm90_bf16_plain_w4_v8_s16_rv0",
       us = 183.68, noise = 0.57, runner_up = "tileops_softmax_staged_sm90_bf16_plain_w4_v8_s16_rv3", runner_up_us = 185.06,
       untuned = "tileops_softmax_rows_sm90_bf16_plain_w4_r1_e32_v8_p1", untuned_us = 187.95 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 8192, cols = 32000, kernel = "tileops_softmax_staged_sm90_f32_plain_w16_v4_s96_rv4",
       us = 711.34, noise = 0.73, runner_up = "tileops_softmax_staged_sm90_f32_plain_w32_v4_s96_rv4", runner_up_us = 707.28,
       untuned = "tileops_softmax_staged_sm90_f32_plain_w16_v4_s96_rv4", untuned_us = 711.34 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 8192, cols = 32000, kernel = "tileops_softmax_staged_sm90_f16_plain_w8_v8_s64_rv0",
       us = 357.60, noise = 0.73, runner_up = "tileops_softmax_staged_sm90_f16_plain_w16_v8_s64_rv0", runner_up_us = 353.87,
       untuned = "tileops_softmax_staged_sm90_f16_plain_w8_v8_s64_rv0", untuned_us = 357.60 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 8192, cols = 32000, kernel = "tileops_softmax_staged_sm90_bf16_plain_w8_v8_s64_rv0",
       us = 357.65, noise = 0.58, runner_up = "tileops_softmax_staged_sm90_bf16_plain_w16_v8_s64_rv5", runner_up_us = 353.90,
       untuned = "tileops_softmax_staged_sm90_bf16_plain_w8_v8_s64_rv0", untuned_us = 357.65 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 128256, kernel = "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s64_rv5",
       us = 1433.46, noise = 0.86, runner_up = "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s32_rv5", runner_up_us = 1431.97,
       untuned = "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s64_rv5", untuned_us = 1433.46 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 128256, kernel = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s64_rv5",
       us = 724.14, noise = 0.86, runner_up = "tileops_softmax_split_sm90_f16_plain_w8_e32_v8_s64_rv5", runner_up_us = 724.02,
       untuned = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s64_rv5", untuned_us = 724.14 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 128256, kernel = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s64_rv5",
       us = 725.39, noise = 0.78, runner_up = "tileops_softmax_split_sm90_bf16_plain_w8_e16_v8_s64_rv5", runner_up_us = 725.41,
       untuned = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s64_rv5", untuned_us = 725.39 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 65536, cols = 1024, kernel = "tileops_softmax_rows_sm90_f32_plain_w1_r4_e32_v4_p0",
       us = 183.26, noise = 0.64, runner_up = "tileops_softmax_rows_sm90_f32_plain_w1_r1_e32_v4_p0", runner_up_us = 182.70,
       untuned = "tileops_softmax_rows_sm90_f32_plain_w1_r4_e32_v4_p0", untuned_us = 183.26 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 65536, cols = 1024, kernel = "tileops_softmax_rows_sm90_f16_plain_w1_r4_e32_v8_p0",
       us = 94.59, noise = 0.28, runner_up = "tileops_softmax_rows_sm90_f16_plain_w1_r1_e32_v8_p0", runner_up_us = 94.54,
       untuned = "tileops_softmax_rows_sm90_f16_plain_w1_r4_e32_v8_p0", untuned_us = 94.59 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 65536, cols = 1024, kernel = "tileops_softmax_rows_sm90_bf16_plain_w1_r4_e32_v8_p0",
       us = 94.54, noise = 0.28, runner_up = "tileops_softmax_rows_sm90_bf16_plain_w1_r1_e32_v8_p0", runner_up_us = 94.45,
       untuned = "tileops_softmax_rows_sm90_bf16_plain_w1_r4_e32_v8_p0", untuned_us = 94.54 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 4, cols = 1048576, kernel = "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s32_rv0",
       us = 19.34, noise = 0.23, runner_up = "tileops_softmax_split_sm90_f32_plain_w8_e8_v4_s32_rv0", runner_up_us = 19.22,
       untuned = "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s32_rv0", untuned_us = 19.34 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 4, cols = 1048576, kernel = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s16_rv0",
       us = 14.08, noise = 0.42, runner_up = "tileops_softmax_split_sm90_f16_plain_w8_e32_v8_s16_rv0", runner_up_us = 13.46,
       untuned = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s16_rv0", untuned_us = 14.08 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 4, cols = 1048576, kernel = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s16_rv0",
       us = 14.13, noise = 0.44, runner_up = "tileops_softmax_split_sm90_bf16_plain_w16_e8_v8_s32_rv0", runner_up_us = 13.50,
       untuned = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s16_rv0", untuned_us = 14.13 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 32001, kernel = "tileops_softmax_staged_sm90_f32_plain_w16_v4_s96_rv4",
       us = 371.04, noise = 0.59, runner_up = "tileops_softmax_staged_sm90_f32_plain_w32_v4_s96_rv4", runner_up_us = 364.54,
       untuned = "tileops_softmax_staged_sm90_f32_plain_w16_v4_s96_rv4", untuned_us = 371.04 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 32001, kernel = "tileops_softmax_staged_sm90_f16_plain_w16_v8_s64_rv0",
       us = 184.35, noise = 0.50, runner_up = "tileops_softmax_staged_sm90_f16_plain_w16_v8_s64_rv5", runner_up_us = 184.74,
       untuned = "tileops_softmax_staged_sm90_f16_plain_w8_v8_s64_rv0", untuned_us = 188.85 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 32001, kernel = "tileops_softmax_staged_sm90_bf16_plain_w16_v8_s64_rv0",
       us = 185.09, noise = 0.56, runner_up = "tileops_softmax_staged_sm90_bf16_plain_w16_v8_s64_rv5", runner_up_us = 185.47,
       untuned = "tileops_softmax_staged_sm90_bf16_plain_w8_v8_s64_rv0", untuned_us = 188.99 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 2048, cols = 100003, kernel = "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s64_rv5",
       us = 569.55, noise = 0.86, runner_up = "tileops_softmax_split_sm90_f32_plain_w8_e16_v4_s64_rv5", runner_up_us = 569.15,
       untuned = "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s64_rv5", untuned_us = 569.55 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 2048, cols = 100003, kernel = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s64_rv5",
       us = 292.86, noise = 0.70, runner_up = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s64_rv4", runner_up_us = 292.74,
       untuned = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s64_rv5", untuned_us = 292.86 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 2048, cols = 100003, kernel = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s64_rv5",
       us = 294.94, noise = 1.02, runner_up = "tileops_softmax_split_sm90_bf16_plain_w8_e16_v8_s64_rv5", runner_up_us = 294.70,
       untuned = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s64_rv5", untuned_us = 294.94 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 1, cols = 32000, kernel = "tileops_softmax_split_sm90_f32_plain_w16_e4_v4_s16_rv0",
       us = 7.65, noise = 0.47, runner_up = "tileops_softmax_split_sm90_f32_plain_w8_e16_v4_s16_rv0", runner_up_us = 7.66,
       untuned = "tileops_softmax_staged_sm90_f32_plain_w16_v4_s96_rv4", untuned_us = 10.05 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 1, cols = 32000, kernel = "tileops_softmax_split_sm90_f16_plain_w8_e32_v8_s16_rv0",
       us = 7.73, noise = 0.47, runner_up = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s16_rv0", runner_up_us = 7.74,
       untuned = "tileops_softmax_staged_sm90_f16_plain_w8_v8_s64_rv0", untuned_us = 9.15 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 1, cols = 32000, kernel = "tileops_softmax_split_sm90_bf16_plain_w8_e16_v8_s16_rv0",
       us = 7.87, noise = 0.46, runner_up = "tileops_softmax_split_sm90_bf16_plain_w16_e8_v8_s16_rv0", runner_up_us = 7.87,
       untuned = "tileops_softmax_staged_sm90_bf16_plain_w8_v8_s64_rv0", untuned_us = 9.39 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 16, cols = 128256, kernel = "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s16_rv0",
       us = 13.12, noise = 0.19, runner_up = "tileops_softmax_split_sm90_f32_plain_w8_e32_v4_s16_rv0", runner_up_us = 13.09,
       untuned = "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s16_rv0", untuned_us = 13.12 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 16, cols = 128256, kernel = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s16_rv0",
       us = 10.82, noise = 0.40, runner_up = "tileops_softmax_split_sm90_f16_plain_w16_e8_v8_s32_rv0", runner_up_us = 10.05,
       untuned = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s16_rv0", untuned_us = 10.82 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 16, cols = 128256, kernel = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s16_rv0",
       us = 10.37, noise = 0.22, runner_up = "tileops_softmax_split_sm90_bf16_plain_w8_e16_v8_s16_rv0", runner_up_us = 10.30,
       untuned = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s16_rv0", untuned_us = 10.37 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 64, cols = 32000, kernel = "tileops_softmax_staged_sm90_f32_plain_w16_v4_s96_rv4",
       us = 13.63, noise = 0.46, runner_up = "tileops_softmax_rows_sm90_f32_plain_w32_r1_e32_v1_p0", runner_up_us = 13.31,
       untuned = "tileops_softmax_staged_sm90_f32_plain_w16_v4_s96_rv4", untuned_us = 13.63 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 64, cols = 32000, kernel = "tileops_softmax_staged_sm90_f16_plain_w8_v8_s64_rv0",
       us = 10.91, noise = 0.22, runner_up = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s16_rv0", runner_up_us = 10.27,
       untuned = "tileops_softmax_staged_sm90_f16_plain_w8_v8_s64_rv0", untuned_us = 10.91 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 64, cols = 32000, kernel = "tileops_softmax_staged_sm90_bf16_plain_w8_v8_s64_rv0",
       us = 11.76, noise = 0.42, runner_up = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s16_rv0", runner_up_us = 10.43,
       untuned = "tileops_softmax_staged_sm90_bf16_plain_w8_v8_s64_rv0", untuned_us = 11.76 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "log" }, class = "plain",
       rows = 4096, cols = 4096, kernel = "tileops_softmax_rows_sm90_bf16_log_w4_r1_e32_v8_p1",
       us = 28.64, noise = 0.54, runner_up = "tileops_softmax_rows_sm90_bf16_log_w4_r1_e64_v8_p1", runner_up_us = 28.70,
       untuned = "tileops_softmax_rows_sm90_bf16_log_w4_r1_e32_v8_p1", untuned_us = 28.64 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "log" }, class = "plain",
       rows = 8192, cols = 32000, kernel = "tileops_softmax_staged_sm90_bf16_log_w8_v8_s64_rv0",
       us = 357.07, noise = 0.70, runner_up = "tileops_softmax_staged_sm90_bf16_log_w16_v8_s64_rv0", runner_up_us = 353.60,
       untuned = "tileops_softmax_staged_sm90_bf16_log_w8_v8_s64_rv0", untuned_us = 357.07 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "log" }, class = "plain",
       rows = 4096, cols = 128256, kernel = "tileops_softmax_split_sm90_bf16_log_w8_e8_v8_s64_rv5",
       us = 723.97, noise = 1.17, runner_up = "tileops_softmax_split_sm90_bf16_log_w8_e16_v8_s64_rv5", runner_up_us = 724.14,
       untuned = "tileops_softmax_split_sm90_bf16_log_w8_e8_v8_s64_rv5", untuned_us = 723.97 }
entry { op = "vector_add", dtype = "f32", class = "plain",
       n = 4096, kernel = "tileops_vector_add_sm90_f32_t256_v4_u4",
       us = 4.83, noise = 0.25, runner_up = "tileops_vector_add_sm90_f32_t256_v1_u1", runner_up_us = 4.40,
       untuned = "tileops_vector_add_sm90_f32_t256_v4_u4", untuned_us = 4.83 }
entry { op = "vector_add", dtype = "f32", class = "plain",
       n = 1048576, kernel = "tileops_vector_add_sm90_f32_t256_v4_u4",
       us = 9.95, noise = 0.48, runner_up = "tileops_vector_add_sm90_f32_t256_v4_u1", runner_up_us = 9.73,
       untuned = "tileops_vector_add_sm90_f32_t256_v4_u4", untuned_us = 9.95 }
entry { op = "vector_add", dtype = "f32", class = "plain",
       n = 16777216, kernel = "tileops_vector_add_sm90_f32_t256_v4_u4",
       us = 72.46, noise = 0.48, runner_up = "tileops_vector_add_sm90_f32_t128_v4_u4", runner_up_us = 72.50,
       untuned = "tileops_vector_add_sm90_f32_t256_v4_u4", untuned_us = 72.46 }
entry { op = "vector_add", dtype = "f32", class = "plain",
       n = 268435456, kernel = "tileops_vector_add_sm90_f32_t256_v4_u4",
       us = 1059.49, noise = 0.82, runner_up = "tileops_vector_add_sm90_f32_t256_v1_u2", runner_up_us = 1042.02,
       untuned = "tileops_vector_add_sm90_f32_t256_v4_u4", untuned_us = 1059.49 }
entry { op = "vector_add", dtype = "f16", class = "plain",
       n = 4096, kernel = "tileops_vector_add_sm90_f16_t256_v8_u4",
       us = 4.85, noise = 0.46, runner_up = "tileops_vector_add_sm90_f16_t256_v1_u4", runner_up_us = 4.53,
       untuned = "tileops_vector_add_sm90_f16_t256_v8_u4", untuned_us = 4.85 }
entry { op = "vector_add", dtype = "f16", class = "plain",
       n = 1048576, kernel = "tileops_vector_add_sm90_f16_t256_v8_u4",
       us = 7.07, noise = 0.21, runner_up = "tileops_vector_add_sm90_f16_t128_v8_u4", runner_up_us = 7.06,
       untuned = "tileops_vector_add_sm90_f16_t256_v8_u4", untuned_us = 7.07 }
entry { op = "vector_add", dtype = "f16", class = "plain",
       n = 16777216, kernel = "tileops_vector_add_sm90_f16_t256_v8_u4",
       us = 39.65, noise = 0.46, runner_up = "tileops_vector_add_sm90_f16_t128_v8_u4", runner_up_us = 39.22,
       untuned = "tileops_vector_add_sm90_f16_t256_v8_u4", untuned_us = 39.65 }
entry { op = "vector_add", dtype = "f16", class = "plain",
       n = 268435456, kernel = "tileops_vector_add_sm90_f16_t256_v8_u4",
       us = 532.42, noise = 0.74, runner_up = "tileops_vector_add_sm90_f16_t256_v8_u1", runner_up_us = 530.99,
       untuned = "tileops_vector_add_sm90_f16_t256_v8_u4", untuned_us = 532.42 }
entry { op = "vector_add", dtype = "bf16", class = "plain",
       n = 4096, kernel = "tileops_vector_add_sm90_bf16_t256_v8_u4",
       us = 5.26, noise = 0.45, runner_up = "tileops_vector_add_sm90_bf16_t128_v1_u4", runner_up_us = 4.58,
       untuned = "tileops_vector_add_sm90_bf16_t256_v8_u4", untuned_us = 5.26 }
entry { op = "vector_add", dtype = "bf16", class = "plain",
       n = 1048576, kernel = "tileops_vector_add_sm90_bf16_t256_v8_u4",
       us = 7.12, noise = 0.25, runner_up = "tileops_vector_add_sm90_bf16_t128_v8_u4", runner_up_us = 7.04,
       untuned = "tileops_vector_add_sm90_bf16_t256_v8_u4", untuned_us = 7.12 }
entry { op = "vector_add", dtype = "bf16", class = "plain",
       n = 16777216, kernel = "tileops_vector_add_sm90_bf16_t256_v8_u4",
       us = 39.82, noise = 0.52, runner_up = "tileops_vector_add_sm90_bf16_t256_v8_u2", runner_up_us = 39.66,
       untuned = "tileops_vector_add_sm90_bf16_t256_v8_u4", untuned_us = 39.82 }
entry { op = "vector_add", dtype = "bf16", class = "plain",
       n = 268435456, kernel = "tileops_vector_add_sm90_bf16_t256_v8_u4",
       us = 531.33, noise = 0.56, runner_up = "tileops_vector_add_sm90_bf16_t512_v8_u4", runner_up_us = 527.12,
       untuned = "tileops_vector_add_sm90_bf16_t256_v8_u4", untuned_us = 531.33 }
