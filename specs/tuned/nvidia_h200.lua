-- The tuning table of the NVIDIA H200, written by tileops-tune (make tune): for each tuned
-- bucket of calls (or exact shape), the kernel that was fastest on this GPU.
-- us: its median time; noise: half the interquartile range; runner_up and untuned
-- (the cost model's choice) with their times. Do not edit: re-tune.
gpu { name = "NVIDIA H200", cc = 90, sms = 132,
      l2_bytes = 62914560, memory_clock_khz = 3201000, memory_bus_bits = 6016, driver = 13000, runtime = 13000,
      commit = "80f3c10", date = "2026-12-06" }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "64" }, class = "full",
       seqlen_q = 512, seqlen_kv = 512, batch_heads = 1024, kernel = "tileops_flash_attention_sm90_bf16_d64_m128_n128_w4_s3_q0",
       us = 254.46, noise = 0.89, runner_up = "tileops_flash_attention_sm90_bf16_d64_m128_n128_w4_s2_q0", runner_up_us = 256.34,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1", untuned_us = 259.74 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "64" }, class = "causal",
       seqlen_q = 512, seqlen_kv = 512, batch_heads = 1024, kernel = "tileops_flash_attention_sm90_bf16_d64_m128_n64_w4_s2_q0",
       us = 277.41, noise = 0.68, runner_up = "tileops_flash_attention_sm90_bf16_d64_m128_n128_w4_s2_q0", runner_up_us = 287.66,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1", untuned_us = 332.29 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "64" }, class = "full",
       seqlen_q = 2048, seqlen_kv = 2048, batch_heads = 256, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1",
       us = 691.92, noise = 0.71, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s2_wg2_p1", runner_up_us = 696.99,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1", untuned_us = 691.92 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "64" }, class = "causal",
       seqlen_q = 2048, seqlen_kv = 2048, batch_heads = 256, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1",
       us = 552.22, noise = 0.83, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s3_wg2_p1", runner_up_us = 551.47,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1", untuned_us = 552.22 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "64" }, class = "full",
       seqlen_q = 16384, seqlen_kv = 16384, batch_heads = 32, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1",
       us = 5004.69, noise = 24.25, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s2_wg2_p0", runner_up_us = 5016.67,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1", untuned_us = 5004.69 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "64" }, class = "causal",
       seqlen_q = 16384, seqlen_kv = 16384, batch_heads = 32, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1",
       us = 2779.18, noise = 61.62, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p0", runner_up_us = 2795.15,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d64_m128_n128_s4_wg2_p1", untuned_us = 2779.18 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "128" }, class = "full",
       seqlen_q = 512, seqlen_kv = 512, batch_heads = 512, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s3_wg2_p1",
       us = 172.93, noise = 0.58, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s3_wg2_p0", runner_up_us = 182.38,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1", untuned_us = 184.66 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "128" }, class = "causal",
       seqlen_q = 512, seqlen_kv = 512, batch_heads = 512, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1",
       us = 204.64, noise = 0.56, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s3_wg2_p1", runner_up_us = 201.34,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1", untuned_us = 204.64 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "128" }, class = "full",
       seqlen_q = 2048, seqlen_kv = 2048, batch_heads = 128, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1",
       us = 459.76, noise = 0.52, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p0", runner_up_us = 480.94,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1", untuned_us = 459.76 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "128" }, class = "causal",
       seqlen_q = 2048, seqlen_kv = 2048, batch_heads = 128, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s3_wg2_p1",
       us = 383.86, noise = 1.92, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s3_wg2_p0", runner_up_us = 386.46,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1", untuned_us = 403.17 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "128" }, class = "full",
       seqlen_q = 16384, seqlen_kv = 16384, batch_heads = 16, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1",
       us = 3855.38, noise = 219.37, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p0", runner_up_us = 3725.84,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1", untuned_us = 3855.38 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "128" }, class = "causal",
       seqlen_q = 16384, seqlen_kv = 16384, batch_heads = 16, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1",
       us = 1981.20, noise = 114.42, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s3_wg2_p0", runner_up_us = 2012.14,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d128_m128_n128_s2_wg2_p1", untuned_us = 1981.20 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "256" }, class = "full",
       seqlen_q = 512, seqlen_kv = 512, batch_heads = 256, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1",
       us = 165.79, noise = 1.35, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p0", runner_up_us = 167.07,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1", untuned_us = 165.79 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "256" }, class = "causal",
       seqlen_q = 512, seqlen_kv = 512, batch_heads = 256, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1",
       us = 154.24, noise = 1.17, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p0", runner_up_us = 152.05,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1", untuned_us = 154.24 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "256" }, class = "full",
       seqlen_q = 2048, seqlen_kv = 2048, batch_heads = 64, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1",
       us = 429.50, noise = 0.89, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p0", runner_up_us = 466.62,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1", untuned_us = 429.50 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "256" }, class = "causal",
       seqlen_q = 2048, seqlen_kv = 2048, batch_heads = 64, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1",
       us = 301.38, noise = 1.17, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p0", runner_up_us = 299.15,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1", untuned_us = 301.38 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "256" }, class = "full",
       seqlen_q = 16384, seqlen_kv = 16384, batch_heads = 8, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1",
       us = 3511.52, noise = 49.73, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p0", runner_up_us = 3492.59,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1", untuned_us = 3511.52 }
