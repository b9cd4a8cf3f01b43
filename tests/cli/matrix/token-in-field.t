# a token pasted into a wrong-typed field is not printed in the error
args: matrix --platforms configs/platforms.json tests/fixtures/cli/matrix/token-trials.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/matrix/token-trials.json: $.timing.trials: expected a positive integer, got "[redacted]"
