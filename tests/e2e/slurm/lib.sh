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
