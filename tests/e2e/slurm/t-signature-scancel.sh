#!/usr/bin/env bash
# A command workload that prints an error signature and then sleeps is
# cancelled with scancel as soon as the line is seen in its per-node log:
# workload-failed naming the signature, the job CANCELLED with assay's
# comment, the sleep cut short. The next case of the shard gets a new job
# and passes; the secret it prints is redacted everywhere. The workload
# touches "slept" only when its sleep ends normally ("&&"): Slurm signals the
# step's processes one by one, and a shell whose sleep died first could
# otherwise run the touch before its own SIGTERM arrived (a failure seen
# once, at load 8).
#   t-signature-scancel.sh ASSAY
. "$(dirname "$0")/lib.sh" "$@"
export ASSAY_E2E_SECRET="sig-secret-$$-$RANDOM"
cat >suite.json <<JSON
{"kind": "command", "name": "sig", "cluster": "e2e",
 "combos": {"nccl": {"MODE": "fail"}, "ok": {"MODE": "ok"}},
 "argv": ["sh", "-c", "if [ \"\$0\" = fail ]; then echo \$\$ > $T/sleeper.pid; echo 'rank 0: NCCL error: unhandled system error' >&2; sleep 120 && touch $T/slept; fi; echo \"token \$ASSAY_E2E_SECRET\"", "{MODE}"],
 "parser": "none", "secrets": ["ASSAY_E2E_SECRET"],
 "launcher": {"type": "slurm", "gpu_gres": false, "poll_interval_s": 0.5, "time": "5"}}
JSON
run_assay 3 run --store s.db --quiet suite.json
run=$(q s.db "SELECT run_id FROM runs")
expect_eq "$(q s.db "SELECT case_id || ':' || outcome FROM cases ORDER BY case_id" | tr '\n' ' ')" \
  "nccl:workload-failed ok:passed " "stored outcomes"
expect_eq "$(q s.db "SELECT reason FROM cases WHERE case_id = 'nccl'")" \
  "signature nccl-error in stderr: rank 0: NCCL error: unhandled system error" "stored reason"
python3 - "out/$run/summary.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["cases"][0]
assert c["outcome"] == "workload-failed" and c["failure"] == "signature", c
assert c["signature"]["name"] == "nccl-error", c
PY
# The first job was cancelled by assay (the job record says so), the second
# (the shard's new job) ran the next case.
first=$(squeue -h -t all -n "assay-$run-sig" -o %i)
second=$(squeue -h -t all -n "assay-$run-sig-2" -o %i)
[ -n "$first" ] && [ -n "$second" ] || fail "jobs assay-$run-sig and -sig-2 expected"
expect_eq "$(final_state "$first")" CANCELLED "state of the cancelled job"
expect_grep '^assay-cancel: ' <(job_field "$first" %k)
expect_eq "$(final_state "$second")" COMPLETED "state of the shard's second job"
# Cut short: the sleep did not finish, and no process of it is left.
[ ! -e slept ] || fail "the workload slept to the end: it was not stopped"
for _ in $(seq 50); do pid_gone "$(cat sleeper.pid)" && break; sleep 0.2; done
pid_gone "$(cat sleeper.pid)" || fail "the cancelled workload is still running"
expect_grep 'NCCL error' "out/$run/nccl/stderr.log"
expect_grep "^token \*\*\*\$" "out/$run/ok/stdout.log"
no_secret "$ASSAY_E2E_SECRET" out s.db
echo ok
