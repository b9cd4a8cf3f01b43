# --input-format megatron on a Primus log: the Primus-only fields are not read, and
# a warning names the first Primus line (issue 15: never dropped silently)
args: parse --input-format megatron tests/fixtures/training/primus-complete.log
exit: 0
--- stdout-grep
"metric":"tflops_per_gpu"
--- stderr
tests/fixtures/training/primus-complete.log: warning: line 2 is a Primus line; its Primus fields were not read (use --input-format primus or auto)
