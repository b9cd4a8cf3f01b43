#!/usr/bin/env bash
# A private PostgreSQL server for the tests (the CTest fixture "pg",
# tests/pg/CMakeLists.txt), from Debian's postgresql package:
#
#   server.sh start [FACTS]    initdb a temporary folder, start the server, write FACTS
#   server.sh stop [FACTS]     stop it and remove its folder and FACTS
#   server.sh restart [FACTS]  stop and start the same server (same port, same data)
#   server.sh env [FACTS]      print FACTS (export lines): eval "$(server.sh env FACTS)"
#
# FACTS is the file of connection facts test scripts read (default
# $ASSAY_PG_ENV, else ./pg-server.env); CTest passes
# BUILD/tests/pg/server.env. The server listens on a Unix socket in its
# folder and on a free port of 127.0.0.1. Roles (docs/development.md,
# "Stores on both backends"):
#   assay     trust on 127.0.0.1 and the socket; creates the tests' databases
#   assay_pw  scram-sha-256 on 127.0.0.1, password $ASSAY_PG_PASSWORD (a canary)
#   assay_ro  trust; SELECT only (pg_read_all_data)
#   postgres  the superuser, on the socket only
# When the server starts under ctest, a watchdog stops and removes it once
# that ctest process is gone (kill -9 included); ASSAY_PG_WATCH_PID names
# another process to watch. ASSAY_PG_BINDIR overrides the newest
# /usr/lib/postgresql/*/bin. Exits 77 (CTest SKIP_RETURN_CODE) with "SKIP:"
# when PostgreSQL is not installed; ASSAY_REQUIRE_POSTGRES=1 makes that exit 1.
# The server runs with fsync, synchronous_commit and full_page_writes off and
# 32 MB of shared buffers; ASSAY_PG_DURABLE=1 at start keeps PostgreSQL's
# defaults instead (on, on, on, 128 MB: what bench/store-speed.sh measures).
set -uo pipefail

