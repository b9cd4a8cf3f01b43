#!/usr/bin/env bash
# CVS's container cluster file (tests/fixtures/ssh/cvs-cluster-container.json:
# the keys of ROCm/cvs cvs/input/cluster_file/cluster_container.json at
# dddd914, lifetime and runtime as shipped) filled in for two loopback nodes
# (hosts, key file, image), runtime "docker" on the nodes being podman (a
# `docker` on their PATH that runs podman, as CVS's README allows any docker
# CLI). Rules from that README's truth table and cvs/core/orchestrators/
# container.py, cvs/core/runtimes/docker.py, cvs/lib/utils_lib.py:
# - per_run: a fresh container per node, CVS's default runtime arguments
#   (privileged, memlock=-1 ...), devices the node lacks left out and noted,
#   removed at the end and on a signature stop;
# - passwordless `sudo -n` asked once per host and put before the runtime's
#   commands only on the host that has it (node 2 here; its `sudo` logs);
# - persistent: started where it runs on no host, attached on the next run,
#   left running; a stop ends the case's processes inside it; running on
#   only some hosts is refused (exit 5) naming them;
# - no_launch: refused (exit 5) where the container does not run, used where
#   it does, never started or removed;
# - the registry login reads the password file on the host and gives it on
#   stdin: a failed login is exit 5 naming the host, the password nowhere.
. "$(dirname "$0")/../containers/lib.sh" "$@"
. "$(dirname "$0")/lib.sh" "$@"
src=${ASSAY_SOURCE_DIR:?}
# The image with a `video` group (CVS's default --group-add video).
CVS_IMAGE=localhost/assay-e2e:cvs-1
if ! podman image exists "$CVS_IMAGE"; then
  podman rm -f "assay-e2e-cvs-build-$$" >/dev/null 2>&1 || true
  podman run --name "assay-e2e-cvs-build-$$" --pull=never "$IMAGE" \
    sh -c 'echo video:x:44: >>/etc/group' >/dev/null
  podman commit -q "assay-e2e-cvs-build-$$" "$CVS_IMAGE" >/dev/null
  podman rm -f "assay-e2e-cvs-build-$$" >/dev/null
fi
mkdir -p shim1 shim2 flags
# CVS's default --ulimit=memlock=-1 needs a root that may raise its hard
# limit; where this machine's root may not (a container itself), the
# stand-in drops that one flag after logging the full command line, and
# the test checks the flag was passed instead of its effect.
MEMLOCK_OK=1
(ulimit -H -l unlimited) 2>/dev/null || MEMLOCK_OK=0
cat >shim1/docker <<SH
#!/bin/sh
echo "\$*" >>$T/docker.log
if [ $MEMLOCK_OK = 0 ]; then
  for a; do shift; [ "\$a" = --ulimit=memlock=-1 ] || set -- "\$@" "\$a"; done
fi
CONTAINERS_CONF=$CONTAINERS_CONF exec podman "\$@"
SH
# Node 2's docker: podman, or (flags/alt) a podman with a store of its own,
# where no container runs (a host that differs).
cat >shim2/docker <<SH
#!/bin/sh
echo "\$*" >>$T/docker.log
if [ $MEMLOCK_OK = 0 ]; then
  for a; do shift; [ "\$a" = --ulimit=memlock=-1 ] || set -- "\$@" "\$a"; done
fi
[ -e $T/flags/alt ] && set -- --root $T/alt/root --runroot $T/alt/run "\$@"
CONTAINERS_CONF=$CONTAINERS_CONF exec podman "\$@"
SH
# Node 2's passwordless sudo: logs what it runs (the nodes run as root).
cat >shim2/sudo <<SH
#!/bin/sh
[ "\$1" = -n ] && shift
case \$1 in --preserve-env=*) shift ;; esac
echo "\$*" >>$T/sudo.log
exec "\$@"
SH
chmod +x shim1/docker shim2/docker shim2/sudo
export ASSAY_SSH_SETENV_1="PATH=$T/shim1:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
export ASSAY_SSH_SETENV_2="PATH=$T/shim2:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
nodes_up 2
CNAME=assay_e2e_cvs_$$
trap 'podman rm -f "$CNAME" >/dev/null 2>&1; ssh_cleanup' EXIT
# cluster.json LIFETIME [ARGS_EXTRA]: the fixture filled in for the nodes.
cluster() {
  sed -e "s/\"gpu01\"/\"$NODE1\"/g; s/\"gpu02\"/\"$NODE2\"/g" \
    -e "s/10\.0\.0\.1/$NODE1/; s/10\.0\.0\.2/$NODE2/" \
    -e "s|/home/{user-id}/.ssh/id_rsa|$ASSAY_SSH_KEY|" \
    -e "s|rocm/cvs:latest|$CVS_IMAGE|; s/\"cvs_container\"/\"$CNAME\"/" \
    -e "s/\"lifetime\": \"per_run\"/\"lifetime\": \"$1\"/" \
    -e "s|\"privileged\": true|\"privileged\": true${2:+, $2}|" \
    "$src/tests/fixtures/ssh/cvs-cluster-container.json" >cluster.json
}
cat >work.sh <<'SH'
echo "node $NODE_RANK of $NNODES master $MASTER_ADDR memlock $(ulimit -l | sed "s/^$ML\$/ok/") group $(grep -c ^video: /etc/group) in $(cat /proc/1/cmdline | tr '\0' ' ')"
[ -e /flags/go ] && exit 0
touch /flags/up-$NODE_RANK
( trap '' TERM; exec sleep 300 ) &
if [ "$NODE_RANK" = 1 ]; then
  while [ ! -e /flags/up-0 ]; do sleep 0.1; done
  echo 'rank 9: NCCL error: unhandled system error'
