#!/usr/bin/env bash
# A training workload that exits 0 without printing a single training line
# has no metrics (exit 4), with the megatron and the primus parser alike:
# it did not start training, so it did not fail to finish it (issue 14 item
# 6; 53f999a called it an incomplete run, exit 3). One that logged steps and
# stopped is still workload-failed.
. "$(dirname "$0")/lib.sh" "$@"
for parser in megatron primus; do
  cat >suite-$parser.json <<JSON
{"kind": "command", "name": "quiet-$parser", "cluster": "e2e", "combos": {"setup-only": {}},
 "argv": ["sh", "-c", "echo 'using world size: 8, data-parallel size: 8, context-parallel size: 1'; echo '> building GPT2BPETokenizer tokenizer ...'"],
 "parser": "$parser"}
JSON
  S=$(store_new "$parser")
  run_assay 4 run --store "$S" --quiet suite-$parser.json
  expect_eq "$(q "$S" "SELECT outcome FROM cases")" "no-metrics" "$parser outcome"
  expect_grep 'no metrics: the log has no iteration line' out.txt
  expect_grep '^exit 4 \(no-metrics\)$' out.txt
done
# Steps, then silence: incomplete, workload-failed.
cat >stopped.json <<'JSON'
{"kind": "command", "name": "stopped", "cluster": "e2e", "combos": {"half": {}},
 "argv": ["sh", "-c", "echo ' iteration        1/      10 | consumed samples:          256 | elapsed time per iteration (ms): 500.0 | lm loss: 4.000000E+00 |'"],
 "parser": "megatron"}
JSON
S=$(store_new stopped)
run_assay 3 run --store "$S" --quiet stopped.json
expect_eq "$(q "$S" "SELECT outcome FROM cases")" "workload-failed" "stopped outcome"
echo ok
