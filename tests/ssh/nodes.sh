#!/usr/bin/env bash
# Loopback "nodes" for the ssh launcher's tests: one real sshd (Debian's
# openssh-server) per node, node K on 127.0.0.(K+1) and a free port of its
# own, each with a generated host key, all accepting one generated client
# key. Everything lives in one temporary folder.
#
#   nodes.sh start N   start N nodes, write FACTS (export lines)
#   nodes.sh stop      stop them and remove the folder and FACTS
#   nodes.sh kill K    stop node K's sshd and every sshd session of it (a node that drops out)
#   nodes.sh rekey K   give node K a new host key and restart it (a changed host key)
#
# FACTS ($ASSAY_SSH_ENV, default ./ssh-nodes.env) holds ASSAY_SSH_BASE, ASSAY_SSH_NODES (the
# addresses), ASSAY_SSH_PORTS, ASSAY_SSH_CONFIG (an ssh_config naming each
# node's port, the key and the known_hosts file), ASSAY_SSH_KEY,
# ASSAY_SSH_KNOWN_HOSTS (the nodes' keys, as a user's ~/.ssh/known_hosts
# would hold them) and ASSAY_SSH_USER. A watchdog stops the nodes once the
# watched process is gone (ASSAY_SSH_WATCH_PID, else the caller's parent),
# kill -9 included. ASSAY_SSH_SETENV_<K>="NAME=value" at start sets a
# variable in every session of node K. Exits 77 with "SKIP:" when sshd is missing;
# ASSAY_REQUIRE_SSH=1 makes that exit 1.
set -uo pipefail

cmd=${1:-}
say() { echo "ssh-nodes: $*" >&2; }
skip() {
	if [ "${ASSAY_REQUIRE_SSH:-0}" = 1 ]; then
		say "FAILED (ASSAY_REQUIRE_SSH=1): $*"
		exit 1
	fi
	echo "SKIP: ssh-nodes: $*" >&2
	exit 77
}
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }

SSHD=/usr/sbin/sshd # sshd re-executes itself: an absolute path

# node_conf BASE K ADDR PORT: sshd_config of node K.
node_conf() {
	local base=$1 k=$2 addr=$3 port=$4
	cat >"$base/node$k/sshd_config" <<-CONF
		ListenAddress $addr:$port
		HostKey $base/node$k/host_ed25519
		PidFile $base/node$k/sshd.pid
		AuthorizedKeysFile $base/authorized_keys
		PubkeyAuthentication yes
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		PermitRootLogin prohibit-password
		UsePAM no
		StrictModes no
		PrintMotd no
		MaxSessions 64
		MaxStartups 64:30:128
		LogLevel ERROR
		AcceptEnv LANG LC_*
	CONF
	# ASSAY_SSH_SETENV_<K>="NAME=value": a variable of every session on node K
	# (a node that differs from the others, e.g. another PATH).
	local extra=ASSAY_SSH_SETENV_$k
	if [ -n "${!extra:-}" ]; then echo "SetEnv ${!extra}" >>"$base/node$k/sshd_config"; fi
}

# start_node BASE K: start node K's sshd (its port and address in BASE/nodeK/).
start_node() {
	local base=$1 k=$2 addr port
	addr=$(cat "$base/node$k/addr") port=$(cat "$base/node$k/port")
	"$SSHD" -f "$base/node$k/sshd_config" -E "$base/node$k/sshd.log" || return 1
	for _ in $(seq 1 100); do
		[ -s "$base/node$k/sshd.pid" ] && (exec 3<>"/dev/tcp/$addr/$port") 2>/dev/null && return 0
		sleep 0.1
	done
	cat "$base/node$k/sshd.log" >&2
	return 1
}

