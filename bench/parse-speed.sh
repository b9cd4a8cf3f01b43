#!/usr/bin/env bash
# Training-log parsing at scale: speed against the CVS regex baseline, peak
# memory on a large log (file and pipe), and one very long line.
#
#   bench/parse-speed.sh [SIZE] [RSS_SIZE]
#       SIZE      the mixed log for the speed runs (default 1G)
#       RSS_SIZE  the log for the memory runs (default 4G; 0 skips them)
#   ASSAY_BENCH_REPEAT=N    runs of each tool, interleaved (default 3); medians count
#   ASSAY_BENCH_DIR=DIR     where the logs go (default build/bench)
#   ASSAY_BENCH_KEEP=1      keep the generated logs
#
# 1. Speed: bench/gen-training-log.py writes a mixed Megatron-LM/Primus log;
#    the CVS baseline (bench/parse_cvs_baseline.py: ROCm/cvs's regular
#    expressions) and `assay parse` run alternately, N times each, on the same
#    file; the medians of wall and CPU (user + system) seconds are compared.
#    Targets: assay >= 25x the baseline's CPU time and >= 1 GB/s of CPU time.
#    bench/parse_baseline.py (per-line regexes with assay's warm-up rule) runs
#    once to check that assay computed the same steady-state values.
# 2. Memory: the RSS_SIZE log parsed from the file and from a pipe; peak RSS
#    from /usr/bin/time. Target: <= 64 MiB each.
# 3. One 100 MB line (no line end until the last byte) holding a completion
#    marker at its end. Target: < 1 s.
# Exit status 1 when the values disagree or a run fails; a missed target only
# prints "no".
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
repeat=${ASSAY_BENCH_REPEAT:-3}
dir=${ASSAY_BENCH_DIR:-$root/build/bench}

bytes_of() {
  case "$1" in
    *[kK]) echo $(( ${1%[kK]} * 1024 )) ;;
    *[mM]) echo $(( ${1%[mM]} * 1024 * 1024 )) ;;
    *[gG]) echo $(( ${1%[gG]} * 1024 * 1024 * 1024 )) ;;
    *[!0-9]* | '') echo "parse-speed: a size is bytes or N[KMG], got '$1'" >&2; exit 2 ;;
    *) echo "$1" ;;
  esac
}
size=$(bytes_of "${1:-1G}")
rss_size=$(bytes_of "${2:-4G}")

echo "parse-speed: building assay (Release) ..."
cmake -S "$root" -B "$root/build/release" -DCMAKE_BUILD_TYPE=Release -DASSAY_TESTS=OFF >/dev/null
cmake --build "$root/build/release" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
assay=$root/build/release/bin/assay

mkdir -p "$dir"
log=$dir/training-$size.log
big=$dir/training-$rss_size.log
line=$dir/line-100MB.log
work=$(mktemp -d)
cleanup() {
  rm -rf "$work"
  [ "${ASSAY_BENCH_KEEP:-}" = 1 ] || rm -f "$log" "$big" "$line"
}
trap cleanup EXIT

[ -f "$log" ] || { echo "parse-speed: generating a $size-byte log ..."; python3 "$root/bench/gen-training-log.py" "$size" "$log"; }
bytes=$(stat -c %s "$log")

# timed NAME CMD...: one run; appends "wall cpu" to $work/NAME.times.
timed() {
  local name=$1 t
  shift
  TIMEFORMAT='%R %U %S'
  t=$({ time "$@" >"$work/$name.out" 2>"$work/$name.err"; } 2>&1) || {
    echo "parse-speed: $name failed:" >&2; cat "$work/$name.err" >&2; exit 1; }
  echo "$t" | awk '{printf "%.3f %.3f\n", $1, $2 + $3}' >>"$work/$name.times"
}
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo "parse-speed: $repeat runs of each, interleaved ..."
cat "$log" >/dev/null
for i in $(seq "$repeat"); do
  timed cvs python3 "$root/bench/parse_cvs_baseline.py" "$log"
  timed assay "$assay" parse --input-format auto "$log"
done
cvs_wall=$(cut -d' ' -f1 "$work/cvs.times" | median)
cvs_cpu=$(cut -d' ' -f2 "$work/cvs.times" | median)
as_wall=$(cut -d' ' -f1 "$work/assay.times" | median)
as_cpu=$(cut -d' ' -f2 "$work/assay.times" | median)

