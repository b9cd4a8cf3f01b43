# A RESULTS file that is not measurement rows
args: gate --thresholds tests/data/gate/thresholds.json tests/data/training/megatron-basic.log
exit: 2
--- stdout
--- stderr
tests/data/training/megatron-basic.log:1:5: invalid JSON: '[' or '{' expected near 'using'
