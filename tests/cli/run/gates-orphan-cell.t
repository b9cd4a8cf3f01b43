# A thresholds cell that no run of the suite uses is an error of the
# thresholds file, found when the suite loads: exit 2, nothing runs or is written
args: run tests/cli/run/inputs/orphan-cell.json
exit: 2
--- stdout
--- stderr
tests/cli/run/inputs/orphan-thresholds.json: $.cells["MBS=2,GBS=8,PRECISION=BF16"]: orphan cell: no run uses this combo
