# duplicate keys are rejected with their path and line
args: matrix --platforms configs/platforms.json tests/fixtures/cli/matrix/duplicate-key.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/matrix/duplicate-key.json:14:10: $.workload.topk: duplicate key "topk"
