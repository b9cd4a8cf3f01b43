#!/usr/bin/env bash
# The prepared GPU check of assay-ep and assay-coll: run it whenever a
# machine with one or more GPUs is available. It builds both (Release, with
# CUDA + NCCL or ROCm + RCCL, whichever CMake finds), then
# - assay-ep: decode and prefill at EP = the number of GPUs (EP 1 with one
#   GPU), BF16 and FP8, deepseek-v3 sizes, quick profile, every point checked
#   by the oracle before and after timing, one table;
# - assay-coll --backend nccl (or rccl): all_reduce, all_gather,
#   reduce_scatter, alltoall and broadcast at np = the number of GPUs, float
#   sum, 1M to 1G x4: checked up to 64M (COLL_CHECKED), timed only above
#   (COLL_TIMED, #wrong N/A: assay-coll's check runs on the host, about 0.2
#   us per element, minutes at 1G); with NCCL_TESTS_DIR (built nccl-tests or
#   rccl-tests binaries, MPI=1) the same sizes with nccl-tests, every size
#   checked (on the GPU), busbw side by side and their ratio.
# Budget: under 5 minutes on one 8-GPU node.
#   bench/gpu-check.sh [BUILD_DIR]     (default build/gpu)
# Environment: NGPU (default: counted by nvidia-smi or rocm-smi), DECODE
# (default 1,8,64,128), PREFILL (default 1024,2048), COLL_CHECKED (default
# "-b 1M -e 64M -f 4"), COLL_TIMED (default "-b 256M -e 1G -f 4", "" for
# none), NCCL_TESTS_DIR, OUT (default out/gpu-check).
# Exit: 0 every case passed, 3 a case was invalid or a #wrong > 0 (either
# program), 4 no GPU backend or no GPU (said before anything is built).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/gpu}
decode=${DECODE:-1,8,64,128}
prefill=${PREFILL:-1024,2048}
out=${OUT:-out/gpu-check}
checked=${COLL_CHECKED--b 1M -e 64M -f 4}
timed=${COLL_TIMED--b 256M -e 1G -f 4}
t0=$SECONDS
if [ -z "${NGPU:-}" ]; then
  if command -v nvidia-smi >/dev/null; then
    NGPU=$(nvidia-smi -L | grep -c '^GPU' || true)
  elif command -v rocm-smi >/dev/null; then
    NGPU=$(rocm-smi --showuniqueid | grep -c 'Unique ID' || true)
  else
    NGPU=0
  fi
fi
if [ "$NGPU" -lt 1 ]; then
  echo "gpu-check: no GPU found (set NGPU to override)" >&2
  exit 4
fi
mkdir -p "$(dirname "$out")"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DASSAY_TESTS=OFF >"$out.cmake.log" 2>&1 ||
  { cat "$out.cmake.log"; exit 5; }
backend=$(grep -o 'assay-ep: [nr]ccl backend' "$out.cmake.log" | head -1 | cut -d' ' -f2 || true)
cbackend=$(grep -o 'assay-coll: [nr]ccl backend' "$out.cmake.log" | head -1 | cut -d' ' -f2 || true)
cmake --build "$build" -j "$(nproc)" --target assay_ep assay_coll >/dev/null
bin=$build/bin/assay-ep
if [ -z "$backend" ] || [ -z "$cbackend" ]; then
  echo "gpu-check: CMake found neither CUDA + NCCL nor ROCm + RCCL (see $out.cmake.log)" >&2
  exit 4
fi
rm -rf "$out"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "gpu-check: $backend, EP and ranks $NGPU, built in $((SECONDS - t0)) s, $(uname -n)"
rc=0
for phase in decode prefill; do
  ladder=$decode
  [ "$phase" = prefill ] && ladder=$prefill
  for prec in bf16 fp8; do
    name=$phase-$prec
    set +e
    mpirun -np "$NGPU" --bind-to none "$bin" run --backend "$backend" --ep "$NGPU" --phase "$phase" \
      --precision "$prec" --tokens "$ladder" --profile quick --out "$out/$name.json" \
      >"$out/$name.txt" 2>"$out/$name.err"
    code=$?
    set -e
    if [ "$code" != 0 ]; then
      echo "gpu-check: $name exited $code:" >&2
      tail -n 5 "$out/$name.err" >&2
      [ "$rc" = 0 ] && rc=$code
    fi
  done
done

