#!/usr/bin/env bash
# A 0-byte file as --store: every read command says "not an assay store
# (empty file)", exits 2 and leaves it 0 bytes; a writer (store ingest)
# initialises it, as it does a new store. At 9918b4f the read commands said
# "store schema version 0 needs migrating".
. "$(dirname "$0")/lib.sh" "$@"
: >empty.db
for cmd in "store series" "store export" "store runs" "store check" "detect" "report" "history 3fa9c2d1"; do
  # shellcheck disable=SC2086
  run_assay 2 $cmd --store empty.db
  expect_eq "$(cat err.txt)" "empty.db: not an assay store (empty file)" "$cmd"
  [ ! -s empty.db ] || fail "$cmd wrote into the empty file"
done
printf '{"series":{"cluster":"c","scale":"1x8","precision":"bf16"},"metric":"m","statistic":"mean","value":1.5,"unit":"s","direction":"lower","revision":"r1","timestamp":"2026-11-02T00:00:00Z"}\n' >rows.ndjson
run_assay 0 store ingest --store empty.db rows.ndjson
run_assay 0 store series --store empty.db
expect_grep ' 1 ' out.txt
echo ok
