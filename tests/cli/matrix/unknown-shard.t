# an unknown shard is an error
args: matrix --platforms configs/platforms.json --shard nope configs/sweep-local.json
exit: 2
--- stdout
--- stderr
assay matrix: --shard: no shard "nope" in this matrix
