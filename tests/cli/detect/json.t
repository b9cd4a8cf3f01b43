# --json is the documented shorthand of --format json
args: detect --input tests/fixtures/detect/step.csv --json
exit: 0
--- stdout-grep
"index": 70,
"kind": "regression",
--- stderr
