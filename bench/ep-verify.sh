#!/usr/bin/env bash
# assay-ep: what checking timed calls costs (issue 36). The same case runs
# with --verify off (only the untimed oracle passes: the behaviour before
# issue 36), sample (the default) and all, interleaved off, sample, all,
# off, ... REPS times, so a change of machine load hits every mode alike.
# Per point it prints each mode's median wall time per point (the artifact's
# points[].wall_seconds: staging, the copy-routine choice, both oracle
# passes, the timing, freeing), the ratios sample/off and all/off (median of
# the paired repetitions, with their spread) and dispatch's p50 per mode
# (does poisoning before a checked call move the statistics?), the ratios
# of each mode's fastest repetition (*_min: the least disturbed run of each,
# for a loaded machine), then the target's status: sample/off <= 1.10 at
# every point (median). shm picks its copy routine per point and run
# (memcpy or nt, measured), so paired runs can differ by the routine as well
# as by the mode: the copy column counts the runs of each mode that used nt
# (off/sample/all); COPY=memcpy or nt forces one for every run.
#   bench/ep-verify.sh [BUILD_DIR]      (default build/release; built if missing)
# Environment: BACKEND (shm), PRECISION (bf16), PHASE (decode), LADDER
# (1,8,64,128), HIDDEN (7168), PROFILE (quick), NP (2), REPS (25; 60 to decide
# the 1.10x target on a 2-core machine; at least
# 3), COPY (auto), OUT (out/ep-verify).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
backend=${BACKEND:-shm}
prec=${PRECISION:-bf16}
phase=${PHASE:-decode}
ladder=${LADDER:-1,8,64,128}
hidden=${HIDDEN:-7168}
profile=${PROFILE:-quick}
np=${NP:-2}
reps=${REPS:-25}
copy=${COPY:-auto}
copyflag=()
[ "$copy" = auto ] || copyflag=(--copy "$copy")
out=${OUT:-out/ep-verify}
bin=$build/bin/assay-ep
if [ "$reps" -lt 3 ]; then
  echo "ep-verify: REPS must be at least 3" >&2
  exit 2
fi
if [ ! -x "$bin" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DASSAY_TESTS=OFF >/dev/null
  cmake --build "$build" -j 2 --target assay_ep >/dev/null
fi
rm -rf "$out"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# No --oversubscribe (unless NP exceeds the cores): with it Open MPI yields
# the core while polling, and other load then costs whole time slices.
mpi=(mpirun -np "$np")
[ "$np" -gt "$(nproc)" ] && mpi+=(--oversubscribe)

echo "ep-verify: $backend EP $np, $phase $prec, hidden $hidden, tokens $ladder, profile $profile, copy $copy, $reps interleaved repetitions ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
for r in $(seq 1 "$reps"); do
  for mode in off sample all; do
    name="$mode-$r"
    t0=$SECONDS
    "${mpi[@]}" "$bin" run --backend "$backend" --ep "$np" --phase "$phase" --precision "$prec" \
      --tokens "$ladder" --hidden "$hidden" --profile "$profile" --verify "$mode" "${copyflag[@]}" \
      --out "$out/$name.json" >"$out/$name.txt"
    echo "  ran $name: $((SECONDS - t0)) s, $(grep -o 'outcome: [a-z]*' "$out/$name.txt"), load $(cut -d' ' -f1 /proc/loadavg)"
  done
done

python3 - "$out" "$reps" <<'PY'
import json, statistics, sys
out, reps = sys.argv[1], int(sys.argv[2])
def load(name):
    d = json.load(open(f"{out}/{name}.json"))
    if d["outcome"] != "success":
        sys.exit(f"ep-verify: {name}: outcome {d['outcome']}: {d['reasons']}")
    return {p["tokens"]: p for p in d["points"]}
runs = {m: [load(f"{m}-{r}") for r in range(1, reps + 1)] for m in ("off", "sample", "all")}
med = statistics.median
print(f"{'tokens':>6} {'off_s':>7} {'sample_s':>8} {'all_s':>7} {'sample/off':>10} {'spread':>11} "
      f"{'all/off':>8} {'spread':>11} {'smp/off_min':>11} {'all/off_min':>11} {'checked':>8} "
      f"{'d_p50_off':>9} {'d_p50_smp':>9} {'d_p50_all':>9} {'copy nt':>7}")
worst = 0.0
for t in sorted(runs["off"][0]):
    wall = {m: [x[t]["wall_seconds"] for x in runs[m]] for m in runs}
    rs = [a / b for a, b in zip(wall["sample"], wall["off"])]
    ra = [a / b for a, b in zip(wall["all"], wall["off"])]
    d50 = {m: med(x[t]["components"]["dispatch"]["latency_us"]["p50"] for x in runs[m]) for m in runs}
    checked = runs["sample"][0][t]["correctness"]["timed"]["calls"]
    nt = "/".join(str(sum((x[t]["copy"] or {}).get("routine") == "nt" for x in runs[m])) for m in runs)
    worst = max(worst, med(rs))
    print(f"{t:>6} {med(wall['off']):>7.3f} {med(wall['sample']):>8.3f} {med(wall['all']):>7.3f} "
          f"{med(rs):>9.3f}x {min(rs):>5.2f}..{max(rs):<5.2f} {med(ra):>7.3f}x {min(ra):>5.2f}..{max(ra):<5.2f} "
          f"{min(wall['sample']) / min(wall['off']):>10.3f}x {min(wall['all']) / min(wall['off']):>10.3f}x "
          f"{checked:>8} {d50['off']:>9.1f} {d50['sample']:>9.1f} {d50['all']:>9.1f} {nt:>7}")
print(f"target sample/off <= 1.10x time per point (median of {reps} interleaved repetitions) at every point: "
      f"{'met' if worst <= 1.10 else 'MISSED'} (highest {worst:.3f}x)")
PY
