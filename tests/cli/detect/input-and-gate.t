# one mode at a time
args: detect --input tests/fixtures/detect/step.csv --gate rolling-mean x.jsonl
exit: 2
--- stdout
--- stderr
assay detect: --input and --gate cannot be combined
