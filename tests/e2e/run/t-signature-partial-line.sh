#!/usr/bin/env bash
# Issue 14, defect 7: a signature line without a trailing newline (the
# workload then hangs) is matched once no byte came for 200 ms, and the case
# stops on the signature, not at its timeout.
. "$(dirname "$0")/lib.sh" "$@"
S=$(store_new s)
cat >suite.json <<'JSON'
{"kind": "command", "name": "partial", "cluster": "e2e", "combos": {"hang": {}},
 "argv": ["sh", "-c", "echo step 1; printf 'Segmentation fault'; sleep 60 && touch {CASE_DIR}/slept"],
 "parser": "none", "timeout_s": 40}
JSON
run_assay 3 run --store "$S" --quiet suite.json
run=$(q "$S" "SELECT run_id FROM runs")
expect_eq "$(q "$S" "SELECT reason FROM cases")" "signature segfault in stdout: Segmentation fault" \
  "stored reason"
python3 - "out/$run/summary.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["cases"][0]
assert c["failure"] == "signature", c
PY
[ ! -e "out/$run/hang/slept" ] || fail "the workload slept to the end: it was not stopped"
echo ok
