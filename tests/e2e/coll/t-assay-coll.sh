#!/usr/bin/env bash
# A collective suite with assay-coll as its program
# (-O, --backend, nccl-tests' flags) runs locally under mpirun; its table
# reads into rows; the thresholds file fails one size on purpose (1 MiB
# needs an impossible busbw) and passes another (8 B within a generous
# time): exit 1, the verdict names the size. The ranks run with
# detect_leaks=0 (Open MPI's own allocations at exit, as tests/e2e/ep/run-ep.sh
# says) and without Open MPI's op/avx (docs/collectives.md).
# Usage: t-assay-coll.sh ASSAY ASSAY_COLL
. "$ASSAY_SOURCE_DIR/tests/e2e/run/lib.sh" "$1"
coll=$2
cat >thr.json <<'JSON'
{"all_reduce": {"busbw": {"1M": 1000000}, "time_us": {"8": 10000000}}}
JSON
cat >suite.json <<JSON
{"kind": "collective", "name": "assay-coll-e2e", "cluster": "e2e",
 "binary": "$coll", "backend": "shm",
 "operations": ["all_reduce"], "sizes": {"min": 8, "max": "4M"}, "ranks": [2],
 "iterations": 5, "warmups": 1, "timeout_s": 300,
 "env": {"ASAN_OPTIONS": "detect_leaks=0", "OMPI_MCA_op": "^avx"},
 "gates": {"thresholds": "thr.json"}}
JSON
run_assay 1 run --store s.db --revision A suite.json
expect_grep '^all_reduce-float-1x2 +gate-failed .*gates: 1 FAIL \(threshold busbw/mean: all_reduce at 1048576 B, in-place: busbw .* < 1e\+06\), 1 PASS' out.txt
expect_grep 'assay-coll -O all_reduce --backend shm -b 8 -e 4194304 -f 2 -g 1 -n 5 -w 1 -c 1 -d float$' out/*/all_reduce-float-1x2/command.txt
# 20 sizes x 2 placements x (time, algbw, busbw, #wrong), + the average.
expect_eq "$(q s.db "SELECT count(*) FROM measurements")" 161 "stored rows"
expect_eq "$(q s.db "SELECT count(*) FROM series WHERE json_extract(fields, '$.backend') = 'shm'
                     AND json_extract(fields, '$.workload') = 'nccl-tests'")" 161 "series fields"

# The GPU backend in a suite (issue 36): accepted when the suite loads; on a
# machine without a GPU (or a build without CUDA) assay-coll exits 4 and the
# case is unsupported with its line as the reason, no rows. On a GPU node
# this part is skipped: there the case runs.
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  sed 's/"backend": "shm"/"backend": "nccl"/; s/"name": "assay-coll-e2e"/"name": "assay-coll-nccl"/' \
    suite.json >nccl.json
  run_assay 0 run --store n.db --revision A nccl.json
  expect_grep '^all_reduce-float-1x2 +unsupported +- +assay-coll: unsupported: (no CUDA device on rank 0|.*built without)' out.txt
  cat out/*/all_reduce-float-1x2/command.txt >commands.txt
  expect_grep 'assay-coll -O all_reduce --backend nccl ' commands.txt
  expect_eq "$(q n.db "SELECT count(*) FROM measurements")" 0 "rows of an unsupported case"
fi
