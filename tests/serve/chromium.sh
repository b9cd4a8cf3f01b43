#!/usr/bin/env bash
# assay serve in headless Chromium (as tests/report/chrome-check.sh runs the
# report: every flag that keeps the browser from talking to anything else),
# driven by tests/serve/browser.py over the DevTools protocol: the overview
# and a series page load with no console message, their charts are drawn,
# the filter form narrows the overview, an ack with a wrong token is refused
# and one with the write token appears on the series page; then `assay
# history` shows it too. Exit 77 (CTest skip) when Chromium is missing and
# scripts/deps.sh cannot install it.
#   chromium.sh ASSAY
set -euo pipefail
assay=$1
src=${ASSAY_SOURCE_DIR:?}
T=$(mktemp -d /tmp/assay-serve-chromium.XXXXXX)
. "$src/tests/lib/store.sh"
. "$src/tests/serve/lib.sh"
chrome_pid=""
cleanup() {
	[ -z "$chrome_pid" ] || { kill "$chrome_pid" 2>/dev/null; wait "$chrome_pid" 2>/dev/null; } || true
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
if ! command -v chromium >/dev/null 2>&1; then
	"$src/scripts/deps.sh" chromium >&2 || true
fi
if ! command -v chromium >/dev/null 2>&1; then
	echo "SKIP: Chromium is not installed and 'scripts/deps.sh chromium' could not install it" >&2
	exit 77
fi

fx=$src/tests/fixtures/ingest
S=$(store_new chromium)
"$assay" store ingest --store "$S" "$fx/rccl_ci-history.jsonl" >/dev/null
"$assay" store ingest --store "$S" --set 'cluster=<script>alert(1)</script>' "$fx/rccl_ci.jsonl" >/dev/null
key=$("$assay" store series --store "$S" --match precision=bf16 --match workload=llama3-70b-pretrain \
	--match metric=tokens_per_sec_per_gpu --json | python3 -c 'import json,sys; print([s["series_key"] for s in json.load(sys.stdin) if s["count"]==40][0])')
write=w-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
export SERVE_TOKENS="alice:write:$write"
serve_start main --store "$S" --token-env SERVE_TOKENS

mkdir -p "$T/profile"
timeout 600 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--disable-default-apps --disable-extensions --user-data-dir="$T/profile" \
	--remote-debugging-port=0 --remote-debugging-address=127.0.0.1 about:blank \
	>"$T/chrome.log" 2>&1 &
chrome_pid=$!
for _ in $(seq 1 600); do
	[ -s "$T/profile/DevToolsActivePort" ] && break
	kill -0 "$chrome_pid" 2>/dev/null || { cat "$T/chrome.log" >&2; fail "Chromium exited"; }
	sleep 0.1
done
[ -s "$T/profile/DevToolsActivePort" ] || fail "Chromium did not open its DevTools port"
port=$(head -1 "$T/profile/DevToolsActivePort")

python3 "$src/tests/serve/browser.py" "$port" "$URL_main" "$key" "$write" ||
	fail "in the browser (above)"
"$assay" history --store "$S" "$key" | grep -q 'c30 .*ack: by alice: new kernel' ||
	fail "assay history does not show the ack made in the browser"
! grep -q -- "$write" "$T/main.log" "$T/main.out" || fail "the token reached the server's log"
echo "ok: assay serve in Chromium on $(store_backend)"
