# ROCm/cvs dddd914's mi355x llama-3.1-8b distributed JAX/MaxText config,
# unchanged (tests/fixtures/gate/cvs/SOURCE.md): refused (exit 2, nothing
# written); CVS starts one launcher per node with its own rank and a JAX
# coordinator, which a single command suite cannot do faithfully.
args: import cvs --user alice tests/fixtures/gate/cvs/mi355x_jaxmaxtext_llama-3.1-8b_distributed.json
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/cvs/mi355x_jaxmaxtext_llama-3.1-8b_distributed.json: $.training.distributed: true: CVS starts one launcher per node with its own NODE_RANK and JAX_PROCESS_INDEX, a JAX coordinator on the first node and NNODES from the cluster file; assay imports single-node configs ("distributed": false) only (docs/import.md)
