#!/usr/bin/env bash
# --match FIELD=VALUE is data, on both backends: values with quotes,
# semicolons, backslashes, % and _ select exactly the series that hold them
# (no SQL, no LIKE wildcard), a value written as an injection matches
# nothing without an error, and every table is intact afterwards.
. "$(dirname "$0")/lib.sh" "$@"
S=$(store_new s)
python3 - >rows.ndjson <<'PY'
import json
names = ["x'; DROP TABLE runs; --", 'back\\slash', 'dq"uote', "100%", "a_b", "plain", "axb"]
for i, w in enumerate(names):
    for p in range(3):
        print(json.dumps({"series": {"cluster": "c", "scale": "1x8", "precision": "bf16", "workload": w},
                          "metric": "m", "statistic": "mean", "value": 10 + i + p / 10, "unit": "s",
                          "direction": "lower", "samples": 1, "revision": "r%d" % p,
                          "timestamp": "2026-01-0%dT00:00:00Z" % (p + 1), "run_id": "run%d" % p}))
PY
run_assay 0 store ingest --store "$S" rows.ndjson
tables=$(q "$S" "SELECT (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM series) || ' ' || (SELECT count(*) FROM measurements)")
expect_eq "$tables" "1 7 21" "the store before"
# selects VALUE: the workloads `store export --match workload=VALUE` finds, one a line.
selects() {
  run_assay 0 store export --store "$S" --match "workload=$1" --format ndjson
  python3 -c 'import json, sys; print("\n".join(sorted({json.loads(l)["series"]["workload"] for l in sys.stdin})))' <out.txt
}
expect_eq "$(selects "x'; DROP TABLE runs; --")" "x'; DROP TABLE runs; --" "a value with a quote and a semicolon"
expect_eq "$(selects 'back\slash')" 'back\slash' "a value with a backslash"
expect_eq "$(selects 'dq"uote')" 'dq"uote' "a value with a double quote"
expect_eq "$(selects '100%')" '100%' "a value with %"
expect_eq "$(selects 'a_b')" 'a_b' "a value with _"
expect_eq "$(selects '%')" '' "% is no wildcard"
expect_eq "$(selects 'a_')" '' "_ is no wildcard"
expect_eq "$(selects 'back\\slash')" '' "a doubled backslash is another value"
# Injections: no match, exit 0, nothing changed, in every command that takes --match.
for v in "y'; DROP TABLE runs; --" "' OR '1'='1" "\\'; DELETE FROM measurements; --" '") OR 1=1 --' "plain' --"; do
  run_assay 0 store export --store "$S" --match "workload=$v" --format csv
  expect_eq "$(grep -c '' out.txt)" 1 "export --match workload=$v: the header only"
  run_assay 0 store series --store "$S" --match "workload=$v"
  expect_eq "$(grep -c '' out.txt)" 1 "series --match workload=$v: the header only"
  run_assay 0 detect --store "$S" --match "workload=$v" --format csv
  run_assay 2 history --store "$S" --match "workload=$v"
  expect_eq "$(cat err.txt)" "assay history: no series match" "history --match workload=$v"
  run_assay 2 store annotate --store "$S" --match "workload=$v" --revision r1 --kind ack --note x
  expect_grep 'selects|no series' err.txt
  expect_eq "$(q "$S" "SELECT (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM series) || ' ' || (SELECT count(*) FROM measurements)")" \
    "$tables" "the store after --match workload=$v"
done
# A write through --match with such a value touches that series only.
run_assay 0 store annotate --store "$S" --match "workload=x'; DROP TABLE runs; --" --revision r1 --kind ack --note 'quoted'
expect_eq "$(q "$S" "SELECT s.fields FROM annotations a JOIN series s ON s.id = a.series")" '{"cluster":"c","metric":"m","precision":"bf16","scale":"1x8","statistic":"mean","workload":"x'"'"'; DROP TABLE runs; --"}' "the annotated series"
expect_eq "$(q "$S" "SELECT count(*) FROM runs")" 1 "runs intact"
echo ok
