# Shared by the tests/e2e/run/t-*.sh scripts: a scratch folder, the assay
# binary, stores of the test's backend (S=$(store_new s), tests/lib/store.sh)
# and checks that say what they expected. Source it first:
#   . "$(dirname "$0")/lib.sh" "$@"
# A script with a line "# backends: sqlite" runs on SQLite only (CMakeLists.txt).
set -euo pipefail
ASSAY=$1
. "$(dirname "${BASH_SOURCE[0]}")/../../lib/store.sh"
T=$(mktemp -d /tmp/assay-e2e-run.XXXXXX)
trap 'store_cleanup; rm -rf "$T"' EXIT
cd "$T"
store_init "$T"
# Workloads under ASan-built assay inherit nothing sanitizer-related; keep
# the environment small and predictable.
export LC_ALL=C

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# run_assay EXPECTED_EXIT args...: run assay, keep stdout/stderr in out.txt/err.txt.
run_assay() {
  local want=$1
  shift
  set +e
  "$ASSAY" "$@" >out.txt 2>err.txt
  local rc=$?
  set -e
  if [ "$rc" != "$want" ]; then
    echo "--- stdout" >&2
    cat out.txt >&2
    echo "--- stderr" >&2
    cat err.txt >&2
    fail "assay $* exited $rc, expected $want"
  fi
}

# q STORE SQL: one query against a store (sqlite3 or psql, rows |-separated).
q() {
  store_sql "$1" "$2"
}

expect_eq() {
  [ "$1" = "$2" ] || fail "${3:-value}: got '$1', expected '$2'"
}

expect_grep() {
  grep -qE -- "$1" "$2" || { cat "$2" >&2; fail "no line matching '$1' in $2"; }
}

# A pid is gone when /proc has no entry or only a zombie nobody reaps.
pid_gone() {
  [ ! -e "/proc/$1/stat" ] && return 0
  local state
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 0
  [ -z "$state" ] || [ "$state" = Z ] || [ "$state" = X ]
}

# expect_all_gone PIDFILE N: the file names N pids and none of them is alive.
expect_all_gone() {
  local n=0 p
  for p in $(cat "$1"); do
    n=$((n + 1))
    pid_gone "$p" || fail "process $p (from $1) is still alive"
  done
  expect_eq "$n" "$2" "pids recorded in $1"
}

# megatron_log STEPS TFLOPS [LAST_STEP]: a Megatron-LM log of STEPS iteration
# lines (ELAPSED ms each, default 1000; TFLOPS TFLOP/s/GPU; global batch 64;
# lm loss falling from 10 by 0.1) that completes (iteration N/N) unless
# LAST_STEP stops it earlier.
megatron_log() {
  local n=$1 tflops=$2 last=${3:-$1} i
  for i in $(seq 1 "$last"); do
    printf ' iteration %8d/%8d | consumed samples: %12d | elapsed time per iteration (ms): %s | throughput per GPU (TFLOP/s/GPU): %s | learning rate: 1.000000E-04 | global batch size:    64 | lm loss: %s | loss scale: 1.0 | number of skipped iterations:   0 | number of nan iterations:   0 |\n' \
      "$i" "$n" $((i * 64)) "${ELAPSED:-1000.0}" "$tflops" "$(awk -v i="$i" 'BEGIN { printf "%.6E", 10 - 0.1 * i }')"
  done
}
