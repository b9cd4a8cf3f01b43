# Training gates on results that are not a training log: refused at load
args: run tests/fixtures/cli/run/gate-needs-training.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/gate-needs-training.json: $.gates.loss_curve: judges a training log: it needs parser megatron, primus, megatron-golden or auto, not "rows"
