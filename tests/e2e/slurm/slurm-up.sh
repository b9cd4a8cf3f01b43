#!/usr/bin/env bash
# Starts a private single-node Slurm in DIR for the end-to-end tests: its own
# munged (key and socket in DIR), slurmctld and slurmd on free ports, from
# Debian's slurm-wlm and munge packages (docs/slurm.md, "Testing").
#
#   slurm-up.sh DIR      then:  eval "$(slurm-up.sh DIR)"   or   . DIR/env
#
# On success prints "export SLURM_CONF=DIR/slurm.conf" (also written to DIR/env)
# and exits 0. Exits 77 (CTest SKIP_RETURN_CODE) with "SKIP: reason" on stderr
# when Slurm cannot run here; ASSAY_REQUIRE_SLURM=1 turns a skip into exit 1,
# which CI uses so that these tests cannot be skipped there.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)

skip() {
	if [ "${ASSAY_REQUIRE_SLURM:-0}" = 1 ]; then
		echo "slurm-up: FAILED (ASSAY_REQUIRE_SLURM=1): $*" >&2
		exit 1
	fi
	echo "SKIP: slurm-up: $*" >&2
	exit 77
}

# Print the last lines of a daemon log to stderr (when it exists).
tail_log() {
	[ -s "$1" ] || return 0
	echo "--- $1 (last 15 lines)" >&2
	tail -n 15 "$1" >&2
}

# Stop what was started, print the logs, then skip (or fail under CI).
give_up() {
	for f in "$dir"/log/*.log; do tail_log "$f"; done
	"$here/slurm-down.sh" "$dir" >/dev/null 2>&1
	skip "$@"
}

[ $# -eq 1 ] || { echo "usage: slurm-up.sh DIR" >&2; exit 2; }
case "$1" in /*) dir=$1 ;; *) dir=$PWD/$1 ;; esac
# munged's socket path must fit in sun_path (108 bytes).
[ ${#dir} -le 80 ] || { echo "slurm-up: DIR is too long (${#dir} > 80 bytes): $dir" >&2; exit 2; }

[ "$(id -u)" = 0 ] || skip "needs root (slurmd starts jobs as their users); run as root"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
	! command -v munged >/dev/null || ! command -v sbatch >/dev/null; then
	"$root/scripts/deps.sh" slurm >&2 || skip "cannot install slurm-wlm and munge (scripts/deps.sh slurm failed)"
fi

# A previous instance in the same folder (a killed test run) goes first.
[ -e "$dir/slurm.conf" ] && "$here/slurm-down.sh" "$dir" >/dev/null 2>&1
mkdir -p "$dir"/state "$dir"/spool "$dir"/log "$dir"/jobs || skip "cannot create $dir"
chmod 711 "$dir"

# munged with its own key and socket, so nothing in /etc or /run is touched
# and several instances can run side by side.
head -c 1024 /dev/urandom >"$dir/munge.key" && chmod 400 "$dir/munge.key" || skip "cannot write the munge key"
munged --force --socket="$dir/munge.sock" --key-file="$dir/munge.key" \
	--pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" \
	--seed-file="$dir/munged.seed" 2>>"$dir/log/munged.log" || give_up "munged did not start"
for _ in $(seq 50); do [ -S "$dir/munge.sock" ] && break; sleep 0.1; done
[ -S "$dir/munge.sock" ] || give_up "munged did not create its socket"

# Two free TCP ports for slurmctld and slurmd.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
ctld_port=""
for _ in $(seq 50); do
	p=$((20000 + RANDOM % 40000))
	if port_free "$p" && port_free $((p + 1)); then ctld_port=$p; break; fi
done
[ -n "$ctld_port" ] || give_up "no two free TCP ports found"
slurmd_port=$((ctld_port + 1))

host=$(hostname -s)
# The node's real topology from slurmd -C, with ~80% of its memory offered.
mem_mib=$(awk '/^MemTotal:/ {print int($2 / 1024 * 0.8)}' /proc/meminfo)
node=$(slurmd -C 2>/dev/null | head -n 1 | sed -e 's/ RealMemory=[0-9]*//')
case "$node" in "NodeName=$host "*) ;; *) node="NodeName=$host CPUs=$(nproc)" ;; esac

cat >"$dir/slurm.conf" <<EOF
# Written by tests/e2e/slurm/slurm-up.sh: a private single-node Slurm for tests.
ClusterName=assaytest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
# Finished jobs stay visible to squeue/scontrol this long (no slurmdbd, so
# sacct does not work); the tests read final states well within it.
MinJobAge=120
# Enforce --time at once: no grace minutes, a short SIGTERM-to-SIGKILL wait.
OverTimeLimit=0
KillWait=2
InactiveLimit=0
MessageTimeout=10
SlurmctldTimeout=30
SlurmdTimeout=30
SchedulerType=sched/builtin
$node RealMemory=$mem_mib NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF" >>"$dir/log/slurmctld.log" 2>&1 || give_up "slurmctld did not start"
slurmd -f "$SLURM_CONF" >>"$dir/log/slurmd.log" 2>&1 || give_up "slurmd did not start"

# Bounded wait for the node to be idle.
state=""
for _ in $(seq 60); do
	state=$(sinfo -h -N -n "$host" -o %T 2>/dev/null | head -n 1)
	[ "$state" = idle ] && break
	sleep 0.5
done
[ "$state" = idle ] || give_up "node $host not idle after 30 s (state: ${state:-none})"

echo "export SLURM_CONF=$SLURM_CONF" >"$dir/env"
cat "$dir/env"
