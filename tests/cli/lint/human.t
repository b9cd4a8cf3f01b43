# findings as FILE:PATH: severity: rule: message, a count on stderr, exit 1 on an error
args: lint tests/cli/lint/inputs/manifest.json
exit: 1
--- stdout
tests/cli/lint/inputs/manifest.json:$.built_images.rocm-primus.docker_image: warning: image-tag: docker_image "rocm/primus:latest" uses the moving "latest" tag; pin a version tag or a digest
tests/cli/lint/inputs/manifest.json:$.slurm: error: misplaced-key: madengine ignores "slurm" here; deployment_config.slurm is set too, to a different value, and that one takes effect
--- stderr
assay lint: 1 error, 1 warning in 1 file
