# train_iters not a multiple of log_interval: no "iteration N/N" line, but
# Megatron-LM's "[after training is done]" says it finished (issue 15).
args: parse tests/fixtures/training/megatron-after-training.log
exit: 0
--- stdout-grep
"metric":"elapsed_ms_per_iter"
--- stderr
