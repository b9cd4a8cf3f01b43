# several files: every finding, and the worst exit code (2 over 1)
args: lint tests/fixtures/cli/lint/manifest.json tests/fixtures/cli/lint/not-json.json tests/fixtures/cli/lint/warnings.json
exit: 2
--- stdout
tests/fixtures/cli/lint/manifest.json:$.built_images.rocm-primus.docker_image: warning: image-tag: docker_image "rocm/primus:latest" uses the moving "latest" tag; pin a version tag or a digest
tests/fixtures/cli/lint/manifest.json:$.slurm: error: misplaced-key: madengine ignores "slurm" here; deployment_config.slurm is set too, to a different value, and that one takes effect
tests/fixtures/cli/lint/warnings.json:$.built_images.rocm-primus.docker_image: warning: image-tag: docker_image "rocm/primus" has no tag: docker resolves it to "latest", which moves; pin a version tag or a digest
--- stderr
tests/fixtures/cli/lint/not-json.json:4:7: invalid JSON: '}' expected near '"b"'
assay lint: 1 error, 2 warnings in 2 files
