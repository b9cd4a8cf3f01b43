# assay lint --help: the help made from the option table, --json among the options
args: lint --help
exit: 0
--- stdout-grep
^usage: assay lint \[--format FORMAT \| --json\]
^  --json +same as --format json$
^  --strict +the multi-node traps
^Exit codes: 0 no errors
--- stderr
