# an unknown option is named
args: manifest --platform-file configs/examples/mi355x-platforms.json --suite configs/examples/primus-2node.json --combo bf16-2node
exit: 2
--- stdout
--- stderr
assay manifest: unknown option '--platform-file' (see 'assay help manifest')
