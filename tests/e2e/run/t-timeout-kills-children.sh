#!/usr/bin/env bash
# A workload that runs past timeout_s is stopped with every process it
# started: background children, a grandchild that ignores SIGTERM, one that
# moved to a session of its own, and the ranks of an mpirun (Open MPI puts
# each rank in a process group of its own). Outcome workload-failed
# (timeout), exit 3, and no process of the case survives.
. "$(dirname "$0")/lib.sh" "$@"
S=$(store_new s)
cat >spawn.sh <<'EOF2'
#!/bin/sh
# spawn.sh PIDFILE: start a small process tree, record its pids, then wait.
sleep 1000 & echo $! >> "$1"
sh -c 'trap "" TERM; sleep 1000 & echo $! >> "$1"; wait' sh "$1" & echo $! >> "$1"
setsid sleep 1000 & echo $! >> "$1"
echo spawned
wait
EOF2
cat >suite.json <<'JSON'
{"kind": "command", "name": "timeout", "cluster": "e2e",
 "combos": {"tree": {}},
 "argv": ["sh", "spawn.sh", "{CASE_DIR}/../tree.pids"],
 "parser": "none", "timeout_s": 2, "launcher": {"type": "local", "grace_s": 1}}
JSON
run_assay 3 run --store "$S" --quiet suite.json
run=$(q "$S" "SELECT run_id FROM runs")
expect_eq "$(q "$S" "SELECT outcome || ': ' || reason FROM cases")" "workload-failed: timeout after 2 s" "outcome"
expect_grep '^spawned$' "out/$run/tree/stdout.log"
expect_all_gone "out/$run/tree.pids" 4

# The same through mpirun: its ranks live in process groups of their own.
if command -v mpirun >/dev/null; then
  cat >mpi.json <<'JSON'
{"kind": "command", "name": "mpi-timeout", "cluster": "e2e",
 "combos": {"ranks": {}},
 "argv": ["mpirun", "--oversubscribe", "-np", "3", "sh", "-c", "echo $$ >> {CASE_DIR}/../ranks.pids; echo rank up; exec sleep 1000"],
 "env": {"OMPI_ALLOW_RUN_AS_ROOT": 1, "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": 1},
 "parser": "none", "timeout_s": 4, "launcher": {"type": "local", "grace_s": 1}}
JSON
  run_assay 3 run --store "$S" --quiet mpi.json
  run=$(q "$S" "SELECT run_id FROM runs WHERE suite = 'mpi-timeout'")
  expect_eq "$(q "$S" "SELECT c.outcome FROM cases c JOIN runs r ON r.id = c.run WHERE r.run_id = '$run'")" \
    "workload-failed" "mpi outcome"
  expect_all_gone "out/$run/ranks.pids" 3
else
  echo "mpirun not found: the mpirun half of this test was skipped"
fi
echo ok
