# --seq-len given, the world size unknown: the message asks for the world
# size, not for --seq-len again (issue 15)
args: gate --spec tests/fixtures/gate/spec-scaling.json --seq-len 4096 --log tests/fixtures/training/megatron-after-training.log
exit: 1
--- stdout
status   gate     metric              value     spec                                                  message
PASS     run      completion          30 step   iteration N/N, torchrun marker or Megatron exit line  completed (after training is done (line 4))
PASS     run      finite              0 values  no NaN or Inf                                         every value is finite
PASS     run      steps               3 steps   >= 1                                                  3 steps, the first 2 excluded as warm-up
FAIL     scaling  scaling_efficiency  -         >= 90%                                                missing: no steady-state tokens/s/GPU (deriving them from --seq-len needs the world size: --world-size, or a log that states it)

4 verdicts: 3 pass, 1 fail, 0 record, 0 skipped
--- stderr
