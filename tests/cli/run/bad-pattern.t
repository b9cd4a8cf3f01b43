# A signature pattern that PCRE2 cannot compile is located in the suite
args: run tests/cli/run/inputs/bad-pattern.json
exit: 2
--- stdout
--- stderr
tests/cli/run/inputs/bad-pattern.json: $.signatures.errors.loss-nan: invalid pattern at offset 13: missing closing parenthesis
