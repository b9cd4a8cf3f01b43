# A suite written from a CVS training config (docs/migrating.md) names CVS's
# unchanged threshold file: every cell is used, so it loads and dry-runs
args: run --dry-run configs/examples/from-cvs-llama-3.1-8b.json
exit: 0
--- stdout
[1/4] llama3-1-8b-mi325-bs128-mbs4-fp8
  bash train_llama3_8b.sh --micro-batch-size 4 --global-batch-size 128 --precision FP8 --seq-length 8192 --train-iters 10
  logs: out/examples/RUN_ID/llama3-1-8b-mi325-bs128-mbs4-fp8/stdout.log, out/examples/RUN_ID/llama3-1-8b-mi325-bs128-mbs4-fp8/stderr.log; timeout 7200 s (then SIGTERM, SIGKILL after 5 s)
  results: out/examples/RUN_ID/llama3-1-8b-mi325-bs128-mbs4-fp8/stdout.log (parser megatron)
[2/4] llama3-1-8b-mi325-bs128-mbs4-bf16
  bash train_llama3_8b.sh --micro-batch-size 4 --global-batch-size 128 --precision BF16 --seq-length 8192 --train-iters 10
  logs: out/examples/RUN_ID/llama3-1-8b-mi325-bs128-mbs4-bf16/stdout.log, out/examples/RUN_ID/llama3-1-8b-mi325-bs128-mbs4-bf16/stderr.log; timeout 7200 s (then SIGTERM, SIGKILL after 5 s)
  results: out/examples/RUN_ID/llama3-1-8b-mi325-bs128-mbs4-bf16/stdout.log (parser megatron)
[3/4] llama3-1-8b-mi325-bs128-mbs4-mxfp4
  bash train_llama3_8b.sh --micro-batch-size 4 --global-batch-size 128 --precision MXFP4 --seq-length 8192 --train-iters 10
  logs: out/examples/RUN_ID/llama3-1-8b-mi325-bs128-mbs4-mxfp4/stdout.log, out/examples/RUN_ID/llama3-1-8b-mi325-bs128-mbs4-mxfp4/stderr.log; timeout 7200 s (then SIGTERM, SIGKILL after 5 s)
  results: out/examples/RUN_ID/llama3-1-8b-mi325-bs128-mbs4-mxfp4/stdout.log (parser megatron)
[4/4] llama3-1-8b-mi325-bs128-mbs4-mxfp8
  bash train_llama3_8b.sh --micro-batch-size 4 --global-batch-size 128 --precision MXFP8 --seq-length 8192 --train-iters 10
  logs: out/examples/RUN_ID/llama3-1-8b-mi325-bs128-mbs4-mxfp8/stdout.log, out/examples/RUN_ID/llama3-1-8b-mi325-bs128-mbs4-mxfp8/stderr.log; timeout 7200 s (then SIGTERM, SIGKILL after 5 s)
  results: out/examples/RUN_ID/llama3-1-8b-mi325-bs128-mbs4-mxfp8/stdout.log (parser megatron)
--- stderr
