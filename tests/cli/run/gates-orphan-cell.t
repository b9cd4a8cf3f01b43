# A thresholds cell that no run of the suite uses is an error of the
# thresholds file, found when the suite loads: exit 2, nothing runs or is written
args: run tests/fixtures/cli/run/orphan-cell.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/orphan-thresholds.json: $.cells["MBS=2,GBS=8,PRECISION=BF16"]: orphan cell: no run uses this combo
