# A signature pattern that PCRE2 cannot compile is located in the suite
args: run tests/fixtures/cli/run/bad-pattern.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/bad-pattern.json: $.signatures.errors.loss-nan: invalid pattern at offset 13: missing closing parenthesis
