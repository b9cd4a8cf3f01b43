#!/usr/bin/env bash
# assay serve against a store on the test's backend, driven with curl on a
# loopback port: the pages, the JSON API against what the CLI prints with
# --format json, the security headers, escaping, refused targets, the ETag,
# tokens (401, 403, 201, never logged), the limits (header count, body
# size, connection count, idle time), and a run's page and files (no path
# out of its output folder: "..", symlinks, encoded slashes, absolute paths). Each security check here fails when
# its check in src/lib/serve or src/assay/cmd_serve.c is taken out.
#   serve.sh ASSAY REPORT_STORE
set -euo pipefail
assay=$1
gen=$2
src=${ASSAY_SOURCE_DIR:?}
T=$(mktemp -d /tmp/assay-serve.XXXXXX)
. "$src/tests/lib/store.sh"
. "$src/tests/serve/lib.sh"
trap 'serve_stop_all; store_cleanup; rm -rf "$T"' EXIT
store_init "$T"
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
fx=$src/tests/fixtures/ingest
S=$(store_new serve)
"$assay" store ingest --store "$S" "$fx/rccl_ci-history.jsonl" >/dev/null
# A series whose cluster is markup: it must render as text.
"$assay" store ingest --store "$S" --set 'cluster=<script>alert(1)</script>' \
	"$fx/rccl_ci.jsonl" >/dev/null

write=w-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
read=r-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
export SERVE_TOKENS="alice:write:$write bob:read:$read"
serve_start main --store "$S" --token-env SERVE_TOKENS --timeout 2
U=$URL_main
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }

# ---- pages and headers ----
curl -s -D "$T/h.txt" -o "$T/overview.html" "$U/"
grep -q '^HTTP/1.1 200' "$T/h.txt" || fail "overview: $(head -1 "$T/h.txt")"
grep -qi "^Content-Security-Policy: default-src 'none'; script-src 'self'" "$T/h.txt" ||
	fail "no strict Content-Security-Policy"
grep -qi '^X-Content-Type-Options: nosniff' "$T/h.txt" || fail "no X-Content-Type-Options"
grep -qi '^Referrer-Policy: no-referrer' "$T/h.txt" || fail "no Referrer-Policy"
! grep -qi '^Set-Cookie' "$T/h.txt" || fail "a cookie was set"
grep -q 'id="series-table"' "$T/overview.html" || fail "the overview has no series table"
[ "$(grep -o '<a href="/series/[0-9a-f]*">' "$T/overview.html" | wc -l)" = 8 ] ||
	fail "the overview does not list the store's 8 series"
grep -q '<span class="b v-FAIL">regression</span> -5.2% at c30' "$T/overview.html" ||
	fail "the overview does not show the bf16 series' regression at c30"
# Escaping: the markup of the store is text.
grep -q 'cluster=&lt;script&gt;alert(1)&lt;/script&gt;' "$T/overview.html" ||
	fail "the markup series is not shown escaped"
! grep -q '<script>alert' "$T/overview.html" || fail "markup from the store reached the page"
# Filter and paging from the URL.
curl -s "$U/?match=precision=bf16&per=1&page=2&sort=label" >"$T/f.html"
grep -q '4 series; 2 to 2 shown' "$T/f.html" || fail "match/per/page: $(grep -o 'id="shown">[^<]*' "$T/f.html")"

