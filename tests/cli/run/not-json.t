# A suite file that is not JSON: the line and column, exit 2, and nothing leaks (ASan)
args: run tests/fixtures/cli/run/not-json.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/not-json.json:2:1: invalid JSON: string or '}' expected near end of file
