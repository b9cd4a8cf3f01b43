#!/usr/bin/env bash
# assay-coll's -J JSON is complete before MPI_Finalize (issue 36 item 7).
# With #wrong > 0 every rank exits 3 and mpirun ends the job, which raced
# rank 0 writing the JSON after its finalize: the file stayed empty. Here
# finalize-exit.so makes MPI_Finalize end each rank at once (exit 3), so a
# JSON written after it is never written at all.
#   t-json-finalize.sh ASSAY_COLL FINALIZE_EXIT_SO
set -euo pipefail
bin=$1 shim=$2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_op=^avx
# Sanitizer builds: the shim comes before the sanitizer runtime in the
# library list, which is harmless here; Open MPI's leaks are not ours.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:verify_asan_link_order=0
if [ "$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo 0)" -ge 2 ]; then
  export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
set +e
LD_PRELOAD=$shim mpirun --oversubscribe --bind-to none -np 2 -x LD_PRELOAD -x ASAN_OPTIONS \
  "$bin" -O all_reduce -b 8 -e 64 -f 2 -n 2 --inject bitflip -J "$tmp/out.json" \
  >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
set -e
cat "$tmp/stdout"
if [ "$rc" = 0 ]; then
  cat "$tmp/stderr" >&2
  echo "FAIL: exit 0 with --inject bitflip and MPI_Finalize ending the ranks" >&2
  exit 1
fi
grep -q '^# Out of bounds values : [1-9][0-9]* FAILED' "$tmp/stdout" || {
  cat "$tmp/stderr" >&2
  echo "FAIL: no FAILED footer" >&2
  exit 1
}
python3 - "$tmp/out.json" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
if not text.strip():
    sys.exit("FAIL: the -J JSON is empty (written after MPI_Finalize)")
doc = json.loads(text)
oob = doc["out_of_bounds"]
if oob["okay"] or oob["count"] < 1:
    sys.exit("FAIL: out_of_bounds does not say the check failed: %r" % oob)
if len(doc["results"]) != 4:
    sys.exit("FAIL: expected 4 result rows (8 to 64 B), got %d" % len(doc["results"]))
print("t-json-finalize.sh: ok (JSON complete)")
PY
