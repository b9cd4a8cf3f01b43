#!/usr/bin/env bash
# A client that exits 0 without writing its result file is no-metrics
# (exit 4), never a pass; the other cells pass.
. "$(dirname "$0")/lib.sh" "$@"
suite suite.json '' no-result
S=$(store_new s)
run_assay 4 run --store "$S" --out out suite.json
expect_eq "$(q "$S" "SELECT outcome FROM cases WHERE case_id = 'c4'")" no-metrics "cell without a result"
expect_eq "$(q "$S" "SELECT count(*) FROM cases WHERE outcome = 'passed'")" 2 "other cells"
servers_gone
echo ok
