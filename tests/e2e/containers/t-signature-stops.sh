#!/usr/bin/env bash
# A signature printed inside the container stops the case: workload-failed
# with the signature, exit 3; the container's PID 1 (a shell, which ignores
# SIGTERM) never finishes its sleep, and no container of the run is left.
# The same for a timeout. No timing is asserted.
. "$(dirname "$0")/lib.sh" "$@"
cat >suite.json <<JSON
{"kind": "command", "name": "ctr-stop", "cluster": "e2e",
 "combos": {"sig": {"MODE": "sig"}, "slow": {"MODE": "slow"}},
 "runs": ["{RUNS}"],
 "container": {"image": "$IMAGE", "pull": "never"},
 "launcher": {"type": "local", "grace_s": 1},
 "argv": ["sh", "-c", "echo step 1; [ {MODE} = sig ] && echo 'rank 3: NCCL error: unhandled system error' >&2; sleep 60; touch {CASE_DIR}/slept"],
 "parser": "none", "timeout_s": 3}
JSON
for c in sig slow; do
  sed "s/{RUNS}/$c/" suite.json >"$c.json"
  run_assay 3 run --store "$c.db" --quiet "$c.json"
  run=$(q "$c.db" "SELECT run_id FROM runs")
  expect_eq "$(q "$c.db" "SELECT outcome FROM cases")" workload-failed "$c: stored outcome"
  [ ! -e "out/$run/$c/slept" ] || fail "$c: the workload slept to the end: it was not stopped"
  expect_no_containers "$run"
done
expect_eq "$(q sig.db "SELECT reason FROM cases")" \
  "signature nccl-error in stderr: rank 3: NCCL error: unhandled system error" "signature reason"
expect_grep '^slow +workload-failed .*timeout after 3 s' out.txt
echo ok
