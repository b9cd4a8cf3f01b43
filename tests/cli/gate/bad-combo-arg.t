# A malformed --combo
args: gate --thresholds tests/fixtures/gate/thresholds.json --combo MBS=1 tests/fixtures/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
assay gate: --combo: expected MBS=<m>,GBS=<g>,PRECISION=<p>, got "MBS=1"
