#!/usr/bin/env bash
# assay killed with SIGKILL at 20 random moments of one run of a shard suite
# (one job per shard), resumed each time. Once a resume has started, no job
# of an earlier attempt is queued or running; at the end every case is
# stored exactly once with its row (none lost, none doubled). Issue 14,
# "Done when".
#   t-kill-loop.sh ASSAY
. "$(dirname "$0")/lib.sh" "$@"
N=8
combos=$(for i in $(seq 1 $N); do printf '"c%02d": {"I": %s}' "$i" "$i"; [ "$i" = $N ] || printf ', '; done)
cat >suite.json <<JSON
{"kind": "command", "name": "loop", "cluster": "e2e", "revision": "r1",
 "combos": {$combos},
 "argv": ["sh", "-c", "sleep 0.4; printf '{\"series\":{\"workload\":\"w\",\"i\":%s},\"metric\":\"m\",\"statistic\":\"mean\",\"value\":%s,\"unit\":\"s\",\"direction\":\"lower\"}\\\\n' \$0 \$0 > \$1/rows.ndjson", "{I}", "{CASE_DIR}"],
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"],
 "launcher": {"type": "slurm", "gpu_gres": false, "poll_interval_s": 0.3, "time": "5"}}
JSON
seed=${ASSAY_KILL_SEED:-$$}
RANDOM=$seed
echo "seed $seed (ASSAY_KILL_SEED reproduces the kill moments)"
# Jobs of this run from attempts before ATTEMPT that Slurm still holds as
# queued or running (after a few seconds' grace for scancel to land).
earlier_alive() {
  local run=$1 attempt=$2 i
  for i in $(seq 1 40); do
    local left
    left=$(squeue -h -t all -o '%i|%j|%T' | awk -F'|' -v p="assay-$run-" -v a="-a$attempt" '
      index($2, p) == 1 && index($2, a) == 0 && ($3 == "PENDING" || $3 == "RUNNING" || $3 == "CONFIGURING") { print $1 "(" $2 ")" }')
    [ -z "$left" ] && return 0
    sleep 0.25
  done
  echo "$left"
}
started=0
for i in $(seq 1 20); do
  if [ "$started" = 0 ]; then
    args=(run --store s.db --out out --quiet suite.json)
  else
    args=(run --store s.db --out out --quiet --resume last suite.json)
  fi
  "$ASSAY" "${args[@]}" >out.txt 2>err.txt &
  pid=$!
  delay=$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.1 + r / 32767 * 2.5 }')
  sleep "$delay"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  [ -e s.db ] && [ "$(q s.db "SELECT count(*) FROM sqlite_master WHERE name = 'runs'")" = 1 ] &&
    [ "$(q s.db "SELECT count(*) FROM runs")" = 1 ] && started=1
  if grep -q '^run .*cases' err.txt && [ "$(q s.db "SELECT resumed FROM runs")" -ge 1 ]; then
    run=$(q s.db "SELECT run_id FROM runs")
    attempt=$(($(q s.db "SELECT resumed FROM runs") + 1))
    left=$(earlier_alive "$run" "$attempt")
    [ -z "$left" ] || fail "kill $i (after ${delay}s, attempt $attempt): jobs of earlier attempts alive: $left"
  fi
  echo "kill $i after ${delay}s: $(q s.db "SELECT count(*) FROM cases WHERE outcome = 'passed'" 2>/dev/null || echo 0) cases passed"
done
if [ "$started" = 1 ]; then
  run_assay 0 run --store s.db --out out --quiet --resume last suite.json
else
  run_assay 0 run --store s.db --out out --quiet suite.json
fi
run=$(q s.db "SELECT run_id FROM runs")
attempt=$(($(q s.db "SELECT resumed FROM runs") + 1))
left=$(earlier_alive "$run" "$attempt")
[ -z "$left" ] || fail "jobs of earlier attempts alive after the last resume: $left"
expect_eq "$(q s.db "SELECT count(*) || ' ' || count(DISTINCT case_id) FROM cases WHERE outcome = 'passed'")" \
  "$N $N" "passed cases"
expect_eq "$(q s.db "SELECT count(*) FROM cases")" $N "cases"
expect_eq "$(q s.db "SELECT count(*) FROM measurements")" $N "rows"
expect_eq "$(q s.db "SELECT count(*) FROM procs WHERE ended IS NULL")" 0 "open process records"
# The shard job of the finished run ends by itself (it sees "end").
for _ in $(seq 1 60); do
  [ -z "$(squeue -h -o '%j' | grep "^assay-$run-")" ] && break
  sleep 0.5
done
[ -z "$(squeue -h -o '%j' | grep "^assay-$run-")" ] || fail "jobs of the run left queued or running: $(squeue -h -o '%i %j %T')"
echo ok
