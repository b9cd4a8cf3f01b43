# a file that is not JSON: exit 2 with line and column
args: lint tests/fixtures/cli/lint/not-json.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/lint/not-json.json:4:7: invalid JSON: '}' expected near '"b"'
