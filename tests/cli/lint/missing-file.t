# an unreadable file: exit 2
args: lint tests/fixtures/cli/lint/no-such-file.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/lint/no-such-file.json: cannot read: No such file or directory
