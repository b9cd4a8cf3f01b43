#!/usr/bin/env bash
# Runs assay-coll under mpirun for CTest and checks its exit code, its
# layout against nccl-tests' and its ingest (check-output.py).
#   run-coll.sh ASSAY_COLL ASSAY NP EXIT OP BACKEND -- assay-coll arguments...
# EXIT 3 means #wrong > 0 is expected; EXIT 2 checks COLL_EXPECT_STDERR
# (once on stderr) and nothing else. COLL_JSON=1 adds -J and checks it.
# COLL_ARGV0=NAME runs assay-coll through a link named NAME.
# As run-ep.sh: root, oversubscription and the sanitizers are the wrapper's
# business (Open MPI leaks at exit, so detect_leaks=0 for the MPI processes).
# Open MPI 4.1's op/avx component saturates 8-bit sums (docs/collectives.md):
# it is turned off here so the tests check assay-coll, not that bug.
set -euo pipefail
bin=$1 assay=$2 np=$3 want_rc=$4 op=$5 backend=$6
shift 6
[ "$1" = -- ] && shift
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_op=^avx
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
if [ "$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo 0)" -ge 2 ]; then
  export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
fi
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
set +e
mpirun --oversubscribe --bind-to none -np "$np" -x ASAN_OPTIONS -x UBSAN_OPTIONS -x OMPI_MCA_op \
  "$bin" "${args[@]}" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
set -e
cat "$tmp/stdout"
if [ "$rc" != "$want_rc" ]; then
  cat "$tmp/stderr" >&2
  echo "run-coll.sh: exit code $rc, expected $want_rc" >&2
  exit 1
fi
if [ -n "${COLL_EXPECT_STDERR:-}" ]; then
  n=$(grep -cF -- "$COLL_EXPECT_STDERR" "$tmp/stderr" || true)
  if [ "$n" != 1 ]; then
    cat "$tmp/stderr" >&2
    echo "run-coll.sh: expected once on stderr: $COLL_EXPECT_STDERR (found $n)" >&2
    exit 1
  fi
fi
if [ "$want_rc" = 0 ] || [ "$want_rc" = 3 ]; then
  [ "$want_rc" = 3 ] && check+=(--wrong)
  python3 "$(dirname "$0")/check-output.py" "$tmp/stdout" "$assay" "$op" "$backend" "$np" "${check[@]}"
fi
echo "run-coll.sh: ok (exit $rc)"
