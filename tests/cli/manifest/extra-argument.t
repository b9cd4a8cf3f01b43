# no positional arguments
args: manifest --platforms configs/examples/mi355x-platforms.json --suite configs/examples/primus-2node.json --combo bf16-2node extra.json
exit: 2
--- stdout
--- stderr
assay manifest: unexpected argument 'extra.json'
