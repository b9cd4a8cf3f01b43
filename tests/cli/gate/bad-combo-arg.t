# A malformed --combo
args: gate --thresholds tests/data/gate/thresholds.json --combo MBS=1 tests/data/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
assay gate: --combo: expected MBS=<m>,GBS=<g>,PRECISION=<p>, got "MBS=1"
