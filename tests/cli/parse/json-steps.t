# --json and --steps print different things: not both.
args: parse --json --steps tests/fixtures/cli/parse/cut-last-line.log
exit: 2
--- stdout
--- stderr
assay parse: --json and --steps cannot be used together
