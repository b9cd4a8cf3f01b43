#!/usr/bin/env bash
# Training workloads in command suites: scaling efficiency across combos
# (from derived tokens/s, baseline combo first), checkpoint-resume
# continuity between a save and a resume combo (the good pair passes, a
# resume from the wrong checkpoint fails), and a resumed run that judges the
# resume combo against a save combo an earlier attempt finished. Then the
# outcome mapping: an incomplete log or NaN is workload-failed (never a
# pass, never no-metrics) with its rows, a log without steps is no-metrics,
# a crashed workload keeps its steps; per-node logs are parsed from their
# copies.
# backends: sqlite (not yet on both: its queries use SQLite's json_extract
# and group_concat)
. "$(dirname "$0")/lib.sh" "$@"
src=${ASSAY_SOURCE_DIR:?}
megatron_log 10 500.0 >base.log
ELAPSED=1250.0 megatron_log 10 400.0 >slow.log
cp "$src/tests/fixtures/training/megatron-save.log" save.log
cp "$src/tests/fixtures/training/megatron-resume.log" resume.log
printf '#!/bin/sh\necho "RuntimeError: dataloader worker died" >&2\nexit 3\n' >broken.sh
cat >suite.json <<'JSON'
{"kind": "command", "name": "train", "cluster": "e2e",
 "combos": {"base": {"LOG": "base.log"}, "save": {"LOG": "save.log"}, "slow": {"LOG": "slow.log"},
            "broken": {"LOG": "broken"}, "resume": {"LOG": "resume.log"}},
 "runs": ["base", "save", "slow", "broken", "resume"],
 "argv": ["sh", "-c", "if [ {LOG} = broken ]; then exec sh broken.sh; else exec cat {LOG}; fi"],
 "parser": "megatron", "gpus_per_node": 8, "context": {"precision": "bf16"},
 "training": {"seq_len": 4096},
 "gates": {"scaling": {"baseline": "base", "combos": ["slow"], "min_efficiency": 90},
           "checkpoint": {"save": "save", "resume": "resume", "loss_rtol": 0.01}}}
JSON
verdicts() { # CASE -> "status gate metric value" lines of the last run
  q s.db "SELECT v.status || ' ' || v.gate || ' ' || v.metric || ' ' || coalesce(round(v.value, 4), '-')
          FROM verdicts v JOIN cases c ON c.id = v.\"case\"
          WHERE c.case_id = '$1' AND c.run = (SELECT max(id) FROM runs) ORDER BY v.seq"
}
# --fail-fast stops after the slow combo misses its scaling efficiency.
run_assay 1 run --store s.db --quiet --fail-fast suite.json
expect_grep '^slow +gate-failed .*gates: 1 FAIL \(scaling scaling_efficiency: 80% = 209715 tokens/s / \(1 / 1 nodes\) / 262144 tokens/s\)' out.txt
verdicts slow >v.txt
expect_grep '^RECORD scaling total_tokens_per_s 209715.2$' v.txt
expect_grep '^FAIL scaling scaling_efficiency 80.0$' v.txt
expect_grep '^resume +skipped +- +not run: --fail-fast after slow$' out.txt
# The resume: broken fails, resume is judged against the save combo of the
# first attempt (read again from its case folder): the good pair passes.
run_assay 3 run --store s.db --quiet --resume last suite.json
expect_grep '^save +passed .*\(earlier attempt\)' out.txt
expect_grep '^broken +workload-failed .*exit code 3; stderr: RuntimeError: dataloader worker died$' out.txt
expect_grep '^resume +passed ' out.txt
verdicts resume >v.txt
expect_grep '^PASS checkpoint resume_first_step 25.0$' v.txt
expect_grep '^PASS checkpoint loaded_iteration 20.0$' v.txt
expect_grep '^PASS checkpoint resume_loss_rdiff -0.0011$' v.txt
expect_grep '^RECORD checkpoint checkpoint_save_ms 2301.47$' v.txt
expect_eq "$(q s.db "SELECT group_concat(case_id || ':' || outcome || ':' || attempts, ' ') FROM cases")" \
  "base:passed:1 save:passed:1 slow:gate-failed:1 broken:workload-failed:1 resume:passed:1" "stored cases"
# The crashed workload printed no steps, and stored no rows.
expect_eq "$(q s.db "SELECT rows FROM cases WHERE case_id = 'broken'")" 0 "rows of the crashed case"

