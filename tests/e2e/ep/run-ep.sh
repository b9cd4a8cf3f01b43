#!/usr/bin/env bash
# Runs one assay-ep command under mpirun for CTest and checks its exit code
# and, for `run`, its artifact (check-artifact.py).
#   run-ep.sh ASSAY_EP NP EXIT OUTCOME FAILING -- assay-ep arguments...
# OUTCOME is success|invalid|unsupported|- (no artifact check); FAILING is a
# comma-separated list of oracle checks that must fail (or -).
# The wrapper, not the user, handles running as root, oversubscription (EP 4
# on 2 cores) and the sanitizers: Open MPI leaks at exit from components it
# dlopens (LeakSanitizer cannot symbolise them once unloaded, so suppressions
# do not match), so the MPI processes run with ASAN_OPTIONS=detect_leaks=0;
# every other sanitizer check stays on.
set -euo pipefail
bin=$1 np=$2 want_rc=$3 want_outcome=$4 want_failing=$5
shift 5
[ "$1" = -- ] && shift
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
# Where ptrace is restricted (Yama scope >= 2) cross-memory attach fails:
# fall back to copy-in/copy-out. Anything else that blocks it: set
# OMPI_MCA_btl_vader_single_copy_mechanism=none in the environment.
if [ "$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo 0)" -ge 2 ]; then
  export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=("$@")
if [ "$want_outcome" != - ]; then args+=(--out "$tmp/case.json"); fi
# EP_OUT_BLOCKED=1: the artifact path is a directory, so writing it fails
# (exit 5) and stdout must not claim an outcome (issue 17).
if [ "${EP_OUT_BLOCKED:-}" = 1 ]; then
  mkdir "$tmp/blocked"
  args+=(--out "$tmp/blocked")
fi
set +e
# ASSAY_EP_MUTANT (read only by the test build assay_ep_mutant) names a mutant.
mpirun --oversubscribe --bind-to none -np "$np" -x ASAN_OPTIONS -x UBSAN_OPTIONS \
  ${ASSAY_EP_MUTANT:+-x ASSAY_EP_MUTANT} \
  "$bin" "${args[@]}" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
set -e
cat "$tmp/stdout"
if [ "$rc" != "$want_rc" ]; then
  cat "$tmp/stderr" >&2
  echo "run-ep.sh: exit code $rc, expected $want_rc" >&2
  exit 1
fi
# EP_EXPECT_STDERR: a message that must appear on stderr exactly once (once:
# only rank 0 reports usage errors).
if [ -n "${EP_EXPECT_STDERR:-}" ]; then
  n=$(grep -cF -- "$EP_EXPECT_STDERR" "$tmp/stderr" || true)
  if [ "$n" != 1 ]; then
    cat "$tmp/stderr" >&2
    echo "run-ep.sh: expected once on stderr: $EP_EXPECT_STDERR (found $n)" >&2
    exit 1
  fi
fi
if [ "${EP_OUT_BLOCKED:-}" = 1 ]; then
  if grep -q '^outcome: success' "$tmp/stdout" || ! grep -q '^outcome: error: the artifact' "$tmp/stdout"; then
    echo "run-ep.sh: stdout must say the artifact was not written" >&2
    exit 1
  fi
fi
if [ "$want_outcome" != - ]; then
  python3 "$(dirname "$0")/check-artifact.py" "$tmp/case.json" "$want_outcome" "$want_failing" "$tmp/stdout"
fi
echo "run-ep.sh: ok (exit $rc)"
