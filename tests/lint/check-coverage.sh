#!/usr/bin/env bash
# Every rule that `assay lint --list-rules` prints has a fixture folder
# tests/fixtures/lint/rules/RULE with a bad*.json and a good*.json, and an entry in
# docs/lint.md: a "### `RULE`" heading whose section holds a bad and a good
# example (lines "Bad:" and "Good:").
set -u
assay=$1
cd "${ASSAY_SOURCE_DIR:?}" || exit 1
fail=0
rules=$("$assay" lint --list-rules | awk 'NR > 1 { print $1 }')
[ -n "$rules" ] || { echo "no rules listed"; exit 1; }
for r in $rules; do
  d=tests/fixtures/lint/rules/$r
  compgen -G "$d/bad*.json" >/dev/null || { echo "$r: no $d/bad*.json"; fail=1; }
  compgen -G "$d/good*.json" >/dev/null || { echo "$r: no $d/good*.json"; fail=1; }
  section=$(awk -v h="### \`$r\`" '$0 == h { on = 1; next } /^##/ { on = 0 } on' docs/lint.md)
  if [ -z "$section" ]; then echo "$r: no \"### \`$r\`\" section in docs/lint.md"; fail=1; continue; fi
  grep -q '^Bad:' <<<"$section" || { echo "$r: docs/lint.md section has no Bad: example"; fail=1; }
  grep -q '^Good:' <<<"$section" || { echo "$r: docs/lint.md section has no Good: example"; fail=1; }
done
for d in tests/fixtures/lint/rules/*/; do
  r=$(basename "$d")
  grep -qx "$r" <<<"$rules" || { echo "$d: no rule named $r"; fail=1; }
done
exit $fail
