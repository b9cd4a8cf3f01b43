# Nothing to gate
args: gate
exit: 2
--- stdout
--- stderr
assay gate: nothing to gate: give --thresholds, --spec or --log
