# CVS's orphan rule with enforcement on: a cell of the CVS threshold file that
# no run of the suite uses is a config error naming the cell, nothing runs
args: run --dry-run tests/fixtures/gate/cvs-suite-orphan.json
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single_threshold.json: $["MBS=4,GBS=128,PRECISION=MXFP8"]: orphan cell: no run uses this combo
