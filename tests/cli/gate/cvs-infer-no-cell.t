# A combo the file has no cell for
args: gate --thresholds tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_threshold.json --combo ISL=1024,OSL=8192,TP=8,CONC=16 tests/fixtures/inference/vllm-llama33-70b-c16.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_single_threshold.json: $.cells: no cell for combo "ISL=1024,OSL=8192,TP=8,CONC=16" (cells: ISL=1024,OSL=1024,TP=8,CONC=16)
