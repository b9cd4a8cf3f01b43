#!/usr/bin/env bash
# assay serve's /publications: three runs of a small command suite (rows of
# five trials of p50 and p99, as tests/e2e/publish/t-publish.sh makes them)
# are published twice; one copy gets a flipped byte. The page shows the good
# one verified with its series and runs, the damaged one FAILED with the
# file named, and a server without --publications says so.
#   publications.sh ASSAY
set -euo pipefail
assay=$1
src=${ASSAY_SOURCE_DIR:?}
T=$(mktemp -d /tmp/assay-serve-pub.XXXXXX)
. "$src/tests/lib/store.sh"
. "$src/tests/serve/lib.sh"
trap 'serve_stop_all; store_cleanup; rm -rf "$T"' EXIT
store_init "$T"
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
cd "$T"
S=$(store_new pub)
cat >work.sh <<'SH'
#!/bin/sh
for i in 1 2 3 4 5; do
  awk -v b="$1" -v i="$i" 'BEGIN { for (q = 0; q < 2; q++)
    printf "{\"series\":{\"workload\":\"toy\",\"tokens\":64},\"metric\":\"latency_us\",\"statistic\":\"%s\",\"value\":%.3f,\"unit\":\"us\",\"direction\":\"lower\"}\n",
      q ? "p99" : "p50", b * (q ? 1.5 : 1) * (1 + i / 1000) }'
done >"$CASE_DIR/rows.ndjson"
SH
cat >suite.json <<'JSON'
{"kind": "command", "name": "pubtoy", "cluster": "ci-pool",
 "combos": {"bf16": {"BASE": 100, "PRECISION": "bf16"}, "fp8": {"BASE": 80, "PRECISION": "fp8"}},
 "argv": ["sh", "work.sh", "{BASE}"], "env": {"CASE_DIR": "{CASE_DIR}"},
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"],
 "context": {"precision": "{PRECISION}"}}
JSON
for i in 1 2 3; do
	"$assay" run --store "$S" --out out --revision rev1 --quiet suite.json >/dev/null 2>&1 ||
		fail "assay run $i failed"
done
mkdir pub
"$assay" publish --store "$S" --suite pubtoy --last 3 --revision rev1 --out pub/good >/dev/null
cp -r pub/good pub/damaged
printf 'X' | dd of=pub/damaged/rows.ndjson bs=1 seek=10 conv=notrunc 2>/dev/null
serve_start main --store "$S" --publications pub
curl -s "$URL_main/publications" >page.html
python3 - page.html <<'PY' || fail "the publications page (above)"
import re, sys
html = open(sys.argv[1]).read()
rows = re.findall(r"<tr><td>([^<]*)</td><td><span class=\"b v-(\w+)\">(\w+)</span></td>"
                  r"<td class=\"num\">(\d+)</td><td>([^<]*)</td>.*?</td><td>(.*?)</td></tr>", html)
got = {r[0]: r for r in rows}
assert set(got) == {"good", "damaged"}, rows
assert got["good"][1:4] == ("PASS", "verified", "4") and got["good"][4].count(",") == 2, got["good"]
assert got["damaged"][2] == "FAILED" and "rows.ndjson" in got["damaged"][5], got["damaged"]
PY
serve_start bare --store "$S"
curl -s "$URL_bare/publications" | grep -q 'started without <code>--publications DIR</code>' ||
	fail "a server without --publications does not say so"
echo "ok: /publications on $(store_backend)"
