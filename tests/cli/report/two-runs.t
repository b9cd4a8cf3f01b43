# one run at a time
args: report --store assay.db run-a run-b
exit: 2
--- stdout
--- stderr
assay report: expected at most one run id, got 2
