# an unreadable platform registry
args: manifest --platforms tests/fixtures/cli/manifest/no-such-file.json --suite configs/examples/primus-2node.json --combo bf16-2node
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/manifest/no-such-file.json: cannot read: No such file or directory
