#!/usr/bin/env bash
# Report build speed and size: writes report.html, junit.xml and summary.md
# for synthetic runs of 100, 1,000 and 10,000 cases (assay_report_sample:
# EP ladders, training curves, history series, every outcome) with a release
# build, and prints the median of several runs against the issue's budget for
# 1,000 cases (under 2 s, under 5 MB). There is no external baseline to run
# side by side: the budget is the yardstick.
#   bench/report-speed.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
build=build/bench-report
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

scripts/deps.sh build >/dev/null
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DASSAY_TESTS=ON >/dev/null
cmake --build "$build" -j 2 --target report_sample >/dev/null
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
