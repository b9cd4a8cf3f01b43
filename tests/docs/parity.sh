#!/usr/bin/env bash
# Doc meta-test: every rule row of docs/parity.md names at least one test, and
# every test it names exists: a path under tests/ (relative to the source
# tree), or ctest:NAME for a test CTest knows (`ctest -N` in ASSAY_BUILD_DIR).
# A rule listed without a test fails this test.
set -u
cd "${ASSAY_SOURCE_DIR:?}" || exit 1
page=docs/parity.md
known=
if [ -n "${ASSAY_BUILD_DIR:-}" ]; then
  known=$(mktemp) || exit 1
  trap 'rm -f "$known"' EXIT
  (cd "$ASSAY_BUILD_DIR" && ctest -N) | sed -n 's/^ *Test *#[0-9]*: //p' >"$known"
fi
fail=0 n=0 lineno=0
while IFS= read -r line; do
  lineno=$((lineno + 1))
  case $line in '| rule |'* | '|---'* | '|'*'---|') continue ;; '|'*) ;; *) continue ;; esac
  n=$((n + 1))
  cell=${line%|}
  cell=${cell##*|}
  refs=$(printf '%s\n' "$cell" | grep -o '`[^`]*`' | tr -d '`')
  if [ -z "$refs" ]; then
    echo "FAIL: $page:$lineno: rule names no test: $line"
    fail=1
    continue
  fi
  for r in $refs; do
    case $r in
      ctest:*)
        name=${r#ctest:}
        if [ -n "$known" ] && ! grep -qxF -- "$name" "$known"; then
          echo "FAIL: $page:$lineno: no test named $name"
          fail=1
        fi
        ;;
      tests/*) [ -e "$r" ] || { echo "FAIL: $page:$lineno: $r does not exist"; fail=1; } ;;
      *) echo "FAIL: $page:$lineno: '$r' is neither tests/PATH nor ctest:NAME"; fail=1 ;;
    esac
  done
done <"$page"
[ $fail = 0 ] && echo "ok: $n rules on $page, each with a test"
exit $fail
