#!/usr/bin/env bash
# Provenance expectations on Slurm (issue 19, docs/suite.md "Provenance"):
# two srun tasks of one step each print an RCCL version line, the task
# (SLURM_PROCID) picking the version. With a per-rank expectation srun
# writes one file per task (%N.%t); where task 1 prints the wrong version
# the case fails as infrastructure (failure provenance, exit 5) naming rank
# 1, its node and the expectation, and so it does where task 1 prints
# nothing; where both print the right one the matched strings are the
# case's provenance.
#   t-expect-provenance.sh ASSAY
. "$(dirname "$0")/lib.sh" "$@"
node=$(sinfo -h -N -o %N | head -n 1)
cat >suite.json <<'JSON'
{"kind": "command", "name": "prov", "cluster": "e2e",
 "combos": {"same": {"V1": "2.22.3"}, "mixed": {"V1": "2.20.5"}, "silent": {"V1": ""}},
 "argv": ["sh", "-c", "if [ \"$SLURM_PROCID\" = 1 ]; then v={V1}; else v=2.22.3; fi; [ -z \"$v\" ] || echo \"RCCL version : $v\""],
 "expect": [{"name": "rccl-version", "pattern": "RCCL version\\s*:?\\s*2\\.22\\.3", "per": "rank"},
            {"name": "rccl-seen", "pattern": "RCCL version : [0-9.]+", "per": "node"}],
 "parser": "none",
 "launcher": {"type": "slurm", "gpu_gres": false, "job_per": "case", "poll_interval_s": 1,
              "ntasks_per_node": 2}}
JSON
run_assay 5 run --store s.db --quiet suite.json
run=$(q s.db "SELECT run_id FROM runs")
expect_eq "$(q s.db "SELECT outcome FROM cases WHERE case_id = 'same'")" passed "outcome of same"
expect_eq "$(q s.db "SELECT outcome || ': ' || reason FROM cases WHERE case_id = 'mixed'")" \
  "infrastructure: provenance: expectation rccl-version not matched on rank 1 ($node) (pattern RCCL version\\s*:?\\s*2\\.22\\.3)" \
  "outcome of mixed"
# A task that printed nothing has an empty file, and matched nothing.
expect_eq "$(q s.db "SELECT outcome || ': ' || reason FROM cases WHERE case_id = 'silent'")" \
  "infrastructure: provenance: expectation rccl-version not matched on rank 1 ($node) (pattern RCCL version\\s*:?\\s*2\\.22\\.3)" \
  "outcome of silent"
# One file per task in the case folder's nodes/.
[ -f "out/$run/mixed/nodes/$node.1.out" ] || { ls -R "out/$run/mixed" >&2; fail "no per-task log $node.1.out"; }
expect_eq "$(q s.db "SELECT c.case_id || '|' || p.name || '|' || p.per || '|' || p.unit || '|' || coalesce(p.matched, '-') FROM provenance p JOIN cases c ON c.id = p.\"case\" ORDER BY c.case_id, p.name, p.unit")" \
"mixed|rccl-seen|node|$node|RCCL version : 2.22.3
mixed|rccl-version|rank|0|RCCL version : 2.22.3
mixed|rccl-version|rank|1|-
same|rccl-seen|node|$node|RCCL version : 2.22.3
same|rccl-version|rank|0|RCCL version : 2.22.3
same|rccl-version|rank|1|RCCL version : 2.22.3
silent|rccl-seen|node|$node|RCCL version : 2.22.3
silent|rccl-version|rank|0|RCCL version : 2.22.3
silent|rccl-version|rank|1|-" "provenance"
echo ok