entry { op = "flash_attention", dtype = "bf16", variant = { head_dim = "256" }, class = "causal",
       seqlen_q = 16384, seqlen_kv = 16384, batch_heads = 8, kernel = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1",
       us = 1889.41, noise = 100.42, runner_up = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p0", runner_up_us = 1950.03,
       untuned = "tileops_flash_attention_wgmma_sm90_bf16_d256_m128_n64_s2_wg2_p1", untuned_us = 1889.41 }
entry { op = "flash_attention", dtype = "f16", variant = { head_dim = "128" }, class = "full",
       seqlen_q = 2048, seqlen_kv = 2048, batch_heads = 128, kernel = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s2_wg2_p1",
       us = 470.22, noise = 0.70, runner_up = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s3_wg2_p0", runner_up_us = 495.33,
       untuned = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s2_wg2_p1", untuned_us = 470.22 }
entry { op = "flash_attention", dtype = "f16", variant = { head_dim = "128" }, class = "causal",
       seqlen_q = 2048, seqlen_kv = 2048, batch_heads = 128, kernel = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s3_wg2_p1",
       us = 390.77, noise = 1.24, runner_up = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s3_wg2_p0", runner_up_us = 398.54,
       untuned = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s2_wg2_p1", untuned_us = 416.50 }
entry { op = "flash_attention", dtype = "f16", variant = { head_dim = "128" }, class = "full",
       seqlen_q = 16384, seqlen_kv = 16384, batch_heads = 16, kernel = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s2_wg2_p1",
       us = 4130.64, noise = 167.90, runner_up = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s3_wg2_p1", runner_up_us = 3867.41,
       untuned = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s2_wg2_p1", untuned_us = 4130.64 }
entry { op = "flash_attention", dtype = "f16", variant = { head_dim = "128" }, class = "causal",
       seqlen_q = 16384, seqlen_kv = 16384, batch_heads = 16, kernel = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s2_wg2_p1",
       us = 2128.16, noise = 131.84, runner_up = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s3_wg2_p1", runner_up_us = 2122.26,
       untuned = "tileops_flash_attention_wgmma_sm90_f16_d128_m128_n128_s2_wg2_p1", untuned_us = 2128.16 }
entry { op = "gemm", dtype = "f16", variant = { layout = "kn" }, class = "none",
       m = 1024, n = 1024, k = 1024, kernel = "tileops_gemm_sm90_f16_kn_m64_n64_k64_wm2_wn2_s4_a1_e1",
       us = 13.41, noise = 0.55, runner_up = "tileops_gemm_sm90_f16_kn_m128_n64_k64_wm2_wn4_s3_a1_e1", runner_up_us = 14.02,
       untuned = "tileops_gemm_sm90_f16_kn_m64_n64_k32_wm2_wn2_s4_a1_e1", untuned_us = 16.61 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 1024, n = 1024, k = 1024, kernel = "tileops_gemm_sm90_f16_nk_m64_n64_k64_wm2_wn2_s4_a1_e1",
       us = 13.28, noise = 0.42, runner_up = "tileops_gemm_sm90_f16_nk_m64_n128_k64_wm2_wn2_s3_a1_e1", runner_up_us = 13.92,
       untuned = "tileops_gemm_sm90_f16_nk_m64_n64_k32_wm2_wn2_s4_a1_e1", untuned_us = 15.66 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "kn" }, class = "none",
       m = 1024, n = 1024, k = 1024, kernel = "tileops_gemm_sm90_bf16_kn_m64_n64_k64_wm2_wn2_s4_a1_e1",
       us = 12.91, noise = 0.44, runner_up = "tileops_gemm_sm90_bf16_kn_m64_n128_k64_wm2_wn2_s3_a1_e1", runner_up_us = 13.55,
       untuned = "tileops_gemm_sm90_bf16_kn_m64_n64_k32_wm2_wn2_s4_a1_e1", untuned_us = 15.20 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 1024, n = 1024, k = 1024, kernel = "tileops_gemm_sm90_bf16_nk_m64_n64_k64_wm2_wn2_s4_a1_e1",
       us = 12.98, noise = 0.40, runner_up = "tileops_gemm_sm90_bf16_nk_m128_n64_k64_wm2_wn2_s3_a1_e1", runner_up_us = 13.89,
       untuned = "tileops_gemm_sm90_bf16_nk_m64_n64_k32_wm2_wn2_s4_a1_e1", untuned_us = 15.52 }
entry { op = "gemm", dtype = "f16", variant = { layout = "kn" }, class = "none",
       m = 2048, n = 2048, k = 2048, kernel = "tileops_gemm_wgmma_sm90_f16_kn_m128_n128_k64_s5_wg2_c1_g8_ks1",
       us = 32.06, noise = 0.28, runner_up = "tileops_gemm_wgmma_sm90_f16_kn_m128_n128_k64_s6_wg2_c1_g4_ks1", runner_up_us = 32.16,
       untuned = "tileops_gemm_wgmma_sm90_f16_kn_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 37.76 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 2048, n = 2048, k = 2048, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g8_ks1",
       us = 32.14, noise = 0.26, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g16_ks1", runner_up_us = 32.59,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 38.30 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "kn" }, class = "none",
       m = 2048, n = 2048, k = 2048, kernel = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n128_k64_s6_wg2_c1_g8_ks1",
       us = 31.62, noise = 0.31, runner_up = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n128_k64_s6_wg2_c1_g4_ks1", runner_up_us = 32.16,
       untuned = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 39.47 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 2048, n = 2048, k = 2048, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g16_ks1",
       us = 31.74, noise = 0.30, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s5_wg2_c1_g8_ks1", runner_up_us = 31.79,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 38.11 }
entry { op = "gemm", dtype = "f16", variant = { layout = "kn" }, class = "none",
       m = 4096, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_f16_kn_m128_n256_k64_s4_wg2_c2_g8_ks1",
       us = 200.08, noise = 0.34, runner_up = "tileops_gemm_wgmma_sm90_f16_kn_m128_n256_k64_s3_wg2_c1_g8_ks1", runner_up_us = 199.58,
       untuned = "tileops_gemm_wgmma_sm90_f16_kn_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 200.08 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 4096, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1",
       us = 200.51, noise = 0.38, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s3_wg2_c1_g8_ks1", runner_up_us = 203.92,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 200.51 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "kn" }, class = "none",
       m = 4096, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n256_k64_s4_wg2_c2_g8_ks1",
       us = 196.53, noise = 0.44, runner_up = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n256_k64_s3_wg2_c1_g8_ks1", runner_up_us = 198.59,
       untuned = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 196.53 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 4096, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1",
       us = 197.02, noise = 0.57, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s3_wg2_c1_g8_ks1", runner_up_us = 198.11,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 197.02 }
entry { op = "gemm", dtype = "f16", variant = { layout = "kn" }, class = "none",
       m = 8192, n = 8192, k = 8192, kernel = "tileops_gemm_wgmma_sm90_f16_kn_m128_n256_k64_s4_wg2_c2_g8_ks1",
       us = 1608.22, noise = 116.35, runner_up = "tileops_gemm_wgmma_sm90_f16_kn_m128_n256_k64_s4_wg2_c1_g16_ks1", runner_up_us = 1712.72,
       untuned = "tileops_gemm_wgmma_sm90_f16_kn_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 1608.22 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 8192, n = 8192, k = 8192, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1",
       us = 1558.53, noise = 3.51, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c1_g16_ks1", runner_up_us = 1747.74,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 1558.53 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "kn" }, class = "none",
       m = 8192, n = 8192, k = 8192, kernel = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n256_k64_s4_wg2_c2_g8_ks1",
       us = 1501.06, noise = 2.46, runner_up = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n256_k64_s3_wg2_c1_g8_ks1", runner_up_us = 1701.44,
       untuned = "tileops_gemm_wgmma_sm90_bf16_kn_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 1501.06 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 8192, n = 8192, k = 8192, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1",
       us = 1491.44, noise = 7.42, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s3_wg2_c1_g8_ks1", runner_up_us = 1698.62,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 1491.44 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 1, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 17.09, noise = 0.46, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 16.70,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 17.09 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 1, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 16.21, noise = 0.22, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 16.21,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 16.21 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 1, n = 11008, k = 4096, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s4_a1",
       us = 37.07, noise = 0.40, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s3_a1", runner_up_us = 33.01,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 35.94 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none", exact = true,
       m = 1, n = 11008, k = 4096, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s3_a1",
       us = 33.01, noise = 0.62, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 35.78,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 35.94 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 1, n = 11008, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n64_k128_w4_kw1_s4_a1",
       us = 37.47, noise = 0.54, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s3_a1", runner_up_us = 33.76,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 35.28 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none", exact = true,
       m = 1, n = 11008, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 35.28, noise = 0.69, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s3_a1", runner_up_us = 33.76,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 35.28 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 1, n = 4096, k = 11008, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 33.46, noise = 0.58, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 33.44,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 33.46 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 1, n = 4096, k = 11008, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 33.42, noise = 0.77, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 33.47,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 33.42 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 1, n = 128256, k = 4096, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s3_a1",
       us = 242.62, noise = 0.90, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n128_k128_w4_kw1_s3_a1", runner_up_us = 243.90,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n128_k64_w4_kw1_s6_a1", untuned_us = 254.34 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 1, n = 128256, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s3_a1",
       us = 243.06, noise = 0.78, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n128_k128_w4_kw1_s3_a1", runner_up_us = 243.55,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n128_k64_w4_kw1_s6_a1", untuned_us = 253.62 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 16, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 16.82, noise = 0.36, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 16.75,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 16.82 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 16, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 17.36, noise = 0.51, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 17.41,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 17.36 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 16, n = 11008, k = 4096, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n64_k64_w4_kw1_s6_a1",
       us = 37.60, noise = 0.80, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s3_a1", runner_up_us = 34.00,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 35.87 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none", exact = true,
       m = 16, n = 11008, k = 4096, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s3_a1",
       us = 34.00, noise = 0.58, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1", runner_up_us = 35.87,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 35.87 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 16, n = 11008, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s4_a1",
       us = 36.48, noise = 0.30, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s3_a1", runner_up_us = 34.50,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 35.28 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none", exact = true,
       m = 16, n = 11008, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 35.28, noise = 0.33, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s3_a1", runner_up_us = 34.50,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 35.28 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 16, n = 4096, k = 11008, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 33.02, noise = 0.55, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 33.17,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 33.02 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 16, n = 4096, k = 11008, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 33.76, noise = 0.66, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 33.63,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 33.76 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 16, n = 128256, k = 4096, kernel = "tileops_gemm_small_m_sm90_f16_nk_m16_n128_k128_w4_kw1_s3_a1",
       us = 248.40, noise = 0.85, runner_up = "tileops_gemm_small_m_sm90_f16_nk_m16_n128_k128_w4_kw2_s4_a1", runner_up_us = 250.29,
       untuned = "tileops_gemm_small_m_sm90_f16_nk_m16_n128_k64_w4_kw1_s6_a1", untuned_us = 256.93 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 16, n = 128256, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n128_k128_w4_kw1_s3_a1",
       us = 248.05, noise = 0.88, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s3_a1", runner_up_us = 250.21,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n128_k64_w4_kw1_s6_a1", untuned_us = 258.21 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 128, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g8_ks1",
       us = 25.12, noise = 1.00, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g4_ks1", runner_up_us = 25.01,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g8_ks1", untuned_us = 25.12 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 128, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8_ks1",
       us = 24.70, noise = 0.65, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s4_wg2_c1_g8_ks1", runner_up_us = 24.54,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8_ks1", untuned_us = 24.70 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 128, n = 11008, k = 4096, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g16_ks1",
       us = 36.59, noise = 0.27, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g4_ks1", runner_up_us = 37.20,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g8_ks1", untuned_us = 38.74 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 128, n = 11008, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g4_ks1",
       us = 36.59, noise = 0.23, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8_ks1", runner_up_us = 36.74,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8_ks1", untuned_us = 36.74 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 128, n = 4096, k = 11008, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g8_ks1",
       us = 42.75, noise = 0.80, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g16_ks1", runner_up_us = 42.43,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g8_ks1", untuned_us = 42.75 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 128, n = 4096, k = 11008, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8_ks1",
       us = 42.53, noise = 0.92, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g4_ks1", runner_up_us = 42.37,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8_ks1", untuned_us = 42.53 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 128, n = 128256, k = 4096, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c1_g8_ks1",
       us = 285.25, noise = 2.70, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s6_wg2_c1_g4_ks1", runner_up_us = 289.54,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c1_g8_ks1", untuned_us = 285.25 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 128, n = 128256, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c1_g8_ks1",
       us = 285.44, noise = 2.24, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g4_ks1", runner_up_us = 287.94,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c1_g8_ks1", untuned_us = 285.44 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 4096, n = 11008, k = 4096, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1",
       us = 544.74, noise = 0.95, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n128_k64_s4_wg2_c1_g8_ks1", runner_up_us = 558.27,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 544.74 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 4096, n = 11008, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1",
       us = 531.17, noise = 0.44, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s3_wg2_c1_g8_ks1", runner_up_us = 531.63,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 531.17 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 4096, n = 4096, k = 11008, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1",
       us = 497.86, noise = 4.62, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s3_wg2_c1_g8_ks1", runner_up_us = 505.79,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 497.86 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 4096, n = 4096, k = 11008, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1",
       us = 484.99, noise = 0.55, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s4_wg2_c1_g8_ks1", runner_up_us = 527.87,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 484.99 }
entry { op = "gemm", dtype = "f16", variant = { layout = "nk" }, class = "none",
       m = 4096, n = 128256, k = 4096, kernel = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1",
       us = 7030.90, noise = 90.36, runner_up = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s3_wg2_c1_g8_ks1", runner_up_us = 7061.28,
       untuned = "tileops_gemm_wgmma_sm90_f16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 7030.90 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 4096, n = 128256, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1",
       us = 6919.42, noise = 33.00, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s3_wg2_c1_g8_ks1", runner_up_us = 6918.11,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 6919.42 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 2, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 16.19, noise = 0.21, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 16.14,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 16.19 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 4, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 16.91, noise = 0.47, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 16.53,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 16.91 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 8, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1",
       us = 16.80, noise = 0.45, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s6_a1", runner_up_us = 16.62,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 16.80 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 32, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s4_a1",
       us = 17.46, noise = 0.32, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m32_n32_k256_w2_kw4_s4_a1", runner_up_us = 17.70,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m64_n128_k64_w4_kw1_s4_a1", untuned_us = 21.84 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 64, n = 4096, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m64_n128_k64_w4_kw1_s8_a1",
       us = 21.71, noise = 0.62, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m64_n32_k256_w2_kw4_s4_a1", runner_up_us = 22.18,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m64_n128_k64_w4_kw1_s4_a1", untuned_us = 24.62 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 512, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g16_ks1",
       us = 30.11, noise = 0.45, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g4_ks1", runner_up_us = 30.21,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c2_g8_ks1", untuned_us = 31.71 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 1024, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g16_ks1",
       us = 52.32, noise = 0.29, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8_ks1", runner_up_us = 53.01,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 55.57 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "none",
       m = 2048, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1",
       us = 102.08, noise = 0.44, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s3_wg2_c1_g8_ks1", runner_up_us = 105.89,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 102.08 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "epilogue",
       m = 16, n = 11008, k = 4096, kernel = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s3_a1",
       us = 34.06, noise = 0.41, runner_up = "tileops_gemm_small_m_sm90_bf16_nk_m16_n64_k128_w4_kw1_s3_a1", runner_up_us = 37.49,
       untuned = "tileops_gemm_small_m_sm90_bf16_nk_m16_n32_k256_w2_kw4_s8_a1", untuned_us = 38.66 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "epilogue",
       m = 128, n = 11008, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8_ks1",
       us = 38.67, noise = 0.60, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g4_ks1", runner_up_us = 38.14,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n128_k64_s6_wg2_c1_g8_ks1", untuned_us = 38.67 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "epilogue",
       m = 4096, n = 11008, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1",
       us = 549.42, noise = 1.54, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s3_wg2_c1_g8_ks1", runner_up_us = 559.39,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 549.42 }
entry { op = "gemm", dtype = "bf16", variant = { layout = "nk" }, class = "epilogue",
       m = 4096, n = 4096, k = 4096, kernel = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1",
       us = 203.01, noise = 0.50, runner_up = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s3_wg2_c1_g8_ks1", runner_up_us = 206.05,
       untuned = "tileops_gemm_wgmma_sm90_bf16_nk_m128_n256_k64_s4_wg2_c2_g8_ks1", untuned_us = 203.01 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 4096, kernel = "tileops_softmax_rows_sm90_f32_plain_w4_r1_e32_v1_p0",
       us = 37.68, noise = 0.44, runner_up = "tileops_softmax_staged_sm90_f32_plain_w4_v4_s16_rv5", runner_up_us = 38.35,
       untuned = "tileops_softmax_rows_sm90_f32_plain_w8_r1_e16_v4_p1", untuned_us = 40.61 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 4096, kernel = "tileops_softmax_rows_sm90_f16_plain_w4_r1_e32_v8_p1",
       us = 23.07, noise = 0.51, runner_up = "tileops_softmax_rows_sm90_f16_plain_w4_r1_e64_v8_p1", runner_up_us = 23.47,
       untuned = "tileops_softmax_rows_sm90_f16_plain_w4_r1_e32_v8_p1", untuned_us = 23.07 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 4096, kernel = "tileops_softmax_rows_sm90_bf16_plain_w4_r1_e32_v8_p1",
       us = 22.67, noise = 0.32, runner_up = "tileops_softmax_rows_sm90_bf16_plain_w4_r1_e64_v8_p1", runner_up_us = 23.22,
       untuned = "tileops_softmax_rows_sm90_bf16_plain_w4_r1_e32_v8_p1", untuned_us = 22.67 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 32768, cols = 4096, kernel = "tileops_softmax_rows_sm90_f32_plain_w8_r1_e32_v1_p0",
       us = 258.90, noise = 1.08, runner_up = "tileops_softmax_rows_sm90_f32_plain_w8_r1_e16_v1_p0", runner_up_us = 264.83,
       untuned = "tileops_softmax_rows_sm90_f32_plain_w8_r1_e16_v4_p1", untuned_us = 283.92 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 32768, cols = 4096, kernel = "tileops_softmax_staged_sm90_f16_plain_w4_v8_s16_rv0",
       us = 138.10, noise = 0.44, runner_up = "tileops_softmax_rows_sm90_f16_plain_w4_r1_e32_v8_p1", runner_up_us = 142.59,
       untuned = "tileops_softmax_rows_sm90_f16_plain_w4_r1_e32_v8_p1", untuned_us = 142.59 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 32768, cols = 4096, kernel = "tileops_softmax_rows_sm90_bf16_plain_w4_r1_e32_v8_p1",
       us = 141.94, noise = 0.64, runner_up = "tileops_softmax_rows_sm90_bf16_plain_w4_r1_e64_v8_p1", runner_up_us = 144.14,
       untuned = "tileops_softmax_rows_sm90_bf16_plain_w4_r1_e32_v8_p1", untuned_us = 141.94 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 8192, cols = 32000, kernel = "tileops_softmax_staged_sm90_f32_plain_w16_v4_s96_rv4",
       us = 518.42, noise = 0.66, runner_up = "tileops_softmax_staged_sm90_f32_plain_w16_v4_s96_rv5", runner_up_us = 526.86,
       untuned = "tileops_softmax_staged_sm90_f32_plain_w16_v4_s96_rv4", untuned_us = 518.42 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 8192, cols = 32000, kernel = "tileops_softmax_staged_sm90_f16_plain_w8_v8_s64_rv0",
       us = 269.31, noise = 0.96, runner_up = "tileops_softmax_staged_sm90_f16_plain_w4_v8_s64_rv5", runner_up_us = 265.68,
       untuned = "tileops_softmax_staged_sm90_f16_plain_w8_v8_s64_rv0", untuned_us = 269.31 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 8192, cols = 32000, kernel = "tileops_softmax_staged_sm90_bf16_plain_w8_v8_s64_rv0",
       us = 269.26, noise = 1.00, runner_up = "tileops_softmax_staged_sm90_bf16_plain_w4_v8_s64_rv0", runner_up_us = 265.04,
       untuned = "tileops_softmax_staged_sm90_bf16_plain_w8_v8_s64_rv0", untuned_us = 269.26 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 128256, kernel = "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s64_rv5",
       us = 1079.62, noise = 2.42, runner_up = "tileops_softmax_split_sm90_f32_plain_w8_e32_v4_s64_rv5", runner_up_us = 1079.57,
       untuned = "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s64_rv5", untuned_us = 1079.62 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 128256, kernel = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s64_rv5",
       us = 549.26, noise = 0.84, runner_up = "tileops_softmax_split_sm90_f16_plain_w8_e16_v8_s64_rv5", runner_up_us = 549.66,
       untuned = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s64_rv5", untuned_us = 549.26 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 128256, kernel = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s64_rv5",
       us = 554.03, noise = 0.93, runner_up = "tileops_softmax_split_sm90_bf16_plain_w8_e32_v8_s64_rv5", runner_up_us = 554.06,
       untuned = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s64_rv5", untuned_us = 554.03 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 65536, cols = 1024, kernel = "tileops_softmax_rows_sm90_f32_plain_w1_r1_e32_v4_p0",
       us = 131.63, noise = 0.75, runner_up = "tileops_softmax_rows_sm90_f32_plain_w1_r1_e32_v1_p0", runner_up_us = 131.86,
       untuned = "tileops_softmax_rows_sm90_f32_plain_w1_r4_e32_v4_p0", untuned_us = 134.46 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 65536, cols = 1024, kernel = "tileops_softmax_rows_sm90_f16_plain_w1_r4_e32_v8_p0",
       us = 69.92, noise = 0.64, runner_up = "tileops_softmax_rows_sm90_f16_plain_w1_r2_e32_v8_p0", runner_up_us = 69.04,
       untuned = "tileops_softmax_rows_sm90_f16_plain_w1_r4_e32_v8_p0", untuned_us = 69.92 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 65536, cols = 1024, kernel = "tileops_softmax_rows_sm90_bf16_plain_w1_r4_e32_v8_p0",
       us = 70.26, noise = 0.88, runner_up = "tileops_softmax_rows_sm90_bf16_plain_w1_r1_e32_v8_p0", runner_up_us = 69.23,
       untuned = "tileops_softmax_rows_sm90_bf16_plain_w1_r4_e32_v8_p0", untuned_us = 70.26 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 4, cols = 1048576, kernel = "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s32_rv0",
       us = 16.69, noise = 0.32, runner_up = "tileops_softmax_split_sm90_f32_plain_w8_e16_v4_s32_rv0", runner_up_us = 16.90,
       untuned = "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s32_rv0", untuned_us = 16.69 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 4, cols = 1048576, kernel = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s16_rv0",
       us = 12.91, noise = 0.41, runner_up = "tileops_softmax_split_sm90_f16_plain_w16_e8_v8_s32_rv0", runner_up_us = 12.14,
       untuned = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s16_rv0", untuned_us = 12.91 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 4, cols = 1048576, kernel = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s16_rv0",
       us = 12.99, noise = 0.42, runner_up = "tileops_softmax_split_sm90_bf16_plain_w8_e16_v8_s16_rv0", runner_up_us = 12.70,
       untuned = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s16_rv0", untuned_us = 12.99 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 32001, kernel = "tileops_softmax_staged_sm90_f32_plain_w16_v4_s96_rv4",
       us = 274.94, noise = 0.79, runner_up = "tileops_softmax_staged_sm90_f32_plain_w16_v4_s96_rv5", runner_up_us = 280.21,
       untuned = "tileops_softmax_staged_sm90_f32_plain_w16_v4_s96_rv4", untuned_us = 274.94 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 32001, kernel = "tileops_softmax_staged_sm90_f16_plain_w8_v8_s64_rv0",
       us = 142.59, noise = 0.76, runner_up = "tileops_softmax_staged_sm90_f16_plain_w8_v8_s64_rv3", runner_up_us = 142.82,
       untuned = "tileops_softmax_staged_sm90_f16_plain_w8_v8_s64_rv0", untuned_us = 142.59 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 4096, cols = 32001, kernel = "tileops_softmax_staged_sm90_bf16_plain_w8_v8_s64_rv0",
       us = 142.48, noise = 0.80, runner_up = "tileops_softmax_staged_sm90_bf16_plain_w8_v8_s64_rv3", runner_up_us = 143.25,
       untuned = "tileops_softmax_staged_sm90_bf16_plain_w8_v8_s64_rv0", untuned_us = 142.48 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 2048, cols = 100003, kernel = "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s64_rv5",
       us = 433.73, noise = 0.96, runner_up = "tileops_softmax_split_sm90_f32_plain_w8_e32_v4_s64_rv5", runner_up_us = 434.02,
       untuned = "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s64_rv5", untuned_us = 433.73 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 2048, cols = 100003, kernel = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s64_rv5",
       us = 236.51, noise = 0.77, runner_up = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s64_rv4", runner_up_us = 236.43,
       untuned = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s64_rv5", untuned_us = 236.51 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 2048, cols = 100003, kernel = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s64_rv5",
       us = 242.53, noise = 0.85, runner_up = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s64_rv3", runner_up_us = 241.22,
       untuned = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s64_rv5", untuned_us = 242.53 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 1, cols = 32000, kernel = "tileops_softmax_split_sm90_f32_plain_w16_e4_v4_s16_rv0",
       us = 6.96, noise = 0.40, runner_up = "tileops_softmax_split_sm90_f32_plain_w8_e8_v4_s16_rv0", runner_up_us = 6.98,
       untuned = "tileops_softmax_staged_sm90_f32_plain_w16_v4_s96_rv4", untuned_us = 9.73 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 1, cols = 32000, kernel = "tileops_softmax_split_sm90_f16_plain_w16_e8_v8_s16_rv0",
       us = 6.74, noise = 0.23, runner_up = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s16_rv0", runner_up_us = 6.77,
       untuned = "tileops_softmax_staged_sm90_f16_plain_w8_v8_s64_rv0", untuned_us = 8.86 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 1, cols = 32000, kernel = "tileops_softmax_split_sm90_bf16_plain_w8_e16_v8_s16_rv0",
       us = 7.14, noise = 0.42, runner_up = "tileops_softmax_split_sm90_bf16_plain_w16_e8_v8_s16_rv0", runner_up_us = 7.15,
       untuned = "tileops_softmax_staged_sm90_bf16_plain_w8_v8_s64_rv0", untuned_us = 9.47 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 16, cols = 128256, kernel = "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s16_rv0",
       us = 11.71, noise = 0.24, runner_up = "tileops_softmax_split_sm90_f32_plain_w16_e4_v4_s32_rv0", runner_up_us = 11.60,
       untuned = "tileops_softmax_split_sm90_f32_plain_w8_e4_v4_s16_rv0", untuned_us = 11.71 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 16, cols = 128256, kernel = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s16_rv0",
       us = 9.94, noise = 0.36, runner_up = "tileops_softmax_split_sm90_f16_plain_w8_e32_v8_s16_rv0", runner_up_us = 9.55,
       untuned = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s16_rv0", untuned_us = 9.94 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 16, cols = 128256, kernel = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s16_rv0",
       us = 9.39, noise = 0.20, runner_up = "tileops_softmax_split_sm90_bf16_plain_w8_e32_v8_s16_rv0", runner_up_us = 9.34,
       untuned = "tileops_softmax_split_sm90_bf16_plain_w8_e8_v8_s16_rv0", untuned_us = 9.39 }
entry { op = "softmax", dtype = "f32", variant = { mode = "plain" }, class = "plain",
       rows = 64, cols = 32000, kernel = "tileops_softmax_staged_sm90_f32_plain_w16_v4_s96_rv4",
       us = 11.87, noise = 0.48, runner_up = "tileops_softmax_staged_sm90_f32_plain_w16_v4_s96_rv5", runner_up_us = 11.79,
       untuned = "tileops_softmax_staged_sm90_f32_plain_w16_v4_s96_rv4", untuned_us = 11.87 }
entry { op = "softmax", dtype = "f16", variant = { mode = "plain" }, class = "plain",
       rows = 64, cols = 32000, kernel = "tileops_softmax_split_sm90_f16_plain_w8_e8_v8_s16_rv0",
       us = 9.23, noise = 0.27, runner_up = "tileops_softmax_split_sm90_f16_plain_w8_e32_v8_s16_rv0", runner_up_us = 9.30,
       untuned = "tileops_softmax_staged_sm90_f16_plain_w8_v8_s64_rv0", untuned_us = 10.26 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "plain" }, class = "plain",
       rows = 64, cols = 32000, kernel = "tileops_softmax_staged_sm90_bf16_plain_w8_v8_s64_rv0",
       us = 11.07, noise = 0.44, runner_up = "tileops_softmax_split_sm90_bf16_plain_w8_e32_v8_s16_rv0", runner_up_us = 9.73,
       untuned = "tileops_softmax_staged_sm90_bf16_plain_w8_v8_s64_rv0", untuned_us = 11.07 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "log" }, class = "plain",
       rows = 4096, cols = 4096, kernel = "tileops_softmax_rows_sm90_bf16_log_w4_r1_e32_v8_p1",
       us = 22.21, noise = 0.32, runner_up = "tileops_softmax_rows_sm90_bf16_log_w4_r1_e64_v8_p1", runner_up_us = 23.01,
       untuned = "tileops_softmax_rows_sm90_bf16_log_w4_r1_e32_v8_p1", untuned_us = 22.21 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "log" }, class = "plain",
       rows = 8192, cols = 32000, kernel = "tileops_softmax_staged_sm90_bf16_log_w16_v8_s64_rv0",
       us = 260.58, noise = 0.85, runner_up = "tileops_softmax_staged_sm90_bf16_log_w4_v8_s64_rv5", runner_up_us = 265.97,
       untuned = "tileops_softmax_staged_sm90_bf16_log_w8_v8_s64_rv0", untuned_us = 269.12 }
entry { op = "softmax", dtype = "bf16", variant = { mode = "log" }, class = "plain",
       rows = 4096, cols = 128256, kernel = "tileops_softmax_split_sm90_bf16_log_w8_e8_v8_s64_rv5",
       us = 545.26, noise = 0.91, runner_up = "tileops_softmax_split_sm90_bf16_log_w8_e16_v8_s64_rv5", runner_up_us = 545.06,
       untuned = "tileops_softmax_split_sm90_bf16_log_w8_e8_v8_s64_rv5", untuned_us = 545.26 }
entry { op = "vector_add", dtype = "f32", class = "plain",
       n = 4096, kernel = "tileops_vector_add_sm90_f32_t256_v4_u4",
       us = 5.30, noise = 0.46, runner_up = "tileops_vector_add_sm90_f32_t256_v1_u2", runner_up_us = 4.51,
       untuned = "tileops_vector_add_sm90_f32_t256_v4_u4", untuned_us = 5.30 }
entry { op = "vector_add", dtype = "f32", class = "plain",
       n = 1048576, kernel = "tileops_vector_add_sm90_f32_t256_v4_u4",
       us = 8.03, noise = 0.23, runner_up = "tileops_vector_add_sm90_f32_t256_v4_u1", runner_up_us = 7.86,
       untuned = "tileops_vector_add_sm90_f32_t256_v4_u4", untuned_us = 8.03 }
entry { op = "vector_add", dtype = "f32", class = "plain",
       n = 16777216, kernel = "tileops_vector_add_sm90_f32_t256_v4_u4",
       us = 53.76, noise = 0.82, runner_up = "tileops_vector_add_sm90_f32_t256_v4_u1", runner_up_us = 53.25,
       untuned = "tileops_vector_add_sm90_f32_t256_v4_u4", untuned_us = 53.76 }
entry { op = "vector_add", dtype = "f32", class = "plain",
       n = 268435456, kernel = "tileops_vector_add_sm90_f32_t256_v4_u4",
       us = 741.33, noise = 0.57, runner_up = "tileops_vector_add_sm90_f32_t256_v1_u4", runner_up_us = 734.66,
       untuned = "tileops_vector_add_sm90_f32_t256_v4_u4", untuned_us = 741.33 }
entry { op = "vector_add", dtype = "f16", class = "plain",
       n = 4096, kernel = "tileops_vector_add_sm90_f16_t256_v8_u4",
       us = 4.78, noise = 0.37, runner_up = "tileops_vector_add_sm90_f16_t128_v1_u4", runner_up_us = 4.54,
       untuned = "tileops_vector_add_sm90_f16_t256_v8_u4", untuned_us = 4.78 }
entry { op = "vector_add", dtype = "f16", class = "plain",
       n = 1048576, kernel = "tileops_vector_add_sm90_f16_t256_v8_u4",
       us = 6.59, noise = 0.17, runner_up = "tileops_vector_add_sm90_f16_t256_v8_u1", runner_up_us = 6.37,
       untuned = "tileops_vector_add_sm90_f16_t256_v8_u4", untuned_us = 6.59 }
entry { op = "vector_add", dtype = "f16", class = "plain",
       n = 16777216, kernel = "tileops_vector_add_sm90_f16_t256_v8_u4",
       us = 30.29, noise = 0.57, runner_up = "tileops_vector_add_sm90_f16_t256_v2_u4", runner_up_us = 30.03,
       untuned = "tileops_vector_add_sm90_f16_t256_v8_u4", untuned_us = 30.29 }
entry { op = "vector_add", dtype = "f16", class = "plain",
       n = 268435456, kernel = "tileops_vector_add_sm90_f16_t256_v8_u4",
       us = 373.74, noise = 0.68, runner_up = "tileops_vector_add_sm90_f16_t256_v8_u1", runner_up_us = 370.69,
       untuned = "tileops_vector_add_sm90_f16_t256_v8_u4", untuned_us = 373.74 }
entry { op = "vector_add", dtype = "bf16", class = "plain",
       n = 4096, kernel = "tileops_vector_add_sm90_bf16_t256_v8_u4",
       us = 5.04, noise = 0.41, runner_up = "tileops_vector_add_sm90_bf16_t256_v1_u2", runner_up_us = 4.46,
       untuned = "tileops_vector_add_sm90_bf16_t256_v8_u4", untuned_us = 5.04 }
entry { op = "vector_add", dtype = "bf16", class = "plain",
       n = 1048576, kernel = "tileops_vector_add_sm90_bf16_t256_v8_u4",
       us = 6.51, noise = 0.22, runner_up = "tileops_vector_add_sm90_bf16_t128_v8_u4", runner_up_us = 6.37,
       untuned = "tileops_vector_add_sm90_bf16_t256_v8_u4", untuned_us = 6.51 }
entry { op = "vector_add", dtype = "bf16", class = "plain",
       n = 16777216, kernel = "tileops_vector_add_sm90_bf16_t256_v8_u4",
       us = 31.01, noise = 0.50, runner_up = "tileops_vector_add_sm90_bf16_t256_v8_u1", runner_up_us = 30.05,
       untuned = "tileops_vector_add_sm90_bf16_t256_v8_u4", untuned_us = 31.01 }
entry { op = "vector_add", dtype = "bf16", class = "plain",
       n = 268435456, kernel = "tileops_vector_add_sm90_bf16_t256_v8_u4",
       us = 373.07, noise = 0.74, runner_up = "tileops_vector_add_sm90_bf16_t512_v8_u4", runner_up_us = 369.52,
       untuned = "tileops_vector_add_sm90_bf16_t256_v8_u4", untuned_us = 373.07 }
