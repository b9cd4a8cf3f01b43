# Shared by the tests/e2e/pg/t-*.sh scripts (PostgreSQL only): a scratch
# folder, the assay binary, stores (tests/lib/store.sh) and checks. Source
# it, then call shared_server (the fixture's server) or own_server (a
# private one, for a test that stops or restarts it):
#   . "$(dirname "$0")/lib.sh" "$@"
set -euo pipefail
ASSAY=$1
SRC=${ASSAY_SOURCE_DIR:?}
FIX=$SRC/tests/fixtures/ingest
PGSRV=$SRC/tests/pg/server.sh
. "$SRC/tests/lib/store.sh"
export ASSAY_TEST_BACKEND=postgres LC_ALL=C
# No PG* variable of the caller reaches assay or psql unasked.
unset PGPASSWORD PGSERVICE PGHOST PGPORT PGUSER PGDATABASE PGPASSFILE PGSERVICEFILE
T=$(mktemp -d /tmp/assay-e2e-pg.XXXXXX)
OWN_ENV="" PIDS=""
cleanup() {
  local p
  cd /
  for p in $PIDS; do kill -KILL "$p" 2>/dev/null || true; done
  store_cleanup
  if [ -s "$T/.pw-databases" ]; then
    while read -r p; do admin "DROP DATABASE IF EXISTS $p WITH (FORCE)" >/dev/null 2>&1 || true; done <"$T/.pw-databases"
  fi
  if [ -n "$OWN_ENV" ]; then "$PGSRV" stop "$OWN_ENV" >/dev/null 2>&1 || true; rm -rf "$(dirname "$OWN_ENV")"; fi
  rm -rf "$T"
}
trap cleanup EXIT
cd "$T"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

shared_server() {
  store_init "$T"
}

# own_server: start a private server (tests/pg/server.sh), its facts in a
# folder outside $T (they hold the password; $T is grepped for it). Exits
# 77 where server.sh skips, 1 where it fails.
own_server() {
  local d rc
  d=$(mktemp -d /tmp/assay-e2e-pgsrv.XXXXXX)
  OWN_ENV=$d/server.env
  set +e
  ASSAY_PG_WATCH_PID=$$ "$PGSRV" start "$OWN_ENV" >"$d/start.txt" 2>&1
  rc=$?
  set -e
  if [ "$rc" != 0 ]; then
    cat "$d/start.txt" >&2
    exit "$rc"
  fi
  export ASSAY_PG_ENV=$OWN_ENV
  store_init "$T"
}

# pw_store NAME: a fresh database owned by assay_pw; prints its URL with
# the password in it (postgresql://assay_pw:PASSWORD@127.0.0.1:PORT/DB).
pw_store() {
  local db
  db=t_$1_$(head -c 5 /dev/urandom | od -An -tx1 | tr -d ' \n')
  admin "CREATE DATABASE $db OWNER assay_pw" || return 1
  echo "$db" >>"$T/.pw-databases"
  echo "postgresql://assay_pw:$ASSAY_PG_PASSWORD@127.0.0.1:$ASSAY_PG_PORT/$db"
}

restart_server() {
  (cd / && "$PGSRV" restart "$ASSAY_PG_ENV" >/dev/null) || fail "the server did not restart"
}

# admin SQL: one statement as the superuser (on the socket).
admin() {
  psql -X -q -At -v ON_ERROR_STOP=1 "$ASSAY_PG_ADMIN" -c "$1"
}

# run_assay EXPECTED_EXIT args...: run assay, keep stdout/stderr in out.txt/err.txt.
run_assay() {
  local want=$1
  shift
  set +e
  "$ASSAY" "$@" >"$T/out.txt" 2>"$T/err.txt"
  local rc=$?
  set -e
  if [ "$rc" != "$want" ]; then
    echo "--- stdout" >&2
    head -c 4000 "$T/out.txt" >&2
    echo "--- stderr" >&2
    cat "$T/err.txt" >&2
    fail "assay $* exited $rc, expected $want"
  fi
}

q() {
  store_sql "$1" "$2"
}

expect_eq() {
  [ "$1" = "$2" ] || fail "${3:-value}: got '$1', expected '$2'"
}

expect_grep() {
  grep -Eq -- "$1" "$2" || { cat "$2" >&2; fail "$2 has no line matching: $1"; }
}

# expect_prefix TEXT FILE: some line of FILE starts with TEXT (no pattern).
expect_prefix() {
  local line
  while IFS= read -r line; do
    [ "${line#"$1"}" != "$line" ] && return 0
  done <"$2"
  cat "$2" >&2
  fail "$2 has no line starting with: $1"
}

# db_of STORE: the database name of a store URL.
db_of() {
  echo "${1##*/}"
}

# wait_query PID DB PATTERN: wait until assay (PID) has a session on DB
# whose current query matches the SQL LIKE PATTERN ('%' for any). Returns 1
# when PID ended first. No deadline: the test's timeout bounds it.
wait_query() {
  local pid=$1 db=$2 pat=$3 n
  while kill -0 "$pid" 2>/dev/null; do
    n=$(admin "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'assay'
               AND datname = '$db' AND query LIKE '$pat'") || n=0
    [ "$n" != 0 ] && return 0
    sleep 0.05
  done
  return 1
}

# rows_file FILE SERIES POINTS [FIRST_POINT]: NDJSON rows, each with an
# identity (run_id, revision, timestamp), SERIES series x POINTS points; the
# same point always gives the same bytes (files may overlap).
rows_file() {
  python3 - "$@" <<'PY'
import sys
out, ns, npts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
first = int(sys.argv[4]) if len(sys.argv) > 4 else 0
with open(out, "w") as fh:
    for p in range(first, first + npts):
        ts = "2026-%02d-%02dT%02d:%02d:%02dZ" % (1 + p // 40320 % 12, 1 + p // 1440 % 28, p // 60 % 24, p % 60, p % 7)
        for s in range(ns):
            v = 1000 + (s * 7919 + p * 104729) % 997 / 10.0
            fh.write('{"series":{"cluster":"c%d","scale":"1x8","precision":"bf16","workload":"w%d"},'
                     '"metric":"tokens_per_sec_per_gpu","statistic":"mean","value":%.1f,"unit":"tokens/s/GPU",'
                     '"direction":"higher","samples":1,"revision":"rev%06d","timestamp":"%s","run_id":"run%06d",'
                     '"case_id":null}\n' % (s % 4, s, v, p, ts, p))
PY
}
