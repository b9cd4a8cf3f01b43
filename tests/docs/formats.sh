#!/usr/bin/env bash
# Doc meta-test: every input format of the table (src/lib/parse/formats.c, as
# `assay parse` names them when given an unknown one) is on docs/ingest.md, as
# a table cell `NAME`, and in `assay help parse`. A format added without its
# docs, or a page that drops one, fails this test.
set -u
assay=${ASSAY_BIN:?}
cd "${ASSAY_SOURCE_DIR:?}" || exit 1
msg=$("$assay" parse --input-format '?' /dev/null 2>&1)
formats=$(printf '%s\n' "$msg" | sed -n 's/.*(expected auto, \(.*\))$/\1/p' | tr -d ',')
[ -n "$formats" ] || { echo "FAIL: no format list in: $msg"; exit 1; }
help=$("$assay" help parse)
fail=0 n=0
for f in $formats; do
  n=$((n + 1))
  grep -q "^| [^|]*\`$f\`[^|]*|" docs/ingest.md || { echo "FAIL: format $f is not in docs/ingest.md's table"; fail=1; }
  printf '%s\n' "$help" | grep -qw -- "$f" || { echo "FAIL: format $f is not in 'assay help parse'"; fail=1; }
done
[ $fail = 0 ] && echo "ok: $n formats on docs/ingest.md and in assay help parse"
exit $fail
