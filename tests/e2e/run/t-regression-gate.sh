#!/usr/bin/env bash
# Regression gates against the store's history: a second run of the same
# suite at a changed revision with a regressed value fails the rolling-mean
# gate (gate-failed, exit 1, the FAIL stored with the case); once the change
# is acknowledged (`assay store annotate --kind ack`), a run at that revision
# passes with the verdict marked acked, and a later revision is judged
# against the re-based mean.
. "$(dirname "$0")/lib.sh" "$@"
S=$(store_new s)
cat >suite.json <<'JSON'
{"kind": "command", "name": "reg", "cluster": "e2e",
 "combos": {"bf16": {"PRECISION": "BF16"}},
 "argv": ["cat", "train.log"], "parser": "megatron", "gpus_per_node": 8,
 "gates": {"regression": {"rolling_mean": {"min_history": 1},
                          "metrics": ["tflops_per_gpu/steady_mean"]}}}
JSON
verdict() { # GATE -> status:acked:value of the last run's case
  q "$S" "SELECT v.status || ':' || v.acked || ':' || CAST(v.value AS INTEGER) FROM verdicts v JOIN cases c ON c.id = v.\"case\"
          WHERE c.run = (SELECT max(id) FROM runs) AND v.gate = '$1'"
}
megatron_log 10 500.0 >train.log
run_assay 0 run --store "$S" --revision A --quiet suite.json
expect_eq "$(verdict rolling-mean)" "SKIPPED:0:500" "first run: no history"
expect_grep '^bf16 +passed .*gates: .*2 SKIPPED' out.txt

# The same suite at revision B, 10% slower: the rolling-mean gate fails.
megatron_log 10 450.0 >train.log
run_assay 1 run --store "$S" --revision B --quiet suite.json
expect_eq "$(verdict rolling-mean)" "FAIL:0:450" "regressed run"
expect_grep '^bf16 +gate-failed .*gates: 1 FAIL \(rolling-mean tflops_per_gpu/steady_mean: 450 vs mean 500 of the last 1: -10.00% \(regression beyond -2%\)\)' out.txt
expect_grep '^exit 1 \(gate-failed\)$' out.txt
expect_eq "$(q "$S" "SELECT outcome FROM cases WHERE run = (SELECT max(id) FROM runs)")" gate-failed "stored outcome"
expect_eq "$(q "$S" "SELECT spec FROM verdicts WHERE gate = 'rolling-mean' AND status = 'FAIL'")" \
  "worse by < 2% vs mean of last 5" "stored spec"
# Nothing measured is lost: the regressed value is stored with its case.
expect_eq "$(q "$S" "SELECT count(*) FROM measurements m JOIN series s ON s.id = m.series
                     WHERE s.metric = 'tflops_per_gpu' AND s.statistic = 'steady_mean'")" 2 "stored points"

# Acknowledge revision B: the same result passes, marked acked.
run_assay 0 store annotate --store "$S" --match metric=tflops_per_gpu --match statistic=steady_mean \
  --revision B --kind ack --note 'slower kernel, accepted'
run_assay 0 run --store "$S" --revision B --quiet suite.json
expect_eq "$(verdict rolling-mean)" "PASS:1:450" "acked run"
expect_grep '^bf16 +passed .*PASS \(1 acked\)' out.txt
# A later revision at the new level is judged against the mean re-based at B.
run_assay 0 run --store "$S" --revision C --quiet suite.json
expect_eq "$(verdict rolling-mean)" "PASS:0:450" "after the ack"
expect_grep "re-based at acknowledged B" <(q "$S" "SELECT message FROM verdicts WHERE gate = 'rolling-mean' ORDER BY id DESC LIMIT 1")
# And a regression from there fails again.
megatron_log 10 400.0 >train.log
run_assay 1 run --store "$S" --revision D --quiet suite.json
expect_eq "$(verdict rolling-mean)" "FAIL:0:400" "a new regression"
echo ok
