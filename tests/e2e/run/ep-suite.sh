#!/usr/bin/env bash
# An EP suite end to end through `assay run` (mpirun -np 2 assay-ep run per
# case): runnable cases pass with their rows stored (cluster, scale, sku and
# precision in every series), cases the matrix cannot run are recorded as
# unsupported and never started, and a case assay-ep itself reports
# unsupported (the nccl backend without a GPU) is unsupported with its reason.
# The ab gate compares shm (candidate) with mpi (baseline) at each point:
# recorded when not enforced, and judged on latencies a wrapper around
# assay-ep fixes (real timings on a shared machine vary by orders of
# magnitude): shm 5x slower fails, shm faster passes.
#   ep-suite.sh ASSAY ASSAY_EP
. "$(dirname "$0")/lib.sh" "$1"
ASSAY_EP=$2
cat >platforms.json <<'JSON'
{"platforms": {
  "cpu-box": {"arch": "x86_64", "gpus_per_node": 2, "scale_up_domain": 2,
              "scale_up_transport": "shared-memory", "scale_out_transport": "tcp",
              "backends": {"mpi": [2], "shm": [2], "nccl": [2], "deepep-v2": [8]},
              "fabric": {"nic": "loopback", "switch": "none"}}}}
JSON
# Sanitized assay-ep under Open MPI: its components leak at exit (see
# tests/e2e/ep/run-ep.sh); the ranks get detect_leaks=0, assay keeps it.
cat >suite.json <<'JSON'
{"kind": "ep", "name": "e2e-ep", "cluster": "e2e",
 "platforms": "platforms.json",
 "sweep": {"suite": "e2e-ep", "routing": "uniform", "modes": {"normal": ["decode"]},
           "ep_degrees": [2], "precisions": ["bf16"],
           "timing": {"trials": 2, "iters_per_trial": 2, "warmups_per_trial": 1,
                      "chain_trials": 1, "chain_pairs": 3, "chain_drop": 1},
           "workload": {"name": "tiny", "hidden": 256, "topk": 2, "experts": 8, "seed": 67,
                        "token_ladders": {"decode": [1, 4]}}},
 "env": {"ASAN_OPTIONS": "detect_leaks=0"},
 "launcher": {"type": "local", "mpirun_args": ["--bind-to", "none"]},
 "gates": {"ab": {"baseline": "mpi", "candidate": "shm", "threshold": 0.5,
                  "metrics": ["latency_us/p50"], "enforce": false}},
 "timeout_s": 600}
JSON
run_assay 0 run --store s.db --assay-ep "$ASSAY_EP" --quiet suite.json
expect_eq "$(q s.db "SELECT case_id || ':' || outcome FROM cases WHERE outcome IS NOT NULL ORDER BY case_id" | tr '\n' ' ')" \
  "cpu-box-deepep-v2-tiny-normal-decode-ep2-uniform-bf16:unsupported cpu-box-mpi-tiny-normal-decode-ep2-uniform-bf16:passed cpu-box-nccl-tiny-normal-decode-ep2-uniform-bf16:unsupported cpu-box-shm-tiny-normal-decode-ep2-uniform-bf16:passed " \
  "stored cases"
# Unsupported cases are stored with their reason; the matrix's never started.
expect_eq "$(q s.db "SELECT attempts || ' ' || reason FROM cases WHERE case_id LIKE '%deepep%'")" \
  "0 backend-platform-unsupported" "matrix-unsupported case"
expect_eq "$(q s.db "SELECT attempts FROM cases WHERE case_id LIKE '%nccl%'")" 1 "assay-ep-unsupported case"
expect_grep '^cpu-box-deepep-v2-tiny-normal-decode-ep2-uniform-bf16 +unsupported +- +backend-platform-unsupported$' out.txt
expect_grep '^cpu-box-nccl-tiny-normal-decode-ep2-uniform-bf16 +unsupported ' out.txt
expect_grep '^4 cases: 2 passed, 2 unsupported$' out.txt
run=$(q s.db "SELECT run_id FROM runs")
[ ! -e "out/$run/cpu-box-deepep-v2-tiny-normal-decode-ep2-uniform-bf16" ] ||
  fail "an unsupported case was started"
