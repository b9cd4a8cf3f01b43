#!/usr/bin/env bash
# An EP suite end to end through `assay run` (mpirun -np 2 assay-ep run per
# case): runnable cases pass with their rows stored (cluster, scale, sku and
# precision in every series), cases the matrix cannot run are recorded as
# unsupported and never started, and a case assay-ep itself reports
# unsupported (the nccl backend without a GPU) is unsupported with its reason.
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
echo ok
