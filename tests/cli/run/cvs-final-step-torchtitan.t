# CVS's completion rule as `assay import cvs` writes it into a suite
# (training.final_step; ROCm/cvs dddd914: TorchTitan is complete at
# `step: N` for training_iterations N on every node, _is_training_complete,
# torchtitan_lib.py): two node logs that both reach step 10 pass; node 1's
# log cut short by sed at step 5, or before its first step, is an
# incomplete training log, workload-failed (exit 3), its rows kept.
args: run --store $STORE --out $tmp/runs tests/fixtures/cli/run/cvs-final-step-torchtitan.json
exit: 3
--- stdout-grep
^complete +passed 
^early +workload-failed .*training log: incomplete run: the last step is 5, training.final_step is 10$
^nostep +workload-failed .*training log: incomplete run: a log has no step, training.final_step is 10$
