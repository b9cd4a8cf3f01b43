#!/usr/bin/env bash
# The matrix's low-latency cases run in an EP suite (issue 36): a platform
# whose ll_backends name mpi, shm and nccl gets low-latency cases beside the
# normal ones; assay runs them as `assay-ep run --mode low-latency`, mpi and
# shm pass with their rows stored under mode low-latency (with the oracle's
# calc_diff), nccl is unsupported with assay-ep's reason, and the report's
# EP section draws the low-latency ladders as their own series.
#   ep-suite-ll.sh ASSAY ASSAY_EP
. "$(dirname "$0")/lib.sh" "$1"
ASSAY_EP=$2
cat >platforms.json <<'JSON'
{"platforms": {
  "cpu-box": {"arch": "x86_64", "gpus_per_node": 2, "scale_up_domain": 2,
              "scale_up_transport": "shared-memory", "scale_out_transport": "tcp",
              "backends": {"mpi": [2], "shm": [2], "nccl": [2]},
              "ll_backends": ["mpi", "shm", "nccl"],
              "fabric": {"nic": "loopback", "switch": "none"}}}}
JSON
cat >suite.json <<'JSON'
{"kind": "ep", "name": "e2e-ep-ll", "cluster": "e2e",
 "platforms": "platforms.json",
 "sweep": {"suite": "e2e-ep-ll", "routing": "uniform",
           "modes": {"normal": ["decode"], "low-latency": ["decode"]},
           "ep_degrees": [2], "precisions": ["fp8"],
           "timing": {"trials": 2, "iters_per_trial": 2, "warmups_per_trial": 1,
                      "chain_trials": 1, "chain_pairs": 3, "chain_drop": 1},
           "workload": {"name": "tiny", "hidden": 256, "topk": 2, "experts": 8, "seed": 67,
                        "token_ladders": {"decode": [1, 4]}}},
 "filters": {"backend": ["shm", "nccl", "mpi"]},
 "env": {"ASAN_OPTIONS": "detect_leaks=0"},
 "launcher": {"type": "local", "mpirun_args": ["--bind-to", "none"]},
 "timeout_s": 600}
JSON
run_assay 0 run --store s.db --assay-ep "$ASSAY_EP" --quiet suite.json
expect_eq "$(q s.db "SELECT case_id || ':' || outcome FROM cases WHERE case_id LIKE '%low-latency%' ORDER BY case_id" | tr '\n' ' ')" \
  "cpu-box-mpi-tiny-low-latency-decode-ep2-uniform-fp8:passed cpu-box-nccl-tiny-low-latency-decode-ep2-uniform-fp8:unsupported cpu-box-shm-tiny-low-latency-decode-ep2-uniform-fp8:passed " \
  "low-latency cases"
run=$(q s.db "SELECT run_id FROM runs")
expect_grep ' --mode low-latency ' "out/$run/cpu-box-shm-tiny-low-latency-decode-ep2-uniform-fp8/command.txt"
expect_grep 'the low-latency mode runs on the host backends \(mpi, shm\); nccl runs the normal mode only' \
  <(q s.db "SELECT reason FROM cases WHERE case_id = 'cpu-box-nccl-tiny-low-latency-decode-ep2-uniform-fp8'")
# Rows: mode is part of every series; the oracle's measure is stored.
expect_eq "$(q s.db "SELECT count(*) FROM series WHERE json_extract(fields, '$.mode') = 'low-latency'
                     AND metric = 'latency_us' AND statistic = 'p50'")" 16 "low-latency latency series (2 backends x 2 points x 4 components)"
expect_eq "$(q s.db "SELECT count(*) FROM series WHERE json_extract(fields, '$.mode') = 'low-latency'
                     AND metric = 'calc_diff'")" 4 "calc_diff series"
expect_eq "$(q s.db "SELECT count(*) FROM measurements m JOIN series s ON s.id = m.series
                     WHERE s.metric = 'calc_diff' AND m.value < 9e-4")" 4 "calc_diff below the FP8 tolerance"
# The report: each low-latency ladder is its own series beside the normal one.
run_assay 0 report --store s.db --out rep
expect_grep 'shm fp8_e4m3 low-latency' rep/report.html
expect_grep 'mpi fp8_e4m3 low-latency' rep/report.html
expect_grep '>shm fp8_e4m3<' rep/report.html
echo ok
