#!/usr/bin/env bash
# A collective suite run locally: mpirun starts the stand-in all_reduce_perf
# (a real nccl-tests table, tests/fixtures/nccl-text/all_reduce_perf-h100-2n.log)
# with nccl-tests' flags; every size row becomes rows in the series
# vocabulary of ingested nccl-tests results; the per-size thresholds file
# passes 1 MiB (50.05 >= 40 GB/s) and fails 2 MiB (88.86 < 95 GB/s): exit 1,
# the verdict names the size.
. "$ASSAY_SOURCE_DIR/tests/e2e/run/lib.sh" "$@"
src=$ASSAY_SOURCE_DIR
cat >thr.json <<'JSON'
{"all_reduce": {"busbw": {"1M": 40, "2097152": 95}, "time_us": {"8": 60}}}
JSON
cat >suite.json <<JSON
{"kind": "collective", "name": "coll-e2e", "cluster": "e2e",
 "binary": "$src/tests/fixtures/coll/bin/{OP}_perf",
 "operations": ["all_reduce"], "sizes": {"min": 8, "max": "8G", "factor": 2},
 "ranks": [2], "iterations": 20, "warmups": 5, "timeout_s": 120,
 "gates": {"thresholds": "thr.json"}}
JSON
run_assay 1 run --store s.db --revision A suite.json
expect_grep '^all_reduce-float-1x2 +gate-failed .*gates: 1 FAIL \(threshold busbw/mean: all_reduce at 2097152 B, in-place: busbw 88\.86 GB/s < 95\), 2 PASS, 29 RECORD$' out.txt
expect_grep '^exit 1 \(gate-failed\)$' out.txt
# The command it ran: the program of the operation, nccl-tests' flags.
expect_grep 'mpirun -np 2 .*/tests/fixtures/coll/bin/all_reduce_perf -b 8 -e 8589934592 -f 2 -g 1 -n 20 -w 5 -c 1 -d float$' out/*/all_reduce-float-1x2/command.txt
# Every row is stored: 31 sizes x 2 placements x (time, algbw, busbw, #wrong) + the average.
expect_eq "$(q s.db "SELECT count(*) FROM measurements")" 249 "stored rows"
expect_eq "$(q s.db "SELECT fields FROM series WHERE metric = 'busbw' AND json_extract(fields, '$.bytes') = 2097152
                     AND json_extract(fields, '$.placement') = 'in-place'")" \
  '{"bytes":2097152,"cluster":"e2e","collective":"all_reduce","metric":"busbw","placement":"in-place","precision":"fp32","redop":"sum","scale":"2x8","statistic":"mean","suite":"coll-e2e","workload":"nccl-tests"}' \
  "series of a size"
expect_eq "$(q s.db "SELECT status || ' ' || value FROM verdicts WHERE status = 'FAIL'")" "FAIL 88.86" "stored FAIL"
# The same table ingested gives the same series (with the same context).
cp "$src/tests/fixtures/nccl-text/all_reduce_perf-h100-2n.log" ar.log
run_assay 0 parse --series suite=coll-e2e --series cluster=e2e ar.log
expect_eq "$(grep -c '"series_key"' out.txt)" 249 "parsed rows"
k=$(q s.db "SELECT key FROM series WHERE metric = 'busbw' AND json_extract(fields, '$.bytes') = 2097152
            AND json_extract(fields, '$.placement') = 'in-place'")
expect_grep "\"series_key\":\"$k\"" out.txt
