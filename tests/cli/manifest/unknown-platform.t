# an unknown --platform names the registry's
args: manifest --platforms tests/fixtures/cli/manifest/two-platforms.json --platform mi400x --suite configs/examples/primus-2node.json --combo bf16-2node
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/manifest/two-platforms.json: $.platforms: no platform "mi400x" (it has: mi300x, mi355x)
