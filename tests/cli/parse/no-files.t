# At least one file
args: parse --format primus
exit: 2
--- stdout
--- stderr
assay parse: expected at least one FILE
