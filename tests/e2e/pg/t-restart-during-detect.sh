#!/usr/bin/env bash
# The server restarted while `assay detect` reads a store of 1,000 series x
# 300 points: exit 5, not a hang (the test's timeout bounds the wait), the
# message names the store with host and port and no password. A server that
# answers nothing (SIGSTOP) when assay connects: exit 5 within the connect
# timeout, not a hang. A server process that stops answering in the middle
# of the reads (its backend stopped with SIGSTOP; TCP still answers, so no
# keepalive notices): exit 5 after the statement timeout and a margin, not
# a hang. The test restarts and stops its server: it runs on a server of
# its own.
. "$(dirname "$0")/lib.sh" "$@"
own_server
S=$(pw_store d)
shown="postgresql://assay_pw@127.0.0.1:$ASSAY_PG_PORT/$(db_of "$S")"
rows_file big.ndjson 1000 300
run_assay 0 store ingest --store "$S" big.ndjson

"$ASSAY" detect --store "$S" --format csv >out.txt 2>err.txt &
pid=$!
PIDS=$pid
wait_query "$pid" "$(db_of "$S")" 'SELECT%' || fail "detect ended before a query was seen: $(cat err.txt)"
restart_server
set +e
wait "$pid"
rc=$?
set -e
PIDS=""
[ "$rc" = 5 ] || { tail -n 3 out.txt >&2; cat err.txt >&2; fail "detect under a restart exited $rc, expected 5"; }
expect_prefix "$shown: " err.txt
expect_grep 'terminating connection|server closed the connection' err.txt
if grep -qF -- "$ASSAY_PG_PASSWORD" out.txt err.txt; then fail "the password is in the output: $(cat err.txt)"; fi
# After the restart the same detect works.
run_assay 0 detect --store "$S"
expect_grep '^0 change points in 1000 series \(300000 points\)$' out.txt

# A frozen server (postmaster stopped with SIGSTOP): the connect times out.
ppid=$(head -n 1 "$ASSAY_PG_BASE/data/postmaster.pid")
kill -STOP "$ppid"
set +e
timeout 300 "$ASSAY" detect --store "$S" --format csv >out.txt 2>err.txt
rc=$?
set -e
kill -CONT "$ppid"
[ "$rc" != 124 ] || fail "detect against a frozen server still waited after 300 s (a hang)"
[ "$rc" = 5 ] || { cat err.txt >&2; fail "detect against a frozen server exited $rc, expected 5"; }
expect_prefix "$shown: cannot open the store: " err.txt
expect_grep 'timeout' err.txt
if grep -qF -- "$ASSAY_PG_PASSWORD" out.txt err.txt; then fail "the password is in the output: $(cat err.txt)"; fi

# A backend frozen mid-detect: the client stops waiting after
# ASSAY_STORE_STATEMENT_MS (1 s here) and 30 s more.
ASSAY_STORE_STATEMENT_MS=1000 "$ASSAY" detect --store "$S" --format csv >out.txt 2>err.txt &
pid=$!
PIDS=$pid
wait_query "$pid" "$(db_of "$S")" '%' || fail "detect ended before its session was seen: $(cat err.txt)"
bpid=$(admin "SELECT pid FROM pg_stat_activity WHERE application_name = 'assay' AND datname = '$(db_of "$S")'")
[ -n "$bpid" ] || fail "no backend of assay's session"
kill -STOP "$bpid"
set +e
wait "$pid"
rc=$?
set -e
PIDS=""
kill -CONT "$bpid" || true
[ "$rc" = 5 ] || { cat err.txt >&2; fail "detect against a frozen backend exited $rc, expected 5"; }
expect_prefix "$shown: " err.txt
expect_grep 'did not answer in time \(waited 31 s; ASSAY_STORE_STATEMENT_MS\)' err.txt
echo ok
