# A RESULTS file that is not measurement rows
args: gate --thresholds tests/fixtures/gate/thresholds.json tests/fixtures/training/megatron-basic.log
exit: 2
--- stdout
--- stderr
tests/fixtures/training/megatron-basic.log:1:5: invalid JSON: '[' or '{' expected near 'using'
