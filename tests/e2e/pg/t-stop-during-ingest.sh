#!/usr/bin/env bash
# The server restarted in the middle of an ingest of a large file (its COPY
# under way): assay exits 5 naming the store (host and port, no password),
# the store holds no row of the file (one transaction per file), and the
# same ingest run again stores each row once; a third adds nothing. The
# test restarts the server: it runs on a server of its own.
. "$(dirname "$0")/lib.sh" "$@"
own_server
S=$(pw_store s)
shown="postgresql://assay_pw@127.0.0.1:$ASSAY_PG_PORT/$(db_of "$S")"
rows_file big.ndjson 1000 300
run_assay 0 store ingest --store "$S" "$FIX/rccl_ci-nightly.jsonl"
expect_eq "$(q "$S" "SELECT count(*) FROM measurements")" 60 "a first, whole file"

"$ASSAY" store ingest --store "$S" big.ndjson >out.txt 2>err.txt &
pid=$!
PIDS=$pid
wait_query "$pid" "$(db_of "$S")" 'COPY%' || fail "the ingest ended before its COPY was seen: $(cat err.txt)"
restart_server
set +e
wait "$pid"
rc=$?
set -e
PIDS=""
[ "$rc" = 5 ] || { cat out.txt err.txt >&2; fail "ingest under a restart exited $rc, expected 5"; }
expect_prefix "big.ndjson: $shown: " err.txt
expect_grep 'terminating connection|server closed the connection' err.txt
if grep -qF -- "$ASSAY_PG_PASSWORD" out.txt err.txt; then fail "the password is in the message: $(cat err.txt)"; fi
# Nothing half-written: the first file whole, nothing of the second.
expect_eq "$(q "$S" "SELECT count(*) FROM measurements")" 60 "rows after the failed ingest"
expect_eq "$(q "$S" "SELECT count(*) FROM ingests")" 1 "ingests after the failed ingest"
run_assay 0 store ingest --store "$S" big.ndjson
expect_grep '^big\.ndjson: rows, 300000 new, 0 already present, run ' out.txt
run_assay 0 store ingest --store "$S" big.ndjson
expect_grep '^big\.ndjson: rows, 0 new, 300000 already present$' out.txt
expect_eq "$(q "$S" "SELECT count(*) FROM measurements")" 300060 "each row once"
expect_eq "$(q "$S" "SELECT count(*) FROM (SELECT series, run_id, revision, case_id, timestamp FROM measurements
                     GROUP BY series, run_id, revision, case_id, timestamp HAVING count(*) > 1) AS d")" 0 "duplicate identities"
echo ok
