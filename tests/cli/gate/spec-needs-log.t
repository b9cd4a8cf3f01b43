# The spec's log gates need --log
args: gate --spec tests/fixtures/gate/spec.json
exit: 2
--- stdout
--- stderr
assay gate: the spec's loss_curve, convergence and scaling gates need --log FILE
