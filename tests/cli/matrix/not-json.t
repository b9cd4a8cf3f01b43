# invalid JSON names line and column
args: matrix --platforms configs/platforms.json tests/cli/matrix/inputs/not-json.json
exit: 2
--- stdout
--- stderr
tests/cli/matrix/inputs/not-json.json:4:9: invalid JSON: '}' expected near '"modes"'
