#!/usr/bin/env bash
# Store speed, both backends side by side in one run.
# SQLite: ingest 1,000,000 measurement rows (NDJSON rows, 10 files of
# 5,000 series x 20 points) and detect change points over 10,000 series of
# 200 points, each next to a baseline in the same process tree:
#   ingest baseline  sqlite3 .import of the same rows as CSV into a table with
#                    the same columns and the same series index (SQLite's own
#                    floor for storing them: no parsing, validation or keys)
#   detect baseline  sqlite3 reading every point of every series in series and
#                    time order (the floor for getting the data out)
# Targets: ingest no slower than 1.2x the baseline (issue 16), detect of
# 10,000 series x 200 points < 10 s (issue 6; issue 16: < 2 s on 2 cores).
# PostgreSQL (issue 32; bench/store-speed-pg.sh, which says what each
# baseline is): ingest of the same 1M rows <= 1.2x psql \copy of them; detect
# of the same 10,000 x 200 <= 1.5x SQLite's; 8 concurrent ingests of 100k
# rows <= 1.2x one process, every row once; report of 1,000 cases x 100
# revisions < 3 s, <= 256 MiB. The server is a throwaway one
# (tests/pg/server.sh, ASSAY_PG_DURABLE=1: PostgreSQL's default durability,
# fsync and synchronous_commit on), stopped and removed on exit.
# Each measure runs STORE_SPEED_TRIES times (default 2), interleaved with its
# baseline; the try with the lower wall time is shown, every try's wall too.
# usage: bench/store-speed.sh [ASSAY_BINARY]   (default build/release/bin/assay,
#        built with `make build` when missing). Needs python3, sqlite3,
#        /usr/bin/time, and PostgreSQL 15 (Debian: postgresql, postgresql-client).
#        STORE_SPEED_REPORT_DIR=DIR keeps the report's store (20+ min to write)
#        for later runs; STORE_SPEED_SMOKE=1 tries the script on 1/100 of the rows.
set -euo pipefail
cd "$(dirname "$0")/.."
assay=${1:-build/release/bin/assay}
if [ ! -x "$assay" ]; then
  make build >/dev/null
fi
for tool in python3 sqlite3 psql; do
  command -v $tool >/dev/null || { echo "store-speed: $tool is needed" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "store-speed: /usr/bin/time is needed (Debian: time)" >&2; exit 2; }
tries=${STORE_SPEED_TRIES:-2}
work=$(mktemp -d "${TMPDIR:-/tmp}/assay-store-speed.XXXXXX")
trap 'rm -rf "$work"' EXIT

calc() { awk "BEGIN { print $1 }"; }
# timed FILE CMD...: run CMD (output dropped); FILE gets "wall cpu".
timed() {
  local f=$1
  shift
  /usr/bin/time -f '%e %U %S' -o "$work/time.out" "$@" >/dev/null
  awk '{printf "%.2f %.2f\n", $1, $2 + $3}' "$work/time.out" >"$f"
}
best() { cat "$work/m/$1".[0-9]* | sort -g | head -n 1; }
wall() { best "$1" | awk '{print $1}'; }
row() { # row LABEL NAME: the best try of NAME (wall, CPU) and every try's wall
  # shellcheck disable=SC2046,SC2183 # best's two fields are two arguments
  printf "%-40s %7.2f s  CPU %6.2f s  (tries %s s)\n" "$1" $(best "$2") \
    "$(cat "$work/m/$2".[0-9]* | awk '{printf "%s%s", sep, $1; sep = "/"}')"
}
mkdir -p "$work/m"

echo "store-speed: generating data in $work (not timed)"
scale=1
[ "${STORE_SPEED_SMOKE:-0}" = 1 ] && scale=100
python3 bench/gen-rows.py "$work/ingest" $((5000 / scale)) 200 10 1
python3 bench/gen-rows.py "$work/detect" $((10000 / scale)) 200 10 2
# The same rows as CSV for the baseline.
python3 - "$work" <<'EOF'
import csv, glob, json, os, sys
work = sys.argv[1]
with open(os.path.join(work, "ingest.csv"), "w", newline="") as out:
    w = csv.writer(out)
    for f in sorted(glob.glob(os.path.join(work, "ingest", "*.ndjson"))):
        for line in open(f):
            r = json.loads(line)
            w.writerow([json.dumps(r["series"], sort_keys=True, separators=(",", ":")), r["metric"],
                        r["statistic"], r["value"], r["unit"], r["direction"], r["samples"],
                        r["revision"], r["timestamp"]])
EOF
rows=$(cat "$work"/ingest/*.ndjson | wc -l)

echo
echo "== ingest: $rows rows in 10 files"
# The baseline as a script of its own, so that its CPU time can be taken too.
cat >"$work/base.sh" <<EOF
sqlite3 "\$1" <<'SQL'
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE m (series TEXT, metric TEXT, statistic TEXT, value REAL, unit TEXT, direction TEXT,
                samples INTEGER, revision TEXT, timestamp TEXT);
CREATE INDEX m_series ON m (series, timestamp);
.mode csv
.import $work/ingest.csv m
SQL
EOF
# Each side TRIES times, interleaved; the try with the lower wall time
# shown (wall and CPU, user + sys of every thread, from /usr/bin/time); the
# wall ratio is the target's measure.
for ((i = 1; i <= tries; i++)); do
  rm -f "$work/base.db" "$work/ingest.db"
  timed "$work/m/base.$i" bash "$work/base.sh" "$work/base.db"
  timed "$work/m/ingest.$i" "$assay" store ingest --store "$work/ingest.db" "$work"/ingest/*.ndjson
done
stored=$(sqlite3 "$work/ingest.db" "SELECT count(*) FROM measurements")
t_base=$(wall base) t_assay=$(wall ingest)
row "baseline (sqlite3 .import)" base
row "assay store ingest" ingest
printf "%-40s %7.2f x   target <= 1.2 x: %s   rows stored: %s   %.0f rows/s\n" \
  "ratio assay / baseline" "$(calc "$t_assay / $t_base")" \
  "$(calc "$t_assay <= 1.2 * $t_base" | grep -q 1 && echo met || echo MISSED)" "$stored" \
  "$(calc "$rows / $t_assay")"
echo
echo "== detect: 10000 series x 200 points (CI defaults: window 50, max p 1e-4)"
"$assay" store ingest --store "$work/detect.db" "$work"/detect/*.ndjson >/dev/null
for ((i = 1; i <= tries; i++)); do
  timed "$work/m/read.$i" sqlite3 "$work/detect.db" \
    "SELECT series, value FROM measurements ORDER BY series, timestamp, id"
  timed "$work/m/detect.$i" "$assay" detect --store "$work/detect.db" --format csv
done
t_read=$(wall read) t_detect=$(wall detect)
found=$("$assay" detect --store "$work/detect.db" --format csv | tail -n +2 | wc -l)
row "baseline (sqlite3 reads the points)" read
row "assay detect" detect
printf "%-40s %7.2f x   target < 10 s: %s   change points: %s (1000 series have a 3%% step)\n" \
  "ratio assay / baseline" "$(calc "$t_detect / $t_read")" \
  "$(calc "$t_detect < 10" | grep -q 1 && echo met || echo MISSED)" "$found"
echo
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
bench/store-speed-pg.sh "$assay" "$work"
