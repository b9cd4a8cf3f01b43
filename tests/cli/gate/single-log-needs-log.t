# --single-log is the 1-node run of --log's N-node run
args: gate --thresholds tests/fixtures/gate/cvs/mi325x_megatron_llama-3.3-70b_distributed_threshold.json --combo MBS=1,GBS=64,PRECISION=BF16 --single-log tests/fixtures/training/megatron-rocm.log tests/fixtures/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
assay gate: --single-log needs --log FILE (the N-node run)
