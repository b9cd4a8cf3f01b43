# Shared by the assay serve tests: start a server on a free loopback port and
# stop it. Source after tests/lib/store.sh, then:
#   serve_start NAME ARGS...   starts `assay serve ARGS --listen 127.0.0.1:0`,
#                              waits for its "serving ... at URL" line and sets
#                              URL_NAME (http://127.0.0.1:PORT) and PID_NAME;
#                              its stderr (the request log) goes to $T/NAME.log
#   serve_stop NAME            SIGTERM to that server, and waits for it
#   serve_stop_all             every server started (call it on exit)
# $assay is the binary, $T the test's scratch folder.

SERVE_PIDS=""

serve_start() {
	local name=$1 i pid
	shift
	"$assay" serve "$@" --listen 127.0.0.1:0 >"$T/$name.out" 2>"$T/$name.log" &
	pid=$!
	SERVE_PIDS="$SERVE_PIDS $pid"
	eval "PID_$name=$pid"
	for i in $(seq 1 600); do
		if grep -q '^serving .* at http://127.0.0.1:[0-9]*/' "$T/$name.out" 2>/dev/null; then
			eval "URL_$name=$(sed -n 's|^serving .* at \(http://127.0.0.1:[0-9]*\)/.*|\1|p' "$T/$name.out")"
			return 0
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			cat "$T/$name.log" >&2
			echo "FAIL: assay serve ($name) exited before listening" >&2
			exit 1
		fi
		sleep 0.1
	done
	echo "FAIL: assay serve ($name) did not say where it listens in 60 s" >&2
	exit 1
}

serve_stop() {
	local pid
	eval "pid=\${PID_$1:-}"
	[ -n "$pid" ] || return 0
	kill -TERM "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	eval "PID_$1="
}

serve_stop_all() {
	local pid
	for pid in $SERVE_PIDS; do
		kill -TERM "$pid" 2>/dev/null || true
	done
	for pid in $SERVE_PIDS; do
		wait "$pid" 2>/dev/null || true
	done
	SERVE_PIDS=""
}
