#!/usr/bin/env bash
# An EP case (decode, hidden 256, EP 2) runs inside a podman container:
# all its ranks in one container, mpirun inside it. The test image has no
# MPI and no assay-ep; the host's are mounted read-only (/usr, the build's
# assay-ep, Open MPI's configuration, the loader cache). The case passes its oracle (assay-ep
# exits non-zero on an oracle mismatch) and its rows are stored.
#   t-ep-case.sh ASSAY ASSAY_EP
. "$(dirname "$0")/lib.sh" "$1"
ASSAY_EP=${2:-}
[ -n "$ASSAY_EP" ] || skip "assay-ep is not built"
command -v mpirun >/dev/null || skip "no mpirun"
EP_DIR=$(cd "$(dirname "$ASSAY_EP")" && pwd)
mounts='"/usr:/usr:ro"'
for d in /lib /lib64 /etc/openmpi /etc/alternatives /etc/ld.so.cache; do
  [ -e "$d" ] && [ ! -L "$d" ] && mounts="$mounts, \"$d:$d:ro\""
done
# Merged /usr: /lib and /lib64 are links into /usr, recreated in the image.
cat >platforms.json <<'JSON'
{"platforms": {
  "cpu-box": {"arch": "x86_64", "gpus_per_node": 2, "scale_up_domain": 2,
              "scale_up_transport": "shared-memory", "scale_out_transport": "tcp",
              "backends": {"mpi": [2]},
              "fabric": {"nic": "loopback", "switch": "none"}}}}
JSON
cat >suite.json <<JSON
{"kind": "ep", "name": "ctr-ep", "cluster": "e2e",
 "platforms": "platforms.json",
 "sweep": {"suite": "ctr-ep", "routing": "uniform", "modes": {"normal": ["decode"]},
           "ep_degrees": [2], "precisions": ["bf16"],
           "timing": {"trials": 2, "iters_per_trial": 2, "warmups_per_trial": 1,
                      "chain_trials": 1, "chain_pairs": 3, "chain_drop": 1},
           "workload": {"name": "tiny", "hidden": 256, "topk": 2, "experts": 8, "seed": 67,
                        "token_ladders": {"decode": [1, 4]}}},
 "env": {"ASAN_OPTIONS": "detect_leaks=0", "OMPI_MCA_btl_vader_single_copy_mechanism": "none"},
 "container": {"image": "$IMAGE", "pull": "never",
               "mounts": [$mounts, "$EP_DIR:$EP_DIR:ro"]},
 "launcher": {"type": "local", "mpirun_args": ["--bind-to", "none"]},
 "timeout_s": 300}
JSON
run_assay 0 run --store s.db --assay-ep "$ASSAY_EP" --quiet suite.json
run=$(q s.db "SELECT run_id FROM runs")
expect_eq "$(q s.db "SELECT outcome FROM cases")" passed "EP case outcome"
n=$(q s.db "SELECT count(*) FROM measurements")
[ "$n" -gt 0 ] || fail "no measurements stored"
expect_grep "podman run --rm --init --log-driver none --name assay-$run-" out/"$run"/*/command.txt
expect_grep " mpirun .*-np 2 " out/"$run"/*/command.txt
expect_no_containers "$run"
echo ok
