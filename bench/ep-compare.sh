#!/usr/bin/env bash
# assay-ep: the mpi baseline against the shm backend at EP 2 over the prefill
# ladder 1024..4096 (hidden 7168, top-8 of 256, BF16 and FP8), with the node's
# copy ceiling from `assay-ep probe`, and shm with memcpy instead of
# non-temporal stores. Prints per point the roundtrip p50 of each backend,
# mpi/shm, and shm dispatch GB/s per rank as a fraction of the ceiling, then
# the targets' status (shm >= 1.8x faster than mpi at every point; shm
# dispatch >= 0.6 of the ceiling).
#   bench/ep-compare.sh [BUILD_DIR]      (default build/release; built if missing)
# Environment: PROFILE=quick|reference (default quick), LADDER (default
# 1024,2048,4096), OUT (artifact folder, default out/ep-compare).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
profile=${PROFILE:-quick}
ladder=${LADDER:-1024,2048,4096}
out=${OUT:-out/ep-compare}
bin=$build/bin/assay-ep
if [ ! -x "$bin" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DASSAY_TESTS=OFF >/dev/null
  cmake --build "$build" -j 2 --target assay_ep >/dev/null
fi
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# No --oversubscribe: with it Open MPI yields the core while polling, and any
# other load on the machine then costs whole scheduler time slices.
mpi=(mpirun -np 2)

echo "ep-compare: EP 2, hidden 7168, top-8 of 256, prefill $ladder, profile $profile ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
"${mpi[@]}" "$bin" probe --out "$out/probe.json" | sed 's/^/  /'

run() { # backend precision copy
  local t0=$SECONDS
  "${mpi[@]}" "$bin" run --backend "$1" --ep 2 --phase prefill --precision "$2" --tokens "$ladder" \
    --hidden 7168 --experts 256 --topk 8 --seed 67 --profile "$profile" --copy "$3" \
    --out "$out/$1-$2-$3.json" >"$out/$1-$2-$3.txt"
  echo "  ran $1 $2 ($3): $((SECONDS - t0)) s, outcome $(grep -o 'outcome: [a-z]*' "$out/$1-$2-$3.txt" | cut -d' ' -f2)"
}
for prec in bf16 fp8; do
  run mpi "$prec" nt   # the copy routine does not apply to mpi
  run shm "$prec" nt
  run shm "$prec" memcpy
done

python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
probe = json.load(open(f"{out}/probe.json"))
ceil = probe["copy_gbps_per_rank"]
def load(name):
    d = json.load(open(f"{out}/{name}.json"))
    if d["outcome"] != "success":
        sys.exit(f"ep-compare: {name}: outcome {d['outcome']}: {d['reasons']}")
    return {p["tokens"]: p["components"] for p in d["points"]}
print(f"copy ceiling: {ceil:.2f} GB/s per rank ({probe['copy']}; memcpy {probe['memcpy_gbps_per_rank']:.2f}, nt {probe['nt_gbps_per_rank']:.2f})")
print(f"{'prec':5} {'tokens':>6} {'mpi_rt_p50':>11} {'shm_rt_p50':>11} {'mpi/shm':>8} {'shm_disp':>9} {'/ceiling':>9} {'memcpy_rt':>10} {'memcpy_disp':>11}")
print(f"{'':5} {'':>6} {'us':>11} {'us':>11} {'':>8} {'GB/s':>9} {'':>9} {'us':>10} {'GB/s':>11}")
ratios, fracs = [], []
for prec in ("bf16", "fp8"):
    m, s, c = load(f"mpi-{prec}-nt"), load(f"shm-{prec}-nt"), load(f"shm-{prec}-memcpy")
    for t in sorted(s):
        mrt = m[t]["roundtrip"]["latency_us"]["p50"]
        srt = s[t]["roundtrip"]["latency_us"]["p50"]
        sd = s[t]["dispatch"]["gbps_per_rank"]
        ratios.append(mrt / srt); fracs.append(sd / ceil)
        print(f"{prec:5} {t:>6} {mrt:>11.1f} {srt:>11.1f} {mrt/srt:>7.2f}x {sd:>9.2f} {sd/ceil:>9.2f} "
              f"{c[t]['roundtrip']['latency_us']['p50']:>10.1f} {c[t]['dispatch']['gbps_per_rank']:>11.2f}")
ok1, ok2 = min(ratios) >= 1.8, min(fracs) >= 0.6
print(f"target shm >= 1.8x faster than mpi (roundtrip p50) at every point: {'met' if ok1 else 'MISSED'} (lowest {min(ratios):.2f}x)")
import os
print(f"load average at the end: {' '.join(open('/proc/loadavg').read().split()[:3])} on {os.cpu_count()} cores")
print(f"target shm dispatch >= 0.6 of the copy ceiling at every point: {'met' if ok2 else 'MISSED'} (lowest {min(fracs):.2f})")
PY
