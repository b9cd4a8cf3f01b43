# a wrong type names file and JSON path
args: matrix --platforms configs/platforms.json tests/fixtures/cli/matrix/bad-trials.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/matrix/bad-trials.json: $.timing.trials: expected a positive integer, got "8"