cmd=${1:-}
facts=${2:-${ASSAY_PG_ENV:-$PWD/pg-server.env}}
case $facts in /*) ;; *) facts=$PWD/$facts ;; esac
pg_user=assaypg # the system user the server runs as when we are root

say() { echo "pg-server: $*" >&2; }

skip() {
	if [ "${ASSAY_REQUIRE_POSTGRES:-0}" = 1 ]; then
		say "FAILED (ASSAY_REQUIRE_POSTGRES=1): $*"
		exit 1
	fi
	echo "SKIP: pg-server: $*" >&2
	exit 77
}

# The newest installed server's bin folder (initdb, pg_ctl, postgres).
find_bindir() {
	local d
	if [ -n "${ASSAY_PG_BINDIR:-}" ]; then
		[ -x "$ASSAY_PG_BINDIR/initdb" ] && echo "$ASSAY_PG_BINDIR"
		return
	fi
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
		[ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && { echo "$d"; return; }
	done
	d=$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")
	[ -x "$d/initdb" ] && echo "$d"
}

# as_owner CMD...: run CMD as the server's owner (initdb and postgres refuse root).
as_owner() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid="$owner" --regid="$owner" --init-groups -- "$@"
	else
		"$@"
	fi
}

# The server's owner: ourselves, or as root a system user (made if missing).
pick_owner() {
	if [ "$(id -u)" != 0 ]; then
		owner=$(id -un)
	elif id -u "$pg_user" >/dev/null 2>&1 ||
		useradd --system --no-create-home --shell /usr/sbin/nologin "$pg_user" >/dev/null 2>&1; then
		owner=$pg_user
	else
		owner=nobody
	fi
}

# The first ancestor process named ctest (the run the fixture belongs to).
find_ctest() {
	local p=$PPID comm
	while [ -n "$p" ] && [ "$p" -gt 1 ]; do
		comm=$(cat "/proc/$p/comm" 2>/dev/null) || return 0
		[ "$comm" = ctest ] && { echo "$p"; return; }
		p=$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f2 || true)
	done
}

# stop_base BINDIR BASE: stop the server of folder BASE (fast, then
# immediate, then SIGKILL) and remove the folder.
stop_base() {
	local bindir=$1 base=$2 pid
	[ -d "$base" ] || return 0
	if [ -f "$base/data/postmaster.pid" ]; then
		pid=$(head -n 1 "$base/data/postmaster.pid")
		as_owner "$bindir/pg_ctl" -D "$base/data" -m fast -w -t 20 stop >/dev/null 2>&1 ||
			as_owner "$bindir/pg_ctl" -D "$base/data" -m immediate -w -t 20 stop >/dev/null 2>&1 ||
			kill -KILL "$pid" 2>/dev/null
	fi
	rm -rf "$base"
}

write_facts() {
	local tmp=$facts.tmp.$$ k
	mkdir -p "$(dirname "$facts")" || return 1
	{
		echo "# PostgreSQL test server (tests/pg/server.sh); source this file"
		for k in ASSAY_PG_BINDIR ASSAY_PG_BASE ASSAY_PG_OWNER ASSAY_PG_SOCKET ASSAY_PG_HOST ASSAY_PG_PORT \
			ASSAY_PG_USER ASSAY_PG_URL ASSAY_PG_PW_USER ASSAY_PG_PASSWORD ASSAY_PG_RO_USER ASSAY_PG_ADMIN \
			ASSAY_PG_WATCHDOG; do
			printf 'export %s=%q\n' "$k" "${!k}"
		done
	} >"$tmp" && mv "$tmp" "$facts"
}

# init_cluster: initdb into $base/data and write its configuration.
init_cluster() {
	mkdir -p "$base/data" "$base/sock" && chmod 700 "$base/data" && chmod 755 "$base" "$base/sock" &&
		chown -R "$owner" "$base" || return 1
	as_owner "$bindir/initdb" -D "$base/data" -U postgres -A trust -E UTF8 --locale=C --no-sync \
		>"$base/initdb.log" 2>&1 || { cat "$base/initdb.log" >&2; return 1; }
	cat >>"$base/data/postgresql.conf" <<-CONF
		listen_addresses = '127.0.0.1'
		unix_socket_directories = '$base/sock'
		max_connections = 200
		log_min_messages = warning
	CONF
	# Test speed over durability: no fsync, small buffers (a throwaway
	# server); ASSAY_PG_DURABLE=1 (the benchmarks) keeps the server's defaults.
	[ "${ASSAY_PG_DURABLE:-0}" = 1 ] || cat >>"$base/data/postgresql.conf" <<-CONF
		fsync = off
		synchronous_commit = off
		full_page_writes = off
		shared_buffers = 32MB
	CONF
	cat >"$base/data/pg_hba.conf" <<-HBA
		local all all                           trust
		host  all assay,assay_ro 127.0.0.1/32   trust
		host  all assay_pw       127.0.0.1/32   scram-sha-256
	HBA
}

# start_server: pg_ctl start on a free port, a few tries (another process may
# take the port between the check and the bind).
start_server() {
	local try port
	for try in 1 2 3 4 5 6 7 8; do
		port=$((20000 + RANDOM % 40000))
		(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && continue
		if as_owner "$bindir/pg_ctl" -D "$base/data" -l "$base/server.log" -o "-p $port" -w -t 60 start \
			>/dev/null 2>&1; then
			ASSAY_PG_PORT=$port
			return 0
		fi
		grep -q 'could not bind\|could not create listen socket' "$base/server.log" 2>/dev/null || break
		say "port $port taken (try $try)"
	done
	tail -n 20 "$base/server.log" >&2 2>/dev/null
	return 1
}

make_roles() {
	"$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$base/sock" -p "$ASSAY_PG_PORT" -U postgres -d postgres <<-SQL
		CREATE ROLE assay LOGIN CREATEDB;
		CREATE ROLE assay_pw LOGIN CREATEDB PASSWORD '$ASSAY_PG_PASSWORD';
		CREATE ROLE assay_ro LOGIN;
		GRANT pg_read_all_data TO assay_ro;
	SQL
}

# The watchdog: a detached loop that stops the server when the watched
# process is gone, and ends by itself when the server was stopped.
start_watchdog() {
	local watch=$1
	setsid bash -c '
		watch=$1 base=$2 here=$3 facts=$4
		while [ -d "$base" ]; do
			if ! kill -0 "$watch" 2>/dev/null; then
				"$here/server.sh" reap "$facts" "$base" || true
				exit 0
			fi
			sleep 2
		done' watchdog "$watch" "$base" "$here" "$facts" </dev/null >/dev/null 2>&1 &
	ASSAY_PG_WATCHDOG=$!
}

do_start() {
	bindir=$(find_bindir)
	[ -n "$bindir" ] || skip "PostgreSQL is not installed (no initdb in ${ASSAY_PG_BINDIR:-/usr/lib/postgresql/*/bin}; Debian: apt-get install postgresql, or scripts/deps.sh check)"
	command -v setpriv >/dev/null || [ "$(id -u)" != 0 ] || skip "setpriv (util-linux) is missing"
	[ -f "$facts" ] && do_stop
	pick_owner
	base=$(mktemp -d /tmp/assay-pg.XXXXXX) || skip "cannot create a folder in /tmp"
	init_cluster || { rm -rf "$base"; skip "initdb failed"; }
	start_server || { rm -rf "$base"; skip "the server did not start"; }
	ASSAY_PG_PASSWORD=canary-PW-$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')
	if ! make_roles; then
		stop_base "$bindir" "$base"
		skip "creating the roles failed"
	fi
	ASSAY_PG_BINDIR=$bindir ASSAY_PG_BASE=$base ASSAY_PG_OWNER=$owner ASSAY_PG_SOCKET=$base/sock
	ASSAY_PG_HOST=127.0.0.1 ASSAY_PG_USER=assay ASSAY_PG_PW_USER=assay_pw ASSAY_PG_RO_USER=assay_ro
	ASSAY_PG_URL=postgresql://assay@127.0.0.1:$ASSAY_PG_PORT
	ASSAY_PG_ADMIN="host=$base/sock port=$ASSAY_PG_PORT user=postgres dbname=postgres"
	ASSAY_PG_WATCHDOG=""
	local watch=${ASSAY_PG_WATCH_PID:-$(find_ctest)}
	[ -n "$watch" ] && start_watchdog "$watch"
	write_facts || { stop_base "$bindir" "$base"; skip "cannot write $facts"; }
	echo "pg-server: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$ASSAY_PG_PORT" \
		"and $base/sock, run by $owner${watch:+, watchdog on pid $watch}; facts in $facts"
}

