# the CSV header is checked
args: detect --input tests/fixtures/detect/bad-header.csv
exit: 2
--- stdout
--- stderr
tests/fixtures/detect/bad-header.csv:1: expected the header revision,value or revision,timestamp,value
