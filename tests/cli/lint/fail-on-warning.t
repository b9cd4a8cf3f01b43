# --fail-on warning: a warning fails the run (exit 1), still printed as a warning
args: lint --fail-on warning tests/fixtures/cli/lint/warnings.json
exit: 1
--- stdout
tests/fixtures/cli/lint/warnings.json:$.built_images.rocm-primus.docker_image: warning: image-tag: docker_image "rocm/primus" has no tag: docker resolves it to "latest", which moves; pin a version tag or a digest
--- stderr
assay lint: 0 errors, 1 warning in 1 file
