#!/usr/bin/env bash
# A two-node Megatron-shaped suite over two loopback sshd nodes: one process
# per node with NODE_RANK, NNODES and MASTER_ADDR (the first node's vpc_ip)
# checked on each, per-node logs under nodes/, the last node printing the
# upstream training log (Megatron-LM's iteration lines, as the run lib's
# megatron_log writes them), gates and the report; then a second run gated
# against a threshold that fails (exit 1). A secret canary reaches the
# workload (its length and digest are checked on each node) yet appears in
# no `ps` line taken on the nodes while they run, in no file of either
# node's folders and in nothing assay wrote (store, run folder, output).
. "$(dirname "$0")/lib.sh" "$@"
nodes_up 2
export CANARY_TOKEN=canary-$(head -c 9 /dev/urandom | od -An -tx1 | tr -d ' \n')
megatron_log 10 500.0 >train.log
cat >work.sh <<'SH'
#!/bin/sh
# Each node: its variables and what ps shows while it runs; the last node
# prints the training log (Megatron-LM logs on the last rank).
d=$(dirname "$0")
echo "node $NODE_RANK of $NNODES master $MASTER_ADDR:$MASTER_PORT" \
  "secret $(printf %s "$CANARY_TOKEN" | sha256sum | cut -c1-16)"
ps -eo args >"$d/ps-node$NODE_RANK.txt"
[ "$NODE_RANK" = $((NNODES - 1)) ] && cat "$d/train.log"
exit 0
SH
chmod +x work.sh
thresholds() {
  printf '{"enforce": true, "cells": {"MBS=4,GBS=64,PRECISION=BF16": {"tflops_per_gpu": {"kind": "min", "value": %s}}}}\n' "$1" >thr.json
}
thresholds 400
cat >suite.json <<JSON
{"kind": "command", "name": "ssh-train", "cluster": "e2e", "revision": "r1",
 "nodes": 2, "gpus_per_node": 8, "combos": {"mbs4": {"MBS": 4, "GBS": 64, "PRECISION": "BF16"}},
 "launcher": {"type": "ssh", "hosts": [{"host": "$NODE1", "vpc_ip": "10.0.0.1"}, {"host": "$NODE2", "vpc_ip": "10.0.0.2"}],
              "ssh_config": "$ASSAY_SSH_CONFIG"},
 "secrets": ["CANARY_TOKEN"],
 "expect": [{"name": "node-line", "pattern": "^node [0-9] of 2 master", "per": "node"}],
 "argv": ["$T/work.sh"], "parser": "megatron", "training": {"seq_len": 4096},
 "gates": {"loss_curve": {"max_slope": 0}, "thresholds": "thr.json"},
 "timeout_s": 120}
JSON
run_assay 0 run --store s.db --out out suite.json
run=$(q s.db "SELECT run_id FROM runs")
# The per-node expectation matched on each node's own output.
expect_eq "$(q s.db "SELECT unit FROM provenance WHERE matched IS NOT NULL ORDER BY unit" | tr "\n" " ")" "$NODE1 $NODE2 " "nodes whose expectation matched"
dir=out/$run/mbs4
want=$(printf %s "$CANARY_TOKEN" | sha256sum | cut -c1-16)
expect_grep "^node 0 of 2 master 10.0.0.1:29500 secret $want\$" "$dir/nodes/$NODE1.out"
expect_grep "^node 1 of 2 master 10.0.0.1:29500 secret $want\$" "$dir/nodes/$NODE2.out"
expect_grep '^ iteration +10/ +10 ' "$dir/nodes/$NODE2.out"
grep -q 'iteration' "$dir/nodes/$NODE1.out" && fail "node 0 printed the training log"
# The case's stdout.log holds every node's lines whole; the parser read it.
expect_eq "$(grep -c '^node [01] of 2' "$dir/stdout.log")" 2 "node lines in stdout.log"
expect_grep '^mbs4 +passed .*gates: ' out.txt
expect_eq "$(q s.db "SELECT count(*) FROM measurements")" \
  "$(q s.db "SELECT count(*) FROM measurements m JOIN cases c ON c.id = m.\"case\" WHERE c.case_id = 'mbs4'")" "rows"
[ -s "out/$run/report.html" ] || fail "no report"
# The ps snapshots saw the node's own command line (so they could have
# seen a secret), and no canary anywhere.
expect_grep 'assay-ssh-node' ps-node0.txt
expect_grep 'assay-ssh-node' ps-node1.txt
hits=$(grep -rlF -- "$CANARY_TOKEN" "$T" "$ASSAY_SSH_BASE" /tmp/assay-ssh.* 2>/dev/null || true)
[ -z "$hits" ] || fail "the canary was written: $hits"
expect_none_left "assay-$run-"
# Gated: a threshold the run misses fails it (exit 1).
thresholds 900
run_assay 1 run --store s.db --out out suite.json
expect_grep '^mbs4 +gate-failed .*1 FAIL \(threshold tflops_per_gpu' out.txt
echo ok
