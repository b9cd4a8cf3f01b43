# invalid JSON names line and column
args: matrix --platforms configs/platforms.json tests/fixtures/cli/matrix/not-json.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/matrix/not-json.json:4:9: invalid JSON: '}' expected near '"modes"'
