# Otava's algorithm and defaults (max p-value 0.001) on the same data
args: detect --input tests/fixtures/detect/step.csv --otava-compat --format json
exit: 0
--- stdout-grep
"index": 70,
"kind": "regression",
--- stderr
