# unknown subcommands are named
args: store frobnicate
exit: 2
--- stdout
--- stderr
assay store: unknown subcommand 'frobnicate' (ingest, export, series, runs, ingests, forget, annotate, check, migrate, copy)
