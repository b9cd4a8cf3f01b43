#!/usr/bin/env bash
# Interrupting assay (SIGINT, SIGTERM, or SIGHUP as from a lost ssh session)
# stops the running case and every process it started, including mpirun's
# ranks; the run is recorded with exit 5, nothing of the interrupted case is
# stored, the cases after it are skipped, and the printed resume command, run
# as printed, runs exactly those cases.
# backends: sqlite (not yet on both: each round removes the store file, s.db*,
# and the resume hint it checks names that path)
. "$(dirname "$0")/lib.sh" "$@"
cat >work.sh <<'EOF2'
#!/bin/sh
# work.sh CASE_DIR NAME: the first attempt of "long" hangs (with a child and,
# when mpirun exists, three ranks); later attempts and other cases are quick.
W=$PWD
echo "$2" >> "$W/attempts"
if [ "$2" = long ] && [ ! -e "$W/hung" ]; then
  touch "$W/hung"
  sleep 1000 & echo $! >> "$W/pids"
  if command -v mpirun >/dev/null; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
      mpirun --oversubscribe -np 3 sh -c "echo \$\$ >> $W/pids; exec sleep 1000" &
  fi
  echo $$ >> "$W/pids"
  echo hanging
  wait
fi
printf '{"series":{"workload":"w"},"metric":"m","statistic":"mean","value":1,"unit":"s","direction":"lower"}\n' > "$1/rows.ndjson"
EOF2
cat >suite.json <<'JSON'
{"kind": "command", "name": "intr", "cluster": "e2e",
 "combos": {"first": {"N": "first"}, "long": {"N": "long"}, "last": {"N": "last"}},
 "argv": ["sh", "work.sh", "{CASE_DIR}", "{N}"],
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"],
 "launcher": {"type": "local", "grace_s": 2}}
JSON
want_pids=2
command -v mpirun >/dev/null && want_pids=5
for sig in INT TERM HUP; do
  rm -rf out s.db* pids hung attempts
  "$ASSAY" run --store s.db --quiet suite.json >out.txt 2>err.txt &
  pid=$!
  # Wait until the long case hangs with all its processes recorded.
  for _ in $(seq 1 300); do
    [ -e pids ] && [ "$(wc -l < pids)" -ge "$want_pids" ] && break
    sleep 0.1
  done
  [ "$(wc -l < pids)" -ge "$want_pids" ] || fail "the workload did not start its processes"
  kill -"$sig" "$pid"
  set +e
  wait "$pid"
  rc=$?
  set -e
  expect_eq "$rc" 5 "exit code after SIG$sig"
  expect_all_gone pids "$want_pids"
  expect_grep '^interrupted: stopping long' err.txt
  expect_grep '^interrupted; the unfinished cases run with: assay run --resume [^ ]+ --store s.db --out out suite.json$' err.txt
  expect_grep '^long +skipped .*interrupted while running' out.txt
  expect_grep '^last +skipped .*not run: assay was interrupted' out.txt
  expect_eq "$(q s.db "SELECT exit_code FROM runs")" 5 "stored exit code"
  # Skipped cases are stored without rows (attempts: how often they started);
  # the resume runs them again.
  expect_eq "$(q s.db "SELECT case_id || ':' || ifnull(outcome, 'unfinished') || ':' || attempts FROM cases ORDER BY id" | tr '\n' ' ')" \
    "first:passed:1 long:skipped:1 last:skipped:0 " "stored cases"
  # The hint is complete: pasted as it is, it resumes.
  hint=$(sed -n 's/^interrupted; the unfinished cases run with: assay //p' err.txt)
  [ -n "$hint" ] || fail "no resume command printed"
  set +e
  eval "\"\$ASSAY\" $hint --quiet" >out.txt 2>err.txt
  rc=$?
  set -e
  [ "$rc" = 0 ] || { cat err.txt >&2; fail "the printed resume command exited $rc"; }
  expect_eq "$(tr '\n' ' ' < attempts)" "first long long last " "attempts"
  expect_eq "$(q s.db "SELECT count(*) FROM measurements")" 3 "rows"
  expect_eq "$(q s.db "SELECT exit_code FROM runs")" 0 "exit code after resume"
  expect_eq "$(q s.db "SELECT case_id || ':' || outcome || ':' || attempts FROM cases ORDER BY id" | tr '\n' ' ')" \
    "first:passed:1 long:passed:2 last:passed:1 " "stored cases after resume"
done
echo ok
