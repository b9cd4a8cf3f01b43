#!/usr/bin/env bash
# `assay import cvs` on two unchanged ROCm/cvs Megatron training configs
# (tests/fixtures/gate/cvs/SOURCE.md): each suite passes `assay lint` and
# `assay run --dry-run`, which load it strictly, with CVS's threshold file
# checked against its combos. A config CVS refuses (the shipped distributed
# one still has <changeme> values) exits 2 and leaves no --out file behind.
set -u
assay=${ASSAY_BIN:?}
cd "${ASSAY_SOURCE_DIR:?}" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
D=tests/fixtures/gate/cvs
# config, and the number of runs in its sweep.runs
for pair in mi325x_megatron_llama-3.1-8b_single:4 mi325x_megatron_llama-3.3-70b_single:2; do
  c=${pair%:*} want=${pair#*:}
  if ! "$assay" import cvs --user alice --out "$tmp/$c.json" "$D/$c.json" >"$tmp/out" 2>"$tmp/err"; then
    echo "FAIL: import cvs $c"; cat "$tmp/err"; fail=1; continue
  fi
  grep -q 'not carried over' "$tmp/err" || { echo "FAIL: $c: no notes on stderr"; fail=1; }
  "$assay" lint "$tmp/$c.json" || { echo "FAIL: assay lint on the suite of $c"; fail=1; }
  "$assay" run --dry-run --out "$tmp/out-$c" --store "$tmp/$c.db" "$tmp/$c.json" >"$tmp/dry" 2>&1 ||
    { echo "FAIL: assay run --dry-run on the suite of $c"; cat "$tmp/dry"; fail=1; }
  got=$(grep -c '^\[[0-9]*/[0-9]*\] ' "$tmp/dry")
  [ "$want" = "$got" ] || { echo "FAIL: $c: $got cases in the dry run, CVS runs $want"; fail=1; }
  [ -e "$tmp/$c.db" ] && { echo "FAIL: the dry run of $c wrote a store"; fail=1; }
done
"$assay" import cvs --user alice --out "$tmp/refused.json" \
  "$D/mi325x_megatron_llama-3.3-70b_distributed.json" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] || { echo "FAIL: a config with <changeme> exits $rc, not 2"; fail=1; }
[ -e "$tmp/refused.json" ] && { echo "FAIL: a refused config wrote its --out file"; fail=1; }
grep -q '\$.config.nnodes: "<changeme>" left in the file' "$tmp/err" ||
  { echo "FAIL: the error does not name \$.config.nnodes:"; cat "$tmp/err"; fail=1; }
[ $fail = 0 ] && echo "ok: 2 CVS configs imported, linted and dry-run; a refused one wrote nothing"
exit $fail
