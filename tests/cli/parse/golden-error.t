# A malformed golden-values file: file, JSON path, expectation; exit 2
args: parse --input-format megatron-golden tests/cli/parse/inputs/bad-golden.json
exit: 2
--- stdout
--- stderr
tests/cli/parse/inputs/bad-golden.json: $["lm loss"].values.2: expected a number or "nan", got "n/a"
