#!/usr/bin/env bash
# Hosts that cannot be reached are the infrastructure's failure (exit 5),
# named with the host and what ssh said: nothing listening, the key refused,
# a host key that changed, a host key known_hosts does not hold (accepted
# only when the suite says accept_new_host_keys, and then recorded in
# known_hosts). Nothing runs and nothing is left on any node.
. "$(dirname "$0")/lib.sh" "$@"
nodes_up 2
printf '#!/bin/sh\necho "node $NODE_RANK ran"\n' >work.sh
chmod +x work.sh
suite() { # LAUNCHER
  cat >suite.json <<JSON
{"kind": "command", "name": "ssh-faults", "cluster": "e2e", "revision": "r1",
 "nodes": 2, "combos": {"c1": {}}, "launcher": $1,
 "argv": ["$T/work.sh"], "parser": "rows", "results": ["{CASE_DIR}/none.ndjson"]}
JSON
}
# Nothing listens on 127.0.0.9 (port 22 of a loopback address of its own).
suite "{\"type\": \"ssh\", \"hosts\": [\"$NODE1\", \"127.0.0.9\"], \"ssh_config\": \"$ASSAY_SSH_CONFIG\", \"connect_timeout_s\": 5}"
run_assay 5 run --store s.db --out out suite.json
expect_grep '^c1 +infrastructure .*ssh: host 127\.0\.0\.9: unreachable \(ssh exit 255: ssh: connect to host 127\.0\.0\.9 port 22: Connection refused\)' out.txt
expect_grep '^exit 5 \(infrastructure\)' out.txt

# The key refused: no authorized key.
suite "$(launcher_json)"
cp "$ASSAY_SSH_BASE/authorized_keys" keys.saved
: >"$ASSAY_SSH_BASE/authorized_keys"
run_assay 5 run --store s.db --out out suite.json
expect_grep "^c1 +infrastructure .*ssh: host $NODE1: the key was refused \(ssh exit 255: .*Permission denied \(publickey\)\.\)" out.txt
cp keys.saved "$ASSAY_SSH_BASE/authorized_keys"

# Node 2's host key changed since known_hosts recorded it.
cp "$ASSAY_SSH_KNOWN_HOSTS" known.saved
"$NODES_SH" rekey 2
run_assay 5 run --store s.db --out out suite.json
expect_grep "^c1 +infrastructure .*ssh: host $NODE2: its host key changed \(known_hosts holds another key for it\) \(ssh exit 255: Host key verification failed\.\)" out.txt

# A host known_hosts does not hold: refused, unless the suite accepts new keys.
grep -v "^\[$NODE2\]" known.saved >"$ASSAY_SSH_KNOWN_HOSTS"
run_assay 5 run --store s.db --out out suite.json
expect_grep "^c1 +infrastructure .*ssh: host $NODE2: its host key is not in known_hosts" out.txt
suite "$(launcher_json '"accept_new_host_keys": true')"
run_assay 4 run --store s.db --out out suite.json
expect_grep "^\[$NODE2\]" "$ASSAY_SSH_KNOWN_HOSTS"
for r in $(q s.db "SELECT run_id FROM runs"); do expect_none_left "assay-$r-"; done
echo ok
