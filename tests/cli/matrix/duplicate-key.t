# duplicate keys are rejected with their path and line
args: matrix --platforms configs/platforms.json tests/cli/matrix/inputs/duplicate-key.json
exit: 2
--- stdout
--- stderr
tests/cli/matrix/inputs/duplicate-key.json:14:10: $.workload.topk: duplicate key "topk"
