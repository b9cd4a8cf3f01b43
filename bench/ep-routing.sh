#!/usr/bin/env bash
# Routing cost (issue 36, performance row): the routing assay-ep builds when
# it stages a point (assay_ep_routing_build + assay_ep_route_stats,
# bench/ep-routing.c), top-8 of 256 experts at EP 8, for each distribution:
#   1. 1M global tokens against 100k: the ratio of the median CPU times
#      (target <= 12, linear would be 10; CPU time, as the routing is
#      single-threaded and wall time on a shared machine measures the load);
#   2. against one dispatch of the same shape (target: routing faster). One
#      dispatch of 1M tokens of hidden 7168 moves ~75 GB and needs far more
#      memory than a CI machine has, so the script times dispatch with
#      assay-ep run (shm, EP 2, BF16, hidden 7168, quick profile) at
#      DISPATCH_TOKENS per rank, times the routing of that same shape, and
#      prints both ratios, routing wall time against dispatch's (wall, MAX
#      across ranks, under the same load): routing / dispatch at the measured shape, and
#      routing of 1M / dispatch scaled linearly to 1M global tokens
#      (labelled as an extrapolation).
# usage: bench/ep-routing.sh [REPS]   (default 5; DISPATCH_TOKENS default 8192;
#        builds build/release with `make build` when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-5}
dtokens=${DISPATCH_TOKENS:-8192}
lib=build/release/libassay.a
[ -f "$lib" ] || make build >/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/assay-ep-routing.XXXXXX")
trap 'rm -rf "$work"' EXIT
${CC:-cc} -O2 -std=c17 -D_GNU_SOURCE -Iinclude bench/ep-routing.c "$lib" \
  $(pkg-config --libs jansson sqlite3 libpcre2-8) -lcrypto -lm -lpthread -o "$work/routing"
# A routing file: 4096 rows of 8 distinct ids (a fixed LCG, skewed to low ids).
awk 'BEGIN { s = 12345; for (t = 0; t < 4096; t++) { delete u; line = ""; n = 0
  while (n < 8) { s = (s * 1103515245 + 12345) % 2147483648; e = int((s / 2147483648) ^ 2 * 256)
    if (!(e in u)) { u[e] = 1; line = line (n ? " " : "") e; n++ } } print line } }' >"$work/trace.txt"
median() { sed -n 's/.*: median \([0-9.]*\) ms.*/\1/p'; }
wall() { sed -n 's/.*wall median \([0-9.]*\) ms.*/\1/p'; }
echo "routing, top-8 of 256 experts, EP 8, median of $reps:"
for spec in uniform zipf:1.2 hot:8:0.5 "file:$work/trace.txt"; do
  small=$("$work/routing" "$spec" 100000 8 256 8 "$reps")
  big=$("$work/routing" "$spec" 1000000 8 256 8 "$reps")
  echo "  $small" | sed "s|$work/||"
  echo "  $big" | sed "s|$work/||"
  awk -v a="$(echo "$small" | median)" -v b="$(echo "$big" | median)" -v s="${spec#file:$work/}" \
    'BEGIN { printf "  %s: 1M / 100k = %.2f (target <= 12)\n", s, b / a }'
  echo "$big" | wall >"$work/big-$(echo "$spec" | tr -c 'a-z0-9\n' -)"
done
ep=build/release/bin/assay-ep
if ! command -v mpirun >/dev/null || [ ! -x "$ep" ]; then
  echo "no mpirun or $ep: dispatch not measured"
  exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun --oversubscribe --bind-to none -np 2 "$ep" run --backend shm --ep 2 --phase prefill \
  --precision bf16 --tokens "$dtokens" --hidden 7168 --profile quick --out "$work/case.json" >/dev/null
dispatch=$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["points"][0]
print(p["components"]["dispatch"]["latency_us"]["p50"] / 1e3)' "$work/case.json")
global=$((dtokens * 2))
echo "dispatch (shm, EP 2, BF16, hidden 7168, $dtokens tokens per rank = $global global): p50 $dispatch ms"
for spec in uniform zipf:1.2 hot:8:0.5; do
  same=$("$work/routing" "$spec" "$global" 8 256 2 "$reps" | wall)
  big=$(cat "$work/big-$(echo "$spec" | tr -c 'a-z0-9\n' -)")
  awk -v r="$same" -v d="$dispatch" -v b="$big" -v g="$global" -v s="$spec" 'BEGIN {
    printf "  %s: routing %.2f ms = %.3f x dispatch at the measured shape; 1M: %.1f ms = %.3f x dispatch scaled to 1M (%.0f ms, extrapolated)\n",
      s, r, r / d, b, b / (d * 1e6 / g), d * 1e6 / g }'
done
