#!/usr/bin/env bash
# An inference suite end to end: the server started and waited for, the
# client run per cell (ISL/OSL/concurrency), its sglang result block parsed
# into rows with the cell's identity, gated per cell against a CVS-format
# threshold file, and the server (and its child) stopped after the cases.
. "$(dirname "$0")/lib.sh" "$@"
suite suite.json ', "--child"'
# CVS's cell keys (ISL, OSL, TP, CONC: the combo's, in CVS's order).
cat > thresholds.json <<'JSON'
{"_comment": "CVS SGLang format (mi30x_sglang_*_threshold.json)",
 "ISL=128,OSL=64,TP=1,CONC=1": {"output_throughput_per_sec": {"kind": "min_tok_s", "value": 1},
                           "mean_ttft_ms": {"kind": "max_ms", "value": 60000},
                           "goodput": {"kind": "min", "value": 0.99}},
 "ISL=128,OSL=64,TP=1,CONC=4": {"output_throughput_per_sec": 1, "mean_tpot_ms": 150},
 "ISL=128,OSL=64,TP=1,CONC=16": {"output_throughput_per_sec": {"kind": "min_tok_s", "value": 1}}}
JSON
python3 - <<'PY'
import json
s = json.load(open("suite.json"))
s["gates"] = {"thresholds": "thresholds.json"}
json.dump(s, open("suite.json", "w"))
PY
S=$(store_new s)
run_assay 0 run --store "$S" --out out suite.json
expect_grep '^3 cases: 3 passed$' out.txt
servers_gone
expect_eq "$(wc -l < "$T/server-pids.txt")" 1 "server starts"
expect_eq "$(q "$S" "SELECT count(*) FROM cases WHERE outcome = 'passed'")" 3 "passed cases"
# Rows carry the cell's identity.
expect_eq "$(q "$S" "SELECT count(DISTINCT s.key) FROM measurements m JOIN series s ON s.id = m.series WHERE s.metric = 'output_throughput'")" 3 "throughput series"
run_assay 0 store export --store "$S" --match metric=output_throughput
expect_grep '"concurrency":16' out.txt
expect_grep '"model":"toy-llama"' out.txt
expect_grep '"isl":128' out.txt
# Gated per cell: verdicts of each cell's thresholds.
expect_eq "$(q "$S" "SELECT count(*) FROM verdicts WHERE status = 'PASS' AND gate = 'threshold'")" 6 "threshold passes"
# The server's output: a log of the run, and a copy per case.
expect_grep 'fired up and ready to roll' out/*/server/server.log
ls out/*/c4/logs/ | grep -q server.log || fail "no copy of the server log in the case"
echo ok
