#!/usr/bin/env bash
# Issue 14, defect 2: a Python traceback's header opens a settle window
# instead of stopping the case at once. The reason carries the exception
# line (CPython's format, Lib/traceback.py), a more specific family inside
# the window wins (gpu-page-fault over python-traceback for a HIP illegal
# memory access), and the exception line reaches stderr.log even when the
# workload writes it a moment after the header. Each workload then sleeps;
# it is stopped, not waited for.
. "$(dirname "$0")/lib.sh" "$@"
S=$(store_new s) L=$(store_new l)
cat >suite.json <<'JSON'
{"kind": "command", "name": "settle", "cluster": "e2e",
 "combos": {"hip": {"MSG": "RuntimeError: HIP error: an illegal memory access was encountered"},
            "plain": {"MSG": "ValueError: shapes (4,) and (5,) not aligned"}},
 "argv": ["sh", "-c", "printf 'step 1\\nTraceback (most recent call last):\\n  File \"train.py\", line 9, in <module>\\n%s\\n' \"$MSG\" >&2; sleep 60 && touch {CASE_DIR}/slept"],
 "env": {"MSG": "{MSG}"},
 "parser": "none", "timeout_s": 120}
JSON
run_assay 3 run --store "$S" --quiet suite.json
run=$(q "$S" "SELECT run_id FROM runs")
expect_eq "$(q "$S" "SELECT reason FROM cases WHERE case_id = 'hip'")" \
  "signature gpu-page-fault in stderr: RuntimeError: HIP error: an illegal memory access was encountered" \
  "reason of the HIP fault"
expect_eq "$(q "$S" "SELECT reason FROM cases WHERE case_id = 'plain'")" \
  "signature python-traceback in stderr: ValueError: shapes (4,) and (5,) not aligned" \
  "reason of a plain traceback"
for c in hip plain; do
  [ ! -e "out/$run/$c/slept" ] || fail "$c slept to the end: it was not stopped"
done
python3 - "out/$run/summary.json" <<'PY'
import json, sys
cases = {c["case_id"]: c for c in json.load(open(sys.argv[1]))["cases"]}
assert cases["hip"]["signature"]["name"] == "gpu-page-fault", cases["hip"]
assert "illegal memory access" in cases["hip"]["signature"]["line"], cases["hip"]
assert cases["plain"]["signature"]["name"] == "python-traceback", cases["plain"]
assert cases["plain"]["signature"]["line"].startswith("ValueError"), cases["plain"]
PY

# The exception line comes 0.3 s after the header, then 60 more lines: the
# window (here 120 s or the default 50 lines) closes on the lines, and
# stderr.log and the reason have the exception line.
cat >late.json <<'JSON'
{"kind": "command", "name": "late", "cluster": "e2e", "combos": {"late": {}},
 "argv": ["sh", "-c", "echo 'Traceback (most recent call last):' >&2; sleep 0.3; printf '  File \"a.py\", line 1, in f\\nKeyError: late\\n' >&2; seq 1 60 >&2; sleep 60 && touch {CASE_DIR}/slept"],
 "signatures": {"tune": {"python": {"settle_s": 120}}},
 "parser": "none", "timeout_s": 200}
JSON
run_assay 3 run --store "$L" --out lout --quiet late.json
run=$(q "$L" "SELECT run_id FROM runs")
expect_eq "$(q "$L" "SELECT reason FROM cases")" "signature python-traceback in stderr: KeyError: late" \
  "reason of the late exception line"
expect_grep '^KeyError: late$' "lout/$run/late/stderr.log"
[ ! -e "lout/$run/late/slept" ] || fail "late slept to the end: it was not stopped"
echo ok
