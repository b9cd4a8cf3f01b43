#!/usr/bin/env bash
# The floor of an np 2 alltoall on this machine: bench/alltoall-copy.c times
# the copies alone (two processes, each copying its own block and the
# peer's into its receive buffer, memcpy and non-temporal stores), for the
# sizes of coll-compare's large-message target where shm and mpi are close.
# Set its times beside coll-compare's alltoall rows: a shm time 1.3x below
# mpi's that is under both floors cannot be reached by any protocol.
#   bench/alltoall-copy.sh [SIZE...]   (default 1M 2M 4M 8M 16M 32M)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d "${TMPDIR:-/tmp}/assay-a2a.XXXXXX")
trap 'rm -rf "$work"' EXIT
${CC:-cc} -O2 -std=c17 -Wall -Wextra -Werror bench/alltoall-copy.c -o "$work/a2a"
sizes=()
for s in "${@:-1M 2M 4M 8M 16M 32M}"; do
  for one in $s; do
    n=${one%[KM]}
    case $one in *K) n=$((n << 10)) ;; *M) n=$((n << 20)) ;; esac
    sizes+=("$n")
  done
done
echo "alltoall-copy: np 2 alltoall copies without protocol ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
"$work/a2a" "${sizes[@]}"
