# detection options are checked before anything is read
args: detect --input tests/fixtures/detect/step.csv --window 1
exit: 2
--- stdout
--- stderr
assay detect: --window '1': expected an integer from 2 to 1000
