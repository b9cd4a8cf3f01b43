# A malformed golden-values file: file, JSON path, expectation; exit 2
args: parse --input-format megatron-golden tests/fixtures/cli/parse/bad-golden.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/parse/bad-golden.json: $["lm loss"].values.2: expected a number or "nan", got "n/a"