# ---- the JSON API is what the CLI prints ----
"$assay" store series --store "$S" --match precision=bf16 --json >"$T/cli-series.json"
curl -s "$U/api/v1/series?match=precision=bf16" >"$T/api-series.json"
cmp "$T/cli-series.json" "$T/api-series.json" || fail "/api/v1/series differs from assay store series --json"
key=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([s["series_key"] for s in d if s["series"].get("workload")=="llama3-70b-pretrain" and s["count"]==40][0])' "$T/cli-series.json")
"$assay" history --store "$S" --json "$key" >"$T/cli-history.json"
curl -s "$U/api/v1/series/$key" >"$T/api-history.json"
cmp "$T/cli-history.json" "$T/api-history.json" || fail "/api/v1/series/KEY differs from assay history --json"
"$assay" history --store "$S" --json --since 2026-11-01 --last 5 "$key" >"$T/cli-h2.json"
curl -s "$U/api/v1/series/$key?since=2026-11-01&last=5" >"$T/api-h2.json"
cmp "$T/cli-h2.json" "$T/api-h2.json" || fail "since/last differ from the CLI's"
curl -s "$U/series/$key" >"$T/series.html"
grep -q '<svg' "$T/series.html" || fail "the series page has no chart"
grep -q 'id="ack"' "$T/series.html" || fail "the series page has no ack form"
[ "$(code "$U/series/${key:0:12}")" = 200 ] || fail "a key prefix is not found"
[ "$(code "$U/series/0000000000")" = 404 ] || fail "an unknown series is not 404"

# ---- refused targets ----
for t in '/series/../etc/passwd' '/%2e%2e/etc/passwd' '/assets%2Freport.css' '//etc/passwd' \
	'/./' '/?match=%zz' '/?color=red' '/?last=-1' '/?match=a%00=b' '/?since=2026-11-01%3Cx'; do
	c=$(curl -s --path-as-is -o /dev/null -w '%{http_code}' "$U$t")
	[ "$c" = 400 ] || fail "$t answered $c, not 400"
done
c=$(curl -s -o /dev/null -w '%{http_code}' --request-target 'http://evil.example/' "$U/")
[ "$c" = 400 ] || fail "an absolute-form target answered $c, not 400"
[ "$(code "$U/etc/passwd")" = 404 ] || fail "an unknown path is not 404"
[ "$(code -X DELETE "$U/")" = 405 ] || fail "DELETE is not 405"
[ "$(code -X GET "$U/api/v1/annotations")" = 405 ] || fail "GET of annotations is not 405"
long=$(head -c 5000 /dev/zero | tr '\0' a)
[ "$(code "$U/?match=a=$long")" = 414 ] || fail "a 5000-byte target is not 414"

# ---- ETag polling ----
etag=$(curl -s -D - -o /dev/null "$U/" | sed -n 's/^ETag: \(.*\)\r$/\1/Ip')
[ -n "$etag" ] || fail "no ETag"
[ "$(code -H "If-None-Match: $etag" "$U/")" = 304 ] || fail "the same ETag is not 304"
gen1=$(curl -s "$U/api/v1/state")
"$assay" store ingest --store "$S" --set cluster=c2 "$fx/rccl_ci-new.jsonl" >/dev/null
[ "$(code -H "If-None-Match: $etag" "$U/")" = 200 ] || fail "a new ingest does not change the ETag"
[ "$(curl -s "$U/api/v1/state")" != "$gen1" ] || fail "/api/v1/state did not move with an ingest"

# ---- tokens ----
ack() { curl -s -o "$T/ack.json" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
	"$@" -d "{\"series\":\"$key\",\"revision\":\"c30\",\"kind\":\"ack\",\"note\":\"new kernel\"}" \
	"$U/api/v1/annotations"; }
[ "$(ack)" = 401 ] || fail "an ack without a token is not 401"
curl -s -D - -o /dev/null -X POST -d '{}' "$U/api/v1/annotations" | grep -qi '^WWW-Authenticate: Bearer' ||
	fail "401 without WWW-Authenticate"
[ "$(ack -H "Authorization: Bearer x$write")" = 401 ] || fail "a wrong token is not 401"
[ "$(ack -H "Authorization: Bearer ${write:0:10}")" = 401 ] || fail "a token's prefix is not 401"
[ "$(ack -H "Authorization: Bearer $read")" = 403 ] || fail "a read-only token's write is not 403"
"$assay" history --store "$S" "$key" | grep -q 'ack' && fail "a refused ack was stored"
[ "$(ack -H "Authorization: Bearer $write")" = 201 ] || fail "the write token's ack: $(cat "$T/ack.json")"
"$assay" history --store "$S" "$key" | grep -q 'c30 .*ack: by alice: new kernel' ||
	fail "assay history does not show alice's ack"
