#!/usr/bin/env bash
# The PostgreSQL half of bench/store-speed.sh (run that; it calls this with
# its assay binary and its folder of generated rows). Issue 32's targets,
# each measured next to its baseline, TRIES times interleaved (default 2,
# STORE_SPEED_TRIES), the try with the lower wall time shown:
#   ingest      assay store ingest of the 1M rows (10 files) into a new
#               PostgreSQL store <= 1.2x `psql \copy` of the same rows (taken
#               from that store: run, case, series, run_id, case_id, value,
#               samples, revision, timestamp, as text) into a table made
#               `LIKE measurements INCLUDING ALL`: the same columns, types,
#               collations, identity, checks and indexes, no foreign keys and
#               no triggers (LIKE copies neither)
#   detect      assay detect of 10,000 series x 200 points from PostgreSQL
#               <= 1.5x the same from SQLite (same rows; outputs compared)
#   concurrent  8 assay store ingest processes at once, 100k rows each, into
#               one store: every row once (count check), wall <= 1.2x one
#               process ingesting the same 8 files
#   report      assay report of 1,000 cases x 100 revisions (tests/report/
#               report_store, moved with assay store copy) from PostgreSQL:
#               < 3 s, peak RSS <= 256 MiB; SQLite's figures beside it
# Every store starts empty with its schema made (assay store migrate), not
# timed. Times: wall and client CPU (user + sys) from /usr/bin/time, and
# the server's CPU over the same interval (the postmaster's children, from
# /proc). The server: tests/pg/server.sh with ASSAY_PG_DURABLE=1, so
# PostgreSQL 15's defaults (fsync, synchronous_commit and full_page_writes
# on, shared_buffers 128 MB), on the same machine, over TCP on 127.0.0.1;
# stopped and removed on exit, whatever happens.
# The report store takes long to write (1,000 x 100: 38.9 M rows, 5.6 GB,
# about 20 min): STORE_SPEED_REPORT_DIR=DIR keeps it in DIR for later runs.
# STORE_SPEED_PG_PARTS="ingest detect concurrent report" (the default) picks
# the measures. STORE_SPEED_SMOKE=1 runs everything on 1/100 of the rows (a check of the
# script, not a measurement).
#   bench/store-speed-pg.sh ASSAY WORK   (WORK: the folder of store-speed.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
assay=${1:?usage: bench/store-speed-pg.sh ASSAY WORK (run bench/store-speed.sh)}
work=${2:?usage: bench/store-speed-pg.sh ASSAY WORK (run bench/store-speed.sh)}
tries=${STORE_SPEED_TRIES:-2}
scale=1 # STORE_SPEED_SMOKE=1: a quick trial of the script on 1/100 of the rows
[ "${STORE_SPEED_SMOKE:-0}" = 1 ] && scale=100
for tool in psql python3 sqlite3; do
  command -v $tool >/dev/null || { echo "store-speed: $tool is needed" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "store-speed: /usr/bin/time is needed (Debian: time)" >&2; exit 2; }

facts=$work/pg.env
stop_server() { tests/pg/server.sh stop "$facts" >/dev/null 2>&1 || true; }
trap stop_server EXIT
trap 'exit 130' INT TERM
# The watchdog stops the server if this script is killed (kill -9 too).
ASSAY_PG_DURABLE=1 ASSAY_PG_WATCH_PID=$$ tests/pg/server.sh start "$facts" >/dev/null
# shellcheck disable=SC1090
. "$facts"
url=$ASSAY_PG_URL
export PGOPTIONS='-c client_min_messages=warning'
sql() { psql -X -q -At -v ON_ERROR_STOP=1 "$url/${1}" -c "$2"; }
newdb() { # newdb NAME: an empty database with assay's schema
  sql postgres "DROP DATABASE IF EXISTS $1 WITH (FORCE)" && sql postgres "CREATE DATABASE $1" &&
    "$assay" store migrate --store "$url/$1" >/dev/null
}
dropdb() { sql postgres "DROP DATABASE IF EXISTS $1 WITH (FORCE)"; }
echo "server: PostgreSQL $("$ASSAY_PG_BINDIR/postgres" --version | awk '{print $3}') on 127.0.0.1:$ASSAY_PG_PORT;" \
  "$(sql postgres "SELECT string_agg(name || '=' || current_setting(name), ', ' ORDER BY name)
     FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes', 'shared_buffers',
     'max_wal_size', 'wal_level', 'work_mem')")"

