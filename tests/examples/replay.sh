#!/usr/bin/env bash
# configs/examples/replay-log.sh prints a log byte for byte (ANSI codes and
# all), with or without a delay, and exits with the status it is given.
set -u
src=${ASSAY_SOURCE_DIR:?}
replay=$src/configs/examples/replay-log.sh
log=$src/tests/fixtures/training/primus-complete.log
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$replay" "$log" >"$tmp/a" || fail "replay exited $?"
cmp "$log" "$tmp/a" || fail "the replayed log differs from the file"
"$replay" --delay 0.01 "$log" >"$tmp/b" || fail "replay --delay exited $?"
cmp "$log" "$tmp/b" || fail "the delayed replay differs from the file"
"$replay" --exit 3 "$log" >/dev/null
[ $? = 3 ] || fail "--exit 3 was not passed on"
printf 'no newline at the end' >"$tmp/c"
"$replay" "$tmp/c" >"$tmp/d"
[ "$(cat "$tmp/d")" = "no newline at the end" ] || fail "the last line without a newline was lost"
"$replay" "$tmp/missing" 2>/dev/null
[ $? = 2 ] || fail "a missing log is not a usage error"
echo "ok"
