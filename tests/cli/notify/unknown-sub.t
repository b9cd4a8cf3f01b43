# an unknown subcommand
args: notify send tests/fixtures/notify/bad-type.json
exit: 2
--- stdout
--- stderr
assay notify: unknown subcommand 'send' (test)
