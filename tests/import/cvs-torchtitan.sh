#!/usr/bin/env bash
# `assay import cvs` on ROCm/cvs dddd914's mi355 llama3_1_8b TorchTitan
# config (tests/fixtures/gate/cvs/SOURCE.md): the suite passes `assay lint`
# and `assay run --dry-run` (two cases, as CVS's sweep.runs). Then the same
# config with its paths moved under a temporary folder and enforce_thresholds
# true runs end to end with a stand-in torchrun that checks the TOML the
# command wrote (CVS's keys, the combination's batch sizes and float8) and
# prints a TorchTitan log: gated with CVS's threshold file, the bf16 cell
# passes and the fp8 cell (tests/fixtures/training/*-fp8-slow.log) fails, as
# tests/cli/run/gates-cvs-torchtitan.t judges them. The 4-node distributed
# config (torchtitan_lib.py at dddd914: one torchrun per node) imported with
# a 4-node CVS cluster file passes lint and a dry run (two cases, each on the
# four hosts by ssh, every node's out-node{i} log a result), and with
# enforce_thresholds true gets the thresholds gate; without
# --cluster it is refused (exit 2) and writes no --out file.
set -u
assay=${ASSAY_BIN:?}
cd "${ASSAY_SOURCE_DIR:?}" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
D=tests/fixtures/gate/cvs
c=mi355_llama3_1_8b_single_config
"$assay" import cvs --user alice --out "$tmp/$c.json" "$D/$c.json" 2>"$tmp/err" ||
  { echo "FAIL: import cvs $c"; cat "$tmp/err"; exit 1; }
"$assay" lint "$tmp/$c.json" || { echo "FAIL: assay lint on the suite of $c"; fail=1; }
"$assay" run --dry-run --out "$tmp/dry-out" --store "$tmp/dry.db" "$tmp/$c.json" >"$tmp/dry" 2>&1 ||
  { echo "FAIL: assay run --dry-run"; cat "$tmp/dry"; fail=1; }
got=$(grep -c '^\[[0-9]*/[0-9]*\] ' "$tmp/dry")
[ "$got" = 2 ] || { echo "FAIL: $got cases in the dry run, CVS runs 2"; fail=1; }
[ -e "$tmp/dry.db" ] && { echo "FAIL: the dry run wrote a store"; fail=1; }

# End to end: the config's folders under $tmp, thresholds enforced.
mkdir -p "$tmp/cfg" "$tmp/tt" "$tmp/bin"
sed -e "s|/workspace/Primus/third_party/torchtitan|$tmp/tt|" \
  -e "s|/home/{user-id}/LOG_DIR|$tmp/logs|" -e "s|/home/{user-id}/SCRIPTS|$tmp/scripts|" \
  -e 's|"enforce_thresholds": false|"enforce_thresholds": true|' "$D/$c.json" >"$tmp/cfg/$c.json"
