# --json prints one verdict object per line
args: gate --json --thresholds tests/fixtures/gate/thresholds.json tests/fixtures/gate/primus-complete.ndjson
exit: 0
--- stdout
{"gate":"threshold","message":"508.75 >= 500","metric":"tflops_per_gpu/steady_mean","series_key":"ae8ae55c50377bedc29d7fee7161aeb669e323277098ddfb8ab6fee2cf5581cf","spec":">= 500","status":"PASS","unit":"TFLOP/s/GPU","value":508.75}
{"gate":"threshold","message":"585 <= 588","metric":"elapsed_ms_per_iter/steady_mean","series_key":"ddaf92c833b8479ff342e17ab95640e2217e1fd11ea31d297210f9c335d03c9a","spec":"<= 588 (560 + 5%)","status":"PASS","unit":"ms","value":585.0}
{"gate":"threshold","message":"7150 is within [6958, 7242]","metric":"tokens_per_gpu/steady_mean","series_key":"de33073b30659e09c36c5fe00f42f8a888e9b0090c011c715e4b826f37997872","spec":"7100 +/- 2%","status":"PASS","unit":"tokens/s/GPU","value":7150.0}
{"gate":"threshold","message":"info: recorded","metric":"mem_usage_ratio/max","series_key":"72e1f407c61c05385053ffdfb080e6be3da6b20ad66185e2dac1c077fad97ae2","spec":"info","status":"RECORD","unit":"ratio","value":0.5933}
{"gate":"threshold","message":"missing (optional)","metric":"eval_lm_loss/last","spec":"<= 9","status":"SKIPPED","unit":"","value":null}
{"gate":"threshold","message":"no threshold","metric":"elapsed_ms_per_iter/steady_median","series_key":"cb7a2735645d98ecd99727d2468d45ee15803d1a5c148cfbb0b45d7746fa528a","spec":"","status":"RECORD","unit":"ms","value":585.0}
{"gate":"threshold","message":"no threshold","metric":"elapsed_ms_per_iter/running_avg","series_key":"ae0c5baacdaa7cf7c32a2f3180d09bffc7fc6e76d12fbf364bd935aab6948ca1","spec":"","status":"RECORD","unit":"ms","value":585.2}
{"gate":"threshold","message":"no threshold","metric":"tflops_per_gpu/steady_median","series_key":"a8ba0eba17ff2c2e5316aa4641d92dfac82053124e926b70f2c9573a57c4bd59","spec":"","status":"RECORD","unit":"TFLOP/s/GPU","value":507.5}
{"gate":"threshold","message":"no threshold","metric":"tflops_per_gpu/running_avg","series_key":"bf484abc7d2f184b499b72cdfe739961805a184fc395f47ec6379e38302034a6","spec":"","status":"RECORD","unit":"TFLOP/s/GPU","value":509.0}
{"gate":"threshold","message":"no threshold","metric":"tokens_per_gpu/steady_median","series_key":"6308bc71ff51324f39297e200d19ac1c7843aa236786ceb05f1516a10f0bd2e2","spec":"","status":"RECORD","unit":"tokens/s/GPU","value":7150.0}
{"gate":"threshold","message":"no threshold","metric":"tokens_per_gpu/running_avg","series_key":"903a010dfcf4c22b07bed8871846aa9cbe7fd933928f88eeff48b83d1a67e2c9","spec":"","status":"RECORD","unit":"tokens/s/GPU","value":7139.3}
{"gate":"threshold","message":"no threshold","metric":"lm_loss/last","series_key":"90612042ff8c6205b4df90089710bd95d904e8362098403755390f8ff9bf0476","spec":"","status":"RECORD","unit":"nats","value":10.1}
{"gate":"threshold","message":"no threshold","metric":"mem_used_gb/max","series_key":"e1efc58fb22b5b4f2c40ba4b13a84fbbc172bb9d30969a71bdeb336805baa3f6","spec":"","status":"RECORD","unit":"GB","value":170.86}
{"gate":"threshold","message":"no threshold","metric":"rocm_mem_usage_ratio/max","series_key":"a42ae3bed3fdb70d2a9f58a5fb84b1e5fe7e985baa7f9874f5bbf7daea9c3079","spec":"","status":"RECORD","unit":"ratio","value":0.598}
{"gate":"threshold","message":"no threshold","metric":"rocm_mem_used_gb/max","series_key":"af91f43bc0b0957891fbb76794f6a55d6f95593b9c96a18b10898337ac93b470","spec":"","status":"RECORD","unit":"GB","value":172.22}
{"gate":"threshold","message":"no threshold","metric":"mem_max_allocated_mb/max","series_key":"a8bbc48f4168c7dcbe2a8a90515610bcdd881af7a57857bce2f227defda45396","spec":"","status":"RECORD","unit":"MB","value":121964.93}
{"gate":"threshold","message":"no threshold","metric":"mem_max_reserved_mb/max","series_key":"15892157c1dfb168be8b8a15dd4ba7e6562ea34c12ca4d6cb7ba3d145ecb26a9","spec":"","status":"RECORD","unit":"MB","value":159578.0}
{"gate":"threshold","message":"no threshold","metric":"skipped_iterations/total","series_key":"6d7a62fca4440475abf8de2a26ccc13a9c6c594748cd87c084175020d20e68fc","spec":"","status":"RECORD","unit":"iterations","value":0.0}
{"gate":"threshold","message":"no threshold","metric":"nan_iterations/total","series_key":"fc0f6e94ac69e1aaf8068a9e5ac287b6258a7acfac9ce21dfc388cc4e718d4b0","spec":"","status":"RECORD","unit":"iterations","value":0.0}
--- stderr
