#!/usr/bin/env bash
# Three runs of one revision of a small command suite (two cases, p50 and p99
# rows of five trials each, a secret in the workload's environment) publish;
# the folder verifies, holds neither the secret nor the host name, and one
# flipped byte fails --verify. A fourth run from another revision, with a
# missing case, with a failed case, or 20% slower each refuse the
# publication with the reason, and nothing is written.
. "$(dirname "$0")/../run/lib.sh" "$@"
S=$(store_new s)
export ASSAY_E2E_CANARY="canary-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
cat >work.sh <<'EOF2'
#!/bin/sh
# work.sh BASE SCALE: five trials of p50 and p99 latency, one rows-format line each
echo "token $ASSAY_E2E_CANARY on $(uname -n)"
[ "$1" = fail ] && exit 1
for i in 1 2 3 4 5; do
  awk -v b="$1" -v s="$2" -v i="$i" 'BEGIN {
    for (q = 0; q < 2; q++)
      printf "{\"series\":{\"workload\":\"toy\",\"tokens\":64,\"note\":\"%s\"},\"metric\":\"latency_us\",\"statistic\":\"%s\",\"value\":%.3f,\"unit\":\"us\",\"direction\":\"lower\"}\n",
        ENVIRON["ASSAY_E2E_CANARY"], q ? "p99" : "p50", b * s * (q ? 1.5 : 1) * (1 + i / 1000) }'
done >"$CASE_DIR/rows.ndjson"
EOF2
# suite NAME SCALE [RUNS] [FP8_BASE]
suite() {
  cat >"$1" <<JSON
{"kind": "command", "name": "pubtoy", "cluster": "ci-pool",
 "combos": {"bf16": {"BASE": 100, "PRECISION": "bf16"}, "fp8": {"BASE": "${4:-80}", "PRECISION": "fp8"}},
 ${3:+\"runs\": $3,}
 "argv": ["sh", "work.sh", "{BASE}", "$2"],
 "env": {"CASE_DIR": "{CASE_DIR}"}, "secrets": ["ASSAY_E2E_CANARY"],
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"],
 "context": {"precision": "{PRECISION}"}}
JSON
}
suite ok.json 1
suite slow.json 1.2
suite missing.json 1 '["bf16"]'
suite failing.json 1 "" fail
last_run() { q "$S" "SELECT run_id FROM runs ORDER BY id DESC LIMIT 1"; }
for i in 1 2 3; do run_assay 0 run --store "$S" --out out --revision rev1 --quiet ok.json; done
good=$(q "$S" "SELECT run_id FROM runs ORDER BY id" | tr '\n' ' ')

run_assay 0 publish --store "$S" --suite pubtoy --last 3 --revision rev1 --out pub/one
expect_grep '^published 4 series of suite pubtoy from runs ' out.txt
expect_grep '^  pub/one: unversioned$' out.txt
[ "$(ls pub/one | tr '\n' ' ')" = "manifest.json rows.ndjson " ] || fail "files: $(ls pub/one)"
run_assay 0 publish --verify pub/one
expect_grep '^pub/one: verified: 4 series, unversioned' out.txt
# Neither the secret nor this host's name anywhere in the folder, yet the
# rows are there with their redacted note.
if grep -rlF -- "$ASSAY_E2E_CANARY" pub; then fail "the secret is in the folder"; fi
host=$(uname -n)
if grep -rlF -- "$host" pub; then fail "the host name $host is in the folder"; fi
grep -qF '"note":"***"' pub/one/rows.ndjson || fail "no redacted note: the check saw nothing"
grep -qF '"ci":{"high":' pub/one/rows.ndjson || fail "no CI in the rows"
# The same runs and seed again: byte-identical rows.
run_assay 0 publish --store "$S" --suite pubtoy --out pub/two $good
cmp pub/one/rows.ndjson pub/two/rows.ndjson || fail "the CIs differ for the same seed"
# One flipped byte (lowest bit of the middle byte) in each file fails --verify.
flip() { # FILE OFFSET
  local b
  b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
  printf "$(printf '\\%03o' $((b ^ 1)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
for f in rows.ndjson manifest.json; do
  cp -r pub/one pub/flip
  flip pub/flip/$f $(($(stat -c %s pub/flip/$f) / 2))
  run_assay 1 publish --verify pub/flip
  grep -q "^  $f: \|^  manifest.json: " err.txt || { cat err.txt >&2; fail "the flip in $f was not named"; }
  rm -rf pub/flip
done
# A release needs both --tag and the matching --expect-matrix: a command
# suite has no matrix digest, so it stays unversioned.
run_assay 0 publish --store "$S" --suite pubtoy --out pub/tagged --tag v1 --expect-matrix 0000 $good
expect_grep '^  pub/tagged: unversioned$' out.txt
expect_grep 'expect-matrix differs' err.txt
[ ! -e pub/tagged/RELEASE ] || fail "a release marker without a matching matrix digest"

# A fourth run that does not qualify: each refuses, naming why; nothing written.
run_assay 0 run --store "$S" --out out --revision rev2 --quiet ok.json
r=$(last_run)
run_assay 1 publish --store "$S" --suite pubtoy --out pub/bad $good $r
expect_eq "$(cat err.txt)" "assay publish: not published: 1 check failed
  run $r: revision rev2, not rev1" "another revision"
run_assay 0 run --store "$S" --out out --revision rev1 --quiet missing.json
r=$(last_run)
run_assay 1 publish --store "$S" --suite pubtoy --out pub/bad $good $r
expect_eq "$(cat err.txt)" "assay publish: not published: 1 check failed
  run $r: case fp8: missing" "a missing case"
run_assay 3 run --store "$S" --out out --revision rev1 --quiet failing.json
r=$(last_run)
run_assay 1 publish --store "$S" --suite pubtoy --out pub/bad $good $r
expect_grep "^  run $r: case fp8: workload-failed" err.txt
run_assay 0 run --store "$S" --out out --revision rev1 --quiet slow.json
r=$(last_run)
run_assay 1 publish --store "$S" --suite pubtoy --out pub/bad $good $r
expect_grep "^  series [0-9a-f]{12} \(case bf16, latency_us/p50\): p50 spread 1.2x above the limit 1.1x$" err.txt
expect_grep "^  series [0-9a-f]{12} \(case fp8, latency_us/p50\): p50 spread 1.2x above the limit 1.1x$" err.txt
if grep -q 'p99): p99 spread' err.txt; then fail "1.2x is within the p99 limit 1.25x"; fi
[ ! -e pub/bad ] || fail "a refused publication wrote its folder"
if ls -d pub/bad.tmp-* 2>/dev/null; then fail "a temporary folder was left"; fi
# --last takes the newest runs of the revision: the slow and failed ones now.
run_assay 1 publish --store "$S" --suite pubtoy --last 3 --revision rev1 --out pub/bad
expect_grep ': case fp8: workload-failed' err.txt
echo ok
