# --format with a log format is the old spelling of --input-format: it still
# works, with a one-line deprecation note
args: gate --format primus --thresholds tests/fixtures/gate/thresholds.json --combo MBS=1,GBS=8,PRECISION=BF16 --log tests/fixtures/training/primus-complete.log
exit: 1
--- stdout-grep
^22 verdicts: 4 pass, 3 fail, 15 record, 0 skipped$
--- stderr
assay gate: --format primus is deprecated; use --input-format primus
