#!/usr/bin/env bash
# An ingest error names the file and the line of the row, for the formats
# whose reader knows it (rows NDJSON and CSV, madengine's perf.csv), and a
# failed first ingest into a store that did not exist leaves no file
# behind, while one into an existing store leaves it as it was. At 9918b4f
# the messages said "row N" (the row's place among the parsed rows, not a
# line), and a conflict on a new store left an empty store file.
. "$(dirname "$0")/lib.sh" "$@"
for i in 1 2 3; do
  printf '{"series":{"cluster":"c","scale":"1x8","precision":"bf16","workload":"w","n":%d},"metric":"m","statistic":"mean","value":%d.5,"unit":"s","direction":"lower","revision":"r1","timestamp":"2026-11-02T00:00:00Z"}\n' "$i" "$i"
done >rows.ndjson
run_assay 0 store ingest --store a.db rows.ndjson
# NDJSON: the third row, after a blank first line, is line 4.
(echo; sed 's/"value":3.5/"value":4.5/' rows.ndjson) >changed.ndjson
run_assay 2 store ingest --store a.db --input-format rows changed.ndjson
expect_eq "$(cat err.txt)" "changed.ndjson:4: m/mean (run_id -, revision r1, timestamp 2026-11-02T00:00:00Z) is stored with value 3.5, this file says 4.5; --replace stores the new value" "NDJSON conflict"
# CSV: the line of the changed row in the exported file.
run_assay 0 store export --store a.db --format csv -o a.csv
line=$(grep -n ',3\.5,' a.csv | cut -d: -f1)
[ "$line" -ge 2 ] || fail "no row 3.5 in the export"
sed "${line}s/,3\.5,/,4.5,/" a.csv >changed.csv
run_assay 2 store ingest --store a.db changed.csv
expect_eq "$(cat err.txt)" "changed.csv:$line: m/mean (run_id -, revision r1, timestamp 2026-11-02T00:00:00Z) is stored with value 3.5, this file says 4.5; --replace stores the new value" "CSV conflict"
# madengine perf.csv: the row without a precision is on line 4.
run_assay 2 store ingest --store a.db --cluster c1 --scale 1x8 "$FIX/perf.csv"
expect_eq "$(sed "s|$FIX/||" err.txt)" 'perf.csv:4: latency_p99_ms/value: series has no "precision" (cluster, scale and precision identify every stored series); give it with --cluster, --scale, --precision or --set FIELD=VALUE' "perf.csv identity"
expect_eq "$(q a.db "SELECT count(*) FROM measurements")" 3 "the existing store kept its rows"

# A conflict on a store that did not exist: no file left, nor its -wal/-shm.
run_assay 2 store ingest --store new.db --input-format rows rows.ndjson changed.ndjson
expect_grep '^changed.ndjson:4: m/mean .* this file says 4.5; --replace stores the new value$' err.txt
if ls new.db* 2>/dev/null; then fail "a failed first ingest left a store file"; fi
# The same files with --replace: the store is made.
run_assay 0 store ingest --store new.db --input-format rows --replace rows.ndjson changed.ndjson
expect_eq "$(q new.db "SELECT count(*) FROM measurements")" 3 "rows stored"
# A failed ingest into an existing store leaves it (and its rows) there.
run_assay 2 store ingest --store new.db rows.ndjson
[ -s new.db ] || fail "the existing store was removed"
expect_eq "$(q new.db "SELECT count(*) FROM measurements")" 3 "rows kept"
echo ok
