# assay run needs exactly one suite file
args: run
exit: 2
--- stdout
--- stderr
assay run: expected one suite file, got 0
