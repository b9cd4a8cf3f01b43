#!/usr/bin/env bash
# The ssh launcher against pdsh (Debian's pdsh, `pdsh -R ssh`), side by side
# in one run on N loopback nodes (tests/ssh/nodes.sh: one real sshd each;
# needs root for /run/sshd).
#
# 1. Start a trivial command (`echo hi`) on N nodes and collect its output:
#    `pdsh -R ssh -w NODES echo hi` (a fresh connection per node, as pdsh
#    always does) against `assay run` of a one-case suite over the same
#    nodes (its masters made and closed within the run; store and summary
#    included, --no-report), and per case of a 10-case suite, where the
#    masters are kept between cases. Median of R runs each.
# 2. Stop latency: every node (or, locally, each of N processes) loops until
#    SIGTERM and writes the time it got it; the last node prints an NCCL
#    error. The figure: the last node's stop time minus the time the error
#    was printed, ssh launcher against the local launcher running the same
#    N loops in one case. One ssh round trip (`ssh -S master host true`) is
#    measured beside it. Median and max of R runs.
#
# usage: bench/ssh-launch.sh [N [R]]   (default 8 nodes, 5 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-8}
reps=${2:-5}
root=$PWD
assay=${ASSAY:-$root/build/release/bin/assay}
[ -x "$assay" ] || make build >/dev/null
command -v pdsh >/dev/null || { echo "pdsh is not installed (scripts/deps.sh check)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/assay-bench-ssh.XXXXXX)
export ASSAY_SSH_ENV=$tmp/nodes.env
cleanup() {
  "$root/tests/ssh/nodes.sh" stop >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp"
ASSAY_SSH_WATCH_PID=$$ "$root/tests/ssh/nodes.sh" start "$n" >/dev/null 2>&1
. "$ASSAY_SSH_ENV"
hosts_json=$(for a in $ASSAY_SSH_NODES; do printf '"%s",' "$a"; done)
hosts_json=[${hosts_json%,}]
wlist=$(echo "$ASSAY_SSH_NODES" | tr ' ' ,)
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
maxof() { sort -g | tail -n 1; }

suite() { # NAME CASES ARGV_JSON [LAUNCHER]
  local combos="" i
  for i in $(seq 1 "$2"); do combos="$combos\"c$i\": {},"; done
  cat >"$1.json" <<JSON
{"kind": "command", "name": "$1", "cluster": "bench", "revision": "r1", "nodes": $n,
 "combos": {${combos%,}},
 "launcher": ${4:-{\"type\": \"ssh\", \"hosts\": $hosts_json, \"ssh_config\": \"$ASSAY_SSH_CONFIG\", \"grace_s\": 2\}},
 "argv": $3, "parser": "rows", "results": ["{CASE_DIR}/none.ndjson"], "timeout_s": 120}
JSON
}

# 1. Start and collect.
suite one 1 '["echo", "hi"]'
suite lone 1 '["echo", "hi"]' '{"type": "local"}'
sed -i "s/\"nodes\": $n/\"nodes\": 1/" lone.json
suite ten 10 '["echo", "hi"]'
export PDSH_SSH_ARGS="-F $ASSAY_SSH_CONFIG -oBatchMode=yes %h"
: >pdsh.t
: >one.t
: >ten.t
: >lone.t
for _ in $(seq 1 "$reps"); do
  t0=$(now)
  out=$(pdsh -R ssh -w "$wlist" echo hi)
  t1=$(now)
  [ "$(echo "$out" | grep -c ': hi$')" = "$n" ] || { echo "pdsh: $out" >&2; exit 1; }
  echo "$t1 - $t0" | bc -l >>pdsh.t
  rm -rf out s.db*
  t0=$(now)
  "$assay" run --no-report --quiet --store s.db --out out one.json >/dev/null 2>&1 || true
  t1=$(now)
  [ "$(cat out/*/c1/stdout.log | grep -c '^hi$')" = "$n" ] || { echo "assay: no output" >&2; exit 1; }
  echo "$t1 - $t0" | bc -l >>one.t
  rm -rf out s.db*
  t0=$(now)
  "$assay" run --no-report --quiet --store s.db --out out lone.json >/dev/null 2>&1 || true
  t1=$(now)
  echo "$t1 - $t0" | bc -l >>lone.t
  rm -rf out s.db*
  t0=$(now)
  "$assay" run --no-report --quiet --store s.db --out out ten.json >/dev/null 2>&1 || true
  t1=$(now)
  echo "($t1 - $t0) / 10" | bc -l >>ten.t
done
printf '1. trivial command on %d nodes, output collected (median of %d):\n' "$n" "$reps"
printf '   pdsh -R ssh                  %.3f s\n' "$(median <pdsh.t)"
printf '   assay run, 1 case            %.3f s (whole run: masters, store, summary)\n' "$(median <one.t)"
printf '   assay run, per case of 10    %.3f s (masters kept between cases)\n' "$(median <ten.t)"
printf '   assay run, 1 local case      %.3f s (assay'"'"'s own cost: store, summary; no ssh)\n' "$(median <lone.t)"

# 2. Stop latency.
cat >loop.sh <<'SH'
#!/bin/sh
# loop.sh DIR RANK LAST: loop until SIGTERM (time written to DIR/stop-RANK);
# rank LAST prints an NCCL error once every rank runs.
trap 'date +%s.%N >"$1/stop-$2"; exit 0' TERM
touch "$1/up-$2"
if [ "$2" = "$3" ]; then
  while [ "$(ls "$1" | grep -c '^up-')" -lt $(($3 + 1)) ]; do sleep 0.05; done
  date +%s.%N >"$1/sig"
  echo "rank $2: NCCL error: unhandled system error"
fi
while :; do sleep 0.05; done
SH
cat >local.sh <<'SH'
#!/bin/sh
# local.sh DIR N: the N loops of one local case.
i=0
while [ $i -lt "$2" ]; do sh "$(dirname "$0")/loop.sh" "$1" $i $(($2 - 1)) & i=$((i + 1)); done
wait
SH
chmod +x loop.sh local.sh
suite sig 1 "[\"sh\", \"-c\", \"exec sh $tmp/loop.sh $tmp/flags \$NODE_RANK \$((NNODES - 1))\"]"
suite lsig 1 "[\"sh\", \"$tmp/local.sh\", \"$tmp/flags\", \"$n\"]" '{"type": "local", "grace_s": 2}'
sed -i "s/\"nodes\": $n/\"nodes\": 1/" lsig.json
latency() { # SUITE: stop latency of one run, seconds
  rm -rf out s.db* flags
  mkdir flags
  "$assay" run --no-report --quiet --store s.db --out out "$1.json" >/dev/null 2>&1 || true
  local last
  last=$(cat flags/stop-* | sort -g | tail -n 1)
  [ "$(ls flags | grep -c '^stop-')" = "$n" ] || { echo "$1: not every rank got SIGTERM" >&2; exit 1; }
  echo "$last - $(cat flags/sig)" | bc -l
}
: >ssh.l
: >local.l
: >rtt.t
for _ in $(seq 1 "$reps"); do
  latency sig >>ssh.l
  latency lsig >>local.l
done
first=${ASSAY_SSH_NODES%% *}
ssh -F "$ASSAY_SSH_CONFIG" -o BatchMode=yes -o ControlMaster=yes -o ControlPath="$tmp/cm" \
  -o ControlPersist=30 -N -f "$first"
for _ in $(seq 1 "$reps"); do
  t0=$(now)
  ssh -F "$ASSAY_SSH_CONFIG" -o ControlPath="$tmp/cm" "$first" true
  t1=$(now)
  echo "$t1 - $t0" | bc -l >>rtt.t
done
ssh -F "$ASSAY_SSH_CONFIG" -o ControlPath="$tmp/cm" -O exit "$first" 2>/dev/null || true
printf '2. signature on node %d to every node stopped (median / max of %d):\n' "$n" "$reps"
printf '   local launcher, %d processes  %.3f / %.3f s\n' "$n" "$(median <local.l)" "$(maxof <local.l)"
printf '   ssh launcher, %d nodes        %.3f / %.3f s\n' "$n" "$(median <ssh.l)" "$(maxof <ssh.l)"
printf '   one ssh round trip           %.3f s (through a master, median)\n' "$(median <rtt.t)"
