# history needs a series
args: history
exit: 2
--- stdout
--- stderr
assay history: expected a series key (see 'assay store series') or --match filters
