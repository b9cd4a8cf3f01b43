# Two expectations of one name would be one provenance record
args: run tests/fixtures/cli/run/expect-twice.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/expect-twice.json: $.expect[1].name: expectation "rccl" is named twice
