# a combo the suite does not run
args: manifest --platforms configs/examples/mi355x-platforms.json --suite tests/fixtures/cli/manifest/not-run.json --combo fp8-2node
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/manifest/not-run.json: $.runs: combo "fp8-2node" is not run by the suite; add it to runs (or to a stage)
