# An unknown format names the known ones
args: parse --input-format csv tests/fixtures/training/megatron-basic.log
exit: 2
--- stdout
--- stderr
assay parse: unknown format 'csv' (expected auto, rows, rows-csv, assay-ep, collectivex, madengine-csv, madengine-super, multiple-results, rccl-ci, nccl-tests, nccl-tests-text, vllm-bench, atom-bench, sglang, megatron-golden, primus, megatron, torchtitan, maxtext)
