# the store is opened read-only: a missing one is a usage error
args: publish --store /nonexistent/assay.db --suite quickstart --out /nonexistent/pub run-a run-b
exit: 2
--- stdout
--- stderr-grep
/nonexistent/assay.db
