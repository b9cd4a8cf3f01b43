#!/usr/bin/env bash
# A secret canary reaches the workload through its environment only, and is
# written nowhere: not in the captured stdout/stderr, not in the copies of
# the logs assay watches, not in the command line it records, not in rows
# parsed from a results file that holds it, not in a signature's matched
# line or reason, not in the summary and not in any store row. A suite file
# that contains the value itself is refused (exit 2) naming the secret.
# backends: sqlite (not yet on both: reads series fields with json_extract
# and dumps the store with sqlite3 .dump)
. "$(dirname "$0")/lib.sh" "$@"
export ASSAY_E2E_CANARY="canary-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
mkdir work
cat >work.sh <<'EOF2'
#!/bin/sh
# work.sh CASE MODE: print the secret everywhere a workload might.
W=$PWD/work
echo "token is $ASSAY_E2E_CANARY"
echo "stderr token $ASSAY_E2E_CANARY" >&2
printf '%s' "$ASSAY_E2E_CANARY" | sha256sum | cut -d' ' -f1 > "$W/$1.sha"
printf 'split %s' "$(echo "$ASSAY_E2E_CANARY" | cut -c1-9)"; sleep 0.2; echo "$ASSAY_E2E_CANARY" | cut -c10-
echo "node log $ASSAY_E2E_CANARY" > "$W/$1.log"
printf '{"series":{"workload":"w","note":"%s"},"metric":"m","statistic":"mean","value":1,"unit":"s","direction":"lower"}\n' "$ASSAY_E2E_CANARY" > "$W/$1.ndjson"
if [ "$2" = fail ]; then echo "NCCL error: bad token $ASSAY_E2E_CANARY" >&2; sleep 30; fi
exit 0
EOF2
cat >suite.json <<'JSON'
{"kind": "command", "name": "secret", "cluster": "e2e",
 "combos": {"ok": {"MODE": "ok"}, "fail": {"MODE": "fail"}},
 "argv": ["sh", "work.sh", "{CASE_ID}", "{MODE}", "--token-name=ASSAY_E2E_CANARY"],
 "secrets": ["ASSAY_E2E_CANARY"],
 "parser": "rows", "results": ["work/{CASE_ID}.ndjson"], "logs": ["work/{CASE_ID}.log"]}
JSON
run_assay 3 run --store s.db --out out suite.json
# The workload did get the real value (by its hash, which says nothing).
want=$(printf '%s' "$ASSAY_E2E_CANARY" | sha256sum | cut -d' ' -f1)
expect_eq "$(cat work/ok.sha)" "$want" "the secret the workload saw"
expect_eq "$(q s.db "SELECT outcome FROM cases WHERE case_id = 'ok'")" passed "outcome with secret"
# Redacted, yet everything else is there.
run=$(q s.db "SELECT run_id FROM runs")
expect_grep '^token is \*\*\*$' "out/$run/ok/stdout.log"
expect_grep '^split \*\*\*$' "out/$run/ok/stdout.log"
expect_grep '^stderr token \*\*\*$' "out/$run/ok/stderr.log"
expect_grep '^node log \*\*\*$' "out/$run/ok/logs/1-ok.log"
expect_eq "$(q s.db "SELECT reason FROM cases WHERE case_id = 'fail'")" \
  "signature nccl-error in stderr: NCCL error: bad token ***" "reason"
expect_eq "$(q s.db "SELECT json_extract(fields, '$.note') FROM series")" "***" "series field"
# Nowhere under the output folder, in the store file, or in what assay printed.
if grep -rlF -- "$ASSAY_E2E_CANARY" out s.db* out.txt err.txt; then
  fail "the secret was written to the files above"
fi
sqlite3 s.db .dump > dump.sql
if grep -qF -- "$ASSAY_E2E_CANARY" dump.sql; then fail "the secret is in a store row"; fi
grep -q '\*\*\*' dump.sql || fail "the store dump has no redacted values: the test checked nothing"

# The value written into the suite file itself: refused before anything runs.
sed "s/\"cluster\": \"e2e\"/\"cluster\": \"$ASSAY_E2E_CANARY\"/" suite.json > leaked.json
run_assay 2 run --store leaked.db --out leaked leaked.json
expect_eq "$(cat err.txt)" \
  "leaked.json: \$.cluster: holds the value of secret ASSAY_E2E_CANARY; secrets reach workloads only through assay's environment, remove it from the file" \
  "refusal"
[ ! -e leaked.db ] && [ ! -e leaked ] || fail "a refused run wrote something"
if grep -qF -- "$ASSAY_E2E_CANARY" err.txt out.txt; then fail "the refusal printed the secret"; fi
# And a secret that is not set is a usage error too.
unset ASSAY_E2E_CANARY
run_assay 2 run --store unset.db suite.json
expect_eq "$(cat err.txt)" "suite.json: \$.secrets[0]: secret ASSAY_E2E_CANARY is not set in the environment" "unset secret"
echo ok
