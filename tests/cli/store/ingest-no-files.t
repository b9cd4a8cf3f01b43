# ingest needs files
args: store ingest
exit: 2
--- stdout
--- stderr
assay store: ingest: expected one or more files
