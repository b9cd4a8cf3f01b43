#!/usr/bin/env bash
# A run killed (SIGKILL) mid-way resumes without duplicates: the resume ends
# the server the killed attempt left running (its session, from
# <run>/server/server.pid), starts its own, runs only the unfinished cells,
# and every cell is stored once. `--cleanup` ends such a server too.
. "$(dirname "$0")/lib.sh" "$@"
suite suite.json '' ok 1
S=$(store_new s)
"$ASSAY" run --store "$S" --out out --quiet suite.json >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 300); do
  [ "$(q "$S" "SELECT count(*) FROM cases WHERE outcome = 'passed'" 2>/dev/null || echo 0)" -ge 1 ] && break
  sleep 0.1
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
first=$(head -n1 "$T/server-pids.txt")
pid_gone "$first" && fail "the killed run's server should still be running (it had no chance to stop it)"
run_assay 0 run --store "$S" --out out --resume last suite.json
expect_grep 'server of an earlier attempt: ended' err.txt
servers_gone
expect_eq "$(wc -l < "$T/server-pids.txt")" 2 "servers started (one per attempt)"
expect_eq "$(q "$S" "SELECT count(*) FROM cases WHERE outcome = 'passed'")" 3 "cells passed"
expect_eq "$(q "$S" "SELECT count(*) FROM (SELECT case_id FROM cases GROUP BY run, case_id HAVING count(*) > 1) d")" 0 "cells stored twice"
expect_eq "$(q "$S" "SELECT count(*) FROM measurements m JOIN series s ON s.id = m.series WHERE s.metric = 'output_throughput'")" 3 "throughput rows"

# Killed again; --cleanup ends the server it left and runs nothing.
S2=$(store_new s2)
"$ASSAY" run --store "$S2" --out out2 --quiet suite.json >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 300); do
  [ "$(q "$S2" "SELECT count(*) FROM cases WHERE outcome = 'passed'" 2>/dev/null || echo 0)" -ge 1 ] && break
  sleep 0.1
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
third=$(sed -n 3p "$T/server-pids.txt")
[ -n "$third" ] || fail "the third run started no server"
pid_gone "$third" && fail "the killed run's server should still be running"
run_assay 0 run --store "$S2" --out out2 --cleanup last suite.json
expect_grep 'server of an earlier attempt: ended' err.txt
servers_gone
echo ok
