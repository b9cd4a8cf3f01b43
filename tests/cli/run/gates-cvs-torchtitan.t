# A suite with parser torchtitan gated by CVS's unchanged mi355 llama3_1_8b TorchTitan threshold file
# (ROCm/cvs dddd914) judges each case as `assay gate` does: training.tokens_per_gpu is tps x the cell's
# GBS, so the bf16 cell passes; the fp8 cell's log is under both minimums.
args: run --store $STORE --out $tmp/runs tests/fixtures/cli/run/cvs-torchtitan.json
exit: 1
--- stdout-grep
^bf16 +passed .*gates: 5 PASS, 6 RECORD$
^fp8 +gate-failed .*threshold tokens_per_sec/cvs_mean: 10286.7 < 10552; threshold tokens_per_sec_x_gbs/cvs_mean: 82293.3 < 84416\), 3 PASS, 6 RECORD$
