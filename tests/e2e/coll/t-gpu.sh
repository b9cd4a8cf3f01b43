#!/usr/bin/env bash
# assay-coll's GPU backends where there is no GPU (issue 36): --backend nccl
# and --backend rccl exit 4 with one line on stderr (built without the
# toolkit, or built with it and no device: either is right here, the line
# says which), nothing timed; -R and -G are refused naming the backend;
# --help names both; bench/gpu-check.sh with NGPU=0 exits 4 with its "no
# GPU" line before it configures or builds anything. On a node with a GPU
# this test is skipped (77): bench/gpu-check.sh is the test there.
#   t-gpu.sh ASSAY_COLL
set -euo pipefail
coll=$1
if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  echo "t-gpu.sh: a GPU is here; bench/gpu-check.sh checks the nccl backend" >&2
  exit 77
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
if [ "$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo 0)" -ge 2 ]; then
  export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t-gpu.sh: $*" >&2; exit 1; }

# run WANT_RC -- args: mpirun -np 2 assay-coll args, stdout and stderr kept.
run() {
  local want=$1 rc=0
  shift 2
  mpirun --oversubscribe --bind-to none -np 2 -x ASAN_OPTIONS "$coll" "$@" \
    >"$tmp/out" 2>"$tmp/err" || rc=$?
  [ "$rc" = "$want" ] || { cat "$tmp/out" "$tmp/err" >&2; fail "$*: exit $rc, expected $want"; }
}
# The lines assay-coll wrote on stderr (mpirun's own notes left out).
coll_lines() { grep '^assay-coll: ' "$tmp/err" || true; }

for be in nccl rccl; do
  run 4 -- -O all_reduce --backend "$be" -b 8 -e 64K -n 2
  [ "$(coll_lines | wc -l)" = 1 ] || { cat "$tmp/err" >&2; fail "$be: not one line on stderr"; }
  [ "$be" = nccl ] && kit="CUDA and NCCL" rt=CUDA || kit="ROCm and RCCL" rt=HIP
  coll_lines | grep -Eqx "assay-coll: unsupported: (assay-coll was built without $kit \(none found at configure time\)|no $rt device on rank 0 \(GetDeviceCount: .+\))" ||
    { cat "$tmp/err" >&2; fail "$be: not the unsupported line"; }
  ! grep -q '^#  *size' "$tmp/out" || fail "$be: a table header without a backend"
  grep -q "^#  Rank  1 .* the local rank's GPU (assay-coll $be)$" "$tmp/out" ||
    { cat "$tmp/out" >&2; fail "$be: the device report"; }
done

run 2 -- -O all_reduce --backend nccl -R 1
[ "$(coll_lines)" = "assay-coll: -R 1: buffer registration is not built in assay-coll's nccl backend; run without -R" ] ||
  { cat "$tmp/err" >&2; fail "-R with nccl"; }
run 2 -- -O all_reduce --backend rccl -G 2
[ "$(coll_lines)" = "assay-coll: -G 2: CUDA graph launches are not built in assay-coll's rccl backend; run without -G" ] ||
  { cat "$tmp/err" >&2; fail "-G with rccl"; }
run 2 -- -O all_reduce --backend cuda
[ "$(coll_lines)" = "assay-coll: --backend: expected mpi, shm, nccl or rccl, got 'cuda'" ] ||
  { cat "$tmp/err" >&2; fail "--backend cuda"; }
"$coll" --help >"$tmp/help"
grep -q 'nccl or rccl (NCCL or RCCL on device buffers, one$' "$tmp/help" || fail "--help does not name nccl and rccl"

# bench/gpu-check.sh: no GPU, exit 4, its line, and no build directory made.
rc=0
NGPU=0 OUT="$tmp/gc/out" "$ASSAY_SOURCE_DIR/bench/gpu-check.sh" "$tmp/gc/build" >"$tmp/gc.out" 2>"$tmp/gc.err" || rc=$?
[ "$rc" = 4 ] || { cat "$tmp/gc.out" "$tmp/gc.err" >&2; fail "gpu-check.sh: exit $rc, expected 4"; }
[ "$(cat "$tmp/gc.err")" = "gpu-check: no GPU found (set NGPU to override)" ] ||
  { cat "$tmp/gc.err" >&2; fail "gpu-check.sh: not its no-GPU line"; }
[ ! -e "$tmp/gc/build" ] || fail "gpu-check.sh configured a build without a GPU"
echo "t-gpu.sh: ok"
