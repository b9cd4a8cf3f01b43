# A pattern that does not compile: exit 2 naming the file and the JSON path
args: gate --error-patterns tests/fixtures/cli/gate/bad-error-patterns.json --log tests/fixtures/training/megatron-basic.log
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/gate/bad-error-patterns.json: $.training.error_patterns.broken: invalid pattern at offset 11: missing closing parenthesis
