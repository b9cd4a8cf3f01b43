# findings as FILE:PATH: severity: rule: message, a count on stderr, exit 1 on an error
args: lint tests/fixtures/cli/lint/manifest.json
exit: 1
--- stdout
tests/fixtures/cli/lint/manifest.json:$.built_images.rocm-primus.docker_image: warning: image-tag: docker_image "rocm/primus:latest" uses the moving "latest" tag; pin a version tag or a digest
tests/fixtures/cli/lint/manifest.json:$.slurm: error: misplaced-key: madengine ignores "slurm" here; deployment_config.slurm is set too, to a different value, and that one takes effect
--- stderr
assay lint: 1 error, 1 warning in 1 file
