#!/usr/bin/env bash
# Issue 35, items 1 and 3: the container runs with an init as PID 1 (podman
# --init, catatonit), so the workload's shell is not PID 1 and a stop's
# SIGTERM reaches it with its default action; and podman keeps no log of the
# (unredacted) output: `--log-driver none`, no ctr.log with the printed line.
# The workload waits on a flag so the container is looked at while it runs.
# No timing is asserted.
. "$(dirname "$0")/lib.sh" "$@"
[ -x /usr/libexec/podman/catatonit ] || command -v catatonit >/dev/null ||
  skip "no catatonit for podman --init (scripts/deps.sh check)"
cat >suite.json <<JSON
{"kind": "command", "name": "ctr-init", "cluster": "e2e",
 "combos": {"sig": {}},
 "container": {"image": "$IMAGE", "pull": "never", "mounts": ["$T/flags:/flags"]},
 "argv": ["sh", "-c", "echo \$\$ > {CASE_DIR}/pid; echo printed-by-the-workload-7c1e; touch /flags/up; while [ ! -e /flags/go ]; do sleep 0.1; done; echo 'rank 3: NCCL error: unhandled system error' >&2; sleep 60; touch {CASE_DIR}/slept"],
 "parser": "none", "timeout_s": 120}
JSON
mkdir -p out flags
"$ASSAY" run --store s.db --out out --quiet suite.json >run.txt 2>&1 &
pid=$!
for _ in $(seq 1 300); do
  [ -e flags/up ] && break
  sleep 0.1
done
[ -e flags/up ] || { cat run.txt >&2; fail "the case never started"; }
run=$(q s.db "SELECT run_id FROM runs")
name=$(containers_of "$run")
[ -n "$name" ] || fail "no container while the case runs"
expect_eq "$(podman inspect --format '{{.HostConfig.LogConfig.Type}}' "$name")" none "log driver"
dir=$(podman inspect --format '{{.StaticDir}}' "$name" 2>/dev/null || true)
if [ -n "$dir" ] && [ -e "$dir/ctr.log" ]; then
  ! grep -q printed-by-the-workload "$dir/ctr.log" || fail "podman's ctr.log holds the output"
fi
touch flags/go
wait "$pid" && rc=0 || rc=$?
expect_eq "$rc" 3 "exit code"
expect_eq "$(q s.db "SELECT outcome FROM cases")" workload-failed "stored outcome"
case_dir=out/$run/sig
[ -s "$case_dir/pid" ] || fail "the workload wrote no pid"
[ "$(cat "$case_dir/pid")" != 1 ] || fail "the workload's shell is PID 1: no init"
[ ! -e "$case_dir/slept" ] || fail "the workload slept to the end: it was not stopped"
expect_grep printed-by-the-workload "$case_dir/stdout.log"
expect_no_containers "$run"
echo ok
