# The suite written from a CVS training config passes assay lint
args: lint configs/examples/from-cvs-llama-3.1-8b.json
exit: 0
--- stdout
--- stderr
