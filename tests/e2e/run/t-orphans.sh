#!/usr/bin/env bash
# Nothing a workload starts outlives its case (issue 14, defect 3): a
# double-forked setsid daemon and a bash-wrapped grandchild are ended when
# the case ends normally, when a signature stops it, and after assay itself
# is killed with SIGKILL, by the resume, which says what it ended. Run under
# every containment assay has: a cgroup v2, the v1 freezer and pids
# hierarchies, and the subreaper fallback (ASSAY_CONTAIN, docs/run.md).
# backends: sqlite (not yet on both: each round removes the store file, s.db*)
. "$(dirname "$0")/lib.sh" "$@"
cleanup() {
  # Never leave a sleeper behind, whatever failed.
  set +e
  for f in "$T"/pids*; do [ -e "$f" ] && kill -9 $(cat "$f") 2>/dev/null; done
  rm -rf "$T"
  true
}
trap cleanup EXIT
cat >work.sh <<'EOF2'
#!/bin/sh
# work.sh CASE_DIR MODE PIDS: leave a double-forked daemon (a session of its
# own, parent gone) and a bash-wrapped grandchild, then: "ok" writes a row
# and exits 0, "sig" prints an NCCL error and hangs, "hang" hangs.
W=$PWD
(setsid sh -c "echo \$\$ >> $W/$3; exec sleep 1000" </dev/null >/dev/null 2>&1 &)
bash -c "sleep 1000 & echo \$! >> $W/$3; echo \$! >> $W/$3.g; wait" </dev/null >/dev/null 2>&1 &
while [ "$(wc -l < "$W/$3" 2>/dev/null || echo 0)" -lt 2 ]; do sleep 0.05; done
case $2 in
  ok) printf '{"series":{"workload":"w"},"metric":"m","statistic":"mean","value":1,"unit":"s","direction":"lower"}\n' > "$1/rows.ndjson" ;;
  sig) echo "rank 0: NCCL error: unhandled system error" >&2; sleep 1000 ;;
  *) sleep 1000 ;;
esac
EOF2
suite() { # suite MODE PIDS
  cat >suite.json <<JSON
{"kind": "command", "name": "orphans", "cluster": "e2e", "revision": "r1",
 "combos": {"c1": {"M": "$1"}},
 "argv": ["sh", "work.sh", "{CASE_DIR}", "{M}", "$2"],
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"],
 "launcher": {"type": "local", "grace_s": 1}}
JSON
}
wait_pids() { # wait_pids FILE N
  for _ in $(seq 1 300); do
    [ -e "$1" ] && [ "$(wc -l < "$1")" -ge "$2" ] && return 0
    sleep 0.1
  done
  fail "the workload did not start its processes ($1)"
}
# The pids in FILE are gone, within a few seconds (SIGKILL is asynchronous).
gone_soon() {
  for _ in $(seq 1 50); do
    local alive=0 p
    for p in $(cat "$1"); do pid_gone "$p" || alive=1; done
    [ "$alive" = 0 ] && return 0
    sleep 0.1
  done
  expect_all_gone "$1" "$2"
}

kinds="subreaper"
[ -e /sys/fs/cgroup/cgroup.controllers ] || [ -e /sys/fs/cgroup/unified/cgroup.procs ] && kinds="cgroup2 $kinds"
[ -e /sys/fs/cgroup/freezer/freezer.state ] || [ -d /sys/fs/cgroup/freezer ] && kinds="$kinds freezer"
[ -d /sys/fs/cgroup/pids ] && kinds="$kinds pids"
[ "$(id -u)" = 0 ] || kinds="subreaper" # cgroups need root (or a delegated subtree)
for kind in $kinds; do
  export ASSAY_CONTAIN=$kind
  echo "containment: $kind"
  # 1. The command exits 0 and leaves both behind: the case ends them.
  rm -rf out s.db*
  suite ok pids-ok-$kind
  run_assay 0 run --store s.db --quiet suite.json
  gone_soon pids-ok-$kind 2
  got=$(q s.db "SELECT contain FROM procs")
  if [ "$got" != "$kind" ]; then
    # Mounted but not usable here (a read-only /sys/fs/cgroup in a container).
    echo "containment $kind cannot be used here (assay fell back to $got): skipped"
    continue
  fi
  # What it ran as was recorded before it ran, and closed when it ended.
  expect_eq "$(q s.db "SELECT contain || ':' || (pid > 0) || ':' || (ended IS NOT NULL) FROM procs")" \
    "$kind:1:1" "recorded containment"
  # 2. A signature stops it: nothing survives.
  rm -rf out s.db*
  suite sig pids-sig-$kind
  run_assay 3 run --store s.db --quiet suite.json
  expect_grep '^c1 +workload-failed .*signature nccl-error' out.txt
  gone_soon pids-sig-$kind 2
  # 3. assay is killed (SIGKILL) while the case runs: the resume ends what
  # the killed attempt left and says so.
  rm -rf out s.db*
  suite hang pids-kill-$kind
  "$ASSAY" run --store s.db --quiet suite.json >/dev/null 2>&1 &
  pid=$!
  wait_pids pids-kill-$kind 2
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null || true
  "$ASSAY" run --store s.db --quiet --resume last suite.json >out.txt 2>err.txt &
  rpid=$!
  # The resumed attempt hangs again on purpose; it is interrupted below.
  wait_pids pids-kill-$kind 4
  kill -INT "$rpid"
  set +e
  wait "$rpid"
  rc=$?
  set -e
  [ "$rc" = 5 ] || { cat err.txt >&2; fail "the resume exited $rc after an interrupt, expected 5"; }
  expect_grep '^resume: case c1 \(attempt 1\): ended [0-9]+ process\(es\) ' err.txt
  if [ "$kind" = subreaper ]; then
    # Without a cgroup, the session is what is left to find: the daemon
    # (a session of its own, reparented to init) cannot be told apart.
    expect_grep 'of session [0-9]+$' err.txt
    p=$(sed -n 1p pids-kill-$kind.g) # the killed attempt's bash-wrapped grandchild
    for _ in $(seq 1 30); do pid_gone "$p" && break; sleep 0.1; done
    pid_gone "$p" || fail "grandchild $p of the killed attempt is alive"
  else
    expect_grep 'in cgroup /sys/fs/cgroup/' err.txt
    gone_soon pids-kill-$kind 4
  fi
  expect_eq "$(q s.db "SELECT count(*) FROM procs WHERE ended IS NULL")" 0 "open process records"
done
echo ok
