# store needs a subcommand
args: store
exit: 2
--- stdout
--- stderr
assay store: expected a subcommand: ingest, export, series, runs, ingests, forget, annotate, check, migrate or copy
