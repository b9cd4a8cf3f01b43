# A pattern that compiles only for some combos' values is refused when the
# suite loads, naming the case whose value breaks it
args: run tests/fixtures/cli/run/expect-filled-bad.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/expect-filled-bad.json: $.expect[0].pattern: invalid pattern at offset 20: missing closing parenthesis (case b)
