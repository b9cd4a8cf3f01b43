#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time on a fresh corpus seeded from
# the files fuzz_<name>.seeds lists: one glob per line, relative to the
# repository root (missing files are ignored), and optionally a line
# "dict: FILE" naming a libFuzzer dictionary. A crash, leak, UB or timeout
# fails the test; the input that triggered it is kept under crashes/<name>/
# in the current (build) directory.
#   usage: run-fuzz.sh BINARY NAME      (ASSAY_SOURCE_DIR must be set)
#   ASSAY_FUZZ_SECONDS   how long to fuzz (default 20)
#   ASSAY_FUZZ_MAX_LEN   the largest input (default 8 MiB: long lines and
#                        logs past a parser's 1 MiB block need it)
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

# Training logs: two seeds of several MiB, made here (never committed): a
# 3 MiB line without a line end, and a fixture repeated past 2 MiB with \r
# line ends, so long lines and carried lines are reached from the start.
case "$name" in
  megatron | primus)
    { head -c 3145728 /dev/zero | tr '\0' 'x'; printf ' torchrun finished successfully\n'; } \
      >"$work/corpus/seed-long-line"
    fixture="$src/tests/fixtures/training/$name-complete.log"
    [ -f "$fixture" ] || fixture="$src/tests/fixtures/training/megatron-basic.log"
    while [ "$(stat -c %s "$work/corpus/seed-repeated" 2>/dev/null || echo 0)" -lt 2097152 ]; do
      tr '\n' '\r' <"$fixture" >>"$work/corpus/seed-repeated"
    done
    seeds=$((seeds + 2))
    ;;
esac

echo "fuzz/$name: $secs s, $seeds seed file(s)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len="${ASSAY_FUZZ_MAX_LEN:-8388608}" \
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
