#!/usr/bin/env bash
# A run killed with SIGKILL at any moment leaves a consistent store and
# resumes to the same stored measurements as an uninterrupted run: every
# case once, no duplicates, no rows of unfinished cases. The kill lands at a
# different point each round (between cases, inside a case, during the
# store write), and a resume is itself killed before the last one finishes.
# backends: sqlite (checks SQLite's file and journal after SIGKILL: PRAGMA,
# sqlite_master)
. "$(dirname "$0")/lib.sh" "$@"
cat >work.sh <<'EOF2'
#!/bin/sh
# work.sh CASE_DIR I: a few deterministic rows after a short pause.
sleep 0.1
for m in a b c; do
  printf '{"series":{"workload":"w","i":%s},"metric":"%s","statistic":"mean","value":%s.5,"unit":"s","direction":"lower"}\n' "$2" "$m" "$2"
done > "$1/rows.ndjson"
EOF2
combos=$(for i in 1 2 3 4 5 6 7 8; do printf '"c%s": {"I": %s}' "$i" "$i"; [ "$i" = 8 ] || printf ', '; done)
cat >suite.json <<JSON
{"kind": "command", "name": "resume", "cluster": "e2e", "revision": "r1",
 "combos": {$combos},
 "argv": ["sh", "work.sh", "{CASE_DIR}", "{I}"],
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"]}
JSON
measurements() {
  q "$1" "SELECT c.case_id, s.metric, m.value FROM measurements m JOIN cases c ON c.id = m.\"case\"
          JOIN series s ON s.id = m.series ORDER BY c.case_id, s.metric"
}
consistent() {
  expect_eq "$(q "$1" "PRAGMA integrity_check")" ok "integrity of $1"
  expect_eq "$(q "$1" "PRAGMA foreign_key_check")" "" "foreign keys of $1"
  expect_eq "$(q "$1" "SELECT count(*) FROM measurements m JOIN cases c ON c.id = m.\"case\" WHERE c.outcome IS NULL")" \
    0 "rows of unfinished cases in $1"
  expect_eq "$(q "$1" "SELECT count(*) FROM (SELECT run, case_id FROM cases GROUP BY run, case_id HAVING count(*) > 1)")" \
    0 "cases stored twice in $1"
}

run_assay 0 run --store ref.db --out ref --quiet suite.json
measurements ref.db > want.txt
expect_eq "$(wc -l < want.txt)" 24 "reference rows"

for delay in 0.05 0.3 0.55 0.8 1.1; do
  db=k$delay.db
  rm -f "$db"*
  "$ASSAY" run --store "$db" --out "o$delay" --quiet suite.json >/dev/null 2>&1 &
  pid=$!
  sleep "$delay"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [ ! -e "$db" ]; then
    continue # killed before the store existed: nothing to resume
  fi
  expect_eq "$(q "$db" "PRAGMA integrity_check")" ok "integrity of $db"
  if [ "$(q "$db" "SELECT count(*) FROM sqlite_master WHERE name = 'runs'")" = 0 ] ||
     [ "$(q "$db" "SELECT count(*) FROM runs")" = 0 ]; then
    # Killed while the store was being created, before the run was recorded:
    # a valid store with nothing to resume, and a new run can use it.
    run_assay 2 run --store "$db" --out "o$delay" --resume last --quiet suite.json
    expect_grep 'the store has no runs yet' err.txt
    run_assay 0 run --store "$db" --out "o$delay" --quiet suite.json
    measurements "$db" > got.txt
    diff want.txt got.txt >&2 || fail "a new run in a store created by a killed run stored different measurements"
    continue
  fi
  consistent "$db"
  echo "killed after ${delay}s: $(q "$db" "SELECT count(*) FROM cases WHERE outcome IS NOT NULL") cases finished, $(q "$db" "SELECT count(*) FROM cases WHERE outcome IS NULL") begun and unfinished"
  # Kill the first resume too, then resume to the end.
  "$ASSAY" run --store "$db" --out "o$delay" --resume last --quiet suite.json >/dev/null 2>&1 &
  pid=$!
  sleep 0.3
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  consistent "$db"
  run_assay 0 run --store "$db" --out "o$delay" --resume last --quiet suite.json
  consistent "$db"
  measurements "$db" > got.txt
  diff want.txt got.txt >&2 || fail "resumed run (kill after ${delay}s) stored different measurements"
  expect_eq "$(q "$db" "SELECT count(*) FROM runs")" 1 "runs after resume"
  expect_eq "$(q "$db" "SELECT count(*) FROM cases WHERE outcome = 'passed'")" 8 "finished cases"
  expect_eq "$(q "$db" "SELECT exit_code FROM runs")" 0 "run exit code"
  expect_grep '^8 cases: 8 passed$' out.txt
done

# A finished run resumed again runs nothing and stores nothing new.
run_assay 0 run --store ref.db --out ref --resume last --quiet suite.json
measurements ref.db > again.txt
diff want.txt again.txt >&2 || fail "resuming a finished run changed the store"
expect_eq "$(grep -c 'finished earlier' err.txt)" 8 "cases kept from the earlier attempt"
# Resuming with a changed suite is refused: its case ids could mean other things.
sed 's/"r1"/"r2"/' suite.json > changed.json
cp changed.json suite.json
run_assay 2 run --store ref.db --out ref --resume last --quiet suite.json
expect_grep 'was made from a different suite' err.txt
echo ok
