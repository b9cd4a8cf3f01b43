# The shipped distributed config still has <changeme> values CVS refuses: exit 2, naming the first
args: import cvs --user alice tests/fixtures/gate/cvs/mi325x_megatron_llama-3.3-70b_distributed.json
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/cvs/mi325x_megatron_llama-3.3-70b_distributed.json: $.config.nnodes: "<changeme>" left in the file: fill it in (CVS refuses the config too)
