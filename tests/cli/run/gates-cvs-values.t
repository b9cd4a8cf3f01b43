# A suite gated by an unchanged CVS threshold file judges CVS's values of the
# case's training log (ROCm/cvs dddd914, megatron_lib.py): here the fallback
# means (cvs_mean), since the log's summary lines are not in its last 15 lines;
# the elapsed time fails at 501.111 ms, as in CVS.
args: run --store $STORE --out $tmp/runs tests/fixtures/cli/run/cvs-values.json
exit: 1
--- stdout-grep
fp8 +gate-failed .*threshold elapsed_ms_per_iter/cvs_mean: 501.111 > 500
bf16 +gate-failed .*threshold elapsed_ms_per_iter/cvs_mean: 501.111 > 500
