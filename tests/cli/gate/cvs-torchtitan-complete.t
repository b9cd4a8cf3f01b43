# TorchTitan is complete at "step: N" for the configured N (ROCm/cvs dddd914,
# cvs/lib/training/torchtitan/torchtitan_lib.py, _is_training_complete): 10 of 10.
args: gate --final-step 10 --thresholds tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_threshold.json --combo MBS=1,GBS=8,PRECISION=bf16 tests/fixtures/training/torchtitan-llama3-8b-bf16.log
exit: 0
--- stdout-grep
^PASS +run +completion +10 step +step: 10 +completed \(last step 10\)$
--- stderr
