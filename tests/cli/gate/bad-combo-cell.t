# A cell key that is not a combo
args: gate --thresholds tests/fixtures/gate/bad-combo.json tests/fixtures/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/bad-combo.json: $.cells["MBS=1,GBS=eight,PRECISION=BF16"]: expected "default" or a combo key: expected MBS=<m>,GBS=<g>,PRECISION=<p>, got "MBS=1,GBS=eight,PRECISION=BF16" (GBS must be a positive integer)
