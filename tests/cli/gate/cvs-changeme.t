# A <changeme> placeholder left in a CVS threshold file is an error, not a crash
args: gate --thresholds tests/fixtures/gate/cvs-changeme.json --combo MBS=4,GBS=128,PRECISION=FP8 --log tests/fixtures/training/primus-complete.log
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/cvs-changeme.json: $["MBS=4,GBS=128,PRECISION=FP8"]["training.mem_usage"].value: unfilled placeholder "<changeme>": replace it with a calibrated value
