# Shared by the notify tests (source it after tests/lib/store.sh and
# store_init): the loopback recording server (server.py) and its log.
#   server_start DIR [CERT KEY]  starts server.py (HTTPS with a certificate);
#                        sets PORT, LOG, BASE (http://127.0.0.1:PORT)
#   log_count FILTER     how many recorded requests a Python expression on r
#                        (the request: method, path, headers, body, status) accepts
#   log_wait FILTER      waits (up to 60 s) until one does
#   fail MESSAGE         prints and exits 1
here_notify=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

server_start() { # DIR [CERT KEY]: with a certificate, HTTPS
	LOG=$1/requests.jsonl
	: >"$LOG"
	python3 "$here_notify/server.py" "$1/port" "$LOG" "${@:2}" &
	SERVER_PID=$!
	for _ in $(seq 1 300); do
		[ -s "$1/port" ] && break
		sleep 0.1
	done
	[ -s "$1/port" ] || fail "the recording server did not start"
	PORT=$(cat "$1/port")
	BASE=http://127.0.0.1:$PORT
}

server_stop() {
	[ -n "${SERVER_PID:-}" ] && kill "$SERVER_PID" 2>/dev/null
	[ -n "${SERVER_PID:-}" ] && wait "$SERVER_PID" 2>/dev/null
	SERVER_PID=""
}

log_count() {
	python3 - "$LOG" "$1" <<'PY'
import json, sys
n = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if eval(sys.argv[2], {}, {"r": r}):
        n += 1
print(n)
PY
}

log_wait() {
	for _ in $(seq 1 600); do
		[ "$(log_count "$1")" -gt 0 ] && return 0
		sleep 0.1
	done
	fail "no request for which $1"
}

# sink_start DIR [CERT KEY]: starts smtp_sink.py (offering STARTTLS with a
# certificate); sets SMTP_PORT and MAIL_LOG.
sink_start() {
	MAIL_LOG=$1/mail.jsonl
	: >"$MAIL_LOG"
	python3 "$here_notify/smtp_sink.py" "$1/smtp-port" "$MAIL_LOG" "${@:2}" &
	SINK_PID=$!
	for _ in $(seq 1 300); do
		[ -s "$1/smtp-port" ] && break
		sleep 0.1
	done
	[ -s "$1/smtp-port" ] || fail "the SMTP sink did not start"
	SMTP_PORT=$(cat "$1/smtp-port")
}

sink_stop() {
	[ -n "${SINK_PID:-}" ] && kill "$SINK_PID" 2>/dev/null
	[ -n "${SINK_PID:-}" ] && wait "$SINK_PID" 2>/dev/null
	SINK_PID=""
}
