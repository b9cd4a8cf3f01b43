# assay --help lists every command
args: --help
exit: 0
--- stdout
usage: assay [--version] [--help] <command> [<args>]

assay validates GPU clusters and keeps their performance honest.

commands:
  detect     change points in stored series or a CSV; regression gates
  gate       judge rows and training logs against thresholds and gate specs
  history    one stored series over time, with change points and annotations
  import     write an assay suite from another tool's configuration (CVS)
  lint       check madengine manifests, model cards and assay configs
  manifest   write a madengine build_manifest.json for a suite's combo
  matrix     expand a sweep over a platform registry into cases and shards
  notify     send a sample event to each target of a notifications file
  parse      turn result files and training logs into measurement rows
  publish    publish stable numbers from a few runs: CIs, digests, a manifest
  report     write report.html, junit.xml and summary.md for a stored run
  run        run a suite: launch, watch, parse and store every case
  serve      serve the store's history in a browser and as JSON
  store      the results store: ingest, export, series, runs, annotate, check

Run 'assay help <command>' for a command's options.
Exit codes: 0 ok, 1 gate-failed, 2 usage, 3 workload-failed, 4 no-metrics,
5 infrastructure (docs/exit-codes.md).
--- stderr
