# A placeholder that a combo does not fill is a config error at load time
args: run tests/fixtures/cli/run/missing-placeholder.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/missing-placeholder.json: $.argv[4]: placeholder {GBS} has no value in combo "fp8-mbs4" ($.combos.fp8-mbs4 has: MBS, PRECISION)
