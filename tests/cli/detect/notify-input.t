# --input has no store to remember what was sent
args: detect --input tests/fixtures/detect/step.csv --notify tests/fixtures/notify/bad-type.json
exit: 2
--- stdout
--- stderr
assay detect: --notify applies to stored series and --gate, not to --input
