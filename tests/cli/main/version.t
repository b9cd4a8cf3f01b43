# --version prints the version and the git revision baked in at build time
args: --version
exit: 0
--- stdout-grep
^assay [0-9]+\.[0-9]+\.[0-9]+ \(([0-9a-f]{7,}(-dirty)?|unknown)\)$
--- stderr
