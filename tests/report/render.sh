#!/usr/bin/env bash
# Renders a sample report.html in headless Chromium and checks that the page
# works in a real browser: a PNG comes out, the page's script ran to the end
# (it sets data-assay-js="ready" on <html>, seen in --dump-dom), and Chromium
# logged no console message at all (with --enable-logging=stderr every
# console message, script error and refused request of the page is logged as
# "...:CONSOLE...]"; the report itself never logs). Exit 77 (CTest skip) when
# Chromium is missing and scripts/deps.sh cannot install it.
#   render.sh REPORT_SAMPLE OUTDIR
set -euo pipefail
sample=$1
out=$2
src=${ASSAY_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}

if ! command -v chromium >/dev/null 2>&1; then
  "$src/scripts/deps.sh" chromium >&2 || true
fi
if ! command -v chromium >/dev/null 2>&1; then
  echo "SKIP: Chromium is not installed and 'scripts/deps.sh chromium' could not install it" >&2
  exit 77
fi

canary=c4n4ryRender77
rm -rf "$out"
mkdir -p "$out"
"$sample" --cases 48 --secret "$canary" "$out"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

# Every flag that keeps a headless browser from talking to anything.
chrome() {
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --disable-default-apps --disable-extensions --user-data-dir="$profile" \
    --enable-logging=stderr --v=0 "$@"
}

url="file://$(cd "$out" && pwd)/report.html"
chrome --hide-scrollbars --window-size=1400,2600 --screenshot="$out/report.png" "$url" \
  >"$out/screenshot.log" 2>&1 || { cat "$out/screenshot.log" >&2; exit 1; }
chrome --dump-dom "$url" >"$out/dom.html" 2>"$out/dom.log" || { cat "$out/dom.log" >&2; exit 1; }

fail=0
if ! head -c 8 "$out/report.png" | od -An -tx1 | tr -d ' \n' | grep -q '^89504e470d0a1a0a$'; then
  echo "FAIL: no PNG screenshot at $out/report.png" >&2
  fail=1
fi
if grep -h ':CONSOLE' "$out/screenshot.log" "$out/dom.log" >&2; then
  echo "FAIL: the page logged console messages (above)" >&2
  fail=1
fi
if ! grep -q 'data-assay-js="ready"' "$out/dom.html"; then
  echo "FAIL: the page's script did not finish: $(grep -o 'data-assay-js="[^"]*"' "$out/dom.html" || echo 'no sentinel')" >&2
  fail=1
fi
if grep -q "$canary" "$out"/report.html "$out"/junit.xml "$out"/summary.md "$out/dom.html"; then
  echo "FAIL: the canary secret reached an output file" >&2
  fail=1
fi
[ $fail = 0 ] && echo "rendered $out/report.png ($(wc -c <"$out/report.png") bytes), no console messages"
exit $fail
