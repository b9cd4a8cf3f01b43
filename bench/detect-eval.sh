#!/usr/bin/env bash
# Detection quality: scores assay's change-point detector (CI defaults:
# window 50, max p-value 1e-4, min magnitude 0) on labelled synthetic series
# next to Apache Otava's algorithm (assay --otava-compat) at the same
# settings and at Otava's own defaults, in one process. Series, traps and
# scoring are described at the top of bench/detect-eval.c. Targets (issue 6):
# recall >= 0.98 on steps of at least 2 sigma, at most 2% of 200-point
# Gaussian noise series with any false change point, spikes never flagged.
# usage: bench/detect-eval.sh [SERIES_PER_CELL]   (default 100; needs a C compiler
#        and build/release, built with `make build` when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-100}
lib=build/release/libassay.a
if [ ! -f "$lib" ]; then
  make build >/dev/null
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/assay-detect-eval.XXXXXX")
trap 'rm -rf "$work"' EXIT
${CC:-cc} -O2 -std=c17 -D_GNU_SOURCE -Iinclude bench/detect-eval.c "$lib" \
  $(pkg-config --libs jansson sqlite3 libpcre2-8) -lcrypto -lm -lpthread -o "$work/detect-eval"
t0=$(date +%s.%N)
"$work/detect-eval" "$reps"
t1=$(date +%s.%N)
printf "\n%.1f s for the whole evaluation; machine: %s CPUs, load average %s\n" \
  "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
