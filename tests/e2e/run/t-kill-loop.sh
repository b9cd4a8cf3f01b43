#!/usr/bin/env bash
# assay killed with SIGKILL at 20 random moments of one run whose every case
# leaves a double-forked setsid daemon and a bash-wrapped grandchild; each
# time the run is resumed. After each resume has started, no process of an
# earlier attempt is alive; at the end every case is stored exactly once
# with its rows (none lost, none doubled). Issue 14, "Done when".
# backends: sqlite (checks the SQLite file after each kill -9: PRAGMA
# integrity_check, sqlite_master)
. "$(dirname "$0")/lib.sh" "$@"
cleanup() {
  set +e
  [ -e "$T/pids" ] && kill -9 $(cat "$T/pids") 2>/dev/null
  rm -rf "$T"
  true
}
trap cleanup EXIT
cat >work.sh <<'EOF2'
#!/bin/sh
# work.sh CASE_DIR I: a daemon and a grandchild that would sleep for long,
# then a moment of work and three rows.
W=$PWD
(setsid sh -c "echo \$\$ >> $W/pids; echo \$\$ >> $W/pids.d; exec sleep 1000" </dev/null >/dev/null 2>&1 &)
bash -c "sleep 1000 & echo \$! >> $W/pids; wait" </dev/null >/dev/null 2>&1 &
sleep 0.3
for m in a b c; do
  printf '{"series":{"workload":"w","i":%s},"metric":"%s","statistic":"mean","value":%s.5,"unit":"s","direction":"lower"}\n' "$2" "$m" "$2"
done > "$1/rows.ndjson"
EOF2
N=12
combos=$(for i in $(seq 1 $N); do printf '"c%02d": {"I": %s}' "$i" "$i"; [ "$i" = $N ] || printf ', '; done)
cat >suite.json <<JSON
{"kind": "command", "name": "killloop", "cluster": "e2e", "revision": "r1",
 "combos": {$combos},
 "argv": ["sh", "work.sh", "{CASE_DIR}", "{I}"],
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"],
 "launcher": {"type": "local", "grace_s": 1}}
JSON
# An uninterrupted run first: what the killed one must end up storing, and
# how long a case takes here (the kill moments scale with it, so that a
# loaded machine still sees kills inside cases, between them and at start).
t0=$(date +%s.%N)
run_assay 0 run --store ref.db --out ref --quiet suite.json
t1=$(date +%s.%N)
span=$(awk -v a="$t0" -v b="$t1" -v n=$N 'BEGIN { printf "%.3f", 1.5 * (b - a) / n }')
kill -9 $(cat pids) 2>/dev/null || true
rm -f pids pids.d
seed=${ASSAY_KILL_SEED:-$$}
RANDOM=$seed
echo "seed $seed (ASSAY_KILL_SEED reproduces the kill moments); kills within ${span}s of a start"
alive_of() { # the pids of FILE still alive
  local p
  for p in $(cat "$1" 2>/dev/null); do pid_gone "$p" || echo "$p"; done
}
# The processes alive now that the next attempt must end. Without a cgroup
# (the subreaper fallback: no root), a daemon whose parent died in a session
# of its own cannot be found again (docs/run.md): only the rest count then.
snapshot() {
  : >earlier
  [ -e pids ] || return 0
  if [ -e s.db ] && [ "$(q s.db "SELECT contain FROM procs LIMIT 1" 2>/dev/null)" = subreaper ]; then
    grep -vxFf pids.d pids >earlier || true
  else
    cp pids earlier
  fi
}
started=0
for i in $(seq 1 20); do
  snapshot
  if [ "$started" = 0 ]; then
    args=(run --store s.db --out out --quiet suite.json)
  else
    args=(run --store s.db --out out --quiet --resume last suite.json)
  fi
  "$ASSAY" "${args[@]}" >out.txt 2>err.txt &
  pid=$!
  delay=$(awk -v r=$RANDOM -v s="$span" 'BEGIN { printf "%.2f", 0.05 + r / 32767 * s }')
  sleep "$delay"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  [ -e s.db ] && [ "$(q s.db "SELECT count(*) FROM sqlite_master WHERE name = 'runs'")" = 1 ] &&
    [ "$(q s.db "SELECT count(*) FROM runs")" = 1 ] && started=1
  if grep -q '^run .*cases' err.txt; then
    # This attempt got past its start: whatever earlier attempts left is gone.
    sleep 0.2
    left=$(alive_of earlier | tr '\n' ' ')
    [ -z "$left" ] || fail "kill $i (after ${delay}s): processes of earlier attempts alive: $left"
  fi
  echo "kill $i after ${delay}s: $(q s.db "SELECT count(*) FROM cases WHERE outcome = 'passed'" 2>/dev/null || echo 0) cases passed"
done
snapshot
if [ "$started" = 1 ]; then
  run_assay 0 run --store s.db --out out --quiet --resume last suite.json
else
  run_assay 0 run --store s.db --out out --quiet suite.json
fi
left=$(alive_of earlier | tr '\n' ' ')
[ -z "$left" ] || fail "processes of earlier attempts alive after the last resume: $left"
snapshot
left=$(alive_of earlier | tr '\n' ' ')
[ -z "$left" ] || fail "processes alive after the run finished: $left"
expect_eq "$(q s.db "SELECT count(*) FROM runs")" 1 "runs"
expect_eq "$(q s.db "SELECT count(*) || ' ' || count(DISTINCT case_id) FROM cases WHERE outcome = 'passed'")" \
  "$N $N" "passed cases"
expect_eq "$(q s.db "SELECT count(*) FROM cases")" $N "cases"
expect_eq "$(q s.db "SELECT count(*) FROM measurements")" $((3 * N)) "rows"
expect_eq "$(q s.db "SELECT count(*) FROM (SELECT c.case_id, s.metric FROM measurements m JOIN cases c ON c.id = m.\"case\" JOIN series s ON s.id = m.series GROUP BY 1, 2 HAVING count(*) > 1)")" \
  0 "rows stored twice"
expect_eq "$(q s.db "PRAGMA integrity_check")" ok "integrity"
measurements() {
  q "$1" "SELECT c.case_id, s.metric, m.value FROM measurements m JOIN cases c ON c.id = m.\"case\"
          JOIN series s ON s.id = m.series ORDER BY c.case_id, s.metric"
}
diff <(measurements ref.db) <(measurements s.db) >&2 || fail "the killed and resumed run stored other measurements than an uninterrupted one"
expect_eq "$(q s.db "SELECT count(*) FROM procs WHERE ended IS NULL")" 0 "open process records"
echo ok
