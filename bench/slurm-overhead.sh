#!/usr/bin/env bash
# What the Slurm launcher costs on top of Slurm itself (release build, a
# private single-node Slurm from tests/e2e/slurm/slurm-up.sh; needs root).
#
# 1. N short cases (`sleep 0.5`, one task): the baseline is the batch script
#    a user would write, one sbatch job with N srun steps, from sbatch to the
#    job's end as squeue reports it (polled every 0.1 s). Against it: `assay
#    run` of a command suite of N cases, one job per shard (steps handed over
#    through the spool) and one job per case, poll_interval_s 0.5, whole run.
# 2. Signature latency: a workload prints an NCCL error and then sleeps 60 s;
#    the figure is the time from the line to `assay run` having scancel'd the
#    job, seen it CANCELLED, stored the case and exited (median and max of 3).
#
# usage: bench/slurm-overhead.sh [N]   (default 8)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-8}
[ -x build/release/bin/assay ] || make build >/dev/null
assay=$PWD/build/release/bin/assay
root=$PWD
tmp=$(mktemp -d /tmp/assay-bench-slurm.XXXXXX)
sl=/tmp/assay-bench-slurm-$$
cleanup() {
  "$root/tests/e2e/slurm/slurm-down.sh" "$sl" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
eval "$("$root/tests/e2e/slurm/slurm-up.sh" "$sl")"
cd "$tmp"
now() { date +%s.%N; }
wait_final() { # wait_final ID
  local s
  while :; do
    s=$(squeue -h -t all -j "$1" -o %T 2>/dev/null || true)
    case "$s" in COMPLETED | FAILED | CANCELLED | TIMEOUT) return ;; esac
    sleep 0.1
  done
}

# 1. N short cases.
{
  echo '#!/bin/bash'
  echo '#SBATCH --nodes=1'
  echo '#SBATCH --ntasks-per-node=1'
  echo "#SBATCH --output=$tmp/baseline-%j.out"
  for i in $(seq "$n"); do echo "srun --nodes=1 --ntasks-per-node=1 sleep 0.5"; done
} >baseline.sh
t0=$(now)
id=$(sbatch --parsable baseline.sh)
wait_final "$id"
base=$(awk -v a="$(now)" -v b="$t0" 'BEGIN {printf "%.2f", a - b}')
combos=$(for i in $(seq "$n"); do printf '%s"c%d": {}' "$([ "$i" = 1 ] || echo ,)" "$i"; done)
suite() { # suite JOB_PER
  cat <<JSON
{"kind": "command", "name": "bench", "combos": {$combos},
 "argv": ["sleep", "0.5"], "parser": "none",
 "launcher": {"type": "slurm", "gpu_gres": false, "poll_interval_s": 0.5, "job_per": "$1"}}
JSON
}
suite shard >shard.json
suite case >case.json
elapsed() { # elapsed SUITE: seconds for assay run
  local t0 t1
  t0=$(now)
  "$assay" run --quiet --store "$1.db" --out "out-$1" "$1" >/dev/null 2>&1 || { echo "assay run $1 failed" >&2; exit 1; }
  t1=$(now)
  awk -v a="$t1" -v b="$t0" 'BEGIN {printf "%.2f", a - b}'
}
shard=$(elapsed shard.json)
percase=$(elapsed case.json)
echo "N=$n cases of 'sleep 0.5' on a private single-node Slurm (poll_interval_s 0.5)"
printf '  %-44s %7s s\n' "baseline: one sbatch job, $n srun steps" "$base"
printf '  %-44s %7s s  (%.2fx, %+.2f s per case)\n' "assay run, one job per shard" "$shard" \
  "$(awk -v a="$shard" -v b="$base" 'BEGIN {print a / b}')" "$(awk -v a="$shard" -v b="$base" -v n="$n" 'BEGIN {print (a - b) / n}')"
printf '  %-44s %7s s  (%.2fx, %+.2f s per case)\n' "assay run, one job per case" "$percase" \
  "$(awk -v a="$percase" -v b="$base" 'BEGIN {print a / b}')" "$(awk -v a="$percase" -v b="$base" -v n="$n" 'BEGIN {print (a - b) / n}')"

# 2. Signature latency.
cat >sig.json <<JSON
{"kind": "command", "name": "sig", "combos": {"nccl": {}},
 "argv": ["sh", "-c", "date +%s.%N > $tmp/line.at; echo 'rank 0: NCCL error: unhandled system error' >&2; sleep 60"],
 "parser": "none",
 "launcher": {"type": "slurm", "gpu_gres": false, "poll_interval_s": 0.5}}
JSON
lat=()
for i in 1 2 3; do
  rm -f line.at
  "$assay" run --quiet --store sig.db --out out-sig sig.json >/dev/null 2>&1 && { echo "the signature did not fail the case" >&2; exit 1; }
  end=$(now)
  lat+=("$(awk -v a="$end" -v b="$(cat line.at)" 'BEGIN {printf "%.2f", a - b}')")
done
sorted=$(printf '%s\n' "${lat[@]}" | sort -n)
echo "signature -> scancel -> CANCELLED -> stored -> exit: median $(echo "$sorted" | sed -n 2p) s, max $(echo "$sorted" | sed -n 3p) s (runs: ${lat[*]})"
