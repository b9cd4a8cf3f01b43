#!/usr/bin/env bash
# Store speed: ingest 1,000,000 measurement rows (NDJSON rows, 10 files of
# 5,000 series x 20 points) and detect change points over 10,000 series of
# 200 points, each next to a baseline in the same process tree:
#   ingest baseline  sqlite3 .import of the same rows as CSV into a table with
#                    the same columns and the same series index (SQLite's own
#                    floor for storing them: no parsing, validation or keys)
#   detect baseline  sqlite3 reading every point of every series in series and
#                    time order (the floor for getting the data out)
# Targets: ingest no slower than 1.2x the baseline (issue 16), detect of
# 10,000 series x 200 points < 10 s (issue 6; issue 16: < 2 s on 2 cores).
# usage: bench/store-speed.sh [ASSAY_BINARY]   (default build/release/bin/assay,
#        built with `make build` when missing). Needs python3 and sqlite3.
set -euo pipefail
cd "$(dirname "$0")/.."
assay=${1:-build/release/bin/assay}
if [ ! -x "$assay" ]; then
  make build >/dev/null
fi
for tool in python3 sqlite3; do
  command -v $tool >/dev/null || { echo "store-speed: $tool is needed" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/assay-store-speed.XXXXXX")
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
calc() { awk "BEGIN { print $1 }"; }
# seconds CMD...: run CMD, print elapsed wall seconds (stdout of CMD dropped)
seconds() {
  local t0 t1
  t0=$(now)
  "$@" >/dev/null
  t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }' 
}
cpu_of() { # CPU seconds (user+sys) of CMD, from /usr/bin/time when present
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%U %S' -o "$work/cpu" "$@" >/dev/null && awk '{printf "%.2f", $1 + $2}' "$work/cpu"
  else
    "$@" >/dev/null && echo "n/a"
  fi
}

echo "store-speed: generating data in $work (not timed)"
python3 bench/gen-rows.py "$work/ingest" 5000 200 10 1
python3 bench/gen-rows.py "$work/detect" 10000 200 10 2
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
# Each side twice, interleaved: once for its wall time, once for its CPU
# time (user + sys, every thread); the wall ratio is the target's measure.
t_base=$(seconds bash "$work/base.sh" "$work/base.db")
t_assay=$(seconds "$assay" store ingest --store "$work/ingest.db" "$work"/ingest/*.ndjson)
cpu_base=$(cpu_of bash "$work/base.sh" "$work/base-cpu.db")
cpu_assay=$(cpu_of "$assay" store ingest --store "$work/cpu.db" "$work"/ingest/*.ndjson)
stored=$(sqlite3 "$work/ingest.db" "SELECT count(*) FROM measurements")
printf "%-34s %8.2f s   (%s s CPU)\n" "baseline (sqlite3 .import)" "$t_base" "$cpu_base"
printf "%-34s %8.2f s   (%s s CPU)   %.0f rows/s\n" "assay store ingest" "$t_assay" "$cpu_assay" \
  "$(calc "$rows / $t_assay")"
printf "%-34s %8.2f x   (CPU %s x)   target <= 1.2 x: %s   rows stored: %s\n" \
  "ratio assay / baseline" "$(calc "$t_assay / $t_base")" \
  "$(awk -v a="$cpu_assay" -v b="$cpu_base" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')" \
  "$(calc "$t_assay <= 1.2 * $t_base" | grep -q 1 && echo met || echo MISSED)" "$stored"
echo
echo "== detect: 10000 series x 200 points (CI defaults: window 50, max p 1e-4)"
"$assay" store ingest --store "$work/detect.db" "$work"/detect/*.ndjson >/dev/null
t_read=$(seconds sqlite3 "$work/detect.db" \
  "SELECT series, value FROM measurements ORDER BY series, timestamp, id")
cpu_detect=$(cpu_of "$assay" detect --store "$work/detect.db" --format csv)
t_detect=$(seconds "$assay" detect --store "$work/detect.db" --format csv)
found=$("$assay" detect --store "$work/detect.db" --format csv | tail -n +2 | wc -l)
printf "%-34s %8.2f s\n" "baseline (sqlite3 reads the points)" "$t_read"
printf "%-34s %8.2f s   (%s s CPU)   %.0f series/s\n" "assay detect" "$t_detect" "$cpu_detect" \
  "$(calc "10000 / $t_detect")"
printf "%-34s %8.2f x   target < 10 s: %s   change points: %s (1000 series have a 3%% step)\n" \
  "ratio assay / baseline" "$(calc "$t_detect / $t_read")" \
  "$(calc "$t_detect < 10" | grep -q 1 && echo met || echo MISSED)" "$found"
echo
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
