#!/usr/bin/env bash
# docs/serve.md's reverse proxy, run: the nginx site file of the page (the
# block after <!-- serve-proxy: nginx -->) with a self-signed certificate, a
# free port and this test's store put in, in front of `assay serve` started
# with the page's token line; through TLS the overview and its headers
# arrive, an ack with the token is stored and one without it is refused.
# Exit 77 (CTest skip) without nginx or openssl.
#   proxy.sh ASSAY
set -euo pipefail
assay=$1
src=${ASSAY_SOURCE_DIR:?}
T=$(mktemp -d /tmp/assay-serve-proxy.XXXXXX)
. "$src/tests/lib/store.sh"
. "$src/tests/serve/lib.sh"
nginx_pid=""
cleanup() {
	[ -z "$nginx_pid" ] || { kill "$nginx_pid" 2>/dev/null; wait "$nginx_pid" 2>/dev/null; } || true
	serve_stop_all
	store_cleanup
	rm -rf "$T"
}
trap cleanup EXIT
store_init "$T"
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
nginx=$(command -v nginx || echo /usr/sbin/nginx)
if [ ! -x "$nginx" ] || ! command -v openssl >/dev/null; then
	echo "SKIP: nginx or openssl is not installed (scripts/deps.sh check installs nginx-light)" >&2
	exit 77
fi
doc=$src/docs/serve.md
block() { # the fenced block after <!-- serve-proxy: $1 -->
	awk -v m="<!-- serve-proxy: $1 -->" '$0 == m { on = 1; next } on && /^```/ { if (in_) exit; in_ = 1; next } on && in_ { print }' "$doc"
}
block nginx >"$T/site.conf"
block commands >"$T/commands.sh"
[ -s "$T/site.conf" ] && [ -s "$T/commands.sh" ] || fail "docs/serve.md lost its proxy blocks"

S=$(store_new proxy)
"$assay" store ingest --store "$S" "$src/tests/fixtures/ingest/rccl_ci-history.jsonl" >/dev/null
# The page's token line, as it is.
eval "$(grep '^export ASSAY_TOKENS=' "$T/commands.sh")"
secret=${ASSAY_TOKENS#alice:write:}
[ ${#secret} = 48 ] || fail "the page's token line did not make alice's token"
grep -q -- '--token-env ASSAY_TOKENS --no-log' "$T/commands.sh" || fail "the page's serve line changed"
serve_start main --store "$S" --token-env ASSAY_TOKENS --no-log
upstream=${URL_main#http://}

mkdir -p "$T/ssl" "$T/tmp"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=assay.example.org \
	-addext subjectAltName=DNS:assay.example.org -keyout "$T/ssl/key.pem" -out "$T/ssl/cert.pem" 2>/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
sed -e "s|listen 443 ssl;|listen 127.0.0.1:$port ssl;|" -e "s|/etc/ssl/assay|$T/ssl|" \
	-e "s|127.0.0.1:8765|$upstream|" "$T/site.conf" >"$T/site-test.conf"
grep -q "$upstream" "$T/site-test.conf" && grep -q "127.0.0.1:$port ssl" "$T/site-test.conf" ||
	fail "the site file's listen or proxy_pass line changed"
cat >"$T/nginx.conf" <<CONF
daemon off;
$( [ "$(id -u)" = 0 ] && echo 'user root;' )
worker_processes 1;
pid $T/nginx.pid;
error_log $T/error.log;
events {}
http {
    access_log $T/access.log;
    client_body_temp_path $T/tmp/body;
    proxy_temp_path $T/tmp/proxy;
    fastcgi_temp_path $T/tmp/fastcgi;
    uwsgi_temp_path $T/tmp/uwsgi;
    scgi_temp_path $T/tmp/scgi;
    include $T/site-test.conf;
}
CONF
"$nginx" -t -c "$T/nginx.conf" -p "$T" >/dev/null 2>"$T/nginx-t.log" || { cat "$T/nginx-t.log" >&2; fail "nginx -t"; }
"$nginx" -c "$T/nginx.conf" -p "$T" &
nginx_pid=$!
U=https://assay.example.org:$port
C=(--cacert "$T/ssl/cert.pem" --resolve "assay.example.org:$port:127.0.0.1" -s)
for _ in $(seq 1 600); do
	curl "${C[@]}" -o /dev/null "$U/api/v1/state" && break
	sleep 0.1
done
curl "${C[@]}" "$U/api/v1/state" | grep -q '"generation"' || fail "no answer through nginx"
curl "${C[@]}" -D "$T/h.txt" -o "$T/o.html" "$U/"
grep -q '^HTTP/1.1 200' "$T/h.txt" || fail "overview through TLS: $(head -1 "$T/h.txt")"
grep -qi "^Content-Security-Policy: default-src 'none'" "$T/h.txt" || fail "the policy did not pass the proxy"
grep -q 'id="series-table"' "$T/o.html" || fail "no overview through TLS"
key=$("$assay" store series --store "$S" --match precision=bf16 --json | python3 -c 'import json,sys; print([s["series_key"] for s in json.load(sys.stdin)][0])')
body='{"series":"'$key'","revision":"c30","kind":"ack","note":"through the proxy"}'
c=$(curl "${C[@]}" -o /dev/null -w '%{http_code}' -X POST -d "$body" "$U/api/v1/annotations")
[ "$c" = 401 ] || fail "an ack without a token through the proxy answered $c"
c=$(curl "${C[@]}" -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $secret" -d "$body" "$U/api/v1/annotations")
[ "$c" = 201 ] || fail "the ack with the token through the proxy answered $c"
"$assay" history --store "$S" "$key" | grep -q 'ack: by alice: through the proxy' || fail "the ack is not stored"
! grep -rq -- "$secret" "$T/access.log" "$T/error.log" "$T/main.out" "$T/main.log" || fail "the token reached a log"
echo "ok: docs/serve.md's proxy on $(store_backend)"
