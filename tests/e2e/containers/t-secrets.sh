#!/usr/bin/env bash
# A secret crosses into the container by name only (--env NAME): the
# workload inside sees it, and its value appears in no byte assay writes
# (case folder, summary, reports, store) and in no `ps` output sampled while
# the case runs (the podman command line carries the name, not the value).
. "$(dirname "$0")/lib.sh" "$@"
export ASSAY_E2E_CANARY="canary-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
cat >suite.json <<JSON
{"kind": "command", "name": "ctr-secret", "cluster": "e2e",
 "combos": {"a": {}},
 "secrets": ["ASSAY_E2E_CANARY"],
 "container": {"image": "$IMAGE", "pull": "never"},
 "argv": ["sh", "-c", "echo \"token \$ASSAY_E2E_CANARY\"; printf '%s' \"\$ASSAY_E2E_CANARY\" | sha256sum | cut -d' ' -f1 > {CASE_DIR}/seen.sha; sleep 2"],
 "parser": "none"}
JSON
"$ASSAY" run --store s.db --out out --quiet suite.json >out.txt 2>err.txt &
pid=$!
: >ps.txt
while kill -0 "$pid" 2>/dev/null; do
  ps -eo args >>ps.txt 2>/dev/null || true
  sleep 0.2
done
wait "$pid" || { cat out.txt err.txt >&2; fail "run failed"; }
grep -q -- '--env ASSAY_E2E_CANARY' ps.txt || fail "no podman command line was sampled (nothing checked)"
if grep -qF "$ASSAY_E2E_CANARY" ps.txt; then fail "the secret's value is in ps output"; fi
run=$(q s.db "SELECT run_id FROM runs")
# The workload saw the value (its hash), the log holds it redacted.
expect_eq "$(cat "out/$run/a/seen.sha")" "$(printf '%s' "$ASSAY_E2E_CANARY" | sha256sum | cut -d' ' -f1)" "secret inside the container"
expect_grep 'token \[REDACTED:ASSAY_E2E_CANARY\]|token \*\*\*' "out/$run/a/stdout.log"
if grep -rlF "$ASSAY_E2E_CANARY" out s.db* out.txt err.txt; then fail "the secret's value was written"; fi
echo ok
