#!/usr/bin/env bash
# Provenance expectations (issue 19, docs/suite.md "Provenance"): two ranks
# of `mpirun -np 2` each print an RCCL version line, the rank number
# (OMPI_COMM_WORLD_RANK) picking the version. Where rank 1 prints the wrong
# one, the case fails as infrastructure (failure provenance, exit 5) naming
# rank 1 and the expectation, and its measurements are not stored; where
# both print the right one, it passes and the matched strings, redacted,
# are the case's provenance in the store and in the report.
. "$(dirname "$0")/lib.sh" "$@"
S=$(store_new s)
command -v mpirun >/dev/null || { echo "SKIP: no mpirun"; exit 77; }
export ASSAY_E2E_CANARY="canary-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
cat >work.sh <<'EOF2'
#!/bin/sh
# work.sh CASE_DIR V0 V1: rank 0 prints V0, rank 1 V1 (a build tag holds
# the secret); rank 0 writes one measurement.
if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then v=$3; else v=$2; fi
[ -z "$v" ] || echo "NCCL INFO RCCL version : $v+hip6.2 build $ASSAY_E2E_CANARY"
if [ "$OMPI_COMM_WORLD_RANK" = 0 ]; then
  printf '{"series":{"workload":"toy"},"metric":"busbw","statistic":"mean","value":41.5,"unit":"GB/s","direction":"higher"}\n' >"$1/rows.ndjson"
fi
EOF2
root=()
[ "$(id -u)" = 0 ] && root=('"--allow-run-as-root",')
cat >suite.json <<JSON
{"kind": "command", "name": "prov", "cluster": "e2e",
 "combos": {"same": {"V0": "2.22.3", "V1": "2.22.3"}, "mixed": {"V0": "2.22.3", "V1": "2.20.5"},
            "silent": {"V0": "2.22.3", "V1": ""}},
 "argv": ["mpirun", ${root[*]} "--oversubscribe", "-np", "2", "--output-filename", "{CASE_DIR}/ranks",
          "sh", "$T/work.sh", "{CASE_DIR}", "{V0}", "{V1}"],
 "secrets": ["ASSAY_E2E_CANARY"],
 "expect": [{"name": "rccl-version", "pattern": "RCCL version\\\\s*:?\\\\s*2\\\\.22\\\\.3\\\\S*( build \\\\S+)?", "per": "rank"},
            {"name": "rccl-any", "pattern": "RCCL version : [0-9.]+"}],
 "timeout_s": 120,
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"]}
JSON
run_assay 5 run --store "$S" --out out suite.json
run=$(q "$S" "SELECT run_id FROM runs")
expect_eq "$(q "$S" "SELECT outcome FROM cases WHERE case_id = 'same'")" passed "outcome of same"
expect_eq "$(q "$S" "SELECT outcome || ': ' || reason FROM cases WHERE case_id = 'mixed'")" \
  'infrastructure: provenance: expectation rccl-version not matched on rank 1 (pattern RCCL version\s*:?\s*2\.22\.3\S*( build \S+)?)' \
  "outcome of mixed"
# A rank that printed nothing matched nothing.
expect_eq "$(q "$S" "SELECT outcome || ': ' || reason FROM cases WHERE case_id = 'silent'")" \
  'infrastructure: provenance: expectation rccl-version not matched on rank 1 (pattern RCCL version\s*:?\s*2\.22\.3\S*( build \S+)?)' \
  "outcome of silent"
# Its measurement never reaches the store (another build's number).
expect_eq "$(q "$S" "SELECT count(*) FROM measurements m JOIN cases c ON c.id = m.\"case\" WHERE c.case_id = 'mixed'")" 0 "rows of mixed"
expect_eq "$(q "$S" "SELECT count(*) FROM measurements m JOIN cases c ON c.id = m.\"case\" WHERE c.case_id = 'same'")" 1 "rows of same"
python3 - "out/$run/summary.json" <<'PY'
import json, sys
c = {x["case_id"]: x for x in json.load(open(sys.argv[1]))["cases"]}
assert c["mixed"]["outcome"] == "infrastructure" and c["mixed"]["failure"] == "provenance", c["mixed"]
assert c["same"]["outcome"] == "passed", c["same"]
PY
host=$(hostname -s 2>/dev/null || hostname)
host=${host%%.*}
# Provenance: both ranks of same, the host as the node; the secret redacted.
expect_eq "$(q "$S" "SELECT p.name || '|' || p.per || '|' || p.unit || '|' || coalesce(p.matched, '-') FROM provenance p JOIN cases c ON c.id = p.\"case\" WHERE c.case_id = 'same' ORDER BY p.name, p.unit")" \
"rccl-any|node|$host|RCCL version : 2.22.3
rccl-version|rank|0|RCCL version : 2.22.3+hip6.2 build ***
rccl-version|rank|1|RCCL version : 2.22.3+hip6.2 build ***" "provenance of same"
expect_eq "$(q "$S" "SELECT p.unit || '|' || coalesce(p.matched, '-') FROM provenance p JOIN cases c ON c.id = p.\"case\" WHERE c.case_id = 'mixed' AND p.name = 'rccl-version' ORDER BY p.unit")" \
"0|RCCL version : 2.22.3+hip6.2 build ***
1|-" "provenance of mixed"
# The report shows what matched.
expect_grep 'rccl-version' "out/$run/summary.md"
expect_grep '\| same \| rccl-version \| rank 1 \| RCCL version : 2\.22\.3\+hip6\.2 build' "out/$run/summary.md"
expect_grep '\| mixed \| rccl-version \| rank 1 \| \(no match\) \|' "out/$run/summary.md"
expect_grep 'rccl-version' "out/$run/report.html"
no_canary() { ! grep -rqF -- "$ASSAY_E2E_CANARY" "$@" || fail "the secret's value is written in $*"; }
no_canary out $(store_files "$S")
echo ok
