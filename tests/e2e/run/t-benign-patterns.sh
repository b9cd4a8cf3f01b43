#!/usr/bin/env bash
# Benign patterns suppress a match on their line: a known-harmless NCCL error
# line does not fail the case, a suite's own error pattern does, and the
# built-in signature still fires on a line the benign pattern does not cover.
. "$(dirname "$0")/lib.sh" "$@"
S=$(store_new s) T2=$(store_new t)
row='{"series":{"workload":"w"},"metric":"m","statistic":"mean","value":1,"unit":"s","direction":"lower"}'
cat >work.sh <<EOF2
#!/bin/sh
# work.sh CASE_DIR MODE
echo 'NCCL error: IB device mlx5_1 unavailable, falling back to socket (harmless here)' >&2
[ "\$2" = loss ] && echo 'iteration 5 | lm loss: nan |'
[ "\$2" = real ] && echo 'NCCL error: remote process exited' >&2
echo '$row' > "\$1/rows.ndjson"
EOF2
cat >suite.json <<'JSON'
{"kind": "command", "name": "benign", "cluster": "e2e",
 "combos": {"only-benign": {"MODE": "none"}, "user-error": {"MODE": "loss"}, "real-error": {"MODE": "real"}},
 "argv": ["sh", "work.sh", "{CASE_DIR}", "{MODE}"],
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"],
 "signatures": {"benign": {"ib-fallback": "NCCL error: IB device \\S+ unavailable, falling back"},
                "errors": {"loss-nan": "lm loss: nan\\b"}}}
JSON
run_assay 3 run --store "$S" --quiet suite.json
expect_eq "$(q "$S" "SELECT case_id || ':' || outcome FROM cases ORDER BY id" | tr '\n' ' ')" \
  "only-benign:passed user-error:workload-failed real-error:workload-failed " "outcomes"
expect_eq "$(q "$S" "SELECT reason FROM cases WHERE case_id = 'user-error'")" \
  "signature loss-nan in stdout: iteration 5 | lm loss: nan |" "user signature"
expect_eq "$(q "$S" "SELECT reason FROM cases WHERE case_id = 'real-error'")" \
  "signature nccl-error in stderr: NCCL error: remote process exited" "built-in signature"
# Without the benign pattern the harmless line fails the case.
sed 's/"benign": {[^}]*},//' suite.json > strict.json
grep -q ib-fallback strict.json && fail "sed did not drop the benign pattern"
run_assay 3 run --store "$T2" --quiet strict.json
expect_eq "$(q "$T2" "SELECT outcome FROM cases WHERE case_id = 'only-benign'")" "workload-failed" "without benign"
echo ok
