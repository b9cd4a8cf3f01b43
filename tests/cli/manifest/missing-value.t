# an option without its value
args: manifest --platforms configs/examples/mi355x-platforms.json --suite configs/examples/primus-2node.json --combo
exit: 2
--- stdout
--- stderr
assay manifest: option '--combo' expects a value (NAME)
