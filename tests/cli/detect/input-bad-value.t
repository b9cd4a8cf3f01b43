# a value that is not a number is named with its line
args: detect --input tests/fixtures/detect/bad-value.csv
exit: 2
--- stdout
--- stderr
tests/fixtures/detect/bad-value.csv:3: value: expected a number, got "ten"
