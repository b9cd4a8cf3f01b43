# --steps from standard input streams the records (read twice through a
# temporary copy), with the warm-up known.
args: parse --steps -
stdin: tests/fixtures/training/megatron-after-training.log
exit: 0
--- stdout
{"consumed_samples":2560,"elapsed_ms_per_iter":1000.0,"file":"-","global_batch_size":256,"grad_norm":0.512,"learning_rate":0.0001,"line":1,"lm_loss":4.9,"loss_scale":1.0,"nan_iterations":0,"skipped_iterations":0,"step":10,"tflops_per_gpu":400.0,"total":35,"warmup":true}
{"consumed_samples":5120,"elapsed_ms_per_iter":1000.0,"file":"-","global_batch_size":256,"grad_norm":0.512,"learning_rate":0.0001,"line":2,"lm_loss":4.8,"loss_scale":1.0,"nan_iterations":0,"skipped_iterations":0,"step":20,"tflops_per_gpu":400.0,"total":35,"warmup":true}
{"consumed_samples":7680,"elapsed_ms_per_iter":1000.0,"file":"-","global_batch_size":256,"grad_norm":0.512,"learning_rate":0.0001,"line":3,"lm_loss":4.7,"loss_scale":1.0,"nan_iterations":0,"skipped_iterations":0,"step":30,"tflops_per_gpu":400.0,"total":35,"warmup":false}
--- stderr
