#!/usr/bin/env bash
# Training-log parsing speed: assay parse against the Python regex baseline a
# user would otherwise run (bench/parse_baseline.py), side by side on one
# generated mixed Megatron-LM/Primus log (bench/gen-training-log.py).
#
#   bench/parse-speed.sh [SIZE]        SIZE in bytes, or with K/M/G (default 1G)
#   ASSAY_BENCH_REPEAT=N               runs of each tool; the best counts (default 2)
#   ASSAY_BENCH_DIR=DIR                where the log goes (default build/bench)
#   ASSAY_BENCH_KEEP=1                 keep the generated log afterwards
#
# Prints wall and CPU seconds and MB/s (1 MB = 10^6 bytes) for both, the
# ratios, whether assay meets its targets (>= 500 MB/s, >= 20x the baseline),
# and checks that both computed the same steady-state values. Exit status 1
# when the values disagree; missing a target only prints "no".
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
size_arg=${1:-1G}
repeat=${ASSAY_BENCH_REPEAT:-2}
dir=${ASSAY_BENCH_DIR:-$root/build/bench}

case "$size_arg" in
  *[kK]) size=$(( ${size_arg%[kK]} * 1024 )) ;;
  *[mM]) size=$(( ${size_arg%[mM]} * 1024 * 1024 )) ;;
  *[gG]) size=$(( ${size_arg%[gG]} * 1024 * 1024 * 1024 )) ;;
  *[!0-9]* | '') echo "parse-speed: SIZE must be bytes or N[KMG], got '$size_arg'" >&2; exit 2 ;;
  *) size=$size_arg ;;
esac

echo "parse-speed: building assay (Release) ..."
cmake -S "$root" -B "$root/build/release" -DCMAKE_BUILD_TYPE=Release -DASSAY_TESTS=OFF >/dev/null
cmake --build "$root/build/release" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
assay=$root/build/release/bin/assay

mkdir -p "$dir"
log=$dir/training-$size.log
work=$(mktemp -d)
cleanup() {
  rm -rf "$work"
  [ "${ASSAY_BENCH_KEEP:-}" = 1 ] || rm -f "$log"
}
trap cleanup EXIT

echo "parse-speed: generating a $size-byte log in $log ..."
python3 "$root/bench/gen-training-log.py" "$size" "$log"
bytes=$(stat -c %s "$log")

# best_of NAME CMD...: runs CMD (stdout to $work/NAME.out) $repeat times after
# warming the page cache; sets best_wall and best_cpu (seconds).
best_of() {
  local name=$1 t wall cpu
  shift
  cat "$log" >/dev/null
  best_wall="" best_cpu=""
  for _ in $(seq "$repeat"); do
    TIMEFORMAT='%R %U %S'
    t=$({ time "$@" >"$work/$name.out" 2>"$work/$name.err"; } 2>&1) || {
      echo "parse-speed: $name failed:" >&2; cat "$work/$name.err" >&2; exit 1; }
    wall=$(echo "$t" | awk '{print $1}')
    cpu=$(echo "$t" | awk '{printf "%.3f", $2 + $3}')
    if [ -z "$best_wall" ] || awk -v a="$wall" -v b="$best_wall" 'BEGIN{exit !(a < b)}'; then
      best_wall=$wall
    fi
    if [ -z "$best_cpu" ] || awk -v a="$cpu" -v b="$best_cpu" 'BEGIN{exit !(a < b)}'; then
      best_cpu=$cpu
    fi
  done
}

echo "parse-speed: running each tool $repeat time(s), best counts ..."
best_of baseline python3 "$root/bench/parse_baseline.py" "$log"
py_wall=$best_wall py_cpu=$best_cpu
best_of assay "$assay" parse --format auto "$log"
as_wall=$best_wall as_cpu=$best_cpu

load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
echo
echo "machine: $(nproc) cores, load average $load (other work on the machine slows wall time)"
echo "log: $bytes bytes, mixed Megatron-LM/Primus lines"
awk -v b="$bytes" -v pw="$py_wall" -v pc="$py_cpu" -v aw="$as_wall" -v ac="$as_cpu" 'BEGIN {
  mb = b / 1e6
  printf "%-22s %9s %9s %13s %13s\n", "", "wall s", "CPU s", "MB/s (wall)", "MB/s (CPU)"
  printf "%-22s %9.3f %9.3f %13.1f %13.1f\n", "python regex baseline", pw, pc, mb / pw, mb / pc
  printf "%-22s %9.3f %9.3f %13.1f %13.1f\n", "assay parse", aw, ac, mb / aw, mb / (ac > 0 ? ac : 0.001)
  printf "ratio (baseline / assay): %.1fx wall, %.1fx CPU\n", pw / aw, pc / (ac > 0 ? ac : 0.001)
  printf "targets: >= 500 MB/s: %s (wall %.0f MB/s); >= 20x: %s (wall %.1fx)\n",
    (mb / aw >= 500 ? "yes" : "no"), mb / aw, (pw / aw >= 20 ? "yes" : "no"), pw / aw
}'

# Both must have read the same numbers.
python3 - "$work/baseline.out" "$work/assay.out" <<'EOF'
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
EOF
