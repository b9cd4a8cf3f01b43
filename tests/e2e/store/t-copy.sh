#!/usr/bin/env bash
# assay store copy FROM TO: a history with ingests, a run of a suite (cases,
# procs), annotations and a forgotten ingest goes from an SQLite file into
# a store of the backend under test and back into a new file; every read
# command prints the same on all three, and the file that comes back dumps
# the same rows. The copy refuses a store that holds a history already and
# a source of an older schema version; writing on after a copy gives new ids.
. "$(dirname "$0")/lib.sh" "$@"
M=$(store_new m) N=$(store_new n)
run_assay 0 store ingest --store a.db "$FIX/rccl_ci-history.jsonl"
run_assay 0 store ingest --store a.db "$FIX/rccl_ci-nightly.jsonl"
run_assay 0 store ingest --store a.db --cluster mi300x-a --scale 1x8 --precision bf16 "$FIX/perf.csv"
run_assay 0 store forget --store a.db --note 'wrong file' 3
run_assay 0 store annotate --store a.db --match precision=bf16 --revision c30 --kind ack --note "it's known"
cat >suite.json <<'JSON'
{"kind": "command", "name": "cp", "cluster": "t", "combos": {"only": {}},
 "argv": ["sh", "-c", "echo hello"], "parser": "none"}
JSON
run_assay 0 run --quiet --store a.db --out out suite.json
run_assay 0 store copy a.db "$M"
expect_grep '^a.db -> .*: 3 runs, [0-9]+ series, 140 measurement rows \([0-9]+ rows in all\)$' out.txt
run_assay 0 store copy "$M" b.db
views() { # STORE: what the read commands print
  "$ASSAY" store export --store "$1"
  "$ASSAY" store series --store "$1"
  "$ASSAY" store runs --store "$1" | cut -c1-60
  "$ASSAY" store ingests --store "$1" --format csv
  "$ASSAY" store annotate --store "$1" --list
  "$ASSAY" detect --store "$1"
  "$ASSAY" store check --store "$1" | sed 's/.*: ok/ok/'
}
views a.db >a.txt
views "$M" >m.txt
views b.db >b.txt
[ "$(wc -l <a.txt)" -gt 150 ] || fail "the views printed too little"
cmp a.txt m.txt || { diff a.txt m.txt >&2; fail "the copy reads differently from the file"; }
cmp a.txt b.txt || { diff a.txt b.txt >&2; fail "the copy back reads differently"; }
sqlite3 a.db .dump | grep -v '^INSERT INTO sqlite_sequence' >a.sql
sqlite3 b.db .dump | grep -v '^INSERT INTO sqlite_sequence' >b.sql
cmp a.sql b.sql || { diff a.sql b.sql >&2; fail "the file that came back holds other rows"; }
# A store with a history is not written over.
run_assay 2 store copy a.db "$M"
expect_grep 'holds a history already \(3 runs, [0-9]+ series\); copy into a new or empty store$' err.txt
# New ids follow the copied ones.
run_assay 0 store ingest --store "$M" "$FIX/rccl_ci-new.jsonl"
expect_eq "$(q "$M" "SELECT count(*) FROM runs")" 4 "runs after a new ingest"
expect_eq "$(q "$M" "SELECT count(DISTINCT id) FROM measurements")" "$(q "$M" "SELECT count(*) FROM measurements")" "ids unique"
# A source at an older schema version must be migrated first.
cp a.db old.db
sqlite3 old.db "DROP TABLE forgotten; PRAGMA user_version = 7"
run_assay 2 store copy old.db "$N"
expect_grep "^assay store copy: old.db: schema version 7; run 'assay store migrate --store old.db' first$" err.txt
echo ok
