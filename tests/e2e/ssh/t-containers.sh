#!/usr/bin/env bash
# A suite's podman container block under the ssh launcher: each of two
# loopback nodes runs the case in a container of its own (the busybox image
# of tests/e2e/containers, rootful podman; skipped where podman cannot run),
# with NODE_RANK, NNODES, MASTER_ADDR and a secret passed in by name, the
# case folder mounted. Then a signature on node 1 while both containers
# hang (their PID 1 ignores SIGTERM): stopped and removed on both nodes.
# Then kill -9 of assay: `--resume` removes the containers the killed
# attempt left, on each node, by the run's label (both on the first node
# here: the loopback nodes share one podman).
. "$(dirname "$0")/../containers/lib.sh" "$@"
. "$(dirname "$0")/lib.sh" "$@"
nodes_up 2
export CTR_SECRET=ctr-canary-$$
mkdir -p flags
suite() {
cat >suite.json <<JSON
{"kind": "command", "name": "ssh-ctr", "cluster": "e2e", "revision": "r1",
 "nodes": 2, "combos": {"c1": {}},
 "launcher": $(launcher_json),
 "container": {"image": "$IMAGE", "pull": "never", "mounts": ["$T/flags:/flags"]},
 "env": {"CONTAINERS_CONF": "$CONTAINERS_CONF"},
 "secrets": ["CTR_SECRET"],
 "argv": ["sh", "-c", "trap '' TERM; echo \"node \$NODE_RANK of \$NNODES master \$MASTER_ADDR secret \${#CTR_SECRET} in \$(cat /etc/passwd | head -c 4)\"; [ -e /flags/go ] && exit 0; touch /flags/up-\$NODE_RANK; [ \$NODE_RANK = 1 ] && { while [ ! -e /flags/up-0 ]; do sleep 0.1; done; [ -e /flags/quiet ] || echo 'rank 9: NCCL error: unhandled system error'; }; sleep 120"],
 "parser": "rows", "results": ["{CASE_DIR}/none.ndjson"], "timeout_s": 200}
JSON
}
suite
touch flags/go
run_assay 4 run --store s.db --out out suite.json
run=$(q s.db "SELECT run_id FROM runs")
expect_grep "^node 0 of 2 master $NODE1 secret ${#CTR_SECRET} in root\$" "out/$run/c1/nodes/$NODE1.out"
expect_grep "^node 1 of 2 master $NODE1 secret ${#CTR_SECRET} in root\$" "out/$run/c1/nodes/$NODE2.out"
expect_no_containers "$run"
# A signature on node 1: both containers stopped and removed.
rm -f flags/go
rm -rf out s.db*
run_assay 3 run --store s.db --out out suite.json
run=$(q s.db "SELECT run_id FROM runs")
expect_grep '^c1 +workload-failed .*signature nccl-error' out.txt
expect_no_containers "$run"
expect_none_left "assay-$run-"
# kill -9 of assay while both containers hang, the nodes' grace period long
# enough that the containers are still there: --resume removes them.
rm -rf out s.db* flags/up-*
touch flags/quiet
GRACE_S=60 suite
"$ASSAY" run --store s.db --out out suite.json >run1.txt 2>&1 &
pid=$!
wait_for flags/up-0 flags/up-1
run=$(q s.db "SELECT run_id FROM runs")
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
touch flags/go
[ -n "$(containers_of "$run")" ] || fail "the killed attempt left no container (nothing to test)"
run_assay 4 run --store s.db --out out --resume last suite.json
# The nodes of this test share one podman: the resume's own removal of the
# recorded containers (the local runtime, issue 35) or the per-host sweep
# (a real cluster's case) removes them, whichever comes first.
expect_grep "host $NODE1: removed 2 container\(s\) of an earlier attempt|resume: removed container assay-$run-c1-a1-n0" err.txt
expect_no_containers "$run"
expect_none_left "assay-$run-"
grep -rlF -- "$CTR_SECRET" "$T" "$ASSAY_SSH_BASE" 2>/dev/null && fail "the secret was written"
echo ok
