# assay's own configs: the loader's message as an assay-config finding
args: lint configs/platforms.json configs/sweep-ep.json tests/fixtures/cli/matrix/bad-trials.json
exit: 1
--- stdout
tests/fixtures/cli/matrix/bad-trials.json:$.timing.trials: error: assay-config: expected a positive integer, got "8"
--- stderr
assay lint: 1 error, 0 warnings in 3 files
