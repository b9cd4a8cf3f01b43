#!/usr/bin/env bash
# An ingest into series that hold ingested rows reads their identities once
# per series and file, from the file's earliest timestamp on: files of one
# command whose rows go back in time still find every stored row (each file
# reads from its own earliest time), a row a file repeats is found the
# second time, and a row stored before the file's window is not confused
# with one inside it. Every row is stored once.
. "$(dirname "$0")/lib.sh" "$@"
S=$(store_new s)
rows() { # FILE FIRST LAST [VALUE]: one series, a point per hour, identity = run_id + timestamp
  local f=$1 i
  : >"$f"
  for i in $(seq "$2" "$3"); do
    printf '{"run_id":"ci-%d","series":{"cluster":"c","scale":"1x8","precision":"bf16","workload":"w"},"metric":"m","statistic":"mean","value":%s,"unit":"s","direction":"lower","revision":"r%d","timestamp":"2026-11-01T%02d:00:00Z"}\n' \
      "$i" "${4:-$i.5}" "$i" "$i" >>"$f"
  done
}
rows a.ndjson 1 10
rows b.ndjson 11 20
rows c.ndjson 5 15
run_assay 0 store ingest --store "$S" a.ndjson
run_assay 0 store ingest --store "$S" b.ndjson c.ndjson
expect_grep '^b.ndjson: rows, 10 new, 0 already present, run ' out.txt
expect_grep '^c.ndjson: rows, 0 new, 11 already present$' out.txt
# A file that repeats its own new row: stored once, found the second time.
rows d.ndjson 21 21
cat d.ndjson d.ndjson >dd.ndjson
run_assay 0 store ingest --store "$S" dd.ndjson
expect_grep '^dd.ndjson: rows, 1 new, 1 already present, run ' out.txt
# A changed value inside the window is a conflict, found without a lookup.
rows e.ndjson 18 19 7.25
run_assay 2 store ingest --store "$S" e.ndjson
expect_grep 'is stored with value 18.5, this file says 7.25; --replace stores the new value$' err.txt
expect_eq "$(q "$S" "SELECT count(*) FROM measurements")" 21 "rows"
expect_eq "$(q "$S" "SELECT count(*) FROM (SELECT run_id, timestamp FROM measurements GROUP BY run_id, timestamp HAVING count(*) > 1) d")" 0 "duplicates"
echo ok