# The server's CPU seconds so far: the postmaster's own and its reaped
# children's, and those of its live children (backends, checkpointer...).
tck=$(getconf CLK_TCK)
server_cpu() {
  local pm c
  pm=$(head -n 1 "$ASSAY_PG_BASE/data/postmaster.pid")
  {
    sed 's/.*) //' "/proc/$pm/stat" | awk '{print $12 + $13 + $14 + $15}'
    for c in $(cat /proc/"$pm"/task/*/children 2>/dev/null); do
      sed 's/.*) //' "/proc/$c/stat" 2>/dev/null | awk '{print $12 + $13}' || true
    done
  } | awk -v t="$tck" '{s += $1} END {printf "%.2f", s / t}'
}
# timed FILE CMD...: run CMD (stdout dropped); FILE gets "wall cpu rss_kb server_cpu".
timed() {
  local f=$1 s0 s1
  shift
  s0=$(server_cpu)
  if ! /usr/bin/time -f '%e %U %S %M' -o "$work/time.out" "$@" >/dev/null 2>"$work/stderr.out"; then
    echo "store-speed: failed: $*" >&2
    cat "$work/time.out" "$work/stderr.out" >&2
    exit 1
  fi
  sleep 0.5 # the backend of a client that ended: reaped, so counted in the postmaster's
  s1=$(server_cpu)
  awk -v a="$s0" -v b="$s1" '{printf "%.2f %.2f %d %.2f\n", $1, $2 + $3, $4, b - a}' "$work/time.out" >"$f"
}
# best NAME: the line of NAME.1..NAME.TRIES with the lowest wall time.
best() { cat "$work/mpg/$1".[0-9]* | sort -g | head -n 1; }
field() { echo "$1" | awk -v i="$2" '{print $i}'; }
row() { # row LABEL NAME: the best try of NAME, and every try's wall
  local b all
  b=$(best "$2")
  all=$(cat "$work/mpg/$2".[0-9]* | awk '{printf "%s%s", sep, $1; sep = "/"}')
  printf "%-48s %7.2f s  CPU %6.2f s  server CPU %6.2f s  RSS %4d MiB  (tries %s s)\n" "$1" \
    "$(field "$b" 1)" "$(field "$b" 2)" "$(field "$b" 4)" "$(($(field "$b" 3) / 1024))" "$all"
}
verdict() { # verdict A B LIMIT: "1.05 x (target <= LIMIT x: met)"
  awk -v a="$1" -v b="$2" -v l="$3" 'BEGIN { r = a / b
    printf "%.2f x (target <= %s x: %s)", r, l, (r <= l ? "met" : "MISSED") }'
}
mkdir -p "$work/mpg"
wall() { field "$(best "$1")" 1; }

# part NAME: whether STORE_SPEED_PG_PARTS (default all four) names NAME.
part() { [[ " ${STORE_SPEED_PG_PARTS:-ingest detect concurrent report} " == *" $1 "* ]]; }

# ---- 1. ingest 1M rows: assay vs psql \copy ----
if part ingest; then
echo
echo "== PostgreSQL ingest: $(cat "$work"/ingest/*.ndjson | wc -l) rows in 10 files"
cols='run, "case", series, run_id, case_id, value, samples, revision, timestamp'
for ((i = 1; i <= tries; i++)); do
  newdb ing
  timed "$work/mpg/ingest.$i" "$assay" store ingest --store "$url/ing" "$work"/ingest/*.ndjson
  stored=$(sql ing "SELECT count(*) FROM measurements")
  if [ ! -f "$work/rows.copy" ]; then
    sql ing "\\copy (SELECT $cols FROM measurements ORDER BY id) TO '$work/rows.copy'"
  fi
  dropdb ing
  newdb base
  sql base "CREATE TABLE m (LIKE measurements INCLUDING ALL)"
  timed "$work/mpg/copy.$i" psql -X -q -v ON_ERROR_STOP=1 "$url/base" -c "\\copy m ($cols) FROM '$work/rows.copy'"
  copied=$(sql base "SELECT count(*) FROM m")
  dropdb base
done
row "baseline (psql \\copy, $copied rows)" copy
row "assay store ingest ($stored rows)" ingest
echo "ratio assay / baseline: $(verdict "$(wall ingest)" "$(wall copy)" 1.2)"
fi

# ---- 2. detect 10,000 series x 200 points: PostgreSQL vs SQLite ----
if part detect; then
echo
echo "== detect: 10000 series x 200 points, PostgreSQL vs SQLite (same rows)"
newdb det
t0=$(date +%s.%N)
"$assay" store ingest --store "$url/det" "$work"/detect/*.ndjson >/dev/null
echo "(ingested into PostgreSQL in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s, not timed)"
sql det "VACUUM (ANALYZE) measurements, series"
for ((i = 1; i <= tries; i++)); do
  timed "$work/mpg/dsqlite.$i" "$assay" detect --store "$work/detect.db" --format csv
  timed "$work/mpg/dpg.$i" "$assay" detect --store "$url/det" --format csv
done
"$assay" detect --store "$work/detect.db" --format csv >"$work/detect-sqlite.csv"
"$assay" detect --store "$url/det" --format csv >"$work/detect-pg.csv"
same=$(cmp -s "$work/detect-sqlite.csv" "$work/detect-pg.csv" && echo same || echo DIFFERENT)
row "assay detect, SQLite" dsqlite
row "assay detect, PostgreSQL" dpg
echo "ratio PostgreSQL / SQLite: $(verdict "$(wall dpg)" "$(wall dsqlite)" 1.5)   output: $same" \
  "($(($(wc -l <"$work/detect-pg.csv") - 1)) change points)"
dropdb det
fi

# ---- 3. 8 concurrent ingests of 100k rows vs one process ----
if part concurrent; then
echo
echo "== 8 concurrent ingests of 100k rows into one store vs one process ingesting the 8 files"
python3 bench/gen-rows.py "$work/conc" "$((4000 / scale))" 200 8 3
want="$((800000 / scale)) rows, $((800000 / scale)) distinct"
cat >"$work/eight.sh" <<'EOF'
# eight.sh ASSAY STORE FAILS FILE...: one ingest per file, all at once;
# FAILS gets each failed ingest's message (the timing stays: a failure is a result)
assay=$1 store=$2 fails=$3
shift 3
pids=()
for f in "$@"; do "$assay" store ingest --store "$store" "$f" >/dev/null 2>"$f.err" & pids+=($!); done
k=0
for f in "$@"; do
  wait "${pids[$k]}" || echo "$(basename "$f") (exit $?): $(cat "$f.err")" >>"$fails"
  k=$((k + 1))
done
exit 0
EOF
check_rows() { # check_rows DB: "N rows, N distinct" (the identity: series, revision, timestamp)
  sql "$1" "SELECT count(*) || ' rows, ' || count(DISTINCT (series, revision, timestamp)) || ' distinct'
            FROM measurements"
}
for ((i = 1; i <= tries; i++)); do
  newdb one
  timed "$work/mpg/one.$i" "$assay" store ingest --store "$url/one" "$work"/conc/*.ndjson
  one=$(check_rows one)
  dropdb one
  newdb eight
  rm -f "$work/fails"
  timed "$work/mpg/eight.$i" bash "$work/eight.sh" "$assay" "$url/eight" "$work/fails" "$work"/conc/*.ndjson
  eight=$(check_rows eight)
  dropdb eight
  if [ -s "$work/fails" ]; then
    echo "concurrent try $i: $(wc -l <"$work/fails") of 8 ingests failed: MISSED"
    sed 's/^/  /' "$work/fails"
  fi
  [ "$eight" = "$want" ] || echo "concurrent try $i: $eight (expected $want): MISSED"
done
row "one process, 8 files ($one)" one
row "8 processes at once ($eight)" eight
echo "ratio 8 at once / one: $(verdict "$(wall eight)" "$(wall one)" 1.2)"
fi

# ---- 4. report of 1,000 cases x 100 revisions ----
if part report; then
echo
rdir=${STORE_SPEED_REPORT_DIR:-$work/report}
mkdir -p "$rdir"
cases=1000 revs=100
[ "$scale" = 1 ] || cases=20 revs=3
echo "== report: $cases cases x $revs revisions, PostgreSQL (and SQLite beside it)"
if [ ! -s "$rdir/run_id" ] || [ "$(cat "$rdir/shape" 2>/dev/null)" != "$cases $revs" ]; then
  echo "(writing the store with tests/report/report_store: 1,000 x 100 takes about 20 min on 2 cores)"
  build=build/bench-report
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DASSAY_TESTS=ON >/dev/null
  cmake --build "$build" -j 2 --target report_store >/dev/null
  rm -rf "$rdir/s.db" "$rdir/out" "$rdir/run_id"
  "$build/tests/report/report_store" --cases "$cases" --runs "$revs" "$rdir/s.db" "$rdir/out" >"$rdir/run_id.tmp"
  mv "$rdir/run_id.tmp" "$rdir/run_id"
  echo "$cases $revs" >"$rdir/shape"
fi
run=$(cat "$rdir/run_id")
dropdb rep && sql postgres "CREATE DATABASE rep"
timed "$work/mpg/copy-report" "$assay" store copy "$rdir/s.db" "$url/rep"
sql rep "VACUUM (ANALYZE) measurements, series, runs, cases, verdicts"
echo "(assay store copy of $(sqlite3 "$rdir/s.db" "SELECT count(*) FROM measurements") rows into PostgreSQL:" \
  "$(field "$(cat "$work/mpg/copy-report")" 1) s, not part of the target;" \
  "database $(sql rep "SELECT pg_size_pretty(pg_database_size('rep'))"))"
for ((i = 1; i <= tries; i++)); do
  rm -rf "$work/rsq" "$work/rpg"
  timed "$work/mpg/rsqlite.$i" "$assay" report --store "$rdir/s.db" --out "$work/rsq" "$run"
  timed "$work/mpg/rpg.$i" "$assay" report --store "$url/rep" --out "$work/rpg" "$run"
done
same=same
for f in report.html junit.xml summary.md; do
  cmp -s "$work/rsq/$f" "$work/rpg/$f" || same="$f DIFFERENT"
done
row "assay report, SQLite" rsqlite
row "assay report, PostgreSQL" rpg
rss=$(cat "$work"/mpg/rpg.[0-9]* | awk '{print $3}' | sort -g | tail -n 1)
awk -v t="$(wall rpg)" -v k="$rss" -v s="$same" 'BEGIN {
  printf "PostgreSQL: %.2f s (target < 3 s: %s), peak RSS %.0f MiB (largest try; target <= 256 MiB: %s); files: %s\n",
         t, (t < 3 ? "met" : "MISSED"), k / 1024, (k <= 262144 ? "met" : "MISSED"), s }'
dropdb rep
fi
echo
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
