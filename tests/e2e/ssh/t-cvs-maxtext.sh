#!/usr/bin/env bash
# A multi-node JAX/MaxText config of ROCm/cvs dddd914 imported and run end to
# end on two loopback sshd nodes: mi355x_jaxmaxtext_llama-3.1-8b_distributed
# with its training.nccl devices filled in (tests/fixtures/gate/cvs/SOURCE.md),
# its folders under the test's folder and no container, imported with a CVS
# cluster file of the two nodes (`assay import cvs --cluster`), linted,
# dry-run, then run by the ssh launcher with a stand-in python that checks on
# each node what CVS's per-node launcher script exports there
# (jaxmaxtext_training_lib.py build_training_cmd / _write_env_script at
# dddd914: JAX_COORDINATOR_IP the first node, JAX_COORDINATOR_PORT, NNODES,
# NODE_RANK = JAX_PROCESS_INDEX, the two JAX timeouts, the distributed
# NCCL/GLOO exports) and prints a MaxText log
# (tests/fixtures/training/maxtext-*.log) into out-node{rank}/training.log.
# The bf16 sweep passes with node 0's rows; in the fp8 sweep only node 1
# prints CVS's RESOURCE_EXHAUSTED, and the case fails on that signature (CVS
# scans every node's log), exit 3.
. "$(dirname "$0")/lib.sh" "$@"
nodes_up 2
src=${ASSAY_SOURCE_DIR:?}
F=$src/tests/fixtures/training
c=mi355x_jaxmaxtext_llama-3.1-8b_distributed_filled
cat >cluster.json <<JSON
{"username": "{user-id}", "priv_key_file": "$ASSAY_SSH_KEY",
 "head_node_dict": {"mgmt_ip": "$NODE1"}, "env_vars": {},
 "node_dict": {"$NODE1": {"bmc_ip": "NA", "vpc_ip": "$NODE1"},
               "$NODE2": {"bmc_ip": "NA", "vpc_ip": "$NODE2"}}}
JSON
mkdir -p cfg mt/src/MaxText bin
: >mt/src/MaxText/train.py
sed -e "s|\"/home/{user-id}\"|\"$T/home\"|" -e '/"container": {/,/^  },$/d' \
  -e "s|/workspace/maxtext/src/maxtext/trainers/pre_train/train.py|$T/none/train.py|" \
  -e "s|/workspace/maxtext/src/MaxText/train.py|$T/mt/src/MaxText/train.py|" \
  "$src/tests/fixtures/gate/cvs/$c.json" >"cfg/$c.json"
cp "$src/tests/fixtures/gate/cvs/mi355x_jaxmaxtext_llama-3.1-8b_distributed_threshold.json" cfg/
run_assay 0 import cvs --user alice --cluster cluster.json --out imp.json "cfg/$c.json"
expect_grep "coordinator_ip: not carried over: \"auto\": the first node of cluster.json, $NODE1" err.txt
# The nodes share this machine's /tmp and have no /workspace/maxtext: each
# node's scratch folder under $T (as each CVS node has its own /tmp), the
# stand-in's folder for /workspace/maxtext, the stand-in python, the nodes'
# ssh_config.
sed -e "s|d=/tmp/\${{u:-cvs}}/jax|d=$T/jax\$r|" -e "s|cd /workspace/maxtext |cd $T/mt |" \
  -e "s|(python |($T/bin/python |" imp.json |
  jq --arg c "$ASSAY_SSH_CONFIG" '.launcher.ssh_config = $c' >suite.json
cat >bin/python <<STUB
#!/bin/sh
# stand-in: what CVS's launcher script for this node exports, then a log
bad() { echo "python: node \$NODE_RANK: \$*" >&2; exit 9; }
[ "\$(pwd)" = "$T/mt" ] || bad "not in /workspace/maxtext"
[ "\$2" = "$T/jax\$NODE_RANK/maxtext_config.yml" ] || bad "config \$2"
[ "\$JAX_COORDINATOR_IP" = "$NODE1" ] && [ "\$JAX_COORDINATOR_PORT" = 12346 ] || bad "coordinator"
[ "\$NNODES" = 2 ] && [ "\$JAX_PROCESS_INDEX" = "\$NODE_RANK" ] || bad "NNODES \$NNODES rank \$JAX_PROCESS_INDEX"
[ "\$JAX_DISTRIBUTED_INITIALIZATION_TIMEOUT_SECONDS" = 1800 ] &&
  [ "\$JAX_DISTRIBUTED_HEARTBEAT_TIMEOUT_SECONDS" = 900 ] || bad "JAX timeouts"
[ "\$NCCL_SOCKET_IFNAME" = eno0 ] && [ "\$GLOO_SOCKET_IFNAME" = eno0 ] &&
  [ "\$NCCL_IB_HCA_LIST" = rdma0,rdma1,rdma2,rdma3,rdma4,rdma5,rdma6,rdma7 ] || bad "NCCL exports"
grep -q NCCL_SHM_DISABLE "$T/jax\$NODE_RANK/maxtext_env.sh" && bad "single-node NCCL lines"
grep -q HF_TOKEN "$T/jax\$NODE_RANK/maxtext_env.sh" && bad "HF_TOKEN written to the env script"
echo "node \$NODE_RANK of \$NNODES coordinator \$JAX_COORDINATOR_IP"
if grep -qx 'quantization: fp8' "\$2" && [ "\$NODE_RANK" = 1 ]; then cat "$F/maxtext-llama3.1-8b-fp8-oom.log"
else cat "$F/maxtext-llama3.1-8b-bf16.log"; fi
STUB
chmod +x bin/python
run_assay 0 lint suite.json
run_assay 0 run --dry-run --out dry --store dry.db suite.json
expect_eq "$(grep -c "^  ssh to $NODE1 $NODE2 (one process per node; NNODES=2, NODE_RANK 0\.\.1" out.txt)" 2 "dry-run cases on the two nodes"
HF_TOKEN=stand-in run_assay 3 run --store s.db --out out suite.json
expect_grep '^nnodes-2-steps-30-precision-bf16-batch-4-gbs-256-seqlen-8192 +passed ' out.txt
expect_grep '^nnodes-2-steps-30-precision-fp8-batch-6-gbs-384-seqlen-8192 +workload-failed .*signature cvs-resource' out.txt
L=$T/home/LOGS/jaxmaxtext/jaxmaxtext/NNODES_2_STEPS_30_PRECISION_BF16_BATCH_4_GBS_256_SEQLEN_8192
expect_grep '^node 0 of 2 coordinator ' "$L/out-node0/training.log"
expect_grep '^node 1 of 2 coordinator ' "$L/out-node1/training.log"
expect_grep 'completed step: 29,' "$L/out-node1/training.log"
# The bf16 case has rows (node 0's log, the suite's results).
run=$(q s.db "SELECT run_id FROM runs")
expect_eq "$(q s.db "SELECT count(*) > 0 FROM measurements m JOIN cases c ON c.id = m.\"case\" WHERE c.case_id LIKE 'nnodes-2-steps-30-precision-bf16%'")" 1 "bf16 rows"
expect_grep "node 1 of 2" "out/$run/nnodes-2-steps-30-precision-bf16-batch-4-gbs-256-seqlen-8192/nodes/$NODE2.out"
echo "ok: a CVS multi-node MaxText config imported and run on two ssh nodes"
