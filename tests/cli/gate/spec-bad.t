# A spec with a wrong type
args: gate --spec tests/fixtures/gate/spec-bad.json --log tests/fixtures/training/megatron-basic.log
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/spec-bad.json: $.loss_curve.max_slope: expected a number, got "0"
