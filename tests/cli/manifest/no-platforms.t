# --platforms is required
args: manifest --suite configs/examples/primus-2node.json --combo bf16-2node
exit: 2
--- stdout
--- stderr
assay manifest: --platforms FILE is required
