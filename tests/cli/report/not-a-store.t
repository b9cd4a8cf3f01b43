# a file that is not an assay store is refused, and left as it was
args: report --store configs/quickstart.json
exit: 2
--- stdout
--- stderr
configs/quickstart.json: not an SQLite database
