# assay --help lists every command
args: --help
exit: 0
--- stdout
usage: assay [--version] [--help] <command> [<args>]

assay validates GPU clusters and keeps their performance honest.

commands:
  matrix     expand a sweep over a platform registry into cases and shards
  gate       judge rows and training logs against thresholds and gate specs
  parse      turn result files and training logs into measurement rows

Run 'assay help <command>' for a command's options.
Exit codes: 0 ok, 1 gate-failed, 2 usage, 3 workload-failed, 4 no-metrics,
5 infrastructure (docs/exit-codes.md).
--- stderr
