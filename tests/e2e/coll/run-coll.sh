#!/usr/bin/env bash
# Runs assay-coll under mpirun for CTest (through ../ep/run-ep.sh, which
# handles root, oversubscription, the sanitizers and the exit code) and
# checks its layout against nccl-tests' and its ingest (check-output.py).
#   run-coll.sh ASSAY_COLL ASSAY NP EXIT OP BACKEND -- assay-coll arguments...
# EXIT 3 means #wrong > 0 is expected; COLL_EXPECT_STDERR: a message that
# must appear once on stderr (then nothing else is checked); COLL_EXPECT_STDOUT:
# text that must appear on stdout (then nothing else is checked). COLL_JSON=1
# adds -J and checks it. COLL_ROWS=N: the table has N rows; COLL_LINES:
# lines ('|' between them) that must be in stdout as they are. COLL_ARGV0=NAME runs assay-coll through a link
# named NAME. Open MPI 4.1's op/avx component saturates 8-bit sums
# (docs/collectives.md): it is turned off so the tests check assay-coll.
set -euo pipefail
bin=$1 assay=$2 np=$3 want_rc=$4 op=$5 backend=$6
shift 6
[ "$1" = -- ] && shift
export OMPI_MCA_op=^avx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=("$@")
check=()
if [ "${COLL_JSON:-}" = 1 ]; then
  args+=(-J "$tmp/out.json")
  check+=(--json "$tmp/out.json")
fi
if [ -n "${COLL_ARGV0:-}" ]; then
  ln -s "$bin" "$tmp/$COLL_ARGV0"
  bin=$tmp/$COLL_ARGV0
fi
EP_EXPECT_STDERR=${COLL_EXPECT_STDERR:-} "$(dirname "$0")/../ep/run-ep.sh" "$bin" "$np" "$want_rc" - - \
  -- "${args[@]}" >"$tmp/all"
cat "$tmp/all"
grep -v '^run-ep.sh: ' "$tmp/all" >"$tmp/stdout" || true
if [ -n "${COLL_EXPECT_STDOUT:-}" ]; then
  grep -qF -- "$COLL_EXPECT_STDOUT" "$tmp/stdout" || { echo "run-coll.sh: not on stdout: $COLL_EXPECT_STDOUT" >&2; exit 1; }
elif [ -z "${COLL_EXPECT_STDERR:-}" ]; then
  [ "$want_rc" = 3 ] && check+=(--wrong)
  [ -n "${COLL_ROWS:-}" ] && check+=(--rows "$COLL_ROWS")
  # COLL_LINES: lines that must be in stdout as they are, separated by '|'
  if [ -n "${COLL_LINES:-}" ]; then
    IFS='|' read -ra want_lines <<<"$COLL_LINES"
    for l in "${want_lines[@]}"; do check+=(--line "$l"); done
  fi
  python3 "$(dirname "$0")/check-output.py" "$tmp/stdout" "$assay" "$op" "$backend" "$np" "${check[@]}"
fi
echo "run-coll.sh: ok"
