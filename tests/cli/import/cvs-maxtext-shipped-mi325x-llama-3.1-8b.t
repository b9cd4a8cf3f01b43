# ROCm/cvs dddd914's mi325x_jaxmaxtext_llama-3.1-8b_distributed.json, unchanged
# (tests/fixtures/gate/cvs/SOURCE.md), on a two-node CVS cluster file: as
# shipped its training.nccl devices are "<changeme>", which CVS's loader
# refuses (NcclConfig._reject_changeme, training_config_loader.py), so the
# import refuses it too (exit 2, nothing written), naming the first one.
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json tests/fixtures/gate/cvs/mi325x_jaxmaxtext_llama-3.1-8b_distributed.json
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/cvs/mi325x_jaxmaxtext_llama-3.1-8b_distributed.json: $.training.nccl.ib_hca_list: "<changeme>" left in the file: fill it in (CVS refuses the config too)
