#!/usr/bin/env bash
# assay-ep's tables and what is written about them agree: the backends of
# ep_backends[] (as --backend's error lists them) and the dispatch
# precisions (assay_known_precisions, as --precision's errors list them) are
# the ones `assay-ep run --help`, `probe --help` and docs/ep.md name, and the
# precisions are the ones a sweep accepts (`assay matrix`). Adding a backend
# or a precision without its help and doc line fails here.
#   tables.sh ASSAY_EP ASSAY SOURCE_DIR
set -u
ep=$1 assay=$2
cd "$3" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# "expected a, b or c, got 'x'" -> "a b c"
words() { sed -n "s/.*: expected \(.*\), got .*/\1/p" | sed 's/,//g; s/ or / /'; }
args=(--ep 1 --phase decode --tokens 1)
"$ep" run --backend nope --precision bf16 "${args[@]}" 2>"$tmp/err"
[ $? = 2 ] || { echo "FAIL: run --backend nope does not exit 2"; fail=1; }
backends=$(words <"$tmp/err")
"$ep" run --backend mpi --precision nope "${args[@]}" 2>"$tmp/err"
precisions=$(words <"$tmp/err")
"$ep" probe --precision nope 2>"$tmp/err"
probe_precisions=$(words <"$tmp/err")
[ -n "$backends" ] && [ -n "$precisions" ] || { echo "FAIL: no lists in the errors"; exit 1; }
[ "$precisions" = "$probe_precisions" ] ||
  { echo "FAIL: run takes precisions '$precisions', probe '$probe_precisions'"; fail=1; }

"$ep" run --help >"$tmp/run-help"
"$ep" probe --help >"$tmp/probe-help"
bar() { echo "$1" | tr ' ' '|'; }
grep -qF -- "--backend $(bar "$backends") " "$tmp/run-help" ||
  { echo "FAIL: run --help's usage does not name the backends $(bar "$backends")"; fail=1; }
grep -qF -- "--precision $(bar "$precisions") " "$tmp/run-help" ||
  { echo "FAIL: run --help's usage does not name the precisions $(bar "$precisions")"; fail=1; }
grep -qF -- "--precision $(bar "$precisions")]" "$tmp/probe-help" ||
  { echo "FAIL: probe --help does not name the precisions $(bar "$precisions")"; fail=1; }
for b in $backends; do
  grep -q -- "--backend B .*\b$b\b" "$tmp/run-help" || { echo "FAIL: run --help: no $b under --backend"; fail=1; }
  grep -q "^| \`--backend B\` |.*\`$b\`" docs/ep.md || { echo "FAIL: docs/ep.md: no \`$b\` under --backend"; fail=1; }
done
for p in $precisions; do
  grep -q -- "--precision P .*\b$p\b" "$tmp/run-help" || { echo "FAIL: run --help: no $p under --precision"; fail=1; }
  grep -q "^| \`--precision P\` |.*\`$p\`" docs/ep.md || { echo "FAIL: docs/ep.md: no \`$p\` under --precision"; fail=1; }
done

# A sweep accepts exactly these precisions (the matrix hands them to assay-ep).
cat >"$tmp/sweep.json" <<'JSON'
{"suite": "t", "routing": "uniform", "modes": {"normal": ["decode"]}, "ep_degrees": [2],
 "precisions": ["nope"], "timing": {"profile": "quick"},
 "workload": {"name": "w", "hidden": 64, "topk": 2, "experts": 4, "seed": 1,
              "token_ladders": {"decode": [1]}}}
JSON
"$assay" matrix --platforms configs/platforms.json "$tmp/sweep.json" 2>"$tmp/err"
sweep=$(sed -n 's/.*expected one of \(.*\), got .*/\1/p' "$tmp/err" | tr -d '",')
[ "$sweep" = "$precisions" ] ||
  { echo "FAIL: a sweep takes precisions '$sweep', assay-ep '$precisions'"; fail=1; }
[ $fail = 0 ] && echo "ok: backends '$backends' and precisions '$precisions' agree everywhere"
exit $fail
