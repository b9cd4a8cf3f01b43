# TorchTitan's distributed threshold file (ROCm/cvs dddd914, mi355_llama3_1_70b_distributed_threshold.json)
# names training.scaling_efficiency_pct, which CVS's TorchTitan code never computes: it fails alone as
# missing (verdict.py, evaluate_all), the other metrics of node 0's log are judged (tps x GBS 128).
args: gate --thresholds tests/fixtures/gate/cvs/mi355_llama3_1_70b_distributed_threshold.json --combo MBS=1,GBS=128,PRECISION=bf16 tests/fixtures/training/torchtitan-llama3-8b-bf16.log
exit: 1
--- stdout-grep
^PASS +threshold +tokens_per_sec_x_gbs/cvs_mean +1505607.1 tokens/s/GPU x GBS +>= 12800
^FAIL +threshold +scaling_efficiency/\* +- +>= 85 +missing: no row has this metric$
^12 verdicts: 5 pass, 1 fail, 6 record, 0 skipped$
--- stderr
