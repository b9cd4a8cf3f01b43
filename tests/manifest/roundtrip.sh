#!/usr/bin/env bash
# assay manifest, end to end: the manifest of the 2-node Primus case
# (configs/examples/primus-2node.json on configs/examples/mi355x-platforms.json)
# lints clean under `assay lint --strict --fail-on warning`; --out replaces a
# file atomically; a failed generation leaves an existing file as it was and
# creates none. The shape is madengine's reader's at ROCm/madengine ef87d05
# (v2.1.0-8; docs/manifest.md).
set -u
assay=${1:?usage: roundtrip.sh ASSAY}
cd "${ASSAY_SOURCE_DIR:?}" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
gen=(manifest --platforms configs/examples/mi355x-platforms.json
     --suite configs/examples/primus-2node.json)

echo stale >"$tmp/build_manifest.json"
"$assay" "${gen[@]}" --combo bf16-2node --out "$tmp/build_manifest.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "generation exits 0 (got $rc)" "[ $rc = 0 ]"
check "it says what it wrote" "grep -qx 'wrote $tmp/build_manifest.json: combo bf16-2node, 2 nodes x 8 GPUs' '$tmp/out'"
check "nothing on stderr" "[ ! -s '$tmp/err' ]"
check "--out replaced the stale file" "! grep -q stale '$tmp/build_manifest.json'"
"$assay" "${gen[@]}" --combo bf16-2node | cmp -s - "$tmp/build_manifest.json"
check "--out writes what stdout prints" "[ $? = 0 ]"

"$assay" lint --strict --fail-on warning "$tmp/build_manifest.json" >"$tmp/lint" 2>&1
rc=$?
check "lint --strict --fail-on warning exits 0 (got $rc)" "[ $rc = 0 ]"
check "lint --strict reports nothing" "[ ! -s '$tmp/lint' ]"
"$assay" lint --strict --kind manifest --json "$tmp/build_manifest.json" >"$tmp/lint.json"
check "lint sees a manifest with no findings" \
  "grep -q '\"kind\": \"manifest\"' '$tmp/lint.json' && grep -q '\"findings\": \[\]' '$tmp/lint.json'"

for combo in fp8-2node; do
  "$assay" "${gen[@]}" --combo $combo --out "$tmp/$combo.json" >/dev/null &&
    "$assay" lint --strict --fail-on warning "$tmp/$combo.json" >/dev/null
  check "combo $combo lints clean under --strict" "[ $? = 0 ]"
done

cp "$tmp/build_manifest.json" "$tmp/before.json"
"$assay" "${gen[@]}" --combo no-such-combo --out "$tmp/build_manifest.json" 2>/dev/null
rc=$?
check "an unknown combo exits 2 (got $rc)" "[ $rc = 2 ]"
check "the existing file is left as it was" "cmp -s '$tmp/before.json' '$tmp/build_manifest.json'"
"$assay" manifest --platforms configs/examples/mi355x-platforms.json \
  --suite tests/fixtures/cli/manifest/tcp-fallback.json --combo bf16-2node --out "$tmp/new.json" 2>/dev/null
rc=$?
check "a manifest that would not lint clean exits 2 (got $rc)" "[ $rc = 2 ]"
check "and is not written" "[ ! -e '$tmp/new.json' ]"
files=$(ls -A "$tmp" | tr '\n' ' ')
check "no temporary file is left behind ($files)" \
  "[ '$files' = 'before.json build_manifest.json err fp8-2node.json lint lint.json out ' ]"

[ $fail = 0 ] && echo "ok: assay manifest round trip"
exit $fail
