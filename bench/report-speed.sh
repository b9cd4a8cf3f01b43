#!/usr/bin/env bash
# Report build speed and size, release build, median of RUNS runs:
# 1. the writers alone: report.html, junit.xml and summary.md of synthetic
#    models (assay_report_sample) of 100, 1,000 and 10,000 cases;
# 2. `assay report` from a store, the real thing: tests/report/report_store
#    writes a store of REVISIONS runs (default 5) of a 1,000-case suite (EP
#    cases with decode ladders of 10 points or prefill ladders of 4, 58 rows
#    per point from the real assay-ep parser; Megatron training cases; every
#    outcome) and the last run's folder; `assay report` reads it and writes
#    the three files. Side by side, the baseline: the sqlite3 shell reading
#    the same rows (the run's rows, and every point of the series the run
#    touched) to /dev/null.
# The issue's budget for 1,000 cases is the yardstick: under 2 s, under 5 MB;
# and (issue 16) peak RSS of `assay report` at most 256 MiB at any depth.
#   bench/report-speed.sh [RUNS] [REVISIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
revisions=${2:-5}
build=build/bench-report
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

scripts/deps.sh build >/dev/null
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DASSAY_TESTS=ON >/dev/null
cmake --build "$build" -j 2 --target report_sample report_store assay_cli >/dev/null
sample="$build/tests/report/report_sample"

echo "report-speed: $(nproc) cores, $runs runs per size, median shown"
printf '%8s %12s %12s %12s %12s %10s %10s\n' cases "model ms" "html ms" "html bytes" \
  "junit bytes" "md bytes" "total ms"
for cases in 100 1000 10000; do
  totals=()
  for ((i = 0; i < runs; i++)); do
    rm -rf "$out/r"
    "$sample" --cases "$cases" --time "$out/r" >"$out/t.$i"
    totals+=("$(awk '/^total/ {print $2}' "$out/t.$i")")
  done
  # The run with the median total time.
  med=$(printf '%s\n' "${totals[@]}" | sort -g | sed -n "$(((runs + 1) / 2))p")
  for ((i = 0; i < runs; i++)); do
    [ "${totals[$i]}" = "$med" ] && { pick=$out/t.$i; break; }
  done
  model=$(awk '/^model/ {print $4}' "$pick")
  html_ms=$(awk '/^report.html/ {print $4}' "$pick")
  html_b=$(awk '/^report.html/ {print $2}' "$pick")
  junit_b=$(awk '/^junit.xml/ {print $2}' "$pick")
  md_b=$(awk '/^summary.md/ {print $2}' "$pick")
  printf '%8d %12s %12s %12s %12s %10s %10s\n' "$cases" "$model" "$html_ms" "$html_b" \
    "$junit_b" "$md_b" "$med"
  if [ "$cases" = 1000 ]; then
    budget_line=$(awk -v t="$med" -v b="$html_b" 'BEGIN {
      printf "1,000 cases: %.3f s of the 2 s budget (%.1f%%), report.html %.2f MB of 5 MB (%.1f%%)",
             t / 1000, t / 20, b / 1e6, b / 5e4 }')
  fi
done
echo "$budget_line"

# 2. From a store.
median() { sort -g | sed -n "$(((runs + 1) / 2))p"; }
now() { date +%s.%N; }
echo
echo "assay report from a store: 1,000 cases, $revisions revisions (writing the store...)"
t0=$(now)
run=$("$build/tests/report/report_store" --cases 1000 --runs "$revisions" "$out/s.db" "$out/out")
t1=$(now)
rows=$(sqlite3 "$out/s.db" "SELECT count(*) FROM measurements")
run_rows=$(sqlite3 "$out/s.db" "SELECT count(*) FROM measurements m JOIN cases c ON c.id = m.\"case\"
  JOIN runs r ON r.id = c.run WHERE r.run_id = '$run'")
printf 'store: %s rows in all, %s of the reported run, %s MB (written in %.1f s)\n' "$rows" \
  "$run_rows" "$(($(stat -c %s "$out/s.db") / 1000000))" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')"
# The baseline reads what the report reads: the run's rows, and every point
# of the series its history follows (docs/report.md, "History").
base_sql="SELECT s.key, s.fields, s.metric, s.statistic, m.value FROM cases c
  JOIN measurements m ON m.\"case\" = c.id JOIN series s ON s.id = m.series
  WHERE c.run = (SELECT id FROM runs WHERE run_id = '$run');
SELECT m.series, m.value, m.revision, m.timestamp FROM measurements m WHERE m.series IN
  (SELECT m2.series FROM cases c JOIN measurements m2 ON m2.\"case\" = c.id
   JOIN series s ON s.id = m2.series
   WHERE c.run = (SELECT id FROM runs WHERE run_id = '$run') AND
   (s.metric NOT IN ('latency_us', 'cross_rank_min_us', 'gbps_per_rank', 'tokens_per_s',
                     'oracle_pass', 'max_relative_error')
    OR s.metric = 'max_relative_error'
    OR (json_extract(s.fields, '\$.component') = 'roundtrip' AND
        (s.metric = 'gbps_per_rank' OR (s.metric = 'latency_us' AND s.statistic IN ('p50', 'p99'))))))
  ORDER BY m.series, m.timestamp, m.id;"
assay_t=() base_t=()
for ((i = 0; i < runs; i++)); do
  a=$(now)
  sqlite3 "$out/s.db" "$base_sql" >/dev/null
  b=$(now)
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%M' -o "$out/rss.$i" "$build/bin/assay" report --store "$out/s.db" "$run" >/dev/null 2>&1
  else
    "$build/bin/assay" report --store "$out/s.db" "$run" >/dev/null 2>&1
    echo 0 >"$out/rss.$i"
  fi
  c=$(now)
  base_t+=("$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", b - a}')")
  assay_t+=("$(awk -v a="$b" -v b="$c" 'BEGIN {printf "%.3f", b - a}')")
done
bt=$(printf '%s\n' "${base_t[@]}" | median)
at=$(printf '%s\n' "${assay_t[@]}" | median)
dir="$out/out/$run"
hb=$(stat -c %s "$dir/report.html")
printf '%-44s %8s s\n' "baseline: sqlite3 reading the same rows" "$bt"
printf '%-44s %8s s   (%.2fx the baseline)\n' "assay report (all three files)" "$at" \
  "$(awk -v a="$at" -v b="$bt" 'BEGIN {print a / b}')"
rss=$(cat "$out"/rss.* | sort -g | tail -n1)
printf 'assay report peak RSS (largest of %s runs): %s KB = %.1f MiB (budget 256 MiB)\n' "$runs" "$rss" \
  "$(awk -v k="$rss" 'BEGIN {print k / 1024}')"
printf 'report.html %s bytes, junit.xml %s bytes, summary.md %s bytes\n' "$hb" \
  "$(stat -c %s "$dir/junit.xml")" "$(stat -c %s "$dir/summary.md")"
awk -v t="$at" -v b="$hb" 'BEGIN {
  printf "1,000 cases from a store: %.3f s of the 2 s budget (%.1f%%), report.html %.2f MB of 5 MB (%.1f%%)\n",
         t, t * 50, b / 1e6, b / 5e4 }'
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
