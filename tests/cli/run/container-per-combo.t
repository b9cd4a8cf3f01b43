# Each combo runs its own image: the block's strings take placeholders
args: run --dry-run --out /runs tests/fixtures/cli/run/container-per-combo.json
exit: 0
--- stdout-grep
^  podman run --rm --init --log-driver none --name assay-RUN_ID-base-a1 .* -v /runs/RUN_ID/base:/out --shm-size=16g rocm/pytorch@sha256:4a1e0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f90 python3 bench\.py$
^  podman run --rm --init --log-driver none --name assay-RUN_ID-nightly-a1 .* -v /runs/RUN_ID/nightly:/out --shm-size=32g rocm/pytorch-nightly@sha256:9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0 python3 bench\.py$
--- stderr
