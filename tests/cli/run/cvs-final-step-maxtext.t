# CVS's completion rule as `assay import cvs` writes it into a suite
# (training.final_step; ROCm/cvs dddd914: MaxText is complete at `completed step: steps-1` (is_complete, jaxmaxtext_training_lib.py)):
# the whole log passes; the same log cut short by sed is an incomplete
# training log, workload-failed (exit 3), its rows kept.
args: run --store $STORE --out $tmp/runs tests/fixtures/cli/run/cvs-final-step-maxtext.json
exit: 3
--- stdout-grep
^complete +passed 
^early +workload-failed .*training log: incomplete run: the last step is 20, training.final_step is 29$
