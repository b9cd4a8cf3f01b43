# A command suite in a docker container (local launcher): docker run --rm
# with the case's name and labels, AMD devices as madengine passes them,
# the case folder mounted at its own path, variables and secrets by name
# (--env NAME) and never their values, options verbatim, then the image
args: run --dry-run --out /runs tests/fixtures/cli/run/container-docker.json
env: ASSAY_GOLDEN_TOKEN=golden-token-value-never-printed
exit: 0
--- stdout
[1/1] bf16
  RUN=RUN_ID docker run --rm --init --log-driver none --name assay-RUN_ID-bf16-a1 --label assay.run=RUN_ID --label assay.case=bf16 --pull=never --device=/dev/kfd --device=/dev/dri --group-add video --cap-add=SYS_PTRACE --cap-add=SYS_ADMIN --security-opt 'seccomp=unconfined' --security-opt 'apparmor=unconfined' --ipc=host --network=host -v /runs/RUN_ID/bf16:/runs/RUN_ID/bf16 -v /data:/data:ro --workdir /workspace --env HF_HOME --env RUN --env ASSAY_GOLDEN_TOKEN --shm-size=16g rocm/pytorch@sha256:4a1e0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f90 python3 train.py --precision BF16
  logs: /runs/RUN_ID/bf16/stdout.log, /runs/RUN_ID/bf16/stderr.log; timeout 600 s (then SIGTERM, SIGKILL after 5 s)
--- stderr
