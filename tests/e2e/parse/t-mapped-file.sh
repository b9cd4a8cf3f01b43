#!/usr/bin/env bash
# `assay parse` reads a regular file through a map (docs/parse.md). Two
# things a user can do to it:
# 1. Parse it whole: the rows are those of the same log read from a pipe
#    (the pipe is read with read(2), so the two paths agree).
# 2. Truncate it while it is read (logrotate's copytruncate does): the
#    missing pages fault; assay says the file shrank and exits 2 with
#    nothing on stdout, never a crash. Before the map, a cut file ended the
#    read early and the run was judged on what was read.
# The log is 48 MiB of bench/gen-training-log.py's mixed Megatron/Primus
# lines (built from the upstream print statements, see that script).
set -euo pipefail
ASSAY=$1
SRC=${ASSAY_SOURCE_DIR:?}
T=$(mktemp -d /tmp/assay-e2e-parse.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T"
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
python3 "$SRC/bench/gen-training-log.py" $((48 << 20)) big.log >/dev/null

# 1. The map and the pipe give the same rows.
"$ASSAY" parse big.log >file.ndjson 2>file.err || fail "parse of the file: exit $? ($(cat file.err))"
"$ASSAY" parse - <big.log >pipe.ndjson 2>pipe.err || fail "parse of the pipe: exit $?"
[ -s file.ndjson ] || fail "no rows from the file"
sed 's/"file":"[^"]*"//' file.ndjson >a
sed 's/"file":"[^"]*"//' pipe.ndjson >b
cmp -s a b || { diff a b | head -5 >&2; fail "the mapped file and the pipe gave different rows"; }

# 2. Cut short while mapped: wait until assay has the file mapped, then
# truncate it.
cp big.log cut.log
"$ASSAY" parse cut.log >cut.out 2>cut.err &
pid=$!
mapped=
for _ in $(seq 2000); do
  if grep -q "/cut.log" "/proc/$pid/maps" 2>/dev/null; then
    mapped=1
    break
  fi
  sleep 0.005
done
[ -n "$mapped" ] || { wait $pid || true; fail "assay never mapped cut.log"; }
truncate -s 0 cut.log
set +e
wait $pid
rc=$?
set -e
[ "$rc" = 2 ] || fail "exit $rc after the truncation, expected 2 ($(cat cut.err))"
want="cut.log: cannot read: the file shrank while it was read"
[ "$(cat cut.err)" = "$want" ] || fail "stderr: '$(cat cut.err)', expected '$want'"
[ ! -s cut.out ] || fail "rows were printed for a file that shrank"
echo "ok: mapped rows equal the pipe's; a file truncated while mapped exits 2 with its message"
