#!/usr/bin/env bash
# A workload that prints an NCCL error line and then sleeps is stopped as
# soon as the line is seen: outcome workload-failed with the signature and
# the line, exit 3; the sleep never finished and no process of it is left.
. "$(dirname "$0")/lib.sh" "$@"
S=$(store_new s)
cat >suite.json <<'JSON'
{"kind": "command", "name": "sig", "cluster": "e2e",
 "combos": {"nccl": {}},
 "argv": ["sh", "-c", "echo $$ > {CASE_DIR}/../shell.pid; sleep 60 & echo $! > {CASE_DIR}/../sleep.pid; echo step 1; echo 'rank 3: NCCL error: unhandled system error' >&2; wait; touch {CASE_DIR}/../slept"],
 "parser": "none", "timeout_s": 120}
JSON
run_assay 3 run --store "$S" --quiet suite.json
run=$(q "$S" "SELECT run_id FROM runs")
expect_eq "$(q "$S" "SELECT outcome FROM cases")" "workload-failed" "stored outcome"
expect_eq "$(q "$S" "SELECT reason FROM cases")" \
  "signature nccl-error in stderr: rank 3: NCCL error: unhandled system error" "stored reason"
expect_eq "$(q "$S" "SELECT exit_code FROM runs")" 3 "stored exit code"
expect_grep '^nccl +workload-failed .*signature nccl-error in stderr: rank 3: NCCL error' out.txt
expect_grep '^exit 3 \(workload-failed\)$' out.txt
# The line is in the captured log, the sleep was cut short, nothing is left.
expect_grep 'NCCL error' "out/$run/nccl/stderr.log"
[ ! -e "out/$run/slept" ] || fail "the workload slept to the end: it was not stopped"
cat "out/$run/shell.pid" "out/$run/sleep.pid" > pids
expect_all_gone pids 2
# The summary document says the same.
python3 - "out/$run/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cases"][0]
assert d["exit_code"] == 3 and c["outcome"] == "workload-failed", d
assert c["failure"] == "signature" and c["signature"]["name"] == "nccl-error", c
assert c["signature"]["source"] == "stderr", c
PY
echo ok
