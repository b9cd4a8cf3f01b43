# ROCm/cvs dddd914's mi355x llama-3.1-8b distributed JAX/MaxText config,
# unchanged (tests/fixtures/gate/cvs/SOURCE.md), without --cluster: refused
# (exit 2, nothing written); CVS starts one launcher per node of its cluster
# file, each with its own NODE_RANK and JAX_PROCESS_INDEX and the JAX
# coordinator on the first node, which the local launcher cannot give.
args: import cvs --user alice tests/fixtures/gate/cvs/mi355x_jaxmaxtext_llama-3.1-8b_distributed.json
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/cvs/mi355x_jaxmaxtext_llama-3.1-8b_distributed.json: $.training.distributed: true: give the CVS cluster file it runs on (--cluster FILE): CVS starts one launcher per node of it, with the node's rank and the JAX coordinator on the first node (docs/import.md)
