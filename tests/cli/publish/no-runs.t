# publish needs runs: ids, or --last with --revision
args: publish --suite quickstart --out /nonexistent/pub
exit: 2
--- stdout
--- stderr
assay publish: expected run ids, or --last N with --revision
