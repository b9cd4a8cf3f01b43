# assay notify needs a subcommand
args: notify
exit: 2
--- stdout
--- stderr
assay notify: expected a subcommand: test
