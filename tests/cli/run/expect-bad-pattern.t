# A provenance expectation whose pattern PCRE2 cannot compile is located
# in the suite; nothing runs
args: run tests/fixtures/cli/run/expect-bad-pattern.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/expect-bad-pattern.json: $.expect[0].pattern: invalid pattern at offset 19: missing closing parenthesis
