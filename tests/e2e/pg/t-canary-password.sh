#!/usr/bin/env bash
# A password in the --store URL (postgresql://assay_pw:CANARY@...) is used
# and written nowhere: not in what any command prints (store ingest, run,
# report, detect, history, store series/export/runs/ingests, store copy both
# ways), not in the run folder (summary.json, logs, reports), not in any
# file of the test's folder, not in the stores (pg_dump of both databases,
# the SQLite copy), not in the server's data folder or log, and not in any
# process's command line while assay runs (sampled from /proc and ps once
# the server shows assay's session: the instant before assay overwrites its
# argv is allowed). The password given only through PGPASSWORD works too.
# On a server of its own: its log and data folder hold only this test.
. "$(dirname "$0")/lib.sh" "$@"
own_server
PW=$ASSAY_PG_PASSWORD
S=$(pw_store c) S2=$(pw_store c2)
bare=${S/:$PW@/@}
[ "$bare" != "$S" ] || fail "the store URL has no password to hide"
rows_file big.ndjson 1000 150
rows_file small.ndjson 4 12

# sampled COMMAND...: run assay COMMAND in the background while a sampler
# reads every process's command line; fails on the canary in one, or when
# the sampler never saw assay's own command line (it checked nothing).
sampled() {
  local pid rc
  "$ASSAY" "$@" >>out.txt 2>>err.txt &
  pid=$!
  PIDS=$pid
  wait_query "$pid" "$(db_of "$S")" '%' || fail "assay $1 ended before its session was seen"
  rm -f sampler.stop
  CANARY=$PW python3 - "$pid" >sampler.txt 2>&1 <<'PY' &
import os, subprocess, sys
target, canary, me = sys.argv[1], os.environ["CANARY"].encode(), str(os.getpid())
seen = hits = 0
while not os.path.exists("sampler.stop"):
    for p in os.listdir("/proc"):
        if not p.isdigit() or p == me:
            continue
        try:
            with open("/proc/%s/cmdline" % p, "rb") as f:
                line = f.read()
        except OSError:
            continue
        if p == target and b"--store" in line:
            seen += 1
        if canary in line:
            hits += 1
            print("pid %s: %s" % (p, line.replace(canary, b"CANARY").replace(b"\0", b" ").decode(errors="replace")))
    ps = subprocess.run(["ps", "-eo", "pid=,args="], capture_output=True).stdout
    for line in ps.splitlines():
        if canary in line and line.split()[0] != me.encode():
            hits += 1
            print("ps: %s" % line.replace(canary, b"CANARY").decode(errors="replace"))
print("seen %d hits %d" % (seen, hits))
PY
  local spid=$!
  set +e
  wait "$pid"
  rc=$?
  set -e
  PIDS=""
  touch sampler.stop
  wait "$spid" || true
  [ "$rc" = 0 ] || { cat err.txt >&2; fail "assay $* exited $rc"; }
  grep -q '^seen [1-9][0-9]* hits 0$' sampler.txt || { cat sampler.txt >&2; fail "assay $1: the canary in a command line, or assay never sampled"; }
}
: >out.txt
: >err.txt
sampled store ingest --store "$S" big.ndjson
sampled detect --store "$S" --format csv
run_assay 0 store ingest --store "$S" small.ndjson
mv out.txt out-1.txt && mv err.txt err-1.txt
mkdir work
cat >suite.json <<'JSON'
{"kind": "command", "name": "canary", "cluster": "e2e", "revision": "r1",
 "combos": {"a": {"V": 1}},
 "argv": ["sh", "-c", "printf '{\"series\":{\"workload\":\"w\",\"v\":%s},\"metric\":\"m\",\"statistic\":\"mean\",\"value\":%s.5,\"unit\":\"s\",\"direction\":\"lower\"}\\n' {V} {V} > {CASE_DIR}/rows.ndjson"],
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"]}
JSON
n=1
step() { # EXPECTED_EXIT args...: run_assay, keeping every output
  run_assay "$@"
  n=$((n + 1))
  cp out.txt "out-$n.txt"
  cp err.txt "err-$n.txt"
}
step 0 run --store "$S" --out out --quiet suite.json
expect_eq "$(q "$S" "SELECT count(*) FROM runs WHERE suite = 'canary'")" 1 "the run stored"
step 0 run --store "$S" --out out --revision r2 --quiet suite.json
step 0 report --store "$S" --out rep last
step 0 history --store "$S" --match workload=w0
step 0 store series --store "$S"
step 0 store export --store "$S" --match workload=w1 --format csv
step 0 store runs --store "$S"
step 0 store ingests --store "$S"
step 0 store copy "$S" copy.db
step 0 store copy copy.db "$S2"
expect_eq "$(q "$S2" "SELECT count(*) FROM measurements")" "$(q "$S" "SELECT count(*) FROM measurements")" "rows copied"
# The password through PGPASSWORD only.
PGPASSWORD=$PW step 0 history --store "$bare" --match workload=w1
expect_grep '^ +1 ' out.txt
# Where it must not be.
found=$(grep -rlaF -- "$PW" . || true)
[ -z "$found" ] || fail "the canary is in: $found"
grep -q "assay_pw@127.0.0.1:$ASSAY_PG_PORT" out/*/summary.json || fail "summary.json names no store: checked nothing"
for db in "$(db_of "$S")" "$(db_of "$S2")"; do
  pg_dump -h "$ASSAY_PG_SOCKET" -p "$ASSAY_PG_PORT" -U postgres -d "$db" >"dump-$db.sql"
  grep -q 'COPY public.measurements' "dump-$db.sql" || fail "pg_dump of $db has no measurements: checked nothing"
  if grep -qaF -- "$PW" "dump-$db.sql"; then fail "the canary is in the store $db"; fi
done
files=$(store_files "$S")
# shellcheck disable=SC2086
found=$(grep -rlaF -- "$PW" $files 2>/dev/null || true)
[ -z "$found" ] || fail "the canary is in the server's files: $found"
echo ok
