# assay notify test takes the targets file
args: notify test
exit: 2
--- stdout
--- stderr
assay notify: expected one targets file, got 0
