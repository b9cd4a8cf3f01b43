# A placeholder that a combo does not fill is a config error at load time
args: run tests/cli/run/inputs/missing-placeholder.json
exit: 2
--- stdout
--- stderr
tests/cli/run/inputs/missing-placeholder.json: $.argv[4]: placeholder {GBS} has no value in combo "fp8-mbs4" ($.combos.fp8-mbs4 has: MBS, PRECISION)
