#!/usr/bin/env bash
# Teardown after every main that ran, resumed or not (issue 35, item 6).
# Ctrl-C during main: main is skipped, teardown runs and finishes. The
# resume runs main again, and then teardown again; killed with SIGKILL in
# that teardown, the next resume finishes it. The store keeps the latest
# teardown's outcome (here it fails, so workload-failed, attempts 3) and
# the run's exit code is main's. A resume that runs no case runs no
# teardown. Before the fix the resume ran main and not teardown.
. "$(dirname "$0")/lib.sh" "$@"
S=$(store_new s)
# main hangs until the file go exists; every main and teardown start is
# logged in order; once go exists, teardown waits for td-go and fails.
cat >suite.json <<JSON
{"kind": "command", "name": "resume-stages", "cluster": "e2e",
 "combos": {"full": {}},
 "argv": ["sh", "-c", "echo \$\$ > {CASE_DIR}/pid; echo main >> $T/log; while [ ! -e $T/go ]; do sleep 0.2; done; echo trained"],
 "parser": "none", "timeout_s": 300,
 "stages": [{"name": "setup", "argv": ["true"]},
            {"name": "main", "runs": ["full"]},
            {"name": "teardown", "argv": ["sh", "-c", "echo teardown >> $T/log; if [ -e $T/go ]; then echo \$\$ > $T/tdpid; while [ ! -e $T/td-go ]; do sleep 0.2; done; exit 4; fi"]}]}
JSON
outcomes() { q "$S" "SELECT case_id || ':' || coalesce(outcome, '-') FROM cases ORDER BY id" | tr '\n' ' '; }
log() { tr '\n' ' ' <log; }

"$ASSAY" run --store "$S" --out out --quiet suite.json >out.txt 2>err.txt &
pid=$!
for _ in $(seq 1 600); do
  compgen -G 'out/*/full/pid' >/dev/null && [ -s out/*/full/pid ] && break
  sleep 0.1
done
compgen -G 'out/*/full/pid' >/dev/null || fail "main did not start"
kill -INT "$pid"
set +e
wait "$pid"
rc=$?
set -e
expect_eq "$rc" 5 "exit code after SIGINT"
expect_eq "$(log)" "main teardown " "what ran before the resume"
expect_eq "$(outcomes)" "setup:passed full:skipped teardown:passed " "outcomes before the resume"

# The resume runs main, then teardown again; killed (SIGKILL) while that
# teardown runs, the next resume runs it to the end.
touch go
"$ASSAY" run --store "$S" --out out --resume last --quiet suite.json >out.txt 2>err.txt &
pid=$!
for _ in $(seq 1 600); do
  [ -s tdpid ] && break
  kill -0 "$pid" 2>/dev/null || break # ended without a teardown
  sleep 0.1
done
[ -s tdpid ] || { cat out.txt err.txt >&2; fail "the resume did not run teardown"; }
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
expect_eq "$(log)" "main teardown main teardown " "what ran in the killed resume"
expect_eq "$(outcomes)" "setup:passed full:passed teardown:- " "outcomes after the killed resume"
touch td-go
run_assay 0 run --store "$S" --out out --resume last --quiet suite.json
expect_eq "$(log)" "main teardown main teardown teardown " "what ran after the last resume"
expect_eq "$(outcomes)" "setup:passed full:passed teardown:workload-failed " "outcomes after the resume"
expect_eq "$(q "$S" "SELECT attempts FROM cases WHERE case_id = 'teardown'")" 3 "teardown's attempts"
expect_eq "$(q "$S" "SELECT count(*) FROM cases")" 3 "cases stored"
expect_eq "$(q "$S" "SELECT exit_code FROM runs")" 0 "the run's exit code"
expect_grep '^teardown +workload-failed' out.txt
python3 - out/*/summary.json <<'PY'
import json, sys
c = {c["case_id"]: c for c in json.load(open(sys.argv[1]))["cases"]}
assert c["teardown"]["outcome"] == "workload-failed", c["teardown"]
assert c["full"]["outcome"] == "passed", c["full"]
PY

# A resume that runs no case runs no teardown.
run_assay 0 run --store "$S" --out out --resume last --quiet suite.json
expect_eq "$(log)" "main teardown main teardown teardown " "what a resume with nothing to run ran"
expect_eq "$(outcomes)" "setup:passed full:passed teardown:workload-failed " "outcomes after a resume with nothing to run"
echo ok
