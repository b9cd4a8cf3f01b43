# unreadable input is named
args: detect --input tests/fixtures/detect/nope.csv
exit: 2
--- stdout
--- stderr
tests/fixtures/detect/nope.csv: cannot read: No such file or directory
