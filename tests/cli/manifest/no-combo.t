# --combo is required
args: manifest --platforms configs/examples/mi355x-platforms.json --suite configs/examples/primus-2node.json
exit: 2
--- stdout
--- stderr
assay manifest: --combo NAME is required
