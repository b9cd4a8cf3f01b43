# assay --help lists every command
args: --help
exit: 0
--- stdout
usage: assay [--version] [--help] <command> [<args>]

assay validates GPU clusters and keeps their performance honest.

commands:
  lint       check madengine manifests, model cards and assay configs
  matrix     expand a sweep over a platform registry into cases and shards

Run 'assay help <command>' for a command's options.
Exit codes: 0 ok, 1 gate-failed, 2 usage, 3 workload-failed, 4 no-metrics,
5 infrastructure (docs/exit-codes.md).
--- stderr
