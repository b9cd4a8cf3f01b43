# CVS's container cluster file (tests/fixtures/ssh/cvs-cluster-container.json, ROCm/cvs dddd914 cluster_container.json filled in for two nodes): lifetime per_run runs each node's case in a fresh docker container with CVS's default runtime arguments (network and ipc from the file, privileged, its capabilities, security options, group video, memlock=-1); devices and sudo are asked on each host when the case runs (docs/ssh.md)
args: run --dry-run --out /runs tests/fixtures/cli/run/ssh-cluster-container.json
exit: 0
--- stdout
[1/1] c1
  ssh to gpu01 gpu02 (one process per node; NNODES=2, NODE_RANK 0..1, MASTER_ADDR=10.0.0.1, MASTER_PORT=29500; label assay-RUN_ID-c1-a1-nN): true
  node 0 runs (node N: name ...-nN): docker run --rm --init --log-driver none --name assay-RUN_ID-c1-a1-n0 --label assay.run=RUN_ID --label assay.case=c1 --pull=missing -v /runs/RUN_ID/c1:/runs/RUN_ID/c1 --env NODE_RANK --env NNODES --env MASTER_ADDR --env MASTER_PORT --network=host --ipc=host --privileged --cap-add=SYS_PTRACE --cap-add=IPC_LOCK --cap-add=SYS_ADMIN --security-opt=seccomp=unconfined --security-opt=apparmor=unconfined --group-add=video --ulimit=memlock=-1 rocm/cvs:latest true
  logs: /runs/RUN_ID/c1/stdout.log, /runs/RUN_ID/c1/stderr.log; per node /runs/RUN_ID/c1/nodes/HOST.out, .err
  results: /runs/RUN_ID/c1/r.ndjson (parser rows)
--- stderr