cp "$D/mi355_llama3_1_8b_single_threshold.json" "$tmp/cfg/"
F=$PWD/tests/fixtures/training
cat >"$tmp/bin/torchrun" <<STUB
#!/bin/sh
# stand-in: the TOML named by --job.config_file, then a TorchTitan log
[ "\$(pwd)" = "$tmp/tt" ] || { echo "torchrun: not in torchtitan_root" >&2; exit 9; }
while [ \$# -gt 0 ] && [ "\$1" != --job.config_file ]; do shift; done
t=\$2
grep -qx 'local_batch_size = 1' "\$t" && grep -qx 'global_batch_size = 8' "\$t" &&
  grep -qx 'steps = 10' "\$t" && grep -qx 'flavor = "8B"' "\$t" || { echo "torchrun: bad TOML" >&2; exit 9; }
if grep -qx 'enable_fsdp_float8_all_gather = true' "\$t"; then cat "$F/torchtitan-llama3-8b-fp8-slow.log"
else grep -qx 'enable_fsdp_float8_all_gather = false' "\$t" && cat "$F/torchtitan-llama3-8b-bf16.log"; fi
STUB
chmod +x "$tmp/bin/torchrun"
"$assay" import cvs --user alice --out "$tmp/run.json" "$tmp/cfg/$c.json" 2>"$tmp/err" ||
  { echo "FAIL: import of the moved config"; cat "$tmp/err"; exit 1; }
grep -q '"thresholds"' "$tmp/run.json" || { echo "FAIL: enforced config has no thresholds gate"; fail=1; }
# Lint knows the gate's TorchTitan reading of the shipped names
# (training.throughput_per_gpu, training.tokens_per_gpu).
"$assay" lint "$tmp/run.json" >"$tmp/lint" 2>&1 || { echo "FAIL: lint of the enforced suite"; cat "$tmp/lint"; fail=1; }
HF_TOKEN=stand-in PATH="$tmp/bin:$PATH" "$assay" run --store "$tmp/run.db" --out "$tmp/runs" "$tmp/run.json" >"$tmp/run" 2>&1
rc=$?
[ $rc = 1 ] || { echo "FAIL: the run exits $rc, not 1 (the fp8 cell under CVS's minimums)"; cat "$tmp/run"; fail=1; }
grep -Eq '^llama3-1-8b-mi355-bs8-mbs1-bf16 +passed ' "$tmp/run" ||
  { echo "FAIL: the bf16 cell did not pass"; cat "$tmp/run"; fail=1; }
grep -Eq '^llama3-1-8b-mi355-bs8-mbs1-fp8 +gate-failed .*threshold tokens_per_sec' "$tmp/run" ||
  { echo "FAIL: the fp8 cell did not fail its threshold"; cat "$tmp/run"; fail=1; }

dc=mi355_llama3_1_70b_distributed_config
"$assay" import cvs --user alice --cluster tests/fixtures/cli/import/cluster-4.json \
  --out "$tmp/$dc.json" "$D/$dc.json" 2>"$tmp/err" ||
  { echo "FAIL: import cvs --cluster $dc"; cat "$tmp/err"; exit 1; }
"$assay" lint "$tmp/$dc.json" || { echo "FAIL: assay lint on the suite of $dc"; fail=1; }
"$assay" run --dry-run --out "$tmp/dd-out" --store "$tmp/dd.db" "$tmp/$dc.json" >"$tmp/dd" 2>&1 ||
  { echo "FAIL: assay run --dry-run of $dc"; cat "$tmp/dd"; fail=1; }
got=$(grep -c '^\[[0-9]*/[0-9]*\] ' "$tmp/dd")
[ "$got" = 2 ] || { echo "FAIL: $got cases in the distributed dry run, CVS runs 2"; fail=1; }
got=$(grep -c '^  ssh to gpu01 gpu02 gpu03 gpu04 (one process per node; NNODES=4, NODE_RANK 0\.\.3, MASTER_ADDR=10\.0\.0\.1, MASTER_PORT=29500' "$tmp/dd")
[ "$got" = 2 ] || { echo "FAIL: $got cases on the four hosts with the launcher's rank variables"; cat "$tmp/dd"; fail=1; }
got=$(grep -c '^  results: .*/out-node0/training\.log, .*/out-node1/.*/out-node2/.*/out-node3/training\.log (parser torchtitan)$' "$tmp/dd")
[ "$got" = 2 ] || { echo "FAIL: $got cases read the four nodes' logs"; fail=1; }
[ -e "$tmp/dd.db" ] && { echo "FAIL: the distributed dry run wrote a store"; fail=1; }
# enforce_thresholds true: the suite gates with the threshold file next to it
sed 's|"enforce_thresholds": false|"enforce_thresholds": true|' "$D/$dc.json" >"$tmp/cfg/$dc.json"
cp "$D/mi355_llama3_1_70b_distributed_threshold.json" "$tmp/cfg/"
"$assay" import cvs --user alice --cluster tests/fixtures/cli/import/cluster-4.json \
  --out "$tmp/dd-enf.json" "$tmp/cfg/$dc.json" 2>"$tmp/err" ||
  { echo "FAIL: import of the enforced distributed config"; cat "$tmp/err"; exit 1; }
grep -qx "    \"thresholds\": \"$tmp/cfg/mi355_llama3_1_70b_distributed_threshold.json\"" "$tmp/dd-enf.json" ||
  { echo "FAIL: the enforced distributed config has no thresholds gate"; cat "$tmp/dd-enf.json"; fail=1; }
grep -q 'enforce_thresholds' "$tmp/err" && { echo "FAIL: enforced config still noted as record only"; fail=1; }

"$assay" import cvs --user alice --out "$tmp/refused.json" "$D/$dc.json" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] || { echo "FAIL: the distributed config without --cluster exits $rc, not 2"; fail=1; }
[ -e "$tmp/refused.json" ] && { echo "FAIL: a refused config wrote its --out file"; fail=1; }
[ $fail = 0 ] && echo "ok: TorchTitan configs imported, linted, dry-run (single and on 4 nodes) and run end to end; distributed without --cluster refused"
exit $fail
