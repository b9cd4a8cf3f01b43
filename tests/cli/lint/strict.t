# --strict: image-tag (a warning by default) is an error, so the run fails
args: lint --strict tests/fixtures/cli/lint/warnings.json
exit: 1
--- stdout
tests/fixtures/cli/lint/warnings.json:$.built_images.rocm-primus.docker_image: error: image-tag: docker_image "rocm/primus" has no tag: docker resolves it to "latest", which moves; pin a version tag or a digest
--- stderr
assay lint: 1 error, 0 warnings in 1 file
