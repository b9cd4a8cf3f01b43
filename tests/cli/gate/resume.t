# Checkpoint resume: the run continues from the last checkpoint
args: gate --spec tests/fixtures/gate/spec-checkpoint.json --save-log tests/fixtures/training/megatron-save.log --resume-log tests/fixtures/training/megatron-resume.log
exit: 0
--- stdout
status   gate        metric              value                spec      message
PASS     checkpoint  resume_first_step   25 step              == 25     resumed at step 25; last checkpoint 20 (logged every few steps)
PASS     checkpoint  loaded_iteration    20 step              == 20     the resumed run loaded the checkpoint of iteration 20
PASS     checkpoint  resume_loss_rdiff   -0.0011363636 ratio  <= 0.01   loss 8.79 at step 25 after 8.8 at step 20: -0.00114 relative
SKIPPED  checkpoint  overlap_loss_rdiff  -                    <= 0.001  no step after the checkpoint in both runs
RECORD   checkpoint  checkpoint_save_ms  2301.47 ms                     save-checkpoint timer of the saving run
RECORD   checkpoint  checkpoint_load_ms  4542.1 ms                      load-checkpoint timer of the resumed run

6 verdicts: 3 pass, 0 fail, 2 record, 1 skipped
--- stderr
