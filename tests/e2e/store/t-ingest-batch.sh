#!/usr/bin/env bash
# One `assay store ingest` of several files into a new store: the rows of
# series created by this ingest are found without the index (docs/ingest.md,
# "Ingesting again"), so a grown copy of the first file in the same call
# still finds every row it holds, a changed value in a later file is still
# a conflict (exit 2, nothing of any file written), and the rows read by the
# fast NDJSON reader store exactly what the general reader stores.
. "$(dirname "$0")/lib.sh" "$@"
SRC_DB=$(store_new src) S=$(store_new s) D=$(store_new d) C=$(store_new c) F=$(store_new f) G=$(store_new g)
run_assay 0 store ingest --store "$SRC_DB" "$FIX/rccl_ci-nightly.jsonl"
run_assay 0 store export --store "$SRC_DB" -o first.ndjson
run_assay 0 store ingest --store "$SRC_DB" "$FIX/rccl_ci-nightly-more.jsonl"
run_assay 0 store export --store "$SRC_DB" -o all.ndjson
expect_eq "$(wc -l <first.ndjson)" 60 "rows of the first export"
expect_eq "$(wc -l <all.ndjson)" 80 "rows of the second export"
# The first file, then the grown one, in one call (one transaction).
run_assay 0 store ingest --store "$S" first.ndjson all.ndjson
expect_grep '^first.ndjson: rows, 60 new, 0 already present, run ' out.txt
expect_grep '^all.ndjson: rows, 20 new, 60 already present, run ' out.txt
expect_eq "$(q "$S" "SELECT count(*) FROM measurements")" 80 "rows stored once"
# A duplicate inside one file of new series.
head -1 first.ndjson >dup.ndjson
cat first.ndjson >>dup.ndjson
run_assay 0 store ingest --store "$D" dup.ndjson
expect_grep '^dup.ndjson: rows, 60 new, 1 already present, run ' out.txt
# A changed value of a row the first file stored, in the same call: exit 2,
# and nothing of either file is written.
sed '5s/"value":[0-9.e+-]*/"value":1.5/' first.ndjson >changed.ndjson
cmp -s first.ndjson changed.ndjson && fail "the edit changed nothing"
run_assay 2 store ingest --store "$C" first.ndjson changed.ndjson
expect_grep '^changed.ndjson:5: .* is stored with value [0-9.]+, this file says 1.5; --replace stores the new value$' err.txt
if [ "${ASSAY_TEST_BACKEND:-sqlite}" = sqlite ]; then
  [ ! -e "$C" ] || fail "a conflict on a new store left its file"
else
  expect_eq "$(q "$C" "SELECT count(*) FROM measurements")" 0 "nothing written on a conflict"
fi
run_assay 0 store ingest --store "$C" --replace first.ndjson changed.ndjson
expect_grep '^changed.ndjson: rows, 0 new, 59 already present, 1 replaced$' out.txt
# What the fast reader stored is what the general reader stores: the same
# rows with an escape in every line, which sends it to the general reader.
sed 's/"direction":"higher"/"direction":"hig\\u0068er"/; s/"direction":"lower"/"direction":"lo\\u0077er"/' all.ndjson >slow.ndjson
cmp -s all.ndjson slow.ndjson && fail "the escapes changed nothing"
run_assay 0 store ingest --store "$F" all.ndjson
run_assay 0 store ingest --store "$G" slow.ndjson
dump='SELECT s.key, s.fields, m.run_id, m.case_id, m.value, m.samples, m.revision, m.timestamp FROM measurements m JOIN series s ON s.id = m.series ORDER BY m.id'
expect_eq "$(q "$F" "$dump")" "$(q "$G" "$dump")" "rows of the fast and the general reader"
echo ok
