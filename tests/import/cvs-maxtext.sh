#!/usr/bin/env bash
# `assay import cvs` on ROCm/cvs dddd914's mi300x llama-3.3-70b single-node
# JAX/MaxText config (tests/fixtures/gate/cvs/SOURCE.md): the suite passes
# `assay lint` and `assay run --dry-run` (two cases, CVS's enabled sweeps).
# Then the same config with its folders moved under a temporary folder and
# no container runs end to end (the suite's /workspace/maxtext and
# /tmp/<user>/jax moved there too) with a stand-in python that checks what
# the command wrote and exported as CVS's launcher does (the YAML keys, the
# sweep's quantization, the env script without HF_TOKEN, the single-node JAX
# variables, the train script CVS's probe picks) and prints a MaxText log
# (tests/fixtures/training/maxtext-*.log): the bf16 case passes, the fp8
# one fails on CVS's "resource" error pattern (a suite signature), and
# assay gate judges the bf16 log where CVS keeps it by its sweep-name cell. A
# distributed config without --cluster is refused (exit 2) and writes no
# --out file. Every multi-node config CVS ships (tests/fixtures/gate/cvs/
# *_jaxmaxtext_*_distributed.json, unchanged) is refused for its
# "<changeme>" NCCL devices as CVS's loader refuses it, and with them filled
# in from the sibling _example_* values it imports with a two-node cluster
# file, passes lint and a dry run (each sweep on the two hosts by ssh; the
# run on real ssh nodes: tests/e2e/ssh/t-cvs-maxtext.sh).
set -u
assay=${ASSAY_BIN:?}
cd "${ASSAY_SOURCE_DIR:?}" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
D=tests/fixtures/gate/cvs
c=mi300x_jaxmaxtext_llama-3.3-70b_single
"$assay" import cvs --user alice --out "$tmp/$c.json" "$D/$c.json" 2>"$tmp/err" ||
  { echo "FAIL: import cvs $c"; cat "$tmp/err"; exit 1; }
"$assay" lint "$tmp/$c.json" || { echo "FAIL: assay lint on the suite of $c"; fail=1; }
"$assay" run --dry-run --out "$tmp/dry-out" --store "$tmp/dry.db" "$tmp/$c.json" >"$tmp/dry" 2>&1 ||
  { echo "FAIL: assay run --dry-run"; cat "$tmp/dry"; fail=1; }
got=$(grep -c '^\[[0-9]*/[0-9]*\] ' "$tmp/dry")
[ "$got" = 2 ] || { echo "FAIL: $got cases in the dry run, CVS runs 2"; fail=1; }
[ -e "$tmp/dry.db" ] && { echo "FAIL: the dry run wrote a store"; fail=1; }

# End to end: the config's folders under $tmp, no container.
mkdir -p "$tmp/cfg" "$tmp/mt/src/MaxText" "$tmp/bin"
: >"$tmp/mt/src/MaxText/train.py"
sed -e "s|\"/home/{user-id}\"|\"$tmp/home\"|" -e '/"container": {/,/^  },$/d' \
  -e "s|/workspace/maxtext/src/maxtext/trainers/pre_train/train.py|$tmp/none/train.py|" \
  -e "s|/workspace/maxtext/src/MaxText/train.py|$tmp/mt/src/MaxText/train.py|" "$D/$c.json" >"$tmp/cfg/$c.json"
cp "$D/${c}_threshold.json" "$tmp/cfg/"
"$assay" import cvs --user alice --out "$tmp/imp.json" "$tmp/cfg/$c.json" 2>"$tmp/err" ||
  { echo "FAIL: import of the moved config"; cat "$tmp/err"; exit 1; }
sed -e "s|d=/tmp/\${{u:-cvs}}/jax|d=$tmp/jax|" -e "s|cd /workspace/maxtext |cd $tmp/mt |" \
  "$tmp/imp.json" >"$tmp/run.json"
F=$PWD/tests/fixtures/training
cat >"$tmp/bin/python" <<STUB
#!/bin/sh
# stand-in: checks the launcher's state, then prints a MaxText log
bad() { echo "python: \$*" >&2; exit 9; }
[ "\$(pwd)" = "$tmp/mt" ] || bad "not in /workspace/maxtext"
[ "\$1" = "$tmp/mt/src/MaxText/train.py" ] || bad "train script \$1"
[ "\$2" = "$tmp/jax/maxtext_config.yml" ] || bad "config \$2"
[ "\$NNODES" = 1 ] && [ "\$JAX_PROCESS_INDEX" = 0 ] && [ "\$JAX_COORDINATOR_PORT" = 12346 ] || bad "JAX variables"
[ "\$HF_HOME" = "$tmp/home/cache/maxtext" ] && [ "\$NCCL_P2P_DISABLE" = 0 ] || bad "env script"
case "\$XLA_FLAGS" in *' --xla_gpu_enable_command_buffer= '*) ;; *) bad "XLA_FLAGS";; esac
grep -q HF_TOKEN "$tmp/jax/maxtext_env.sh" && bad "HF_TOKEN written to the env script"
for l in 'steps: 30' 'per_device_batch_size: 5' 'profiler: ""' 'enable_checkpointing: false' \
  "tokenizer_path: $tmp/home/cache/maxtext/Meta-Llama-70-B"; do grep -qxF "\$l" "\$2" || bad "no '\$l'"; done
