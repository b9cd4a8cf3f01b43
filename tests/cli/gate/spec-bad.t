# A spec with a wrong type
args: gate --spec tests/data/gate/spec-bad.json --log tests/data/training/megatron-basic.log
exit: 2
--- stdout
--- stderr
tests/data/gate/spec-bad.json: $.loss_curve.max_slope: expected a number, got "0"
