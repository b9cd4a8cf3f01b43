#!/usr/bin/env bash
# kill -9 of assay while a case runs in a container: the container is left
# behind (the workload ignores the SIGTERM that reaches podman: `trap ''
# TERM`; without it the container's init passes the SIGTERM on and the
# container ends by itself). `--resume
# last` finds it by its assay.run label and removes it before anything
# runs, runs the unfinished case once, and the store holds each case once
# with its rows once.
. "$(dirname "$0")/lib.sh" "$@"
cat >suite.json <<JSON
{"kind": "command", "name": "ctr-resume", "cluster": "e2e", "revision": "r1",
 "combos": {"a": {"V": 1}, "b": {"V": 2}},
 "container": {"image": "$IMAGE", "pull": "never", "mounts": ["$T/flags:/flags"]},
 "argv": ["sh", "-c", "trap '' TERM; [ -e /flags/go-{V} ] || { touch /flags/started-{V}; sleep 60; }; printf '{\"series\":{\"workload\":\"w\",\"v\":%s},\"metric\":\"m\",\"statistic\":\"mean\",\"value\":%s,\"unit\":\"s\",\"direction\":\"lower\"}\\\\n' {V} {V} > {CASE_DIR}/rows.ndjson"],
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"]}
JSON
mkdir -p out flags
"$ASSAY" run --store s.db --out out --quiet suite.json >run1.txt 2>&1 &
pid=$!
# Wait (bounded) for the first case to be running inside its container.
for _ in $(seq 1 300); do
  [ -e flags/started-1 ] && break
  sleep 0.1
done
[ -e flags/started-1 ] || { cat run1.txt >&2; fail "the first case never started"; }
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
run=$(q s.db "SELECT run_id FROM runs")
[ -n "$(containers_of "$run")" ] || fail "the killed attempt left no container (nothing to test)"
touch flags/go-1 flags/go-2
run_assay 0 run --store s.db --out out --resume last suite.json
expect_grep "removed container assay-$run-a-a1" err.txt
expect_no_containers "$run"
expect_eq "$(q s.db "SELECT case_id || ' ' || outcome || ' ' || attempts FROM cases ORDER BY case_id" | tr '\n' ' ')" \
  "a passed 2 b passed 1 " "cases"
expect_eq "$(q s.db "SELECT c.case_id || '=' || m.value FROM measurements m JOIN cases c ON c.id = m.\"case\" ORDER BY c.case_id" | tr '\n' ' ')" \
  "a=1.0 b=2.0 " "rows, once each"
echo ok
