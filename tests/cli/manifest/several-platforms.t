# a registry of several platforms needs --platform
args: manifest --platforms tests/fixtures/cli/manifest/two-platforms.json --suite configs/examples/primus-2node.json --combo bf16-2node
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/manifest/two-platforms.json: $.platforms: 2 platforms (mi300x, mi355x); choose one with --platform
