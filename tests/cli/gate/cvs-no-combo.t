# A CVS file has no default cell: a run needs its combo's cell
args: gate --thresholds tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single_threshold.json --log tests/fixtures/training/primus-complete.log
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single_threshold.json: $: no cell for combo "default" (a CVS file has no default cell: give --combo)
