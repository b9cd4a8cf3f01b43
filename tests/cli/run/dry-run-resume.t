# --dry-run describes a new run; it cannot continue an old one
args: run --dry-run --resume last tests/fixtures/cli/run/train.json
exit: 2
--- stdout
--- stderr
assay run: --dry-run and --resume cannot be combined
