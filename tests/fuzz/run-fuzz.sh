#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time on a fresh corpus seeded from
# the files fuzz_<name>.seeds lists: one glob per line, relative to the
# repository root (missing files are ignored), and optionally a line
# "dict: FILE" naming a libFuzzer dictionary. A crash, leak, UB or timeout
# fails the test; the input that triggered it is kept under crashes/<name>/
# in the current (build) directory.
#   usage: run-fuzz.sh BINARY NAME      (ASSAY_SOURCE_DIR must be set)
#   ASSAY_FUZZ_SECONDS   how long to fuzz (default 20)
set -u
bin=$1
name=$2
src=${ASSAY_SOURCE_DIR:?}
secs=${ASSAY_FUZZ_SECONDS:-20}
here=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/artifacts"

seeds=0
dict=()
if [ -f "$src/tests/fuzz/fuzz_$name.seeds" ]; then
  cd "$src" || exit 1
  while IFS= read -r pattern; do
    case "$pattern" in
      '' | '#'*) continue ;;
      'dict: '*) dict=("-dict=$src/${pattern#dict: }"); continue ;;
    esac
    for f in $pattern; do
      [ -f "$f" ] || continue
      seeds=$((seeds + 1))
      cp "$f" "$work/corpus/seed-$seeds"
    done
  done <"$src/tests/fuzz/fuzz_$name.seeds"
  cd "$here" || exit 1
fi

echo "fuzz/$name: $secs s, $seeds seed file(s)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -print_final_stats=1 -artifact_prefix="$work/artifacts/" "${dict[@]}" "$work/corpus" \
  >"$work/log" 2>&1
rc=$?
grep -E '^(#[0-9]+[[:space:]]+DONE|Done [0-9]+ runs|stat::number_of_executed_units)' "$work/log"
if [ $rc -ne 0 ]; then
  tail -n 60 "$work/log"
  mkdir -p "$here/crashes/$name"
  cp "$work/artifacts/"* "$here/crashes/$name/" 2>/dev/null
  echo "fuzz/$name: FAILED (exit $rc); inputs kept in $here/crashes/$name/"
  echo "reproduce: $bin $here/crashes/$name/<file>"
  exit 1
fi
echo "fuzz/$name: no crash in $secs s"
