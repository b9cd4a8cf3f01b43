# - reads standard input
args: parse --input-format megatron -
exit: 0
stdin: tests/data/training/megatron-save.log
--- stdout
{"case_id":null,"direction":"lower","metric":"elapsed_ms_per_iter","revision":null,"run_id":null,"samples":2,"series":{"metric":"elapsed_ms_per_iter","statistic":"steady_mean"},"series_key":"f9308bf0328ea1defaf39bf6618e13b3b112afb8facf7130b2d10b15198de563","statistic":"steady_mean","timestamp":null,"unit":"ms","value":1000.0}
{"case_id":null,"direction":"lower","metric":"elapsed_ms_per_iter","revision":null,"run_id":null,"samples":2,"series":{"metric":"elapsed_ms_per_iter","statistic":"steady_median"},"series_key":"4d374b9de44a2b263b79785bb44a38c7ad8c582ad070902d807d4fb67c4c447f","statistic":"steady_median","timestamp":null,"unit":"ms","value":1000.0}
{"case_id":null,"direction":"higher","metric":"tflops_per_gpu","revision":null,"run_id":null,"samples":2,"series":{"metric":"tflops_per_gpu","statistic":"steady_mean"},"series_key":"5d6ef8581ee0dc0d38b1cecfc6c45c9f7c205251de3af6cc300addfa90e536ea","statistic":"steady_mean","timestamp":null,"unit":"TFLOP/s/GPU","value":350.0}
{"case_id":null,"direction":"higher","metric":"tflops_per_gpu","revision":null,"run_id":null,"samples":2,"series":{"metric":"tflops_per_gpu","statistic":"steady_median"},"series_key":"86f4e7f1892a43764f879e75bed3d971a24f45bbe3369214d91a3b32c89c7ba2","statistic":"steady_median","timestamp":null,"unit":"TFLOP/s/GPU","value":350.0}
{"case_id":null,"direction":"lower","metric":"lm_loss","revision":null,"run_id":null,"samples":1,"series":{"metric":"lm_loss","statistic":"last"},"series_key":"89b18016068fd324948041ffe01c1cd97c0b4c567db6f624bf07c59cd946272a","statistic":"last","timestamp":null,"unit":"nats","value":8.8}
{"case_id":null,"direction":"lower","metric":"checkpoint_save_ms","revision":null,"run_id":null,"samples":2,"series":{"metric":"checkpoint_save_ms","statistic":"max"},"series_key":"e0520a814b2883a5eb2de51b44cd3eda00db926539d0b3d516aec020a8c2dfc6","statistic":"max","timestamp":null,"unit":"ms","value":2316.02}
{"case_id":null,"direction":"lower","metric":"checkpoint_save_ms","revision":null,"run_id":null,"samples":2,"series":{"metric":"checkpoint_save_ms","statistic":"mean"},"series_key":"f9d0f32d780958d12a0e6dc48022d060f8747e104f79fa33ca19d180a8c64482","statistic":"mean","timestamp":null,"unit":"ms","value":2308.745}
{"case_id":null,"direction":"lower","metric":"skipped_iterations","revision":null,"run_id":null,"samples":4,"series":{"metric":"skipped_iterations","statistic":"total"},"series_key":"67acb68dd3c4cfa30feb53f5dd04df37ed7f4d76cae4f97fcde06965cf97ff71","statistic":"total","timestamp":null,"unit":"iterations","value":0.0}
{"case_id":null,"direction":"lower","metric":"nan_iterations","revision":null,"run_id":null,"samples":4,"series":{"metric":"nan_iterations","statistic":"total"},"series_key":"ed714768f278c7aa02617f135c356cf2686387b610cecc0ae7d7c3adaa03bd5e","statistic":"total","timestamp":null,"unit":"iterations","value":0.0}
--- stderr
