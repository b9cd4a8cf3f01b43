# TorchTitan is complete at "step: N" for the configured N (ROCm/cvs dddd914,
# cvs/lib/training/torchtitan/torchtitan_lib.py, _is_training_complete; the mi355 llama3_1_8b config's
# training_iterations is 10): the run that stopped at step 7 is incomplete, exit 3.
args: gate --final-step 10 --thresholds tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_threshold.json --combo MBS=1,GBS=8,PRECISION=bf16 tests/fixtures/training/torchtitan-nan-nccl.log
exit: 3
--- stdout-grep
^FAIL +run +completion +7 step +step: 10 +incomplete \(last step 7\)$
--- stderr