fi
sleep 300
SH
cat >suite.json <<JSON
{"kind": "command", "name": "cvs-ctr", "cluster": "e2e", "revision": "r1",
 "nodes": 2, "combos": {"c1": {}},
 "launcher": {"type": "ssh", "cluster_file": "cluster.json", "ssh_config": "$ASSAY_SSH_CONFIG", "grace_s": 2},
 "argv": ["sh", "/flags/work.sh"], "parser": "rows", "results": ["{CASE_DIR}/none.ndjson"], "timeout_s": 200}
JSON
ML=unlimited
[ $MEMLOCK_OK = 0 ] && ML='.*'
sed -i "s/\$ML/$ML/" work.sh
cp work.sh flags/
VOL="\"volumes\": [\"$T/flags:/flags\"]"

# per_run, as shipped: both nodes in a container of their own.
cluster per_run "$VOL"
touch flags/go
run_assay 4 run --store s.db --out out suite.json
run=$(q s.db "SELECT run_id FROM runs")
expect_grep "^node 0 of 2 master $NODE1 memlock ok group 1 in " "out/$run/c1/nodes/$NODE1.out"
expect_grep "^node 1 of 2 master $NODE1 memlock ok group 1 in " "out/$run/c1/nodes/$NODE2.out"
for n in "$NODE1" "$NODE2"; do
  expect_grep '^/dev/kfd left out: not on this host' "out/$run/c1/nodes/$n.devices"
done
expect_no_containers "$run"
for r in 0 1; do
  grep -q -- "-n$r .* -v $T/flags:/flags .*--network=host --ipc=host --privileged --cap-add=SYS_PTRACE --cap-add=IPC_LOCK --cap-add=SYS_ADMIN --security-opt=seccomp=unconfined --security-opt=apparmor=unconfined --group-add=video --ulimit=memlock=-1 $CVS_IMAGE" docker.log ||
    fail "node $r's container did not get CVS's default runtime arguments"
done
# sudo: node 2 only, and only the runtime's commands.
expect_grep '^podman |^docker ' sudo.log
grep -vE '^(true|docker|podman|grep|kill) ' sudo.log | grep -v '^true$' && fail "sudo ran something else"
grep -q 'run --rm --init --log-driver none --name assay-.*-n1 ' sudo.log || fail "node 2's container was not started through sudo"
grep -q -- '-n0 ' sudo.log && fail "node 1's container went through node 2's sudo"
# A signature on node 1: both containers stopped and removed.
rm -f flags/go sudo.log
rm -rf out s.db*
run_assay 3 run --store s.db --out out suite.json
run=$(q s.db "SELECT run_id FROM runs")
expect_grep '^c1 +workload-failed .*signature nccl-error' out.txt
expect_no_containers "$run"
expect_none_left "assay-$run-"

# persistent: started on both (it runs on none), attached next time, left.
rm -rf out s.db* flags/up-*
cluster persistent "$VOL"
touch flags/go
run_assay 4 run --store s.db --out out suite.json
run=$(q s.db "SELECT run_id FROM runs")
expect_grep "^node 1 of 2 master $NODE1 memlock ok group 1 in sleep infinity" "out/$run/c1/nodes/$NODE2.out"
id1=$(podman inspect --format '{{.Id}}' "$CNAME") || fail "the persistent container is not left running"
rm -rf out s.db*
run_assay 4 run --store s.db --out out suite.json
expect_eq "$(podman inspect --format '{{.Id}}' "$CNAME")" "$id1" "the persistent container (attached, not restarted)"
# A signature: the case's processes in the container end, the container stays.
rm -rf out s.db* flags/go
run_assay 3 run --store s.db --out out suite.json
run=$(q s.db "SELECT run_id FROM runs")
expect_none_left "assay-$run-"
expect_eq "$(podman inspect --format '{{.State.Running}}' "$CNAME")" true "the persistent container after a stop"
# Running on node 1 but not node 2 (its runtime's own store): refused.
rm -rf out s.db* flags/up-*
touch flags/alt flags/go
run_assay 5 run --store s.db --out out suite.json
expect_grep "container: the persistent container $CNAME runs on $NODE1 but not on $NODE2: remove it on every host or start it on the others" err.txt
rm -f flags/alt

# no_launch: used where it runs, never removed; refused where it does not.
rm -rf out s.db*
cluster no_launch "$VOL"
run_assay 4 run --store s.db --out out suite.json
expect_eq "$(podman inspect --format '{{.Id}}' "$CNAME")" "$id1" "the no_launch container"
podman rm -f "$CNAME" >/dev/null
rm -rf out s.db*
run_assay 5 run --store s.db --out out suite.json
expect_grep "container: $CNAME is not running on $NODE1, $NODE2 \(lifetime no_launch: start it there yourself; assay never does\)" err.txt
podman container exists "$CNAME" && fail "no_launch started a container"

# Registry login: the password file read on the host, given on stdin.
rm -rf out s.db*
PW=registry-canary-$$
echo "$PW" >pw.txt
cluster per_run "$VOL, \"registry\": {\"username\": \"e2e\", \"password_file\": \"$T/pw.txt\", \"server\": \"127.0.0.1:9\"}"
run_assay 5 run --store s.db --out out suite.json
expect_grep "container: host $NODE1: registry login as e2e with the password in $T/pw.txt failed: " err.txt
grep -rlF -- "$PW" out s.db* out.txt err.txt "$ASSAY_SSH_BASE" 2>/dev/null && fail "the registry password was written"
exit 0