python3 - "$out" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
print(f"{'phase':8} {'prec':5} {'tokens':>6} {'dispatch':>10} {'combine':>10} {'roundtrip':>10} "
      f"{'pair':>10} {'rt GB/s':>8} {'max_rel_err':>11}  verdict")
print(f"{'':8} {'':5} {'':>6} {'p50 us':>10} {'p50 us':>10} {'p50 us':>10} {'p50 us':>10}")
for phase in ("decode", "prefill"):
    for prec in ("bf16", "fp8"):
        path = f"{out}/{phase}-{prec}.json"
        if not os.path.exists(path):
            print(f"{phase:8} {prec:5} no artifact (see {out}/{phase}-{prec}.err)")
            continue
        d = json.load(open(path))
        if d["outcome"] == "unsupported":
            print(f"{phase:8} {prec:5} unsupported: {'; '.join(d['reasons'])}")
            continue
        for p in d["points"]:
            c = p["components"] or {}
            g = lambda k: f"{c[k]['latency_us']['p50']:10.1f}" if k in c else f"{'-':>10}"
            bw = f"{c['roundtrip']['gbps_per_rank']:8.1f}" if "roundtrip" in c else f"{'-':>8}"
            err = p["correctness"]["max_relative_error"]
            err = "not finite" if err is None else f"{err:.3g}"
            print(f"{phase:8} {prec:5} {p['tokens']:>6} {g('dispatch')} {g('combine')} {g('roundtrip')} "
                  f"{g('pair_period')} {bw} {err:>11}  {p['verdict']}")
PY

# assay-coll, and nccl-tests at the same sizes where it is built (checking
# every size); each program's rows of both ranges go to one file.
mpi=(mpirun -np "$NGPU" --bind-to none)
coll() { # OP CHECK SIZE-OPTIONS...
  local op=$1 check=$2
  shift 2
  "${mpi[@]}" "$build/bin/assay-coll" -O "$op" --backend "$cbackend" "$@" -n 20 -w 5 -c "$check" \
    >>"$out/coll-$op.txt" 2>>"$out/coll-$op.err" || { code=$?; [ "$rc" = 0 ] && rc=$code; }
  [ -n "${NCCL_TESTS_DIR:-}" ] || return 0
  "${mpi[@]}" "$NCCL_TESTS_DIR/${op}_perf" "$@" -n 20 -w 5 -c 1 -g 1 \
    >>"$out/nccl-$op.txt" 2>>"$out/nccl-$op.err" || { code=$?; [ "$rc" = 0 ] && rc=$code; }
}
for op in all_reduce all_gather reduce_scatter alltoall broadcast; do
  # shellcheck disable=SC2086 # each is three options
  { [ -z "$checked" ] || coll "$op" 1 $checked; [ -z "$timed" ] || coll "$op" 0 $timed; }
done
python3 - "$out" <<'PY' || { code=$?; [ "$rc" = 0 ] && rc=$code; }
import os, sys
out, bad = sys.argv[1], False
def rows(path):  # nccl-tests' rows: size count type redop root, then per placement time algbw busbw #wrong
    if not os.path.exists(path):
        return None
    r = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 13 and f[0].isdigit():
            r[int(f[0])] = (float(f[7]), f[8], f[12])
    return r
print(f"{'op':15} {'size':>11} {'assay busbw':>11} {'nccl busbw':>11} {'ratio':>6}  #wrong assay / nccl-tests")
for op in ("all_reduce", "all_gather", "reduce_scatter", "alltoall", "broadcast"):
    a, n = rows(f"{out}/coll-{op}.txt"), rows(f"{out}/nccl-{op}.txt")
    if not a:
        print(f"{op:15} no rows (see {out}/coll-{op}.err)"); bad = True; continue
    for size, (bw, w1, w2) in sorted(a.items()):
        nb = n.get(size) if n else None
        wrong = [w for w in (w1, w2) + ((nb[1], nb[2]) if nb else ()) if w not in ("0", "N/A")]
        bad = bad or bool(wrong)
        nbw = f"{nb[0]:11.2f}" if nb else f"{'-':>11}"
        ratio = f"{bw / nb[0]:6.2f}" if nb and nb[0] > 0 else f"{'-':>6}"
        ws = f"{w1},{w2}" + (f" / {nb[1]},{nb[2]}" if nb else "")
        print(f"{op:15} {size:>11} {bw:11.2f} {nbw} {ratio}  {ws}")
sys.exit(3 if bad else 0)
PY
echo "gpu-check: $((SECONDS - t0)) s in all, exit $rc"
exit "$rc"
