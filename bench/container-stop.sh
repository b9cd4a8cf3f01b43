#!/usr/bin/env bash
# Issue 35: how long a signature takes to stop a case inside a podman
# container, against the same case on the host, with the launcher's
# defaults (settle window 2 s, grace 5 s). The workload prints an NCCL error
# on stderr and then sleeps 60 s in a shell that has no SIGTERM handler.
# Each figure is the wall time of `assay run` (start, signature, settle,
# stop, store, exit), the median of N trials; "start" is the same suite with
# a workload that exits at once, so the difference is the stop itself.
# Modes: host; podman with "init": false (the shell is PID 1 and ignores the
# SIGTERM: the stop waits for the grace's kill, as before issue 35); podman
# with the defaults (--init: catatonit passes SIGTERM on).
#
# usage: bench/container-stop.sh [TRIALS]   (default 5; root, podman, and
#   the e2e image localhost/assay-e2e:busybox-2, made by tests/e2e/containers)
set -euo pipefail
cd "$(dirname "$0")/.."
trials=${1:-5}
assay=${ASSAY:-$PWD/build/release/bin/assay}
[ -x "$assay" ] || assay=$PWD/build/dev/bin/assay
image=${IMAGE:-localhost/assay-e2e:busybox-2}
tmp=$(mktemp -d /tmp/assay-bench-ctr.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
if [ -z "${CONTAINERS_CONF:-}" ] &&
  ! podman run --rm --pull=never "$image" true >/dev/null 2>try.txt &&
  grep -q rlimit try.txt; then
  printf '[containers]\ndefault_ulimits = []\n' >containers.conf
  export CONTAINERS_CONF=$tmp/containers.conf
fi

# suite MODE WORKLOAD: a one-case suite on the host or in the container.
suite() {
  local ctr=""
  case $1 in
    noinit) ctr="\"container\": {\"image\": \"$image\", \"pull\": \"never\", \"init\": false}," ;;
    init) ctr="\"container\": {\"image\": \"$image\", \"pull\": \"never\"}," ;;
  esac
  cat <<JSON
{"kind": "command", "name": "bench-stop", "cluster": "bench", "combos": {"c": {}}, $ctr
 "argv": ["sh", "-c", "$2"], "parser": "none"}
JSON
}
sig="echo step 1; echo 'rank 3: NCCL error: unhandled system error' >&2; sleep 60"
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# wall MODE WORKLOAD: seconds for one `assay run`, N times.
wall() {
  suite "$1" "$2" >suite.json
  for _ in $(seq 1 "$trials"); do
    rm -f s.db
    s=$(date +%s.%N)
    "$assay" run --store s.db --out out --quiet suite.json >/dev/null 2>&1 || true
    e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN { printf "%.2f\n", e - s }'
  done | median
}
printf '| mode | signature case, s | start only, s | stop, s |\n|---|---|---|---|\n'
for mode in ${MODES:-host noinit init}; do
  t=$(wall "$mode" "$sig")
  b=$(wall "$mode" "echo step 1")
  printf '| %s | %s | %s | %s |\n' "$mode" "$t" "$b" "$(awk -v t="$t" -v b="$b" 'BEGIN { printf "%.2f", t - b }')"
done
