#!/usr/bin/env bash
# Issue 14, defect 8: files a workload writes itself into its case folder
# (as configs/examples/command-rows.json writes its results there) are
# redacted in place after the case: its results, a file in a subfolder, a
# file it wrote and then the case failed. A binary artifact the suite names
# in raw_artifacts is left byte for byte as it was written.
. "$(dirname "$0")/lib.sh" "$@"
S=$(store_new s) A=$(store_new a) B=$(store_new b)
export ASSAY_E2E_CANARY="canary-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
cat >work.sh <<'EOF2'
#!/bin/sh
# work.sh CASE_DIR MODE
D=$1
printf '{"series":{"workload":"toy","note":"%s"},"metric":"tokens_per_s_per_gpu","statistic":"steady_mean","value":410.5,"unit":"tokens/s","direction":"higher"}\n' "$ASSAY_E2E_CANARY" >"$D/rows.ndjson"
echo "config token=$ASSAY_E2E_CANARY" >"$D/own.txt"
mkdir -p "$D/sub"
echo "deep $ASSAY_E2E_CANARY deep" >"$D/sub/deep.log"
printf 'BIN\000%s\000' "$ASSAY_E2E_CANARY" >"$D/model.bin"
printf '%s' "$ASSAY_E2E_CANARY" | sha256sum | cut -d' ' -f1 >"$D/model.sha"
[ "$2" = fail ] && exit 7
exit 0
EOF2
cat >suite.json <<'JSON'
{"kind": "command", "name": "casefolder", "cluster": "e2e",
 "combos": {"ok": {"MODE": "ok"}, "fail": {"MODE": "fail"}},
 "argv": ["sh", "work.sh", "{CASE_DIR}", "{MODE}"],
 "secrets": ["ASSAY_E2E_CANARY"], "raw_artifacts": ["*.bin"],
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"]}
JSON
run_assay 3 run --store "$S" --out out suite.json
run=$(q "$S" "SELECT run_id FROM runs")
expect_eq "$(q "$S" "SELECT outcome FROM cases WHERE case_id = 'ok'")" passed "outcome of ok"
expect_eq "$(q "$S" "SELECT outcome FROM cases WHERE case_id = 'fail'")" workload-failed "outcome of fail"
for c in ok fail; do
  d=out/$run/$c
  expect_grep '"note":"\*\*\*"' "$d/rows.ndjson"
  expect_grep '^config token=\*\*\*$' "$d/own.txt"
  expect_grep '^deep \*\*\* deep$' "$d/sub/deep.log"
  # The raw artifact is as the workload wrote it.
  expect_eq "$(printf 'BIN\000%s\000' "$ASSAY_E2E_CANARY" | cmp - "$d/model.bin" && echo same)" same \
    "$c/model.bin"
done
# Nowhere else under the output folder, nor in the store.
if grep -rlF --exclude=model.bin -- "$ASSAY_E2E_CANARY" out $(store_files "$S") out.txt err.txt; then
  fail "the secret was written to the files above"
fi

# Without raw_artifacts the binary is redacted too.
sed 's/, "raw_artifacts": \["\*.bin"\]//' suite.json >all.json
grep -q raw_artifacts all.json && fail "all.json still has raw_artifacts"
run_assay 3 run --store "$A" --out aout all.json
run=$(q "$A" "SELECT run_id FROM runs")
if grep -rlaF -- "$ASSAY_E2E_CANARY" aout; then fail "the secret was left in the files above"; fi

# A pattern outside the case folder is refused.
sed 's/"raw_artifacts": \["\*.bin"\]/"raw_artifacts": ["..\/x"]/' suite.json >bad.json
run_assay 2 run --store "$B" --out bout bad.json
expect_eq "$(cat err.txt)" \
  'bad.json: $.raw_artifacts[0]: expected a file name pattern relative to the case folder, got "../x"' \
  "refusal"
echo ok
