#!/usr/bin/env bash
# Image provenance per node under the ssh launcher: each node's digest of the
# container image is written to nodes/<host>.image before the case runs, and
# a node whose image differs from the others fails the case as the
# infrastructure's (exit 5), naming both nodes and digests; nothing runs and
# no container is left. Node 2 is given another image by a podman on its
# PATH (sshd SetEnv) that answers `image inspect` with another digest and
# hands everything else to the real podman: the loopback nodes share one
# image store.
. "$(dirname "$0")/../containers/lib.sh" "$@"
. "$(dirname "$0")/lib.sh" "$@"
mkdir -p fakebin
real=$(command -v podman)
cat >fakebin/podman <<SH
#!/bin/sh
if [ "\$1 \$2" = "image inspect" ]; then echo "localhost/assay-e2e@sha256:0000000000000000000000000000000000000000000000000000000000000002"; exit 0; fi
exec $real "\$@"
SH
chmod +x fakebin/podman
ASSAY_SSH_SETENV_2="PATH=$T/fakebin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" nodes_up 2
cat >suite.json <<JSON
{"kind": "command", "name": "ssh-image", "cluster": "e2e", "revision": "r1",
 "nodes": 2, "combos": {"c1": {}},
 "launcher": $(launcher_json),
 "container": {"image": "$IMAGE", "pull": "never"},
 "env": {"CONTAINERS_CONF": "$CONTAINERS_CONF"},
 "argv": ["sh", "-c", "echo ran > {CASE_DIR}/ran-\$NODE_RANK"],
 "parser": "rows", "results": ["{CASE_DIR}/none.ndjson"]}
JSON
run_assay 5 run --store s.db --out out suite.json
run=$(q s.db "SELECT run_id FROM runs")
want=$(podman image inspect --format '{{if .RepoDigests}}{{index .RepoDigests 0}}{{else}}{{.Id}}{{end}}' "$IMAGE")
expect_eq "$(cat "out/$run/c1/nodes/$NODE1.image")" "$want" "node 0's digest"
expect_eq "$(cat "out/$run/c1/nodes/$NODE2.image")" "localhost/assay-e2e@sha256:0000000000000000000000000000000000000000000000000000000000000002" "node 1's digest"
expect_grep "^c1 +infrastructure .*provenance: image $IMAGE differs between nodes: node 1 \($NODE2\) has localhost/assay-e2e@sha256:0+2, node 0 \($NODE1\) has $want" out.txt
[ ! -e "out/$run/c1/ran-0" ] && [ ! -e "out/$run/c1/ran-1" ] || fail "the case ran"
expect_no_containers "$run"
echo ok
