# --steps prints one record per logged step, warm-up marked
args: parse --steps tests/fixtures/training/megatron-rocm.log
exit: 0
--- stdout
{"consumed_samples":16,"elapsed_ms_per_iter":5200.0,"file":"tests/fixtures/training/megatron-rocm.log","global_batch_size":16,"grad_norm":2.5,"learning_rate":0.0001,"line":1,"lm_loss":11.2,"loss_scale":1.0,"mem_usage_ratio":0.4102,"nan_iterations":0,"skipped_iterations":0,"step":1,"total":6,"warmup":true}
{"consumed_samples":32,"elapsed_ms_per_iter":900.0,"file":"tests/fixtures/training/megatron-rocm.log","global_batch_size":16,"grad_norm":2.5,"learning_rate":0.0001,"line":2,"lm_loss":10.9,"loss_scale":1.0,"mem_usage_ratio":0.6011,"nan_iterations":0,"skipped_iterations":0,"step":2,"tflops_per_gpu":380.5,"total":6,"warmup":true}
{"consumed_samples":48,"elapsed_ms_per_iter":820.0,"file":"tests/fixtures/training/megatron-rocm.log","global_batch_size":16,"grad_norm":2.5,"learning_rate":0.0001,"line":3,"lm_loss":10.5,"loss_scale":1.0,"mem_usage_ratio":0.6123,"nan_iterations":0,"skipped_iterations":0,"step":3,"tflops_per_gpu":401.0,"total":6,"warmup":false}
{"consumed_samples":64,"elapsed_ms_per_iter":810.0,"file":"tests/fixtures/training/megatron-rocm.log","global_batch_size":16,"grad_norm":2.5,"learning_rate":0.0001,"line":4,"lm_loss":10.2,"loss_scale":1.0,"mem_usage_ratio":0.6123,"nan_iterations":0,"skipped_iterations":0,"step":4,"tflops_per_gpu":404.2,"total":6,"warmup":false}
{"consumed_samples":80,"elapsed_ms_per_iter":815.0,"file":"tests/fixtures/training/megatron-rocm.log","global_batch_size":16,"grad_norm":2.5,"learning_rate":0.0001,"line":5,"lm_loss":10.0,"loss_scale":1.0,"mem_usage_ratio":0.612,"nan_iterations":0,"skipped_iterations":0,"step":5,"tflops_per_gpu":402.1,"total":6,"warmup":false}
{"consumed_samples":96,"elapsed_ms_per_iter":805.0,"file":"tests/fixtures/training/megatron-rocm.log","global_batch_size":16,"grad_norm":2.5,"learning_rate":0.0001,"line":6,"lm_loss":9.8,"loss_scale":1.0,"mem_usage_ratio":0.6123,"nan_iterations":0,"skipped_iterations":0,"step":6,"tflops_per_gpu":405.3,"total":6,"warmup":false}
--- stderr
