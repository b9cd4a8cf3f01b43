# Checkpoint resume from the wrong checkpoint: step, loaded iteration and loss all fail
args: gate --spec tests/fixtures/gate/spec-checkpoint.json --save-log tests/fixtures/training/megatron-save.log --resume-log tests/fixtures/training/megatron-resume-bad.log
exit: 1
--- stdout
status   gate        metric              value        spec      message
FAIL     checkpoint  resume_first_step   15 step      == 25     resumed at step 15; last checkpoint 20 (logged every few steps)
FAIL     checkpoint  loaded_iteration    10 step      == 20     the resumed run loaded the checkpoint of iteration 10
FAIL     checkpoint  resume_loss_rdiff   0.125 ratio  <= 0.01   loss 9.9 at step 15 after 8.8 at step 20: +0.125 relative
SKIPPED  checkpoint  overlap_loss_rdiff  -            <= 0.001  no step after the checkpoint in both runs
RECORD   checkpoint  checkpoint_save_ms  2301.47 ms             save-checkpoint timer of the saving run
RECORD   checkpoint  checkpoint_load_ms  4542.1 ms              load-checkpoint timer of the resumed run

6 verdicts: 0 pass, 3 fail, 2 record, 1 skipped
--- stderr
