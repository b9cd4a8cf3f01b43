# Shared by the tests/e2e/slurm/t-*.sh scripts: skip (exit 77) when the test
# Slurm is not up, unless ASSAY_REQUIRE_SLURM=1 makes that a failure; then
# the helpers of tests/e2e/run/lib.sh (scratch folder, run_assay, q, ...).
#   . "$(dirname "$0")/lib.sh" ASSAY [ASSAY_EP]
if [ -z "${SLURM_CONF:-}" ] || [ ! -r "$SLURM_CONF" ] || ! sinfo -h >/dev/null 2>&1; then
  if [ "${ASSAY_REQUIRE_SLURM:-0}" = 1 ]; then
    echo "FAIL: Slurm is not running (ASSAY_REQUIRE_SLURM=1)" >&2
    exit 1
  fi
  echo "SKIP: Slurm is not running (SLURM_CONF unset or missing; e2e/slurm/up skipped or failed)"
  exit 77
fi
. "$(dirname "$0")/../run/lib.sh" "$1"
ASSAY_EP=${2:-}

# A test still running after ASSAY_E2E_WATCHDOG_S seconds (default 200, under
# CTest's 300 s timeout) prints what it waits for: assay's progress so far,
# the queue, the node's state, the processes and the daemons' last lines. A
# CI run once timed out in e2e/slurm/signature-scancel with no output at all.
slurm_watchdog() {
  # The sleep holds no output (CTest waits for every holder to close it) and
  # leaves its pid for the EXIT trap.
  sleep "${ASSAY_E2E_WATCHDOG_S:-200}" </dev/null >/dev/null 2>&1 &
  echo $! >"$T/.watchdog"
  wait $!
  {
    echo "--- watchdog: $(basename "$0") still running after ${ASSAY_E2E_WATCHDOG_S:-200} s"
    echo "--- assay's stderr so far ($T/err.txt)"
    tail -n 40 "$T/err.txt" 2>/dev/null
    echo "--- squeue -t all"
    squeue -h -t all -o '%i %j %T %r %M %N %k' 2>&1
    echo "--- sinfo -N"
    sinfo -h -N -o '%N %T %E' 2>&1
    echo "--- processes"
    ps -N --ppid 2 -o pid,ppid,stat,etime,wchan:24,args --forest 2>&1 | cut -c1-200 | tail -n 60
    local d log
    d=$(dirname "$SLURM_CONF")
    for log in "$d"/log/slurmctld.log "$d"/log/slurmd.log; do
      echo "--- $log (last 30 lines)"
      tail -n 30 "$log" 2>&1
    done
  } >&2 || true
}
slurm_watchdog &
watchdog_pid=$!
disown "$watchdog_pid"
trap 'kill -9 "$watchdog_pid" 2>/dev/null || true
kill "$(cat "$T/.watchdog" 2>/dev/null)" 2>/dev/null || true
rm -rf "$T"' EXIT

# The last job ids Slurm knows, one per line, for "no new job" checks.
jobs_known() {
  squeue -h -t all -o %i | sort -n
}

# job_field ID FORMAT: one squeue field of a job (e.g. %T, %k, %j).
job_field() {
  squeue -h -t all -j "$1" -o "$2"
}

# final_state ID: the job's state once it has ended (a shard job ends within
# seconds of the run: it sees the "end" that assay writes last), bounded.
final_state() {
  local s i
  for i in $(seq 120); do
    s=$(job_field "$1" %T)
    case "$s" in PENDING | RUNNING | COMPLETING | CONFIGURING | "") sleep 0.5 ;; *) break ;; esac
  done
  echo "$s"
}

# no_secret VALUE PATH...: the value is in no file under the paths.
no_secret() {
  local v=$1
  shift
  if grep -rlF -- "$v" "$@" >&2; then
    fail "the secret's value was written to the files above"
  fi
}
