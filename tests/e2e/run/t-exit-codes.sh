#!/usr/bin/env bash
# Exit codes by outcome: exit 0 without measurements is no-metrics (4), a
# non-zero exit is workload-failed (3) with the exit code and the last stderr
# line, and a run of both exits with the more severe (3 > 4). Metrics make a
# pass (0).
. "$(dirname "$0")/lib.sh" "$@"
S=$(store_new s) F=$(store_new f) U=$(store_new u)
row='{"series":{"workload":"w"},"metric":"m","statistic":"mean","value":1,"unit":"s","direction":"lower"}'
cat >nometrics.json <<'JSON'
{"kind": "command", "name": "nm", "cluster": "e2e", "combos": {"quiet": {}},
 "argv": ["sh", "-c", "echo training done"], "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"]}
JSON
# --dry-run starts and writes nothing.
run_assay 0 run --dry-run --store "$S" nometrics.json
expect_grep '^  sh -c .echo training done.$' out.txt
! store_exists "$S" && [ ! -e out ] || fail "--dry-run wrote files"
run_assay 4 run --store "$S" --quiet nometrics.json
expect_eq "$(q "$S" "SELECT outcome FROM cases")" "no-metrics" "outcome"
expect_grep '^quiet +no-metrics .*rows.ndjson was not written' out.txt
expect_grep '^exit 4 \(no-metrics\)$' out.txt

cat >work.sh <<EOF2
#!/bin/sh
# work.sh CASE_DIR ROW RC: maybe write one row, complain on stderr, exit RC.
if [ "\$2" = yes ]; then echo '$row' > "\$1/rows.ndjson"; else : > "\$1/rows.ndjson"; fi
echo 'oom? no: disk full' >&2
exit "\$3"
EOF2
cat >mixed.json <<'JSON'
{"kind": "command", "name": "mixed", "cluster": "e2e",
 "combos": {"good": {"RC": 0, "ROW": "yes"}, "empty": {"RC": 0, "ROW": "no"}, "bad": {"RC": 7, "ROW": "no"}},
 "argv": ["sh", "work.sh", "{CASE_DIR}", "{ROW}", "{RC}"],
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"]}
JSON
run_assay 3 run --store "$S" --quiet mixed.json
run=$(q "$S" "SELECT run_id FROM runs WHERE suite = 'mixed'")
expect_eq "$(q "$S" "SELECT case_id || ':' || outcome FROM cases c JOIN runs r ON r.id = c.run WHERE r.run_id = '$run' ORDER BY c.id" | tr '\n' ' ')" \
  "good:passed empty:no-metrics bad:workload-failed " "outcomes"
expect_eq "$(q "$S" "SELECT reason FROM cases WHERE case_id = 'bad'")" \
  "exit code 7; stderr: oom? no: disk full" "reason"
expect_eq "$(q "$S" "SELECT count(*) FROM measurements m JOIN runs r ON r.id = m.run WHERE r.run_id = '$run'")" 1 "rows stored"
expect_eq "$(q "$S" "SELECT exit_code FROM runs WHERE run_id = '$run'")" 3 "run exit code"
expect_grep '^3 cases: 1 passed, 1 workload-failed, 1 no-metrics$' out.txt

# --fail-fast: after the first case that fails, the rest are skipped (stored
# as skipped, never started, and a resume runs them).
run_assay 4 run --store "$F" --quiet --fail-fast mixed.json
expect_grep '^bad +skipped +- +not run: --fail-fast after empty$' out.txt
expect_eq "$(q "$F" "SELECT case_id || ':' || outcome || ':' || attempts FROM cases ORDER BY id" | tr "\n" " ")" \
  "good:passed:1 empty:no-metrics:1 bad:skipped:0 " "cases stored"
expect_eq "$(q "$F" "SELECT reason FROM cases WHERE case_id = 'bad'")" "not run: --fail-fast after empty" "skip reason"
run_assay 3 run --store "$F" --quiet --resume last mixed.json
expect_grep '^bad +workload-failed ' out.txt
expect_eq "$(q "$F" "SELECT case_id || ':' || outcome || ':' || attempts FROM cases ORDER BY id" | tr "\n" " ")" \
  "good:passed:1 empty:no-metrics:1 bad:workload-failed:1 " "cases after resume"
expect_eq "$(q "$F" "SELECT count(*) FROM measurements")" 1 "rows after resume (stored once)"

# Files outside the case folder left by an earlier case: an old results file
# is no-metrics, never a pass, and an old error line in a watched log does
# not fail the next case (only lines written during the case are read).
echo "$row" > shared.ndjson
echo 'NCCL error: from an earlier case' > node0.log
cat >stale.json <<'JSON'
{"kind": "command", "name": "stale", "cluster": "e2e", "combos": {"lazy": {}},
 "argv": ["sh", "-c", "echo 'iteration 1 ok' >> node0.log"],
 "parser": "rows", "results": ["shared.ndjson"], "logs": ["node0.log"]}
JSON
run_assay 4 run --store "$U" --quiet stale.json
expect_eq "$(q "$U" "SELECT reason FROM cases")" \
  "results file shared.ndjson was not written by this case (unchanged since it started)" "stale results"
run=$(q "$U" "SELECT run_id FROM runs")
expect_eq "$(cat "out/$run/lazy/logs/1-node0.log")" "iteration 1 ok" "the watched log's copy"
echo ok
