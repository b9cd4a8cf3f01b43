#!/usr/bin/env bash
# Watching cost and signature latency of `assay run` (release build).
#
# 1. Throughput: a command workload that writes a large training-like log to
#    stdout (one line in 2000 is a benign NCCL warning, nothing fails). assay
#    captures it through a pipe, redacts a secret, writes stdout.log and scans
#    every byte for the built-in signatures. The baseline is the shell
#    pipeline a user would otherwise write for the same job:
#      workload | tee stdout.log | grep -E 'NCCL error|...' (the signatures'
#    main alternatives, without redaction). Both run here, side by side.
# 2. Latency: a workload prints an NCCL error line and then sleeps 60 s; the
#    figure is the time from just before the line is printed until `assay run`
#    has stopped the case, stored it and exited (median and max of 5), with
#    the settle window off (settle_s 0: the scanner's own latency) and at
#    its default (2 s: what a suite gets).
#
# usage: bench/run-watch.sh [MiB]   (default 256)
set -euo pipefail
cd "$(dirname "$0")/.."
mib=${1:-256}
[ -x build/release/bin/assay ] || make build >/dev/null
assay=$PWD/build/release/bin/assay
tmp=$(mktemp -d /tmp/assay-bench-run.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# A Megatron-like log of about $mib MiB.
python3 - "$mib" > log.txt <<'PY'
import sys
target = int(sys.argv[1]) << 20
line = (" [2026-11-30 19:15:02] iteration {i:>8}/ 1000000 | consumed samples: {s:>12} | "
        "elapsed time per iteration (ms): 1234.5 | throughput per GPU (TFLOP/s/GPU): 432.1 | "
        "learning rate: 3.000000E-04 | global batch size:  1024 | lm loss: 2.345678E+00 | "
        "loss scale: 1.0 | grad norm: 0.812 | number of skipped iterations:   0 | "
        "number of nan iterations:   0 |\n")
warn = "node3:1234:1299 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0\n"
out, n, i = [], 0, 0
while n < target:
    s = line.format(i=i, s=i * 1024) if i % 2000 else warn
    out.append(s); n += len(s); i += 1
sys.stdout.write("".join(out))
PY
bytes=$(stat -c %s log.txt)
cat > suite.json <<'JSON'
{"kind": "command", "name": "bench-watch", "cluster": "bench", "combos": {"cat": {}},
 "argv": ["cat", "log.txt"], "parser": "none", "secrets": ["ASSAY_BENCH_SECRET"]}
JSON
export ASSAY_BENCH_SECRET=never-printed-7d1f
pattern='NCCL error|RCCL error|ncclSystemError|ncclInternalError|ncclUnhandledCudaError|Watchdog caught collective operation timeout|GPU has fallen off the bus|GPU Hang|uncorrectable ECC error|Memory access fault by GPU|illegal memory access was encountered|CUDA out of memory|HIP out of memory|Out of memory: Kill|ChildFailedError|Traceback \(most recent call last\):|Segmentation fault|Aborted \(core dumped\)|MPI_ABORT was invoked'

cat log.txt > /dev/null # warm the page cache
best() { sort -n | head -1; }
# elapsed START END: seconds between two `date +%s.%N` stamps.
elapsed() { awk -v s="$1" -v e="$2" 'BEGIN { printf "%.4f\n", e - s }'; }
for r in 1 2 3; do
  s=$(date +%s.%N)
  cat log.txt | tee base.log | grep -cE "$pattern" > /dev/null || true
  e=$(date +%s.%N)
  elapsed "$s" "$e"
done | best > base.t
for r in 1 2 3; do
  rm -rf out assay.db*
  s=$(date +%s.%N)
  "$assay" run --quiet suite.json > /dev/null 2>&1
  e=$(date +%s.%N)
  elapsed "$s" "$e"
done | best > assay.t
cmp -s log.txt out/*/cat/stdout.log || { echo "stdout.log differs from the workload's output" >&2; exit 1; }
bt=$(cat base.t) at=$(cat assay.t)
printf 'throughput (%d MiB log, best of 3)\n' "$((bytes >> 20))"
awk -v b="$bytes" -v bt="$bt" -v at="$at" 'BEGIN {
  printf "  baseline  tee | grep -E       %6.2f s  %7.0f MB/s\n", bt, b / bt / 1e6
  printf "  assay run capture+redact+scan %6.2f s  %7.0f MB/s\n", at, b / at / 1e6
  printf "  ratio assay/baseline time     %6.2f\n", at / bt }'

for settle in 0 default; do
  tune=""
  [ "$settle" = 0 ] && tune='"signatures": {"tune": {"nccl": {"settle_s": 0}}},'
  cat > fail.json <<JSON
{"kind": "command", "name": "bench-latency", "cluster": "bench", "combos": {"nccl": {}},
 "argv": ["sh", "-c", "sleep 0.5; date +%s.%N > t0; echo 'NCCL error: unhandled system error' >&2; sleep 60"],
 $tune "parser": "none"}
JSON
  for r in 1 2 3 4 5; do
    rm -rf out assay.db*
    "$assay" run --quiet fail.json > /dev/null 2>&1 || true
    e=$(date +%s.%N)
    elapsed "$(cat t0)" "$e"
  done | sort -n > lat.t
  printf 'signature latency, settle window %s (line printed -> case stopped, stored, assay exited; 5 runs)\n' "$settle"
  printf '  median %.3f s  max %.3f s\n' "$(sed -n 3p lat.t)" "$(tail -1 lat.t)"
done
