# an option without its value names the option and what it expects
args: matrix --platforms configs/platforms.json configs/sweep-ep.json --shard
exit: 2
--- stdout
--- stderr
assay matrix: option '--shard' expects a value (ID)
