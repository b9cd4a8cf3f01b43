# A malformed --warmup
args: parse --warmup 2,ten tests/fixtures/training/megatron-basic.log
exit: 2
--- stdout
--- stderr
assay parse: bad value for --warmup: '2,ten'
