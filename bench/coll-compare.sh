#!/usr/bin/env bash
# assay-coll: the shm backend against mpi (Open MPI's tuned shared-memory
# collectives) at np 2 for all_reduce, all_gather and alltoall, 8 B to
# 256 MiB (-f 2), float sum, interleaved: per operation the runs go mpi, shm,
# mpi, shm, ... REPS times each, so a change of machine load hits both alike.
# Each run reads its -J JSON. Per size it prints the medians over the
# repetitions of the out-of-place busbw of each backend, the ratio shm/mpi of
# busbw and of time, then the targets: shm busbw >= 1.3x mpi's at every size
# of 1 MiB and up, shm time <= 1.2x mpi's at every size up to 4 KiB.
#   bench/coll-compare.sh [BUILD_DIR]      (default build/release; built if missing)
# Environment: REPS (default 3, at least 3), ITERS (-n, default 20), WARMUP
# (-w, default 5), MINBYTES (-b, default 8), MAXBYTES (-e, default 256M),
# FACTOR (-f, default 2),
# OPS (default "all_reduce all_gather alltoall"; any of assay-coll's 11,
# e.g. OPS="gather scatter hypercube alltoallv" MINBYTES=1M MAXBYTES=64M),
# OUT (default out/coll-compare).
# Every point is checked (-c 1) as in any run; a run with #wrong > 0 stops
# the script.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
reps=${REPS:-3}
iters=${ITERS:-20}
warmup=${WARMUP:-5}
minbytes=${MINBYTES:-8}
factor=${FACTOR:-2}
maxbytes=${MAXBYTES:-256M}
ops=${OPS:-all_reduce all_gather alltoall}
out=${OUT:-out/coll-compare}
bin=$build/bin/assay-coll
if [ "$reps" -lt 3 ]; then
  echo "coll-compare: REPS must be at least 3" >&2
  exit 2
fi
if [ ! -x "$bin" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DASSAY_TESTS=OFF >/dev/null
  cmake --build "$build" -j 2 --target assay_coll >/dev/null
fi
rm -rf "$out"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# As ep-compare.sh: no --oversubscribe (Open MPI would yield while polling).
mpi=(mpirun -np 2)

echo "coll-compare: np 2, float sum, $minbytes..$maxbytes, -n $iters -w $warmup, $reps interleaved repetitions ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
for op in $ops; do
  for r in $(seq 1 "$reps"); do
    for be in mpi shm; do
      t0=$SECONDS
      name=$op-$be-$r
      "${mpi[@]}" "$bin" -O "$op" --backend "$be" -b "$minbytes" -e "$maxbytes" -f "$factor" -n "$iters" \
        -w "$warmup" -J "$out/$name.json" >"$out/$name.txt"
      echo "  ran $name: $((SECONDS - t0)) s, $(grep 'Out of bounds' "$out/$name.txt"), load $(cut -d' ' -f1 /proc/loadavg)"
    done
  done
done

python3 - "$out" "$reps" "$ops" <<'PY'
import json, statistics, sys
out, reps, ops = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
def rows(name):
    d = json.load(open(f"{out}/{name}.json"))
    return {r["size"]: r["out_of_place"] for r in d["results"]}
def size_str(b):
    for unit, f in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= f:
            return f"{b // f} {unit}"
    return f"{b} B"
fails = []
for op in ops:
    runs = {be: [rows(f"{op}-{be}-{r}") for r in range(1, reps + 1)] for be in ("mpi", "shm")}
    print(f"\n{op}: medians of {reps} (out-of-place)")
    print(f"  {'size':>9} {'mpi busbw':>10} {'shm busbw':>10} {'busbw shm/mpi':>14} {'mpi us':>10} {'shm us':>10} {'time shm/mpi':>13}")
    for size in sorted(runs["mpi"][0]):
        if size == 0:
            continue
        def med(be, k):
            return statistics.median(r[size][k] for r in runs[be])
        bm, bs, tm, ts = med("mpi", "bus_bw"), med("shm", "bus_bw"), med("mpi", "time"), med("shm", "time")
        # Ratio of the medians; per-repetition pairs would need equal load.
        rb = bs / bm if bm > 0 else float("inf")
        rt = ts / tm if tm > 0 else float("inf")
        mark = ""
        if size >= 1 << 20 and rb < 1.3:
            mark = "  <- busbw target 1.3x missed"
            fails.append(f"{op} {size_str(size)}: busbw shm/mpi {rb:.2f}")
        if size <= 4096 and rt > 1.2:
            mark = "  <- time target 1.2x missed"
            fails.append(f"{op} {size_str(size)}: time shm/mpi {rt:.2f}")
        print(f"  {size_str(size):>9} {bm:10.2f} {bs:10.2f} {rb:13.2f}x {tm:10.2f} {ts:10.2f} {rt:12.2f}x{mark}")
print()
if fails:
    print(f"coll-compare: {len(fails)} targets missed: " + "; ".join(fails))
else:
    print("coll-compare: all targets met (busbw >= 1.3x from 1 MiB, time <= 1.2x up to 4 KiB)")
PY