if grep -qx 'quantization: ""' "\$2" && grep -qx 'run_name: jaxmaxtext_llama3.3-70b_NNODES_1_STEPS_30_PRECISION_BF16_BATCH_5_GBS_40_SEQLEN_8192' "\$2"
then cat "$F/maxtext-llama3.1-8b-bf16.log"
elif grep -qx 'quantization: nanoo_fp8' "\$2"; then cat "$F/maxtext-llama3.1-8b-fp8-oom.log"
else bad "quantization or run_name"; fi
STUB
chmod +x "$tmp/bin/python"
HF_TOKEN=stand-in PATH="$tmp/bin:$PATH" "$assay" run --store "$tmp/run.db" --out "$tmp/runs" "$tmp/run.json" >"$tmp/run" 2>&1
rc=$?
[ $rc = 3 ] || { echo "FAIL: the run exits $rc, not 3 (the fp8 log's RESOURCE_EXHAUSTED)"; cat "$tmp/run"; fail=1; }
grep -Eq '^nnodes-1-steps-30-precision-bf16-batch-5-gbs-40-seqlen-8192 +passed ' "$tmp/run" ||
  { echo "FAIL: the bf16 case did not pass"; cat "$tmp/run"; fail=1; }
grep -Eq '^nnodes-1-steps-30-precision-fp8-batch-5-gbs-40-seqlen-8192 +workload-failed .*signature cvs-resource' "$tmp/run" ||
  { echo "FAIL: the fp8 case did not fail on CVS's resource pattern"; cat "$tmp/run"; fail=1; }
# The log lands where CVS keeps it; assay gate judges it by its sweep-name cell.
L=$tmp/home/LOGS/jaxmaxtext/jaxmaxtext/NNODES_1_STEPS_30_PRECISION_BF16_BATCH_5_GBS_40_SEQLEN_8192/out-node0/training.log
"$assay" gate --thresholds "$tmp/cfg/${c}_threshold.json" --error-patterns "$tmp/cfg/$c.json" \
  --combo NNODES=1,STEPS=30,PRECISION=BF16,BATCH=5,GBS=40,SEQLEN=8192 "$L" >"$tmp/gate" 2>&1 ||
  { echo "FAIL: assay gate on the bf16 case's log"; cat "$tmp/gate"; fail=1; }
grep -q '^PASS  *threshold  *tflops_per_sec_per_gpu/cvs' "$tmp/gate" ||
  { echo "FAIL: the gate did not judge the cell's TFLOP/s"; cat "$tmp/gate"; fail=1; }

"$assay" import cvs --user alice --out "$tmp/refused.json" "$D/mi355x_jaxmaxtext_llama-3.1-8b_distributed.json" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] || { echo "FAIL: the distributed config exits $rc, not 2"; fail=1; }
[ -e "$tmp/refused.json" ] && { echo "FAIL: a refused config wrote its --out file"; fail=1; }
n=0
for f in "$D"/*_jaxmaxtext_*_distributed.json; do
  b=$(basename "$f" .json)
  n=$((n + 1))
  "$assay" import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json --out "$tmp/$b.json" "$f" 2>"$tmp/err"
  rc=$?
  [ $rc = 2 ] && grep -q '^[^ ]*: \$\.training\.nccl\.ib_hca_list: "<changeme>" left in the file' "$tmp/err" ||
    { echo "FAIL: $b as shipped exits $rc, not 2 for its <changeme> NCCL devices"; cat "$tmp/err"; fail=1; }
  [ -e "$tmp/$b.json" ] && { echo "FAIL: refused $b wrote its --out file"; fail=1; }
  sed -e 's|"ib_hca_list": "<changeme>"|"ib_hca_list": "rdma0,rdma1"|' -e 's|"ib_hca": "<changeme>"|"ib_hca": "rdma0,rdma1"|' \
    -e 's|"socket_ifname": "<changeme>"|"socket_ifname": "eno0"|' \
    -e 's|"gloo_socket_ifname": "<changeme>"|"gloo_socket_ifname": "eno0"|' "$f" >"$tmp/cfg/$b.json"
  cp "$D/${b}_threshold.json" "$tmp/cfg/"
  "$assay" import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json --out "$tmp/$b.json" "$tmp/cfg/$b.json" 2>"$tmp/err" ||
    { echo "FAIL: import cvs --cluster of $b filled in"; cat "$tmp/err"; fail=1; continue; }
  "$assay" lint "$tmp/$b.json" >"$tmp/lint" 2>&1 || { echo "FAIL: assay lint on the suite of $b"; cat "$tmp/lint"; fail=1; }
  "$assay" run --dry-run --out "$tmp/dd-out" --store "$tmp/dd.db" "$tmp/$b.json" >"$tmp/dd" 2>&1 ||
    { echo "FAIL: assay run --dry-run of $b"; cat "$tmp/dd"; fail=1; }
  cases=$(grep -c '^\[[0-9]*/[0-9]*\] ' "$tmp/dd")
  on2=$(grep -c '^  ssh to gpu01 gpu02 (one process per node; NNODES=2, NODE_RANK 0\.\.1' "$tmp/dd")
  [ "$cases" -ge 1 ] && [ "$on2" = "$cases" ] || { echo "FAIL: $b: $on2 of $cases cases on the two hosts"; cat "$tmp/dd"; fail=1; }
  grep -q 'export JAX_COORDINATOR_IP=gpu01 JAX_COORDINATOR_PORT=12346 NNODES=2 NODE_RANK=' "$tmp/$b.json" ||
    { echo "FAIL: $b: no JAX coordinator exports"; fail=1; }
done
[ $n = 11 ] || { echo "FAIL: $n multi-node MaxText configs of CVS's, not its 11"; fail=1; }
[ $fail = 0 ] && echo "ok: MaxText config imported, linted, dry-run and run end to end; distributed refused without --cluster; CVS's 11 multi-node configs refused as shipped, imported, linted and dry-run filled in"
exit $fail
