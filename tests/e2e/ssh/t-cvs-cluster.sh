#!/usr/bin/env bash
# CVS's baremetal cluster file (tests/fixtures/ssh/cvs-cluster.json, the
# keys of ROCm/cvs cvs/input/cluster_file/cluster.json at dddd914), filled
# in for three loopback nodes as a user fills it in (node addresses, the
# key file; {user-id} left as shipped), is read as it is by
# `"launcher": {"type": "ssh", "cluster_file": ...}`: username and key from
# the file, the nodes in file order, MASTER_ADDR the first node's vpc_ip,
# env_vars exported (with $VAR expanded on the node, as CVS exports them).
# Left unfilled, the file is refused naming the JSON path (exit 2).
. "$(dirname "$0")/lib.sh" "$@"
nodes_up 3
src=${ASSAY_SOURCE_DIR:?}
# The template's placeholder, occurrence by occurrence: mgmt_ip, then each
# node's key and vpc_ip.
fill() { # VALUES: the filled-in file on stdout
awk -v a="$1" -v key="$ASSAY_SSH_KEY" '
  BEGIN { n = split(a, v, " ") }
  { out = ""; while ((i = index($0, "{xx.xx.xx.xx|hostname}")) > 0) { k++; out = out substr($0, 1, i - 1) v[k]; $0 = substr($0, i + 22) } $0 = out $0 }
  /"priv_key_file"/ { sub(/"\/home\/\{user-id\}\/\.ssh\/id_rsa"/, "\"" key "\"") }
  /"env_vars": \{\}/ { sub(/\{\}/, "{\"CVS_MARK\": \"from-cluster:$NODE_RANK\"}") }
  { print }' "$src/tests/fixtures/ssh/cvs-cluster.json"
}
fill "$NODE1 $NODE1 $NODE1 $NODE2 $NODE2 $NODE3 $NODE3" >cluster.json
grep -q '{xx' cluster.json && fail "placeholders left in the filled-in file"
cat >work.sh <<'SH'
#!/bin/sh
echo "node $NODE_RANK of $NNODES master $MASTER_ADDR user $(id -un) mark $CVS_MARK"
SH
chmod +x work.sh
suite() {
  cat >suite.json <<JSON
{"kind": "command", "name": "cvs-cluster", "cluster": "e2e", "revision": "r1",
 "nodes": 3, "combos": {"c1": {}},
 "launcher": {"type": "ssh", "cluster_file": "$1", "ssh_config": "$ASSAY_SSH_CONFIG"},
 "argv": ["$T/work.sh"], "parser": "rows", "results": ["{CASE_DIR}/none.ndjson"]}
JSON
}
suite cluster.json
run_assay 4 run --store s.db --out out suite.json
run=$(q s.db "SELECT run_id FROM runs")
i=0
for n in "$NODE1" "$NODE2" "$NODE3"; do
  expect_grep "^node $i of 3 master $NODE1 user $(id -un) mark from-cluster:$i\$" "out/$run/c1/nodes/$n.out"
  i=$((i + 1))
done
# The template as shipped repeats its placeholder key (JSON that CVS's
# reader collapses to one node): refused, naming the file.
cp "$src/tests/fixtures/ssh/cvs-cluster.json" template.json
suite template.json
run_assay 2 run --store s.db --out out suite.json
expect_grep '^template\.json:21:.*duplicate key' err.txt
# A placeholder left: refused naming its JSON path.
fill "{xx.xx.xx.xx|hostname} $NODE1 $NODE1 $NODE2 $NODE2 $NODE3 $NODE3" >part.json
suite part.json
run_assay 2 run --store s.db --out out suite.json
expect_eq "$(cat err.txt)" "part.json: \$.head_node_dict.mgmt_ip: placeholder left in \"{xx.xx.xx.xx|hostname}\": fill in the cluster file" "error"
echo ok
