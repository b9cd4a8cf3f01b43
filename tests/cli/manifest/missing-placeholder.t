# a placeholder of the madengine block that the combo does not fill
args: manifest --platforms configs/examples/mi355x-platforms.json --suite tests/fixtures/cli/manifest/missing-placeholder.json --combo bf16-2node
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/manifest/missing-placeholder.json: $.madengine.args: placeholder {SEQ_LEN} has no value in combo "bf16-2node"
