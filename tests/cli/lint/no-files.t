# no FILE: usage error
args: lint
exit: 2
--- stdout
--- stderr
assay lint: expected at least one FILE
