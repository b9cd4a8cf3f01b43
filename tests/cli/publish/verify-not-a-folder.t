# --verify needs a publication folder
args: publish --verify tests/cli/publish/no-runs.t
exit: 2
--- stdout
--- stderr
assay publish: tests/cli/publish/no-runs.t: not a folder
