#!/usr/bin/env bash
# Change-point detection speed: Apache Otava and assay side by side on the
# same generated series (bench/gen-rows.py: SERIES series x POINTS points,
# a 3% step in one series of ten), the same settings (window 50, max p-value
# 1e-4, min magnitude 0), interleaved in an order that turns each round
# (so that no one always runs right after Otava's cache-cooling Python),
# ROUNDS rounds, medians.
#   Otava:  a checkout of apache/otava in OTAVA_DIR (kept outside the project,
#           never vendored) run by /usr/bin/python3 with Debian's python3-numpy
#           and python3-scipy (scripts/deps.sh otava): bench/otava_detect.py
#           calls its compute_change_points on every series. Timed as a whole
#           process (interpreter, imports, detection) and detection alone.
#   assay:  `assay detect --store S --format csv` over the same series stored
#           in a store, as a whole process; and --otava-compat.
# Without OTAVA_DIR it says so and times assay alone.
# Target (issue 16): assay through the CLI at least 50x faster per series.
# usage: OTAVA_DIR=/path/to/otava [ASSAY=binary] bench/detect-compare.sh [SERIES [POINTS [ROUNDS]]]
#        (default 100 200 5; ASSAY defaults to build/release/bin/assay, built
#        with `make build` when missing; another build's binary compares commits)
set -euo pipefail
cd "$(dirname "$0")/.."
nseries=${1:-100}
npoints=${2:-200}
rounds=${3:-5}
assay=${ASSAY:-$PWD/build/release/bin/assay}
[ -x "$assay" ] || make build >/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/assay-detect-compare.XXXXXX")
trap 'rm -rf "$work"' EXIT
# timed FILE CMD...: run CMD; "wall user system" seconds into FILE: wall from
# bash's microsecond clock (no process started to read it: nothing but CMD
# runs between the readings), CPU from bash's `time` (rusage, all threads).
# CMD's stderr stays where the caller sent it.
timed() {
  local f=$1 TIMEFORMAT='%3U %3S' t0 t1
  shift
  t0=$EPOCHREALTIME
  { time "$@" 2>&3; } 3>&2 2>"$f.cpu"
  t1=$EPOCHREALTIME
  echo "$t0 $t1 $(cat "$f.cpu")" >"$f"
}
wall() { awk '{ printf "%.6f\n", $2 - $1 }' "$1"; }
cpu() { awk '{ printf "%.3f\n", $3 + $4 }' "$1"; }
python3 bench/gen-rows.py "$work/rows" "$nseries" "$npoints" 1 16 >/dev/null
"$assay" store ingest --store "$work/s.db" "$work"/rows/*.ndjson >/dev/null
# The same series for Otava: one JSON list of values per line, in time order.
"$assay" store export --store "$work/s.db" | python3 -c '
import json, sys, collections
s = collections.OrderedDict()
for line in sys.stdin:
    r = json.loads(line)
    s.setdefault(r["series_key"], []).append(r["value"])
for v in s.values():
    print(json.dumps(v))' >"$work/series.ndjson"

otava=
if [ -n "${OTAVA_DIR:-}" ]; then
  if [ -f "$OTAVA_DIR/otava/analysis.py" ] && /usr/bin/python3 -c 'import numpy, scipy' 2>/dev/null; then
    otava=$OTAVA_DIR
  else
    echo "OTAVA_DIR=$OTAVA_DIR: no otava/analysis.py there, or /usr/bin/python3 lacks numpy/scipy" \
         "(scripts/deps.sh otava); timing assay alone"
  fi
else
  echo "OTAVA_DIR is not set (a checkout of apache/otava): timing assay alone"
fi

declare -a t_ot t_otc t_as t_ac c_ot c_as c_ac
run_otava() {
  [ -n "$otava" ] || return 0
  timed "$work/t.ot" /usr/bin/python3 bench/otava_detect.py "$otava" "$work/series.ndjson" 50 0.0001 \
    >"$work/ot.out" 2>"$work/ot.err"
  ot_found=$(cat "$work/ot.out")
  t_ot+=("$(wall "$work/t.ot")")
  c_ot+=("$(cpu "$work/t.ot")")
  t_otc+=("$(cat "$work/ot.err")")
}
run_default() {
  timed "$work/t.as" "$assay" detect --store "$work/s.db" --format csv >"$work/as.csv"
  t_as+=("$(wall "$work/t.as")")
  c_as+=("$(cpu "$work/t.as")")
}
run_compat() {
  timed "$work/t.ac" "$assay" detect --store "$work/s.db" --format csv --otava-compat \
    --max-pvalue 0.0001 >"$work/ac.csv"
  t_ac+=("$(wall "$work/t.ac")")
  c_ac+=("$(cpu "$work/t.ac")")
}
# The order turns each round (O D C, D C O, C O D, ...): whatever runs right
# after Otava's 0.5 s of Python finds the caches cold, so no one always does.
order=(run_otava run_default run_compat)
for r in $(seq 1 "$rounds"); do
  k=$(((r - 1) % 3))
  for i in 0 1 2; do
    ${order[$(((k + i) % 3))]}
  done
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
as=$(median "${t_as[@]}")
ac=$(median "${t_ac[@]}")
as_found=$(($(wc -l <"$work/as.csv") - 1))
ac_found=$(($(wc -l <"$work/ac.csv") - 1))
echo "== $nseries series x $npoints points, window 50, max p 1e-4, $rounds interleaved rounds (medians)"
per() { awk -v t="$1" -v n="$nseries" 'BEGIN { printf "%.3f", 1000 * t / n }'; }
printf "%-46s %8s %10s %8s %10s %8s\n" "" "wall s" "ms/series" "CPU s" "CPU ms/s." "changes"
as_c=$(median "${c_as[@]}")
ac_c=$(median "${c_ac[@]}")
if [ -n "$otava" ]; then
  ot=$(median "${t_ot[@]}")
  otc=$(median "${t_otc[@]}")
  ot_c=$(median "${c_ot[@]}")
  printf "%-46s %8.3f %10s %8.3f %10s %8s\n" "Otava (python3 process: imports + detection)" "$ot" "$(per "$ot")" "$ot_c" "$(per "$ot_c")" "$ot_found"
  printf "%-46s %8.3f %10s %8s %10s %8s\n" "Otava (detection alone, inside the process)" "$otc" "$(per "$otc")" "-" "-" "$ot_found"
fi
printf "%-46s %8.3f %10s %8.3f %10s %8s\n" "assay detect (CLI process, CI defaults)" "$as" "$(per "$as")" "$as_c" "$(per "$as_c")" "$as_found"
printf "%-46s %8.3f %10s %8.3f %10s %8s\n" "assay detect --otava-compat (CLI process)" "$ac" "$(per "$ac")" "$ac_c" "$(per "$ac_c")" "$ac_found"
if [ -n "$otava" ]; then
  awk -v o="$ot" -v oc="$otc" -v a="$as" -v c="$ac" -v oC="$ot_c" -v aC="$as_c" -v cC="$ac_c" 'BEGIN {
    printf "wall, Otava process / assay process: %.1fx (default), %.1fx (compat); target >= 50x\n", o / a, o / c
    printf "wall, Otava detection alone / assay process: %.1fx (default), %.1fx (compat)\n", oc / a, oc / c
    if (aC > 0 && cC > 0)
      printf "CPU, Otava process / assay process: %.1fx (default), %.1fx (compat)\n", oC / aC, oC / cC }'
fi
printf "machine: %s CPUs, load average %s\n" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
