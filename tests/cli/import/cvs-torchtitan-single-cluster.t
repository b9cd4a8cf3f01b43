# A torchtitan_single config with --cluster keeps CVS's one log,
# out-node0/training.log, as its only result: the per-node logs are the
# distributed import's (cvs-torchtitan-distributed.t)
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config.json
exit: 0
--- stdout-grep
^  "results": \["/home/alice/LOG_DIR/torchtitan-logs/out-node0/training\.log"\],$
^  "nodes": 2,$