do_stop() {
	[ -f "$facts" ] || { say "no server (no $facts)"; return 0; }
	(
		# shellcheck disable=SC1090
		. "$facts"
		owner=$ASSAY_PG_OWNER
		stop_base "$ASSAY_PG_BINDIR" "$ASSAY_PG_BASE"
		echo "pg-server: stopped and removed $ASSAY_PG_BASE"
	)
	rm -f "$facts"
}

# reap FACTS BASE (the watchdog): stop the server of BASE; remove FACTS only
# when it still describes that server (a new run may have started another).
do_reap() {
	local base=$1 bindir
	bindir=$(find_bindir)
	owner=$(stat -c %U "$base/data" 2>/dev/null || echo nobody)
	stop_base "$bindir" "$base"
	if [ -f "$facts" ] && grep -qxF "export ASSAY_PG_BASE=$base" "$facts"; then rm -f "$facts"; fi
}

do_restart() {
	[ -f "$facts" ] || { say "no server (no $facts)"; exit 1; }
	# shellcheck disable=SC1090
	. "$facts"
	owner=$ASSAY_PG_OWNER
	as_owner "$ASSAY_PG_BINDIR/pg_ctl" -D "$ASSAY_PG_BASE/data" -l "$ASSAY_PG_BASE/server.log" \
		-o "-p $ASSAY_PG_PORT" -m fast -w -t 60 restart >/dev/null || exit 1
	echo "pg-server: restarted on 127.0.0.1:$ASSAY_PG_PORT"
}

here=$(cd "$(dirname "$0")" && pwd)
case $cmd in
start) do_start ;;
stop) do_stop ;;
reap) do_reap "${3:?}" ;;
restart) do_restart ;;
env)
	[ -f "$facts" ] || { say "no server (no $facts)"; exit 1; }
	cat "$facts"
	;;
*)
	echo "usage: server.sh start|stop|restart|env [FACTS]" >&2
	exit 2
	;;
esac
