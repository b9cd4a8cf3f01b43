#!/usr/bin/env bash
# A scancel that never reaches the controller (a busy slurmctld drops the
# request) is sent again: the job still shows RUNNING 10 s after the cancel,
# so assay cancels it once more, and the workload's sleep is cut short. Here
# a scancel earlier in PATH drops the first request.
#   t-scancel-lost.sh ASSAY
. "$(dirname "$0")/lib.sh" "$@"
mkdir bin
cat >bin/scancel <<SH
#!/bin/sh
echo "\$*" >>$T/scancel.calls
[ -e $T/dropped ] && exec $(command -v scancel) "\$@"
: >$T/dropped
exit 0
SH
chmod +x bin/scancel
export PATH="$T/bin:$PATH"
cat >suite.json <<JSON
{"kind": "command", "name": "lost", "cluster": "e2e",
 "combos": {"c1": {"I": 1}},
 "argv": ["sh", "-c", "echo 'rank 0: NCCL error: unhandled system error' >&2; sleep 90 && touch $T/slept"],
 "parser": "none",
 "launcher": {"type": "slurm", "gpu_gres": false, "poll_interval_s": 0.5, "time": "5"}}
JSON
run_assay 3 run --store s.db --quiet suite.json
expect_eq "$(q s.db "SELECT outcome FROM cases")" workload-failed "stored outcome"
expect_eq "$(wc -l <scancel.calls)" 2 "scancel calls (the first dropped)"
[ ! -e slept ] || fail "the workload slept to the end: the lost cancel was not sent again"
echo ok
