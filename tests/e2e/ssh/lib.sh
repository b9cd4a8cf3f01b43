# Shared by tests/e2e/ssh/t-*.sh: everything the run e2e lib has
# (tests/e2e/run/lib.sh), plus loopback ssh nodes (tests/ssh/nodes.sh: one
# real sshd per node on 127.0.0.2, 127.0.0.3 ...), stopped whatever happens.
#   . "$(dirname "$0")/lib.sh" "$@"      then  nodes_up N
# Skips (exit 77) when sshd is missing; fails instead under ASSAY_REQUIRE_SSH=1.
# (A test of containers sources tests/e2e/containers/lib.sh first, which
# brings the run lib and podman; this file then adds the nodes.)
declare -F run_assay >/dev/null || . "$(dirname "${BASH_SOURCE[0]}")/../run/lib.sh" "$1"
NODES_SH=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../ssh" && pwd)/nodes.sh
export ASSAY_SSH_ENV=$T/ssh-nodes.env

ssh_cleanup() {
  "$NODES_SH" stop >/dev/null 2>&1 || true
  if declare -F cleanup_containers >/dev/null; then cleanup_containers; fi
  store_cleanup
  rm -rf "$T"
}
trap ssh_cleanup EXIT

# nodes_up N: start N nodes; sets NODE1, NODE2 ... and the facts' variables.
nodes_up() {
  local rc=0 i=1 a
  ASSAY_SSH_WATCH_PID=$$ "$NODES_SH" start "$1" >"$T/nodes.txt" 2>&1 || rc=$?
  if [ "$rc" = 77 ]; then
    cat "$T/nodes.txt"
    exit 77
  fi
  [ "$rc" = 0 ] || { cat "$T/nodes.txt" >&2; fail "the ssh nodes did not start"; }
  . "$ASSAY_SSH_ENV"
  for a in $ASSAY_SSH_NODES; do
    eval "NODE$i=$a"
    i=$((i + 1))
  done
}

# launcher_json [EXTRA]: the launcher block for the nodes, through the
# nodes' ssh_config (ports, key, known_hosts); grace_s $GRACE_S (default 2).
launcher_json() {
  local hosts="" a
  for a in $ASSAY_SSH_NODES; do hosts="$hosts${hosts:+, }\"$a\""; done
  printf '{"type": "ssh", "hosts": [%s], "ssh_config": "%s", "grace_s": %s%s}' \
    "$hosts" "$ASSAY_SSH_CONFIG" "${GRACE_S:-2}" "${1:+, $1}"
}

# labelled PREFIX: pids of live processes whose environment holds
# ASSAY_SSH_LABEL=PREFIX... (the nodes share this machine's /proc).
labelled() {
  local f
  for f in $(grep -lsz "^ASSAY_SSH_LABEL=$1" /proc/[0-9]*/environ); do
    f=${f#/proc/}
    echo "${f%/environ}"
  done
}

# expect_planted PREFIX: a process planted in the background over ssh is
# running (bounded wait: ssh returns before the backgrounded command has
# started, and on a loaded machine it can take seconds).
expect_planted() {
  local i
  for i in $(seq 1 120); do
    [ -n "$(labelled "$1")" ] && return 0
    sleep 0.5
  done
  fail "the planted process is not running"
}

# expect_none_left PREFIX: no labelled process left (bounded wait: a node
# ends what it runs within the grace period after its connection ends).
expect_none_left() {
  local left
  for _ in $(seq 1 150); do
    left=$(labelled "$1")
    [ -z "$left" ] && return 0
    sleep 0.2
  done
  ps -o pid,pgid,args -p "$(echo $left | tr ' ' ,)" >&2 || true
  fail "processes labelled $1 are still running: $left"
}

# wait_for FILE...: each file exists (bounded wait).
wait_for() {
  local f
  for f in "$@"; do
    for _ in $(seq 1 300); do
      [ -e "$f" ] && break
      sleep 0.1
    done
    [ -e "$f" ] || fail "$f never appeared"
  done
}

# long_suite NAME [LAUNCHER_EXTRA]: suite.json of one two-node case whose
# workload (work.sh) starts, on each node, a child that ignores SIGTERM and
# a daemon in a session of its own, flags flags/started-<rank>, then sleeps;
# node $SIG_NODE (if set) prints an NCCL error once both nodes started, node
# $EXIT_NODE exits $EXIT_CODE. A second attempt (flags/go) finishes at once.
long_suite() {
  mkdir -p flags
  cat >work.sh <<'SH'
#!/bin/sh
f=$(dirname "$0")/flags
if [ -e "$f/go" ]; then
  echo "node $NODE_RANK done"
  [ "$NODE_RANK" = 0 ] && printf '{"series":{"workload":"w"},"metric":"m","statistic":"mean","value":1,"unit":"s","direction":"lower"}\n' >"$CASE_DIR/rows.ndjson"
  exit 0
fi
( trap '' TERM; exec sleep 300 ) &
setsid sh -c 'exec sleep 301' </dev/null >/dev/null 2>&1 &
touch "$f/started-$NODE_RANK"
if [ "$NODE_RANK" = "${SIG_NODE:--1}" ]; then
  while [ ! -e "$f/started-0" ] || [ ! -e "$f/started-1" ]; do sleep 0.1; done
  echo "rank 3: NCCL error: unhandled system error"
fi
[ "$NODE_RANK" = "${EXIT_NODE:--1}" ] && exit "$EXIT_CODE"
sleep 300
SH
  chmod +x work.sh
  cat >suite.json <<JSON
{"kind": "command", "name": "$1", "cluster": "e2e", "revision": "r1",
 "nodes": 2, "combos": {"c1": {}}, "launcher": $(launcher_json "${2:-}"),
 "env": {"CASE_DIR": "{CASE_DIR}", "SIG_NODE": "${SIG_NODE:--1}", "EXIT_NODE": "${EXIT_NODE:--1}", "EXIT_CODE": "${EXIT_CODE:-0}"},
 "argv": ["$T/work.sh"], "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"],
 "timeout_s": ${TIMEOUT_S:-200}}
JSON
}
