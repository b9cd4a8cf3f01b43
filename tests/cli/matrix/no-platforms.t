# --platforms is required
args: matrix configs/sweep-ep.json
exit: 2
--- stdout
--- stderr
assay matrix: --platforms FILE is required
