# exactly one sweep
args: matrix --platforms configs/platforms.json configs/sweep-ep.json configs/sweep-local.json
exit: 2
--- stdout
--- stderr
assay matrix: expected one sweep file, got 2