curl -s "$U/series/$key" | grep -q '<tr class="ann"><td>ack</td><td>c30</td><td>by alice: new kernel' ||
	fail "the series page does not show the ack"
bad=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $write" \
	-d '{"series":"'"$key"'","revision":"nope","kind":"ack"}' "$U/api/v1/annotations")
[ "$bad" = 400 ] || fail "an ack of a revision the series lacks is $bad, not 400"
! grep -q -e "$write" -e "$read" "$T/main.log" "$T/main.out" || fail "a token reached the log"
for f in $(store_files "$S"); do
	! grep -rqa -e "$write" -e "$read" "$f" || fail "a token reached the store ($f)"
done

# ---- limits ----
hdrs=()
for i in $(seq 1 80); do hdrs+=(-H "X-Pad-$i: 1"); done
[ "$(code "${hdrs[@]}" "$U/")" = 431 ] || fail "80 header fields are not 431"
head -c 20000 /dev/zero | tr '\0' ' ' >"$T/big.json"
c=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $write" \
	--data-binary @"$T/big.json" "$U/api/v1/annotations")
[ "$c" = 413 ] || fail "a 20000-byte body answered $c, not 413"
# A slow client is dropped: a connection that sends half a request is
# closed after --timeout 2 (recv gives b"" long before its own 60 s).
python3 - "${U#http://}" <<'PY' || fail "an idle connection was not closed"
import socket, sys
host, port = sys.argv[1].split(":")
s = socket.create_connection((host, int(port)), timeout=60)
s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
try:
    assert s.recv(100) == b"", "the idle connection got an answer"
except ConnectionResetError:
    pass
