#!/usr/bin/env bash
# #wrong > 0 is always a failure: a collective case whose table counts wrong
# elements (here 3 at 4096 B out-of-place, in a copy of a real nccl-tests
# table) is invalid, as assay-ep's invalid points are: workload-failed
# (exit 3, failure correctness) even with every threshold met, the FAIL
# verdict names the size, and its rows are kept in their own series
# (verdict "invalid"), never in the history of valid results.
. "$ASSAY_SOURCE_DIR/tests/e2e/run/lib.sh" "$@"
src=$ASSAY_SOURCE_DIR
# Column 9 is the out-of-place #wrong (size count type redop root time algbw busbw #wrong).
awk '$1 == "4096" && $2 == "1024" { $9 = 3 } { print }' \
  "$src/tests/fixtures/nccl-text/all_reduce_perf-h100-2n.log" >wrong.log
grep -q '^4096 1024 float sum -1 33.52 0.12 0.23 3 ' wrong.log || fail "the fixture did not change"
cat >thr.json <<'JSON'
{"all_reduce": {"busbw": {"1M": 1}}}
JSON
cat >suite.json <<JSON
{"kind": "collective", "name": "coll-wrong", "cluster": "e2e",
 "binary": "$src/tests/fixtures/coll/bin/{OP}_perf",
 "operations": ["all_reduce"], "sizes": {"min": 8, "max": "8G"}, "ranks": [2],
 "env": {"COLL_FIXTURE": "$PWD/wrong.log"}, "timeout_s": 120,
 "gates": {"thresholds": "thr.json"}}
JSON
run_assay 3 run --store s.db suite.json
expect_grep '^all_reduce-float-1x2 +workload-failed .*invalid: all_reduce at 4096 B, out-of-place: 3 wrong elements \(#wrong\)$' out.txt
expect_grep '^exit 3 \(workload-failed\)$' out.txt
expect_eq "$(q s.db "SELECT gate || ' ' || status || ' ' || value FROM verdicts")" "correctness FAIL 3.0" "verdicts"
expect_grep '"failure": "correctness"' out/*/summary.json
# Nothing measured is lost; the size's rows are marked invalid.
expect_eq "$(q s.db "SELECT count(*) FROM measurements")" 249 "stored rows"
expect_eq "$(q s.db "SELECT count(*) FROM series WHERE json_extract(fields, '$.verdict') = 'invalid'")" 4 \
  "invalid series (time, algbw, busbw, #wrong of 4096 B out-of-place)"

# The same table as nccl-tests prints it when #wrong > 0: the footer says
# FAILED and every rank exits 1 (NVIDIA/nccl-tests a0b82b2, src/common.cu:
# "# Out of bounds values : %d %s" with "FAILED", then exit(EXIT_FAILURE);
# rccl-tests ae3e635 and assay-coll do the same). The rows are still read
# and judged per size, as with exit 0: the 4096 B out-of-place size fails
# its correctness verdict, every other size keeps its series.
sed 's/^# Out of bounds values : 0 OK$/# Out of bounds values : 2 FAILED/' wrong.log >wrong-exit.log
grep -q '^# Out of bounds values : 2 FAILED$' wrong-exit.log || fail "the footer did not change"
sed -e 's/"coll-wrong"/"coll-wrong-exit"/' \
  -e "s|\"COLL_FIXTURE\": \"[^\"]*\"|\"COLL_FIXTURE\": \"$PWD/wrong-exit.log\", \"COLL_EXIT\": \"1\"|" \
  suite.json >suite-exit.json
grep -q '"COLL_EXIT": "1"' suite-exit.json || fail "the suite did not change"
rm -rf out
run_assay 3 run --store s2.db suite-exit.json
expect_grep '^all_reduce-float-1x2 +workload-failed .*invalid: all_reduce at 4096 B, out-of-place: 3 wrong elements \(#wrong\)$' out.txt
expect_eq "$(q s2.db "SELECT gate || ' ' || status || ' ' || value FROM verdicts")" "correctness FAIL 3.0" "verdicts (exit 1)"
expect_grep '"failure": "correctness"' out/*/summary.json
expect_eq "$(q s2.db "SELECT count(*) FROM measurements")" 249 "stored rows (exit 1)"
expect_eq "$(q s2.db "SELECT count(*) FROM series WHERE json_extract(fields, '$.verdict') = 'invalid'")" 4 \
  "invalid series (exit 1)"

# Non-zero exit with every #wrong 0 (the clean table): the case stays
# workload-failed by its exit code, and its rows are still stored.
sed -e 's/"coll-wrong"/"coll-exit-clean"/' \
  -e "s|\"COLL_FIXTURE\": \"[^\"]*\"|\"COLL_FIXTURE\": \"$src/tests/fixtures/nccl-text/all_reduce_perf-h100-2n.log\", \"COLL_EXIT\": \"1\"|" \
  suite.json >suite-clean.json
grep -q '"COLL_EXIT": "1"' suite-clean.json || fail "the suite did not change"
rm -rf out
run_assay 3 run --store s3.db suite-clean.json
expect_grep '^all_reduce-float-1x2 +workload-failed ' out.txt
expect_grep '"failure": "exit-code"' out/*/summary.json
expect_eq "$(q s3.db "SELECT count(*) FROM verdicts WHERE gate = 'correctness'")" 0 "no correctness verdict"
expect_eq "$(q s3.db "SELECT count(*) FROM measurements")" 249 "stored rows (exit 1, clean)"