load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
echo
echo "machine: $(nproc) cores, load average $load (other work on the machine slows wall time)"
echo "log: $bytes bytes, mixed Megatron-LM/Primus lines; medians of $repeat runs"
awk -v b="$bytes" -v pw="$cvs_wall" -v pc="$cvs_cpu" -v aw="$as_wall" -v ac="$as_cpu" 'BEGIN {
  mb = b / 1e6
  if (ac <= 0) ac = 0.001
  printf "%-22s %9s %9s %13s %13s\n", "", "wall s", "CPU s", "MB/s (wall)", "MB/s (CPU)"
  printf "%-22s %9.3f %9.3f %13.1f %13.1f\n", "CVS regex baseline", pw, pc, mb / pw, mb / pc
  printf "%-22s %9.3f %9.3f %13.1f %13.1f\n", "assay parse", aw, ac, mb / aw, mb / ac
  printf "ratio (baseline / assay): %.1fx wall, %.1fx CPU\n", pw / aw, pc / ac
  printf "targets: >= 25x CPU: %s (%.1fx); >= 1 GB/s CPU: %s (%.0f MB/s)\n",
    (pc / ac >= 25 ? "yes" : "no"), pc / ac, (mb / ac >= 1000 ? "yes" : "no"), mb / ac
}'

# The same numbers as a per-line regex reading with the same warm-up rule.
python3 "$root/bench/parse_baseline.py" "$log" >"$work/check.out"
python3 - "$work/check.out" "$work/assay.out" <<'PY'
import json, sys
base = json.load(open(sys.argv[1]))
rows = {}
for line in open(sys.argv[2]):
    r = json.loads(line)
    rows[(r["metric"], r["statistic"])] = r
bad = []
for metric in ("elapsed_ms_per_iter", "tflops_per_gpu", "tokens_per_gpu"):
    for stat in ("steady_mean", "steady_median", "running_avg"):
        want = base[metric][stat]
        got = rows.get((metric, stat), {}).get("value")
        if want is None and got is None:
            continue
        if want is None or got is None or abs(got - want) > 1e-9 * max(1.0, abs(want)):
            bad.append(f"{metric}/{stat}: assay {got}, baseline {want}")
steady = base["steps"] - base["warmup"]
got = rows.get(("elapsed_ms_per_iter", "steady_mean"), {}).get("samples")
if got != steady:
    bad.append(f"steady steps: assay {got}, baseline {steady}")
if bad:
    print("check: the two disagree:\n  " + "\n  ".join(bad))
    sys.exit(1)
print(f"check: same steady-state values ({base['steps']} steps, {base['warmup']} warm-up; "
      f"tflops mean {base['tflops_per_gpu']['steady_mean']:.4f})")
PY

if [ "$rss_size" -gt 0 ]; then
  [ -f "$big" ] || { echo "parse-speed: generating a $rss_size-byte log ..."; python3 "$root/bench/gen-training-log.py" "$rss_size" "$big"; }
  /usr/bin/time -f "%M %e %U %S" -o "$work/rss.file" "$assay" parse "$big" >/dev/null
  set +o pipefail
  cat "$big" | /usr/bin/time -f "%M %e %U %S" -o "$work/rss.pipe" "$assay" parse - >/dev/null
  set -o pipefail
  echo
  echo "memory: $(stat -c %s "$big") bytes"
  for how in file pipe; do
    awk -v how="$how" '{ printf "  from a %s: peak RSS %.1f MiB, %.2f s wall, %.2f s CPU; <= 64 MiB: %s\n",
      how, $1 / 1024, $2, $3 + $4, ($1 <= 65536 ? "yes" : "no") }' "$work/rss.$how"
  done
fi

# One 100 MB line: noise, then the completion marker, then its line end.
python3 - "$line" <<'PY'
import sys
chunk = b"NCCL INFO Channel 00/32 : 0 1 2 3 4 5 6 7 via P2P/IPC " * 1000
with open(sys.argv[1], "wb") as f:
    n = 0
    while n < 100_000_000:
        f.write(chunk)
        n += len(chunk)
    f.write(b"torchrun finished successfully (code 0)\n")
PY
TIMEFORMAT='%R %U %S'
t=$({ time "$assay" parse --input-format primus "$line" >"$work/line.out" 2>"$work/line.err"; } 2>&1) || true
echo
echo "$t" | awk -v b="$(stat -c %s "$line")" '{ printf "one %d-byte line: %.3f s wall, %.3f s CPU; < 1 s: %s\n",
  b, $1, $2 + $3, ($1 < 1 ? "yes" : "no") }'
grep -q "no metrics" "$work/line.err" || { echo "parse-speed: the long line was misread:" >&2; cat "$work/line.err" >&2; exit 1; }
