# --suite is required
args: manifest --platforms configs/examples/mi355x-platforms.json --combo bf16-2node
exit: 2
--- stdout
--- stderr
assay manifest: --suite FILE is required
