# a misspelt key of the madengine block
args: manifest --platforms configs/examples/mi355x-platforms.json --suite tests/fixtures/cli/manifest/block-typo.json --combo bf16-2node
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/manifest/block-typo.json: $.madengine.multiple_result: unknown key (expected one of: model, docker_image, dockerfile, scripts, args, multiple_results, tags, launcher, cred)
