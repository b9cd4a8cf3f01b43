#!/usr/bin/env bash
# JUnit testcase names are unique and stable (issue 14, defect 5): a command
# suite whose one case prints two rows of the same metric (series tokens=1
# and tokens=8, the NDJSON rows format of docs/parse.md) under a regression
# gate gives one verdict per series; their testcases are named
# "case / gate / metric / series label", all distinct, and the same in a
# second run.
#   junit-names.sh ASSAY
set -euo pipefail
assay=$1
src=${ASSAY_SOURCE_DIR:?}
T=$(mktemp -d /tmp/assay-junit-names.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T"
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
cat >s.json <<'JSON'
{"kind": "command", "name": "names", "cluster": "t", "combos": {"only": {}},
 "argv": ["sh", "-c", "for t in 1 8; do printf '{\"series\":{\"workload\":\"toy\",\"tokens\":%s},\"metric\":\"latency_us\",\"statistic\":\"p50\",\"value\":%s,\"unit\":\"us\",\"direction\":\"lower\"}\\n' $t $t; done"],
 "parser": "rows",
 "gates": {"regression": {"changepoint": false, "rolling_mean": {"min_history": 1}}}}
JSON
names() { xmllint --xpath '//testcase/@name' "$1" | sed 's/^ *name="//; s/"$//'; }
for i in 1 2; do
  "$assay" run --quiet --store s.db --out out s.json >"out$i.txt" 2>&1 || { cat "out$i.txt" >&2; fail "run $i failed"; }
  run=$(sqlite3 -batch -noheader s.db "SELECT run_id FROM runs ORDER BY id DESC LIMIT 1")
  "$src/tests/report/junit-names.py" "out/$run/junit.xml" || fail "run $i: junit testcase names repeat"
  names "out/$run/junit.xml" >"names$i.txt"
done
printf '%s\n' only "only / rolling-mean / latency_us/p50 / tokens=1" \
  "only / rolling-mean / latency_us/p50 / tokens=8" >want.txt
diff -u want.txt names1.txt || fail "testcase names differ"
diff -u names1.txt names2.txt || fail "the names changed from one run to the next"
echo ok
