# --otava-compat has no segment rule
args: detect --input tests/fixtures/detect/step.csv --otava-compat --min-segment 5
exit: 2
--- stdout
--- stderr
assay detect: --min-segment is not part of --otava-compat
