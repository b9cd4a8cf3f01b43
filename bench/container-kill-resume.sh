#!/usr/bin/env bash
# Issue 35: kill -9 of assay at a random moment of a podman container case,
# then `assay run --resume last`: how many containers of the run are left
# afterwards (target 0). Half the trials run a short workload (0.3-1.5 s,
# so the kill often lands while the container starts or ends), half a long
# one that ignores SIGTERM (the container outlives assay; the resumed
# attempt's run of it ends at once). The kill comes
# 0.2-3 s after the start. Prints one line per trial and the totals.
#
# usage: bench/container-kill-resume.sh [TRIALS]   (default 20; root, podman,
#   the e2e image localhost/assay-e2e:busybox-2 made by tests/e2e/containers)
set -euo pipefail
cd "$(dirname "$0")/.."
trials=${1:-20}
assay=${ASSAY:-$PWD/build/release/bin/assay}
[ -x "$assay" ] || assay=$PWD/build/dev/bin/assay
image=${IMAGE:-localhost/assay-e2e:busybox-2}
tmp=$(mktemp -d /tmp/assay-bench-kill.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
if [ -z "${CONTAINERS_CONF:-}" ] &&
  ! podman run --rm --pull=never "$image" true >/dev/null 2>try.txt &&
  grep -q rlimit try.txt; then
  printf '[containers]\ndefault_ulimits = []\n' >containers.conf
  export CONTAINERS_CONF=$tmp/containers.conf
fi
left_total=0 removed_total=0 max_resume=0
for t in $(seq 1 "$trials"); do
  if [ $((t % 2)) = 1 ]; then
    kind=short
    work="sleep 0.$((RANDOM % 9 + 3)); echo done"
  else
    kind=long
    work="[ -e /flags/resumed ] || { trap '' TERM; sleep 60; }"
  fi
  rm -rf flags && mkdir flags
  cat >suite.json <<JSON
{"kind": "command", "name": "bench-kill", "cluster": "bench", "combos": {"a": {}, "b": {}},
 "container": {"image": "$image", "pull": "never", "mounts": ["$tmp/flags:/flags"]},
 "argv": ["sh", "-c", "$work"], "parser": "none", "timeout_s": 90}
JSON
  rm -rf s.db out
  "$assay" run --store s.db --out out --quiet suite.json >run.txt 2>&1 &
  pid=$!
  delay=$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.2 + 2.8 * r / 32767 }')
  sleep "$delay"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  run=$(sqlite3 -batch -noheader s.db "SELECT run_id FROM runs" 2>/dev/null || true)
  [ -n "$run" ] || { echo "trial $t: killed before the run began"; continue; }
  touch flags/resumed
  s=$(date +%s.%N)
  "$assay" run --store s.db --out out --resume last --quiet suite.json >resume.txt 2>&1 || true
  e=$(date +%s.%N)
  r=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.1f", e - s }')
  removed=$(grep -c "removed container" resume.txt || true)
  left=$(podman ps -a --filter "label=assay.run=$run" --format '{{.Names}}' | wc -l)
  echo "trial $t ($kind, kill after ${delay} s): removed $removed, left $left, resume ${r} s"
  left_total=$((left_total + left))
  removed_total=$((removed_total + removed))
  max_resume=$(awk -v a="$max_resume" -v b="$r" 'BEGIN { print (b > a ? b : a) }')
  for n in $(podman ps -a --filter "label=assay.run=$run" --format '{{.Names}}'); do
    podman rm -f "$n" >/dev/null 2>&1 || true
  done
done
echo "trials $trials: containers left $left_total, removed by resume $removed_total, longest resume ${max_resume} s"
