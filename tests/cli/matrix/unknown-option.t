# unknown options are named
args: matrix --frobnicate configs/platforms.json configs/sweep-ep.json
exit: 2
--- stdout
--- stderr
assay matrix: unknown option '--frobnicate' (see 'assay help matrix')
