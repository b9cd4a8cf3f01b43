# --json prints one verdict object per line
args: gate --json --thresholds tests/data/gate/thresholds.json tests/data/gate/primus-complete.ndjson
exit: 0
--- stdout
{"gate":"threshold","message":"508.75 >= 500","metric":"tflops_per_gpu/steady_mean","spec":">= 500","status":"PASS","unit":"TFLOP/s/GPU","value":508.75}
{"gate":"threshold","message":"585 <= 588","metric":"elapsed_ms_per_iter/steady_mean","spec":"<= 588 (560 + 5%)","status":"PASS","unit":"ms","value":585.0}
{"gate":"threshold","message":"7150 is within [6958, 7242]","metric":"tokens_per_gpu/steady_mean","spec":"7100 +/- 2%","status":"PASS","unit":"tokens/s/GPU","value":7150.0}
{"gate":"threshold","message":"info: recorded","metric":"mem_usage_ratio/max","spec":"info","status":"RECORD","unit":"ratio","value":0.5933}
{"gate":"threshold","message":"missing (optional)","metric":"eval_lm_loss/last","spec":"<= 9","status":"SKIPPED","unit":"","value":null}
{"gate":"threshold","message":"no threshold","metric":"elapsed_ms_per_iter/steady_median","spec":"","status":"RECORD","unit":"ms","value":585.0}
{"gate":"threshold","message":"no threshold","metric":"elapsed_ms_per_iter/running_avg","spec":"","status":"RECORD","unit":"ms","value":585.2}
{"gate":"threshold","message":"no threshold","metric":"tflops_per_gpu/steady_median","spec":"","status":"RECORD","unit":"TFLOP/s/GPU","value":507.5}
{"gate":"threshold","message":"no threshold","metric":"tflops_per_gpu/running_avg","spec":"","status":"RECORD","unit":"TFLOP/s/GPU","value":509.0}
{"gate":"threshold","message":"no threshold","metric":"tokens_per_gpu/steady_median","spec":"","status":"RECORD","unit":"tokens/s/GPU","value":7150.0}
{"gate":"threshold","message":"no threshold","metric":"tokens_per_gpu/running_avg","spec":"","status":"RECORD","unit":"tokens/s/GPU","value":7139.3}
{"gate":"threshold","message":"no threshold","metric":"lm_loss/last","spec":"","status":"RECORD","unit":"nats","value":10.1}
{"gate":"threshold","message":"no threshold","metric":"mem_used_gb/max","spec":"","status":"RECORD","unit":"GB","value":170.86}
{"gate":"threshold","message":"no threshold","metric":"rocm_mem_usage_ratio/max","spec":"","status":"RECORD","unit":"ratio","value":0.598}
{"gate":"threshold","message":"no threshold","metric":"rocm_mem_used_gb/max","spec":"","status":"RECORD","unit":"GB","value":172.22}
{"gate":"threshold","message":"no threshold","metric":"mem_max_allocated_mb/max","spec":"","status":"RECORD","unit":"MB","value":121964.93}
{"gate":"threshold","message":"no threshold","metric":"mem_max_reserved_mb/max","spec":"","status":"RECORD","unit":"MB","value":159578.0}
{"gate":"threshold","message":"no threshold","metric":"skipped_iterations/total","spec":"","status":"RECORD","unit":"iterations","value":0.0}
{"gate":"threshold","message":"no threshold","metric":"nan_iterations/total","spec":"","status":"RECORD","unit":"iterations","value":0.0}
--- stderr