# The custom timing profile went to assay-ep as a file.
expect_grep ' --timing out/[^ ]+/timing\.json ' "out/$run/cpu-box-shm-tiny-normal-decode-ep2-uniform-bf16/command.txt"
expect_eq "$(q s.db "SELECT count(DISTINCT cluster || scale || precision || json_extract(fields, '$.sku')) FROM series")" \
  1 "identity fields"
expect_eq "$(q s.db "SELECT cluster || ' ' || scale || ' ' || precision || ' ' || json_extract(fields, '$.sku') FROM series LIMIT 1")" \
  "e2e 1x2 bf16 cpu-box" "series identity"
n=$(q s.db "SELECT count(*) FROM measurements")
[ "$n" -gt 0 ] || fail "no measurements stored"
# ab, not enforced: one RECORD per shm latency p50 row, naming its series and point.
shm_p50=$(q s.db "SELECT count(*) FROM measurements m JOIN series s ON s.id = m.series
                  WHERE s.metric = 'latency_us' AND s.statistic = 'p50' AND json_extract(s.fields, '$.backend') = 'shm'")
[ "$shm_p50" -gt 0 ] || fail "no shm latency rows"
expect_eq "$(q s.db "SELECT count(*) FROM verdicts v JOIN series s ON s.key = v.series_key
                     WHERE v.gate = 'ab' AND v.status = 'RECORD' AND json_extract(s.fields, '$.backend') = 'shm'")" \
  "$shm_p50" "recorded ab verdicts"
expect_grep '^tokens=1 component=dispatch: not enforced: ' <(q s.db "SELECT message FROM verdicts WHERE gate = 'ab'")

# ab enforced on fixed latencies: a wrapper rewrites each artifact's latencies.
cat >fake-ep <<EOF2
#!/bin/sh
"$ASSAY_EP" "\$@" || exit \$?
[ "\${OMPI_COMM_WORLD_RANK:-0}" = 0 ] || exit 0
while [ \$# -gt 1 ]; do [ "\$1" = --out ] && out=\$2; shift; done
python3 - "\$out" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
us = float(os.environ["SHM_US" if d["case"]["backend"] == "shm" else "MPI_US"])
for p in d["points"]:
    for c in p["components"].values():
        for k in c["latency_us"]:
            c["latency_us"][k] = us
json.dump(d, open(sys.argv[1], "w"))
PY
EOF2
chmod +x fake-ep
for shm in 50 8; do
  sed -e 's/"enforce": false/"enforce": true/' \
    -e "s/\"ASAN_OPTIONS\": \"detect_leaks=0\"/\"ASAN_OPTIONS\": \"detect_leaks=0\", \"MPI_US\": 10, \"SHM_US\": $shm/" \
    suite.json >ab-$shm.json
done
run_assay 1 run --store ab.db --out ab --assay-ep ./fake-ep --quiet ab-50.json
expect_grep '^cpu-box-shm-tiny-normal-decode-ep2-uniform-bf16 +gate-failed .*ab latency_us/p50: tokens=1 component=dispatch: candidate 50 vs baseline 10 us: -80.00% \(regression beyond -50%\)' out.txt
expect_grep '^cpu-box-mpi-tiny-normal-decode-ep2-uniform-bf16 +passed' out.txt
expect_eq "$(q ab.db "SELECT DISTINCT status || ' ' || spec FROM verdicts WHERE gate = 'ab'")" \
  "FAIL worse by < 50% vs mpi" "ab verdicts"
run_assay 0 run --store ab.db --out ab --assay-ep ./fake-ep --quiet ab-8.json
expect_eq "$(q ab.db "SELECT DISTINCT v.status FROM verdicts v JOIN cases c ON c.id = v.\"case\"
                      WHERE v.gate = 'ab' AND c.run = (SELECT max(id) FROM runs)")" PASS "ab verdicts, faster candidate"
echo ok
