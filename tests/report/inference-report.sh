#!/usr/bin/env bash
# The inference example suite (configs/examples/inference-sglang.json: a
# stand-in server and sglang bench_serving client, three concurrency cells)
# run, then its report: an Inference section with one chart per measure for
# the model and ISL/OSL, throughput and each latency's statistics (mean,
# median, p99) drawn against concurrency, one point per cell.
#   inference-report.sh ASSAY
set -euo pipefail
assay=$1
src=${ASSAY_SOURCE_DIR:?}
T=$(mktemp -d /tmp/assay-inference-report.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
cd "$src"
"$assay" run --quiet --store "$T/a.db" --out "$T/out" configs/examples/inference-sglang.json \
  >"$T/run.out" 2>"$T/run.err" || { cat "$T/run.out" "$T/run.err" >&2; fail "assay run failed"; }
html=$(ls "$T"/out/*/report.html)
section=$(sed -n 's/.*\(<section id="inference">.*\)<\/section>.*/\1/p' "$html")
[ -n "$section" ] || fail "no inference section"
count() { grep -o -- "$1" <<<"$section" | wc -l; }
grep -q '<a href="#inference">Inference</a>' "$html" || fail "no link to the section"
[ "$(count '<h2>Inference <small>6 charts against concurrency</small>')" = 1 ] || fail "not 6 charts"
chart='toy-llama · isl 128 · osl 64 · precision bf16 · tp 1'
for m in 'output throughput' 'request throughput' 'time to first token' 'time per output token' \
  'inter-token latency' 'end-to-end latency'; do
  [ "$(count "<title>$chart: $m</title>")" = 1 ] || fail "no chart of $m"
done
[ "$(count '>concurrency (requests in flight)</text>')" = 6 ] || fail "an axis is not concurrency"
# Throughput: one point per cell, at concurrency 1, 4 and 16.
tput=$(sed -n 's/.*: output throughput<\/title>\(.*\)/\1/p' <<<"$section" | sed 's/<title>[^<]*: request throughput.*//')
for c in 1 4 16; do
  grep -q "<title>$c: [0-9.]* (value)</title>" <<<"$tput" || fail "no throughput point at concurrency $c"
done
# Latency percentiles: mean, median and p99 of TTFT at each cell.
for st in mean median p99; do
  [ "$(count "<title>[0-9]*: [0-9.]* ($st)</title>")" -ge 3 ] || fail "no $st curve"
done
echo ok
