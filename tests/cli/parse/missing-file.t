# An unreadable file: exit 2 and nothing printed, even for the good file
args: parse tests/fixtures/training/megatron-basic.log tests/cli/parse/nope.log
exit: 2
--- stdout
--- stderr
tests/cli/parse/nope.log: cannot read: No such file or directory
