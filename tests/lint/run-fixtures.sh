#!/usr/bin/env bash
# Lint fixture runner: runs `assay lint` (from the source root) on every
# *.json in one fixture folder and compares stdout with NAME.expected beside
# it, and the exit code with what the expected findings imply (1 with an
# error, else 0). Optional NAME.args holds extra arguments.
#
# In tests/fixtures/lint/rules/RULE/ files named bad*.json must report RULE and
# good*.json must report nothing at all. In tests/fixtures/lint/cases/, NAME.once
# lists "RULE PATH" lines: each must be reported exactly once, and nothing
# else may be.
#
# ASSAY_GOLDEN_UPDATE=1 rewrites the .expected files (then read the diff).
set -u
assay=$1
dir=$2
src=${ASSAY_SOURCE_DIR:?}
cd "$src" || exit 1
rule=$(basename "$dir")
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
fail=0
shopt -s nullglob
files=("$dir"/*.json)
[ ${#files[@]} -gt 0 ] || { echo "$dir: no fixtures"; exit 1; }
for f in "${files[@]}"; do
  rel=${f#"$src"/}
  stem=${rel%.json}
  name=$(basename "$stem")
  args=()
  [ -f "$stem.args" ] && read -r -a args <"$stem.args"
  out=$("$assay" lint "${args[@]}" "$rel" 2>"$tmp")
  code=$?
  err=$(cat "$tmp")
  if [ "${ASSAY_GOLDEN_UPDATE:-}" = 1 ]; then
    if [ -n "$out" ]; then printf '%s\n' "$out" >"$stem.expected"; else : >"$stem.expected"; fi
    echo "updated $stem.expected"
    continue
  fi
  [ -f "$stem.expected" ] || { echo "$rel: missing $stem.expected"; fail=1; continue; }
  want=$(cat "$stem.expected")
  if [ "$out" != "$want" ]; then
    echo "$rel: findings differ (want vs got):"
    diff <(printf '%s\n' "$want") <(printf '%s\n' "$out")
    fail=1
  fi
  want_code=0
  grep -q ': error: ' <<<"$out" && want_code=1
  if [ "$code" != "$want_code" ]; then
    echo "$rel: exit code $code, want $want_code; stderr: $err"
    fail=1
  fi
  dups=$(printf '%s\n' "$out" | grep -v '^$' | sort | uniq -d)
  [ -z "$dups" ] || { echo "$rel: reported more than once:"; echo "$dups"; fail=1; }
  case "$rel" in
  tests/fixtures/lint/rules/*/bad*)
    if ! grep -q ": $rule: " <<<"$out"; then echo "$rel: does not report $rule"; fail=1; fi ;;
  tests/fixtures/lint/rules/*/good*)
    if [ -n "$out" ]; then echo "$rel: a good fixture must report nothing"; fail=1; fi ;;
  esac
  if [ -f "$stem.once" ]; then
    while read -r r p; do
      [ -n "$r" ] || continue
      n=$(grep -cF ": $r: " <<<"$(grep -F ":$p: " <<<"$out")")
      [ "$n" = 1 ] || { echo "$rel: $r at $p reported $n times, want once"; fail=1; }
    done <"$stem.once"
    got=$(grep -c . <<<"$out")
    want_n=$(grep -c . "$stem.once")
    [ "$got" = "$want_n" ] || { echo "$rel: $got findings, want exactly the $want_n in $name.once"; fail=1; }
  fi
done
exit $fail
