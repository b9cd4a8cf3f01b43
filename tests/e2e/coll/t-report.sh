#!/usr/bin/env bash
# The report of a collective suite: one busbw-vs-size chart per operation
# (log-2 size axis), this run's curves (out-of-place, in-place) and, fainter
# behind them, the same curves at the earlier revision from the store.
. "$ASSAY_SOURCE_DIR/tests/e2e/run/lib.sh" "$@"
src=$ASSAY_SOURCE_DIR
# Revision B is 20% slower out of place (column 8 is its busbw).
awk '$1 ~ /^[0-9]+$/ && NF > 10 { $8 = $8 * 0.8 } { print }' \
  "$src/tests/fixtures/nccl-text/all_reduce_perf-h100-2n.log" >slow.log
suite() { # FIXTURE
  cat <<JSON
{"kind": "collective", "name": "coll-report", "cluster": "e2e",
 "binary": "$src/tests/fixtures/coll/bin/{OP}_perf",
 "operations": ["all_reduce"], "sizes": {"min": 8, "max": "8G"}, "ranks": [2],
 "env": {"COLL_FIXTURE": "$1"}, "timeout_s": 120}
JSON
}
suite "$src/tests/fixtures/nccl-text/all_reduce_perf-h100-2n.log" >a.json
suite "$PWD/slow.log" >b.json
run_assay 0 run --store s.db --out out --revision A --quiet a.json
run_assay 0 run --store s.db --out out --revision B --quiet b.json
run=$(q s.db "SELECT run_id FROM runs WHERE revision = 'B'")
html=out/$run/report.html
grep -o '<section id="collectives">.*</section>' "$html" | sed 's,</section>.*,,' >section.html
[ -s section.html ] || fail "no collectives section in $html"
expect_eq "$(grep -o 'bus bandwidth by message size</title>' section.html | wc -l)" 1 "charts"
expect_grep 'all_reduce: bus bandwidth by message size' section.html
expect_grep 'message size \(bytes\)' section.html
expect_grep '>1K</text>.*>1M</text>.*>1G</text>' section.html
expect_grep 'earlier: A' section.html
expect_eq "$(grep -o '<polyline' section.html | wc -l)" 4 "curves (2 this run, 2 at A)"
expect_eq "$(grep -o 'stroke-opacity="0.35" stroke-width="1.25"' section.html | wc -l)" 2 "faint curves"
# This run's points: 8 GiB out of place at 80% of A's 384.07 GB/s.
expect_grep '<title>8G: 307.3 \(out-of-place\)</title>' section.html
