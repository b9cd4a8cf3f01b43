# a madengine block that is not an object: the suite loader says so, as assay run would
args: manifest --platforms configs/examples/mi355x-platforms.json --suite tests/fixtures/cli/manifest/block-not-object.json --combo bf16-2node
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/manifest/block-not-object.json: $.madengine: expected an object, got "rocm/primus:v25.9"