PY
# Connections are bounded: with --max-connections 3 (and a long idle
# timeout), three half-sent requests hold every slot and a fourth request
# waits unanswered; once they go, it is answered.
serve_start lim --store "$S" --max-connections 3 --timeout 120
python3 - "${URL_lim#http://}" <<'PY' || fail "the connection limit does not hold"
import socket, sys
host, port = sys.argv[1].split(":")
slow = []
for _ in range(3):
    s = socket.create_connection((host, int(port)), timeout=60)
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    slow.append(s)
extra = socket.create_connection((host, int(port)), timeout=2)
extra.sendall(b"GET /api/v1/state HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
try:
    got = extra.recv(100)
except socket.timeout:
    got = None
assert got is None, "a fourth connection was served while three held the slots"
for s in slow:
    s.close()
extra.settimeout(60)
assert extra.recv(100).startswith(b"HTTP/1.1 200"), "the fourth was not served after"
PY
[ "$(code "$U/")" = 200 ] || fail "the server does not answer after the slow clients"

# ---- run pages and the files of a run's output folder ----
# A run as `assay run` leaves it (tests/report/report_store), moved into a
# store of this backend; its folder holds a symlink out of it.
cd "$T"
run=$("$gen" --cases 4 --runs 2 runs.db out)
R=runs.db
if [ "$(store_backend)" != sqlite ]; then
	R=$(store_new runs)
	"$assay" store copy runs.db "$R" >/dev/null
fi
case1=$(ls "out/$run" | grep -v summary.json | head -1)
ln -s /etc/passwd "out/$run/$case1/leak.log"
ln -s /etc "out/$run/etc"
echo outside >secret.txt
serve_start runs --store "$R"
V=$URL_runs
[ "$(code "$V/run/$run")" = 308 ] || fail "/run/ID without its slash is not redirected"
curl -s -D "$T/rh.txt" -o "$T/run.html" "$V/run/$run/"
grep -q '^HTTP/1.1 200' "$T/rh.txt" || fail "the run page: $(head -1 "$T/rh.txt")"
grep -q "id=\"case-table\"" "$T/run.html" || fail "the run page has no case table"
! grep -q '<script>' "$T/run.html" || fail "the run page has an inline script"
! grep -q 'style=' "$T/run.html" || fail "the run page has an inline style"
grep -q "href=\"$case1/stdout.log\"" "$T/run.html" || fail "the run page does not link the case's log"
curl -s -D "$T/fh.txt" -o "$T/stdout.log" "$V/run/$run/$case1/stdout.log"
cmp -s "$T/stdout.log" "out/$run/$case1/stdout.log" || fail "the case's log is not served as it is"
grep -qi '^Content-Type: text/plain' "$T/fh.txt" || fail "a file is not served as text/plain"
curl -s "$V/run/$run/$case1/" | grep -q "href=\"/run/$run/$case1/stdout.log\"" ||
	fail "the case folder's listing does not link its files"
for t in "/run/$run/$case1/leak.log" "/run/$run/etc/passwd"; do
	c=$(code "$V$t")
	[ "$c" = 403 ] || fail "$t (a symlink out of the folder) answered $c, not 403"
done
for t in "/run/$run/../secret.txt" "/run/$run/%2e%2e/secret.txt" "/run/$run/$case1%2Fstdout.log" \
	"/run/$run//etc/passwd" "/run/$run/$case1/%00" "/run/..%2F/secret.txt"; do
	c=$(curl -s --path-as-is -o /dev/null -w '%{http_code}' "$V$t")
	[ "$c" = 400 ] || fail "$t answered $c, not 400"
done
# The overview's Gate column: every series a gate judged shows its newest verdict.
judged=$(store_sql "$R" "SELECT COUNT(DISTINCT series_key) FROM verdicts WHERE series_key IS NOT NULL")
shown=0
for p in 1 2 3 4 5 6; do
	n=$(curl -s "$V/?per=500&page=$p" | { grep -oE '<td><span class="b v-(PASS|FAIL|RECORD|SKIPPED)">[A-Z]+</span> [a-z-]+</td></tr>' || true; } | wc -l)
	shown=$((shown + n))
done
[ "$judged" -gt 0 ] && [ "$shown" = "$judged" ] || fail "the overview shows $shown gate verdicts, the store has $judged judged series"
# /run/last/ is the newest run's page, and its relative links resolve there.
newest=$(store_sql "$R" "SELECT run_id FROM runs ORDER BY id DESC LIMIT 1")
ncase=$(find "out/$newest" -mindepth 1 -maxdepth 1 -type d | sort | head -1)
ncase=${ncase##*/}
curl -s -o "$T/last.html" "$V/run/last/"
grep -q "href=\"$ncase/stdout.log\"" "$T/last.html" || fail "/run/last/ does not link the newest run's log"
curl -s -o "$T/last.log" "$V/run/last/$ncase/stdout.log"
cmp -s "$T/last.log" "out/$newest/$ncase/stdout.log" || fail "/run/last/$ncase/stdout.log is not the newest run's log"
[ "$(code "$V/run/no-such-run/")" = 404 ] || fail "an unknown run is not 404"
[ "$(code "$V/run/$run/no-such-file")" = 404 ] || fail "a missing file is not 404"

# ---- a server without tokens is read-only ----
serve_start ro --store "$S"
grep -q '(read-only)' "$T/ro.out" || fail "the read-only server does not say so"
[ "$(curl -s -o /dev/null -w '%{http_code}' -X POST -d '{}' "$URL_ro/api/v1/annotations")" = 403 ] ||
	fail "a write to a read-only server is not 403"
# Loopback by default: without --listen it binds 127.0.0.1:8765 (or, when
# that port is taken, says it cannot listen there).
"$assay" serve --store "$S" >"$T/def.out" 2>"$T/def.err" &
dpid=$!
for _ in $(seq 1 600); do
	[ -s "$T/def.out" ] || [ -s "$T/def.err" ] || ! kill -0 "$dpid" 2>/dev/null && break
	sleep 0.1
done
kill -TERM "$dpid" 2>/dev/null || true
wait "$dpid" 2>/dev/null || true
grep -q '^serving .* at http://127.0.0.1:8765/' "$T/def.out" ||
	grep -q 'cannot listen on 127.0.0.1:8765' "$T/def.err" ||
	fail "the default address is not 127.0.0.1:8765: $(cat "$T/def.out" "$T/def.err")"
echo "ok: assay serve on $(store_backend)"
