#!/usr/bin/env bash
# assay-ep: the mpi baseline against the shm backend at EP 2 over the prefill
# ladder 1024..4096 (hidden 7168, top-8 of 256, BF16 and FP8), interleaved:
# per precision the cases run mpi, shm, mpi, shm, ... REPS times each, so a
# change of machine load hits both backends alike. Per point it prints the
# median mpi/shm roundtrip p50 ratio over the paired repetitions with its
# spread (lowest..highest), shm dispatch efficiency (its ceiling_us over its
# dispatch p50; the ceiling is measured on the point's own copy pattern) and
# the copy routine shm chose, then the targets' status: shm/mpi >= 2.5x at
# every point (median), shm efficiency >= 0.7 (median), and how many points
# had efficiency above 1 (dispatch beat its copy: efficiency is not clipped,
# issue 36; the artifact's efficiency_note says so).
#   bench/ep-compare.sh [BUILD_DIR]      (default build/release; built if missing)
# Environment: PROFILE=quick|reference (default quick), LADDER (default
# 1024,2048,4096), REPS (default 3, at least 3), OUT (default out/ep-compare).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
profile=${PROFILE:-quick}
ladder=${LADDER:-1024,2048,4096}
reps=${REPS:-3}
out=${OUT:-out/ep-compare}
bin=$build/bin/assay-ep
if [ "$reps" -lt 3 ]; then
  echo "ep-compare: REPS must be at least 3" >&2
  exit 2
fi
if [ ! -x "$bin" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DASSAY_TESTS=OFF >/dev/null
  cmake --build "$build" -j 2 --target assay_ep >/dev/null
fi
rm -rf "$out"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# No --oversubscribe: with it Open MPI yields the core while polling, and any
# other load on the machine then costs whole scheduler time slices.
mpi=(mpirun -np 2)

echo "ep-compare: EP 2, hidden 7168, top-8 of 256, prefill $ladder, profile $profile, $reps interleaved repetitions ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"

run() { # backend precision repetition
  local t0=$SECONDS name="$1-$2-$3"
  "${mpi[@]}" "$bin" run --backend "$1" --ep 2 --phase prefill --precision "$2" --tokens "$ladder" \
    --hidden 7168 --experts 256 --topk 8 --seed 67 --profile "$profile" \
    --out "$out/$name.json" >"$out/$name.txt"
  echo "  ran $name: $((SECONDS - t0)) s, $(grep -o 'outcome: [a-z]*' "$out/$name.txt"), load $(cut -d' ' -f1 /proc/loadavg)"
}
for prec in bf16 fp8; do
  for r in $(seq 1 "$reps"); do
    run mpi "$prec" "$r"
    run shm "$prec" "$r"
  done
done

python3 - "$out" "$reps" <<'PY'
import json, os, statistics, sys
out, reps = sys.argv[1], int(sys.argv[2])
def load(name):
    d = json.load(open(f"{out}/{name}.json"))
    if d["outcome"] != "success":
        sys.exit(f"ep-compare: {name}: outcome {d['outcome']}: {d['reasons']}")
    return {p["tokens"]: p for p in d["points"]}
print(f"{'prec':5} {'tokens':>6} {'mpi_rt_p50':>11} {'shm_rt_p50':>11} {'mpi/shm':>8} {'spread':>12} "
      f"{'shm_eff':>8} {'eff_spread':>11} {'mpi_eff':>8} {'copy':>7} {'memcpy_us':>10} {'nt_us':>9}")
ratios, effs, worst_eff, over = [], [], 0.0, []
for prec in ("bf16", "fp8"):
    m = [load(f"mpi-{prec}-{r}") for r in range(1, reps + 1)]
    s = [load(f"shm-{prec}-{r}") for r in range(1, reps + 1)]
    for t in sorted(s[0]):
        rt = lambda runs: [x[t]["components"]["roundtrip"]["latency_us"]["p50"] for x in runs]
        mrt, srt = rt(m), rt(s)
        rat = [a / b for a, b in zip(mrt, srt)]
        se = [x[t]["efficiency"] for x in s]
        me = [x[t]["efficiency"] for x in m]
        for case, e in [("shm", v) for v in se] + [("mpi", v) for v in me]:
            worst_eff = max(worst_eff, e)
            if e > 1:
                over.append(f"{case} {prec} {t}: {e}")
        copies = [x[t]["copy"]["routine"] for x in s]
        cu = statistics.median(x[t]["copy"]["memcpy_us"] for x in s)
        nu = statistics.median(x[t]["copy"]["nt_us"] for x in s)
        r, e = statistics.median(rat), statistics.median(se)
        ratios.append(r); effs.append(e)
        print(f"{prec:5} {t:>6} {statistics.median(mrt):>11.1f} {statistics.median(srt):>11.1f} {r:>7.2f}x "
              f"{min(rat):>5.2f}..{max(rat):<5.2f} {e:>8.2f} {min(se):>5.2f}..{max(se):<4.2f} "
              f"{statistics.median(me):>8.2f} {'/'.join(sorted(set(copies))):>7} {cu:>10.1f} {nu:>9.1f}")
print(f"target shm/mpi >= 2.5x (median of {reps} interleaved repetitions) at every point: "
      f"{'met' if min(ratios) >= 2.5 else 'MISSED'} (lowest {min(ratios):.2f}x)")
print(f"target shm dispatch efficiency >= 0.7 (median) at every point: "
      f"{'met' if min(effs) >= 0.7 else 'MISSED'} (lowest {min(effs):.2f})")
print(f"efficiency above 1 (not clipped; dispatch beat its same-shape copy): "
      f"{'none' if not over else str(len(over)) + ' points: ' + ', '.join(over)} (highest {worst_eff:.2f})")
print(f"load average at the end: {' '.join(open('/proc/loadavg').read().split()[:3])} on {os.cpu_count()} cores")
PY
