# TorchTitan's fallback patterns (ROCm/cvs dddd914, torchtitan_lib.py, TRAINING_RESULT_PATTERNS):
# "tok/s:" when no "tps:", "mem: X GB" when no "memory: X GiB", any case; "1.2.3" is counted unreadable
# and left out of the mean (CVS's float() fails on it: the gate fails the run).
args: parse tests/fixtures/training/torchtitan-fallback.log
exit: 0
--- stdout
{"case_id":null,"direction":"higher","metric":"tokens_per_sec","revision":null,"run_id":null,"samples":2,"series":{"metric":"tokens_per_sec","statistic":"cvs_mean","workload":"torchtitan"},"series_key":"75b379fcfe63fee914b598fce06c9c0066a78e292cd8a33040aaad8242496f96","statistic":"cvs_mean","timestamp":null,"unit":"tokens/s/GPU","value":9050.0}
{"case_id":null,"direction":"higher","metric":"tokens_per_sec","revision":null,"run_id":null,"samples":1,"series":{"metric":"tokens_per_sec","statistic":"last","workload":"torchtitan"},"series_key":"9a98038af56d653ef27e06bc2926f632bd0fd9e6dd1cf6fb64a0582dd3ef4ef0","statistic":"last","timestamp":null,"unit":"tokens/s/GPU","value":9100.0}
{"case_id":null,"direction":"lower","metric":"loss","revision":null,"run_id":null,"samples":1,"series":{"metric":"loss","statistic":"last","workload":"torchtitan"},"series_key":"00db915acf5d75cbe3cf8ff311a7787f3d17b42558bb80d5168233466c756079","statistic":"last","timestamp":null,"unit":"nats","value":9.5}
{"case_id":null,"direction":"lower","metric":"loss","revision":null,"run_id":null,"samples":1,"series":{"metric":"loss","statistic":"first","workload":"torchtitan"},"series_key":"a38b91f70ad8f1127546f5c7cf390e4037ac06c35e7a136f24399b9f6ad73902","statistic":"first","timestamp":null,"unit":"nats","value":10.9}
{"case_id":null,"direction":"lower","metric":"mem_usage_gb","revision":null,"run_id":null,"samples":4,"series":{"metric":"mem_usage_gb","statistic":"max","workload":"torchtitan"},"series_key":"baca8026942f78bc2e2666dd034dc2db62a366307690c036527f8a81284071c8","statistic":"max","timestamp":null,"unit":"GB","value":41.3}
{"case_id":null,"direction":"higher","metric":"steps","revision":null,"run_id":null,"samples":1,"series":{"metric":"steps","statistic":"max","workload":"torchtitan"},"series_key":"5ec349f4ed10a58e129de207030cae716e9f56afbfbd20241fae670aa2978f35","statistic":"max","timestamp":null,"unit":"steps","value":4.0}
{"case_id":null,"direction":"lower","metric":"nonfinite","revision":null,"run_id":null,"samples":1,"series":{"metric":"nonfinite","statistic":"total","workload":"torchtitan"},"series_key":"e7550d087564e869b02bb935c9fe88fc21b6f312e57746209f21b2ed4c4f6753","statistic":"total","timestamp":null,"unit":"lines","value":0.0}
{"case_id":null,"direction":"lower","metric":"unreadable","revision":null,"run_id":null,"samples":1,"series":{"metric":"unreadable","statistic":"total","workload":"torchtitan"},"series_key":"8adc40051b18e91ae152032168992cfecbd9627de2a622c152d58faf01b81ff0","statistic":"total","timestamp":null,"unit":"values","value":1.0}
--- stderr
