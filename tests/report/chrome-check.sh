#!/usr/bin/env bash
# Renders DIR/report.html in headless Chromium and checks that the page works
# in a real browser: a PNG comes out (DIR/report.png, or PNG), the page's
# script ran to the end (it sets data-assay-js="ready" on <html>, seen in
# --dump-dom), and Chromium logged no console message at all (with
# --enable-logging=stderr every console message, script error and refused
# request of the page is logged as "...:CONSOLE...]"; the report itself never
# logs). With CANARY, that string must be in none of the three files nor in
# the rendered DOM. Exit 77 (CTest skip) when Chromium is missing and
# scripts/deps.sh cannot install it.
#   chrome-check.sh DIR [CANARY] [PNG] [WIDTHxHEIGHT]
set -euo pipefail
dir=$1
canary=${2:-}
png=${3:-$dir/report.png}
size=${4:-1400,2600}
src=${ASSAY_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}

if ! command -v chromium >/dev/null 2>&1; then
  "$src/scripts/deps.sh" chromium >&2 || true
fi
if ! command -v chromium >/dev/null 2>&1; then
  echo "SKIP: Chromium is not installed and 'scripts/deps.sh chromium' could not install it" >&2
  exit 77
fi

profile=$(mktemp -d)
logs=$(mktemp -d)
trap 'rm -rf "$profile" "$logs"' EXIT

# Every flag that keeps a headless browser from talking to anything.
chrome() {
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --disable-default-apps --disable-extensions --user-data-dir="$profile" \
    --enable-logging=stderr --v=0 "$@"
}

url="file://$(cd "$dir" && pwd)/report.html"
chrome --hide-scrollbars --window-size="$size" --screenshot="$png" "$url" \
  >"$logs/screenshot.log" 2>&1 || { cat "$logs/screenshot.log" >&2; exit 1; }
chrome --dump-dom "$url" >"$logs/dom.html" 2>"$logs/dom.log" || { cat "$logs/dom.log" >&2; exit 1; }

fail=0
if ! head -c 8 "$png" | od -An -tx1 | tr -d ' \n' | grep -q '^89504e470d0a1a0a$'; then
  echo "FAIL: no PNG screenshot at $png" >&2
  fail=1
fi
if grep -h ':CONSOLE' "$logs/screenshot.log" "$logs/dom.log" >&2; then
  echo "FAIL: the page logged console messages (above)" >&2
  fail=1
fi
if ! grep -q 'data-assay-js="ready"' "$logs/dom.html"; then
  echo "FAIL: the page's script did not finish: $(grep -o 'data-assay-js="[^"]*"' "$logs/dom.html" || echo 'no sentinel')" >&2
  fail=1
fi
if [ -n "$canary" ] && grep -q -- "$canary" "$dir"/report.html "$dir"/junit.xml "$dir"/summary.md "$logs/dom.html"; then
  echo "FAIL: the canary secret reached an output file" >&2
  fail=1
fi
[ $fail = 0 ] && echo "rendered $png ($(wc -c <"$png") bytes), no console messages"
exit $fail
