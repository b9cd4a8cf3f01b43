# --steps needs a training format
args: parse --steps --input-format rows tests/fixtures/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
assay parse: --steps needs a training format (megatron, primus, megatron-golden or auto), not rows
