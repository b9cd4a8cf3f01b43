#!/usr/bin/env bash
# The detector alone (no store, no process start): CPU ms per series of
# assay_detect in both flavours on 300 generated series of 60, 200 and 1000
# points, and a hash of the change points found (bench/detect-lib.c). With
# BASE_LIB (another build's libassay.a, e.g. of an older commit) both run
# side by side, interleaved, ROUNDS times, and the hashes must agree: a
# speed-up that changes a result shows as a different hash.
# Target (issue 16): the default flavour at least as fast as --otava-compat.
# usage: [BASE_LIB=/path/libassay.a] bench/detect-lib.sh [ROUNDS]
#        (default 2; builds build/release with `make build` when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-2}
lib=build/release/libassay.a
[ -f "$lib" ] || make build >/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/assay-detect-lib.XXXXXX")
trap 'rm -rf "$work"' EXIT
build() {
  ${CC:-cc} -O2 -std=c17 -D_GNU_SOURCE -Iinclude bench/detect-lib.c "$1" \
    $(pkg-config --libs jansson sqlite3 libpcre2-8) -lcrypto -lm -lpthread -o "$2"
}
build "$lib" "$work/now"
names=(now)
if [ -n "${BASE_LIB:-}" ]; then
  build "$BASE_LIB" "$work/base"
  names=(base now)
fi
for r in $(seq 1 "$rounds"); do
  for pts in 60 200 1000; do
    reps=$((pts >= 1000 ? 5 : 20))
    for b in "${names[@]}"; do
      "$work/$b" "$pts" "$reps" | sed "s/^/$b /"
    done
  done
done | tee "$work/out"
if [ -n "${BASE_LIB:-}" ]; then
  # Per flavour and length, every hash must be the same in both builds.
  differ=$(awk '{ print $2, $3, $NF }' "$work/out" | sort -u | awk '{ k = $1 " " $2; n[k]++ } END { for (k in n) if (n[k] > 1) print k }')
  if [ -n "$differ" ]; then
    echo "results differ between the builds: $differ"
  else
    echo "results bit-identical between the builds (every flavour and length)"
  fi
fi
awk '$2 == "default" { d[$1 " " $3] = (d[$1 " " $3] == "" || $5 < d[$1 " " $3]) ? $5 : d[$1 " " $3] }
     $2 == "compat"  { c[$1 " " $3] = (c[$1 " " $3] == "" || $5 < c[$1 " " $3]) ? $5 : c[$1 " " $3] }
     END { for (k in d) printf "%s points: default %.4f ms, compat %.4f ms: default/compat %.2fx (target <= 1)\n", k, d[k], c[k], d[k] / c[k] }' "$work/out" | sort -k2n
printf "machine: %s CPUs, load average %s\n" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
