#!/usr/bin/env bash
# The Primus smoke example end to end, as a command suite will run it:
# replay the conformance log as the workload's output, then gate the captured
# log with configs/examples/primus-smoke-thresholds.json and
# primus-smoke-gates.json. Skips when the shared conformance data is absent.
set -u
src=${ASSAY_SOURCE_DIR:?}
assay=${ASSAY_BIN:?}
conf=${ASSAY_CONFORMANCE_DIR:-$src/../shared/conformance}
log=$conf/training-logs/primus_megatron_smoke_tail_mi355x.log
if [ ! -r "$log" ]; then
  echo "SKIP: $log not found (set ASSAY_CONFORMANCE_DIR to the shared conformance folder)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$src/configs/examples/replay-log.sh" "$log" >"$tmp/workload.log" || fail "replay exited $?"
"$assay" gate --thresholds "$src/configs/examples/primus-smoke-thresholds.json" \
  --combo MBS=1,GBS=8,PRECISION=BF16 --spec "$src/configs/examples/primus-smoke-gates.json" \
  --log "$tmp/workload.log" >"$tmp/verdicts"
rc=$?
cat "$tmp/verdicts"
[ $rc = 0 ] || fail "assay gate exited $rc, expected 0"
for want in 'PASS +run +completion' 'PASS +run +finite' \
  'PASS +threshold +tflops_per_gpu/steady_mean +502.05 ' \
  'PASS +threshold +elapsed_ms_per_iter/steady_mean +537.9125 ' \
  'PASS +threshold +tokens_per_gpu/steady_mean +7673.2125 ' \
  'PASS +threshold +mem_usage_ratio/max +0.5933 ' \
  'PASS +threshold +lm_loss/last +9.258826 ' \
  'SKIPPED +threshold +eval_lm_loss/last' \
  'RECORD +threshold +tflops_per_gpu/running_avg +502.1 ' \
  'PASS +loss-curve +lm_loss/slope +-0.3228' \
  'PASS +convergence +lm_loss/final +9.258826 '; do
  grep -Eq "^$want" "$tmp/verdicts" || fail "no verdict line matching: $want"
done
echo "ok"
