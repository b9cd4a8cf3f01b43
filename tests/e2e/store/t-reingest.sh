#!/usr/bin/env bash
# A nightly history file (RCCL CI JSONL, its real scale spelling 2N/16GPU)
# ingested, appended to and ingested again holds each row once, and the
# planted -4% FP8 regression (night n24) is still found. A changed value
# under a stored identity is a conflict (exit 2, nothing written) unless
# --replace. At 53f999a the second ingest doubled the history, 2N/16GPU was
# refused, and the duplicates hid the regression.
. "$(dirname "$0")/lib.sh" "$@"
S=$(store_new s) O=$(store_new o)
cp "$FIX/rccl_ci-nightly.jsonl" history.jsonl
run_assay 0 store ingest --store "$S" history.jsonl
expect_grep '^history.jsonl: rccl-ci, 60 new, 0 already present, run ' out.txt
expect_eq "$(q "$S" "SELECT DISTINCT scale FROM series")" 2x8 "scale 2N/16GPU"
cat "$FIX/rccl_ci-nightly-more.jsonl" >>history.jsonl
run_assay 0 store ingest --store "$S" history.jsonl
expect_grep '^history.jsonl: rccl-ci, 20 new, 60 already present, run ' out.txt
# The same bytes once more: nothing new, no new run.
runs=$(q "$S" "SELECT count(*) FROM runs")
run_assay 0 store ingest --store "$S" history.jsonl
expect_grep '^history.jsonl: rccl-ci, 0 new, 80 already present$' out.txt
expect_eq "$(q "$S" "SELECT count(*) FROM runs")" "$runs" "runs after a no-op ingest"
expect_eq "$(q "$S" "SELECT count(*) FROM measurements")" 80 "rows stored once"
expect_eq "$(q "$S" "SELECT count(*) FROM (SELECT DISTINCT series, run_id, timestamp FROM measurements) AS identities")" 80 "distinct identities"
# The planted regression: FP8 -4% from n24, and nothing in BF16.
run_assay 0 detect --store "$S" --match precision=fp8 --format csv
expect_grep ',n24,.*regression' out.txt
[ "$(grep -c regression out.txt)" = 1 ] || fail "one FP8 change expected: $(cat out.txt)"
run_assay 0 detect --store "$S" --match precision=bf16 --format csv
if grep -q regression out.txt; then fail "BF16 has no change: $(cat out.txt)"; fi
# A value changed under a stored identity: a conflict, nothing written.
sed 's/"run_id": 7030, \(.*"precision": "FP8", "tflops_per_gpu": null, "tokens_per_sec_per_gpu": \)[0-9.]*/"run_id": 7030, \11.5/' history.jsonl >changed.jsonl
cmp -s history.jsonl changed.jsonl && fail "the fixture edit changed nothing"
before=$(q "$S" "SELECT value FROM measurements ORDER BY id")
run_assay 2 store ingest --store "$S" changed.jsonl
expect_grep '^changed.jsonl: row 62: tokens_per_sec_per_gpu/value \(run_id 7030, revision n30, timestamp 2026-10-31T02:00:00Z\) is stored with value [0-9.]+, this file says 1.5; --replace stores the new value$' err.txt
expect_eq "$(q "$S" "SELECT value FROM measurements ORDER BY id")" "$before" "nothing written on a conflict"
run_assay 0 store ingest --store "$S" --replace changed.jsonl
expect_grep '^changed.jsonl: rccl-ci, 0 new, 79 already present, 1 replaced$' out.txt
expect_eq "$(q "$S" "SELECT value FROM measurements WHERE run_id = '7030' AND value < 100")" 1.5 "replaced value"
expect_eq "$(q "$S" "SELECT count(*) FROM measurements")" 80 "rows after --replace"
# --set overrides a field the data has (and takes the scale grammar).
run_assay 0 store ingest --store "$O" --set scale=4N/32GPU --set cluster=mi300x-b "$FIX/rccl_ci-nightly.jsonl"
expect_eq "$(q "$O" "SELECT DISTINCT scale || ' ' || cluster FROM series")" "4x8 mi300x-b" "--set overrides"
run_assay 2 store ingest --store "$O" --set scale=3N/32GPU "$FIX/rccl_ci-nightly.jsonl"
expect_grep "^assay store: --set 'scale=3N/32GPU': expected NODESxGPUS \(2x8\), NODESN/TOTALGPU \(2N/16GPU\) or a GPU count$" err.txt
echo ok
