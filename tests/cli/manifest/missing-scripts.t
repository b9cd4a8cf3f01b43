# a madengine block without scripts
args: manifest --platforms configs/examples/mi355x-platforms.json --suite tests/fixtures/cli/manifest/no-scripts.json --combo bf16-2node
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/manifest/no-scripts.json: $.madengine.scripts: missing (expected a non-empty string)
