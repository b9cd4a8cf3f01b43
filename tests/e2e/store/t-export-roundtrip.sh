#!/usr/bin/env bash
# assay store export --format csv reads back with assay store ingest, by
# content (its header), and nothing is lost: NULL run ids stay NULL, an
# empty revision stays empty, a case id with a comma and quotes survives,
# and a second export is byte-identical. Ingested twice, nothing doubles.
# At 53f999a the CSV was taken for a Megatron log (exit 4) and a NULL run_id
# came back as the ingest run's name.
. "$(dirname "$0")/lib.sh" "$@"
A=$(store_new a) B=$(store_new b) C=$(store_new c)
run_assay 0 store ingest --store "$A" "$FIX/rccl_ci-nightly.jsonl"
cat >extra.ndjson <<'ROWS'
{"run_id":null,"case_id":"megatron, \"tp=8\"","series":{"cluster":"mi300x-a","scale":"1x8","precision":"bf16","workload":"megatron-lm"},"metric":"tokens_per_sec","statistic":"mean","value":123.25,"unit":"tokens/s","direction":"higher","samples":3,"revision":"r1","timestamp":"2026-11-02T00:00:00Z"}
{"run_id":"ci-9","case_id":null,"series":{"cluster":"mi300x-a","scale":"1x8","precision":"fp8","workload":"megatron-lm"},"metric":"step_ms","statistic":"p50","value":0.1,"unit":"ms","direction":"lower","samples":1,"revision":null,"timestamp":"2026-11-03T00:00:00Z"}
ROWS
run_assay 0 store ingest --store "$A" extra.ndjson
run_assay 0 store export --store "$A" --format csv -o a.csv
head -1 a.csv | grep -qx 'series_key,metric,statistic,value,unit,direction,samples,revision,timestamp,run_id,case_id,series' || fail "header: $(head -1 a.csv)"
run_assay 0 store ingest --store "$B" a.csv
expect_grep '^a.csv: rows-csv, 62 new, 0 already present, run ' out.txt
run_assay 0 store export --store "$B" --format csv -o b.csv
cmp a.csv b.csv || { diff a.csv b.csv >&2; fail "the second export differs"; }
expect_eq "$(q "$B" "SELECT count(*) FROM measurements WHERE run_id IS NULL")" 1 "NULL run ids"
expect_eq "$(q "$B" "SELECT count(*) FROM measurements WHERE revision IS NULL")" 1 "NULL revisions"
expect_eq "$(q "$B" "SELECT case_id FROM measurements WHERE case_id IS NOT NULL")" 'megatron, "tp=8"' "case id"
expect_eq "$(q "$B" "SELECT DISTINCT precision FROM series WHERE workload = 'megatron-lm' AND metric = 'step_ms'")" fp8_e4m3 "precision alias"
run_assay 0 store ingest --store "$B" a.csv
expect_grep '^a.csv: rows-csv, 0 new, 62 already present$' out.txt
# NDJSON export round-trips the same way.
run_assay 0 store export --store "$A" -o a.ndjson
run_assay 0 store ingest --store "$C" a.ndjson
run_assay 0 store export --store "$C" --format csv -o c.csv
cmp a.csv c.csv || { diff a.csv c.csv >&2; fail "the NDJSON round trip differs"; }
echo ok
