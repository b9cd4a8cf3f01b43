#!/usr/bin/env bash
# Lifecycle stages (issue 14, "Lifecycle stages"): setup, smoke, main and
# teardown, each runs of combos or a command. A failed setup skips smoke and
# main (outcome skipped, the reason naming the stage) and teardown still
# runs; a signature in main ends the run with the signature's outcome and
# teardown runs, and so it does after a timeout; Ctrl-C (SIGINT) during
# main: teardown runs, exit 5. A failed
# teardown is reported but does not change the run's exit code.
. "$(dirname "$0")/lib.sh" "$@"
A=$(store_new a) B=$(store_new b) T2=$(store_new t) C=$(store_new c) C2=$(store_new c2) D=$(store_new d) E=$(store_new e)
# suite NAME SETUP_CMD MAIN_MODE TEARDOWN_CMD
suite() {
  cat >"$1.json" <<JSON
{"kind": "command", "name": "$1", "cluster": "e2e",
 "combos": {"tiny": {"MODE": "ok"}, "full": {"MODE": "$3"}},
 "argv": ["sh", "-c", "echo \$\$ > {CASE_DIR}/pid; case \$MODE in ok) echo trained;; nccl) echo 'rank 1: NCCL error: unhandled system error' >&2; sleep 60;; hang) echo hanging; sleep 60;; esac"],
 "env": {"MODE": "{MODE}"}, "parser": "none", "timeout_s": 120,
 "stages": [{"name": "setup", "argv": ["sh", "-c", "$2"]},
            {"name": "smoke", "runs": ["tiny"]},
            {"name": "main", "runs": ["full"]},
            {"name": "teardown", "argv": ["sh", "-c", "$4"]}]}
JSON
}
outcomes() { q "$1" "SELECT case_id || ':' || coalesce(outcome, '-') FROM cases ORDER BY id" | tr '\n' ' '; }

# Setup fails: smoke and main skipped, teardown runs.
suite setupfail 'echo no gpus >&2; exit 9' ok 'touch $PWD/torn-down'
run_assay 3 run --store "$A" --out aout setupfail.json
expect_eq "$(outcomes "$A")" "setup:workload-failed tiny:skipped full:skipped teardown:passed " "outcomes"
expect_eq "$(q "$A" "SELECT reason FROM cases WHERE case_id = 'tiny'")" \
  "not run: stage setup failed (setup workload-failed)" "reason of a skipped stage"
[ -e torn-down ] || fail "teardown did not run after a failed setup"
expect_eq "$(q "$A" "SELECT exit_code FROM runs")" 3 "exit code"

# A signature in main: the run's outcome is the signature's, teardown runs.
rm -f torn-down
suite sig 'true' nccl 'touch $PWD/torn-down'
run_assay 3 run --store "$B" --out bout sig.json
expect_eq "$(outcomes "$B")" "setup:passed tiny:passed full:workload-failed teardown:passed " "outcomes"
expect_eq "$(q "$B" "SELECT reason FROM cases WHERE case_id = 'full'")" \
  "signature nccl-error in stderr: rank 1: NCCL error: unhandled system error" "main's reason"
[ -e torn-down ] || fail "teardown did not run after a signature stop"

# A timeout in main: teardown runs.
rm -f torn-down
suite tmo 'true' hang 'touch $PWD/torn-down'
sed 's/"timeout_s": 120/"timeout_s": 10/' tmo.json >tmo10.json
run_assay 3 run --store "$T2" --out tout tmo10.json
expect_eq "$(outcomes "$T2")" "setup:passed tiny:passed full:workload-failed teardown:passed " "outcomes"
python3 - tout/*/summary.json <<'PY'
import json, sys
c = {c["case_id"]: c for c in json.load(open(sys.argv[1]))["cases"]}
assert c["full"]["failure"] == "timeout", c["full"]
PY
[ -e torn-down ] || fail "teardown did not run after a timeout"

# A failed teardown is reported, and the run keeps its own outcome.
suite tdfail 'true' ok 'echo cleanup failed >&2; exit 4'
run_assay 0 run --store "$C" --out cout tdfail.json
expect_eq "$(outcomes "$C")" "setup:passed tiny:passed full:passed teardown:workload-failed " "outcomes"
expect_grep '^teardown +workload-failed' out.txt
suite both 'true' nccl 'exit 4'
run_assay 3 run --store "$C2" --out c2out both.json

# Ctrl-C during main: main is interrupted, teardown runs, exit 5.
rm -f torn-down
suite intr 'true' hang 'touch $PWD/torn-down'
"$ASSAY" run --store "$D" --out dout --quiet intr.json >out.txt 2>err.txt &
pid=$!
for _ in $(seq 1 600); do
  compgen -G 'dout/*/full/pid' >/dev/null && [ -s dout/*/full/pid ] && break
  sleep 0.1
done
compgen -G 'dout/*/full/pid' >/dev/null || fail "main did not start"
kill -INT "$pid"
set +e
wait "$pid"
rc=$?
set -e
expect_eq "$rc" 5 "exit code after SIGINT"
[ -e torn-down ] || { cat out.txt err.txt >&2; fail "teardown did not run after Ctrl-C"; }
expect_eq "$(outcomes "$D")" "setup:passed tiny:passed full:skipped teardown:passed " "outcomes"

# Validation names the file and the JSON path (exit 2).
cat >bad.json <<'JSON'
{"kind": "command", "combos": {"a": {}}, "argv": ["true"], "parser": "none",
 "stages": [{"name": "teardown", "argv": ["true"]}, {"name": "main", "runs": ["a"]}]}
JSON
run_assay 2 run --store "$E" bad.json
expect_eq "$(cat err.txt)" 'bad.json: $.stages[0].name: teardown must be the last stage' "teardown first"
cat >bad.json <<'JSON'
{"kind": "command", "combos": {"a": {}}, "argv": ["true"], "parser": "none",
 "stages": [{"name": "main", "runs": ["b"]}]}
JSON
run_assay 2 run --store "$E" bad.json
expect_eq "$(cat err.txt)" 'bad.json: $.stages[0].runs[0]: unknown combo "b" (combos: a)' "unknown combo"
cat >bad.json <<'JSON'
{"kind": "command", "combos": {"a": {}}, "argv": ["true"], "parser": "none",
 "stages": [{"name": "main", "runs": ["a"], "argv": ["true"]}]}
JSON
run_assay 2 run --store "$E" bad.json
expect_eq "$(cat err.txt)" 'bad.json: $.stages[0]: a stage has "runs" (combos) or "argv" (a command), not both' "both"
! store_exists "$E" || fail "a refused suite wrote a store"
echo ok
