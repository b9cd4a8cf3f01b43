# a store that does not exist is a usage error, and nothing is created
args: report --store tests/cli/report/missing.db
exit: 2
--- stdout
--- stderr
tests/cli/report/missing.db: no such store
