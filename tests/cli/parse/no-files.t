# At least one file
args: parse --input-format primus
exit: 2
--- stdout
--- stderr
assay parse: expected at least one file, got 0