# A resume from the wrong checkpoint fails the continuity gate.
cp "$src/tests/fixtures/training/megatron-resume-bad.log" resume.log
run_assay 3 run --store s2.db --quiet suite.json
expect_grep '^resume +gate-failed .*checkpoint resume_first_step' out.txt

# Outcomes of training logs.
megatron_log 10 500.0 5 >incomplete.log
cp "$src/tests/fixtures/training/megatron-nan.log" nan.log
cp "$src/tests/fixtures/training/primus-no-steps.log" nosteps.log
megatron_log 10 500.0 4 >crash.log
cat >health.json <<'JSON'
{"kind": "command", "name": "health", "cluster": "e2e",
 "combos": {"incomplete": {"LOG": "incomplete.log", "RC": 0}, "nan": {"LOG": "nan.log", "RC": 0},
            "nosteps": {"LOG": "nosteps.log", "RC": 0}, "crash": {"LOG": "crash.log", "RC": 7},
            "whole": {"LOG": "base.log", "RC": 0}},
 "argv": ["sh", "-c", "cat {LOG}; exit {RC}"], "parser": "auto", "context": {"precision": "bf16"}}
JSON
run_assay 3 run --store h.db --quiet health.json
run=$(q h.db "SELECT run_id FROM runs")
expect_eq "$(q h.db "SELECT group_concat(case_id || ':' || outcome, ' ') FROM cases")" \
  "incomplete:workload-failed nan:workload-failed nosteps:no-metrics crash:workload-failed whole:passed" "outcomes"
expect_grep '^incomplete +workload-failed .*training log: incomplete run: the last step is 5 of 10' out.txt
expect_grep '^nan +workload-failed .*training log: lm loss is NAN at step 4' out.txt
expect_grep '^nosteps +no-metrics .*no metrics: the log has no iteration line' out.txt
expect_eq "$(q h.db "SELECT count(*) > 0 FROM measurements m JOIN cases c ON c.id = m.\"case\" WHERE c.case_id = 'incomplete'")" 1 \
  "an incomplete run keeps its rows"
expect_eq "$(q h.db "SELECT v.status FROM verdicts v JOIN cases c ON c.id = v.\"case\" WHERE c.case_id = 'incomplete' AND v.metric = 'completion'")" \
  FAIL "run-health verdict of the incomplete run"
expect_eq "$(q h.db "SELECT v.status FROM verdicts v JOIN cases c ON c.id = v.\"case\" WHERE c.case_id = 'nan' AND v.metric = 'finite'")" \
  FAIL "run-health verdict of the NaN run"
expect_eq "$(q h.db "SELECT json_extract(factors, '$.combo') || ' ' || rows FROM cases WHERE case_id = 'crash'")" "crash 0" "crash rows"
expect_eq "$(wc -l <"out/$run/crash/steps.ndjson")" 4 "steps kept from the crashed run"
expect_eq "$(q h.db "SELECT v.status || ' ' || v.message FROM verdicts v JOIN cases c ON c.id = v.\"case\" WHERE c.case_id = 'crash' AND v.metric = 'completion'")" \
  'FAIL incomplete run: no final "iteration N/N" line, no torchrun marker and no Megatron exit line' "crash verdict"
expect_eq "$(q h.db "SELECT json_extract(s.fields, '$.scale') FROM series s LIMIT 1")" 1x1 "default scale"

# Per-node logs: without results, the copies of what the case added to them
# are read as one log; steps.ndjson names each step's own file and line.
mkdir nodes
echo 'iteration 1/ 1 | lm loss: 9.9 | from an earlier run' >nodes/n0.log
cat >nodes.json <<'JSON'
{"kind": "command", "name": "nodes", "cluster": "e2e",
 "combos": {"two": {}},
 "argv": ["sh", "-c", "head -5 base.log >> nodes/n0.log; tail -5 base.log >> nodes/n1.log"],
 "logs": ["nodes/n0.log", "nodes/n1.log"], "parser": "megatron", "context": {"precision": "bf16"}}
JSON
run_assay 0 run --store n.db --quiet nodes.json
run=$(q n.db "SELECT run_id FROM runs")
expect_eq "$(wc -l <"out/$run/two/steps.ndjson")" 10 "steps from both nodes"
expect_grep "\"file\":\"out/$run/two/logs/2-n1.log\",.*\"line\":1,.*\"step\":6," "out/$run/two/steps.ndjson"
expect_grep "\"file\":\"out/$run/two/logs/1-n0.log\",.*\"line\":5,.*\"step\":5," "out/$run/two/steps.ndjson"
echo ok
