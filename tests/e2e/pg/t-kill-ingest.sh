#!/usr/bin/env bash
# kill -9 of assay in the middle of an ingest (its COPY under way): the
# transaction never commits, so the store holds nothing of the file, and
# the writer's lock is gone with the session: the same ingest run again
# stores every row once; a third run adds nothing.
. "$(dirname "$0")/lib.sh" "$@"
shared_server
S=$(store_new s)
rows_file big.ndjson 1000 300
run_assay 0 store ingest --store "$S" "$FIX/rccl_ci-nightly.jsonl"
"$ASSAY" store ingest --store "$S" big.ndjson >out.txt 2>err.txt &
pid=$!
PIDS=$pid
wait_query "$pid" "$(db_of "$S")" 'COPY%' || fail "the ingest ended before its COPY was seen: $(cat err.txt)"
kill -KILL "$pid"
set +e
wait "$pid"
rc=$?
set -e
PIDS=""
expect_eq "$rc" 137 "exit status of the killed ingest"
expect_eq "$(q "$S" "SELECT count(*) FROM measurements")" 60 "rows after kill -9 (the first file only)"
expect_eq "$(q "$S" "SELECT count(*) FROM ingests")" 1 "ingests after kill -9"
run_assay 0 store ingest --store "$S" big.ndjson
expect_grep '^big\.ndjson: rows, 300000 new, 0 already present, run ' out.txt
run_assay 0 store ingest --store "$S" big.ndjson
expect_grep '^big\.ndjson: rows, 0 new, 300000 already present$' out.txt
expect_eq "$(q "$S" "SELECT count(*) FROM measurements")" 300060 "each row once"
expect_eq "$(q "$S" "SELECT count(*) FROM (SELECT series, run_id, revision, case_id, timestamp FROM measurements
                     GROUP BY series, run_id, revision, case_id, timestamp HAVING count(*) > 1) AS d")" 0 "duplicate identities"
echo ok
