# an unreadable file: exit 2
args: lint tests/cli/lint/inputs/no-such-file.json
exit: 2
--- stdout
--- stderr
tests/cli/lint/inputs/no-such-file.json: cannot read: No such file or directory
