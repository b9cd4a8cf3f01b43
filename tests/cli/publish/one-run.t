# one run shows no stability
args: publish --suite quickstart --out /nonexistent/pub run-a
exit: 2
--- stdout
--- stderr
assay publish: one run cannot show stability: name 2 or more