# stop_node BASE K: its listener and every sshd process under it (the
# sessions); what the sessions run is left to the ssh launcher to end.
stop_node() {
	local base=$1 k=$2 pid p kids
	pid=$(cat "$base/node$k/sshd.pid" 2>/dev/null) || pid=
	[ -n "$pid" ] || return 0
	kids=$pid
	while [ -n "$kids" ]; do
		local next=""
		for p in $kids; do
			for c in $(cat /proc/"$p"/task/*/children 2>/dev/null); do
				[ "$(cat /proc/"$c"/comm 2>/dev/null)" = sshd ] && next="$next $c"
			done
			kill -KILL "$p" 2>/dev/null
		done
		kids=$next
	done
	rm -f "$base/node$k/sshd.pid"
}

known_hosts() {
	local base=$1 k
	: >"$base/known_hosts"
	for k in $(seq 1 "$(cat "$base/n")"); do
		echo "[$(cat "$base/node$k/addr")]:$(cat "$base/node$k/port") $(cut -d' ' -f1,2 "$base/node$k/host_ed25519.pub")" \
			>>"$base/known_hosts"
	done
}

free_port() {
	local addr=$1 port
	for _ in $(seq 1 50); do
		port=$((20000 + RANDOM % 40000))
		(exec 3<>"/dev/tcp/$addr/$port") 2>/dev/null || { echo "$port"; return; }
	done
	return 1
}

write_facts() {
	local base=$1 facts=$2 k nodes="" ports=""
	for k in $(seq 1 "$(cat "$base/n")"); do
		nodes="$nodes $(cat "$base/node$k/addr")" ports="$ports $(cat "$base/node$k/port")"
	done
	{
		echo "# loopback ssh nodes (tests/ssh/nodes.sh); source this file"
		printf 'export ASSAY_SSH_BASE=%q\n' "$base"
		printf 'export ASSAY_SSH_NODES=%q\n' "${nodes# }"
		printf 'export ASSAY_SSH_PORTS=%q\n' "${ports# }"
		printf 'export ASSAY_SSH_CONFIG=%q\n' "$base/ssh_config"
		printf 'export ASSAY_SSH_KEY=%q\n' "$base/id_ed25519"
		printf 'export ASSAY_SSH_KNOWN_HOSTS=%q\n' "$base/known_hosts"
		printf 'export ASSAY_SSH_USER=%q\n' "$(id -un)"
	} >"$facts"
}

start_watchdog() {
	local watch=$1 base=$2 here
	here=$(cd "$(dirname "$0")" && pwd)
	setsid bash -c '
		watch=$1 base=$2 here=$3
		while [ -d "$base" ]; do
			if ! kill -0 "$watch" 2>/dev/null; then
				"$here/nodes.sh" reap "$base"
				exit 0
			fi
			sleep 2
		done' watchdog "$watch" "$base" "$here" </dev/null >/dev/null 2>&1 &
}

do_start() {
	local n=$1 facts=$2 base k addr port
	[ -x "$SSHD" ] || skip "openssh-server is not installed (no $SSHD; scripts/deps.sh check)"
	command -v ssh-keygen >/dev/null || skip "ssh-keygen (openssh-client) is missing"
	[ "$(id -u)" = 0 ] || [ -d /run/sshd ] || skip "sshd needs /run/sshd (privilege separation), which only root can make"
	mkdir -p /run/sshd 2>/dev/null
	base=$(mktemp -d /tmp/assay-ssh.XXXXXX) || skip "cannot create a folder in /tmp"
	chmod 755 "$base"
	echo "$n" >"$base/n"
	start_watchdog "${ASSAY_SSH_WATCH_PID:-$PPID}" "$base"
	ssh-keygen -q -t ed25519 -N '' -C assay-test-client -f "$base/id_ed25519" || { do_reap "$base"; skip "ssh-keygen failed"; }
	cp "$base/id_ed25519.pub" "$base/authorized_keys"
	: >"$base/ssh_config"
	for k in $(seq 1 "$n"); do
		addr=127.0.0.$((k + 1))
		mkdir -p "$base/node$k"
		port=$(free_port "$addr") || { do_reap "$base"; skip "no free port on $addr"; }
		echo "$addr" >"$base/node$k/addr"
		echo "$port" >"$base/node$k/port"
		ssh-keygen -q -t ed25519 -N '' -C "assay-test-node$k" -f "$base/node$k/host_ed25519"
		node_conf "$base" "$k" "$addr" "$port"
		printf 'Host %s\n  Port %s\n' "$addr" "$port" >>"$base/ssh_config"
		start_node "$base" "$k" || { do_reap "$base"; skip "sshd of node $k did not start"; }
	done
	printf 'Host *\n  IdentityFile %s\n  IdentitiesOnly yes\n  UserKnownHostsFile %s\n  GlobalKnownHostsFile /dev/null\n  LogLevel ERROR\n' \
		"$base/id_ed25519" "$base/known_hosts" >>"$base/ssh_config"
	known_hosts "$base"
	write_facts "$base" "$facts"
	say "$n node(s) on$(. "$facts"; for a in $ASSAY_SSH_NODES; do printf ' %s' "$a"; done), ports $(. "$facts"; echo "$ASSAY_SSH_PORTS"); facts in $facts"
}

do_reap() {
	local base=$1 k
	[ -f "$base/n" ] || { rm -rf "$base"; return 0; }
	for k in $(seq 1 "$(cat "$base/n")"); do stop_node "$base" "$k"; done
	rm -rf "$base"
}

facts=$(abs "${ASSAY_SSH_ENV:-ssh-nodes.env}")
base_of() {
	[ -f "$facts" ] || { say "no nodes (no $facts)"; exit 1; }
	(. "$facts" && echo "$ASSAY_SSH_BASE")
}
case $cmd in
start) do_start "${2:?usage: nodes.sh start N}" "$facts" ;;
stop)
	[ -f "$facts" ] || exit 0
	do_reap "$(base_of)"
	rm -f "$facts"
	;;
reap) do_reap "${2:?}" ;;
kill) stop_node "$(base_of)" "${2:?usage: nodes.sh kill K}" ;;
rekey)
	base=$(base_of) k=${2:?usage: nodes.sh rekey K}
	stop_node "$base" "$k"
	rm -f "$base/node$k/host_ed25519" "$base/node$k/host_ed25519.pub"
	ssh-keygen -q -t ed25519 -N '' -C "assay-test-node$k-new" -f "$base/node$k/host_ed25519"
	start_node "$base" "$k"
	;;
*)
	echo "usage: nodes.sh start N | stop | kill K | rekey K" >&2
	exit 2
	;;
esac
