# An inference --combo needs ISL, OSL, TP and CONC
args: gate --thresholds tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_threshold.json --combo ISL=1024,OSL=1024,CONC=16 tests/fixtures/inference/vllm-llama33-70b-c16.json
exit: 2
--- stdout
--- stderr
assay gate: --combo: expected ISL=<i>,OSL=<o>,TP=<t>[,PP=<p>][,DP=<d>][,NNODES=<n>],CONC=<c>, got "ISL=1024,OSL=1024,CONC=16" (ISL, OSL, TP and CONC are required)
