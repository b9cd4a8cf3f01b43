# .assay-lint.json severity: image-tag raised to error for the files beside it
args: lint tests/fixtures/cli/lint/severity/build_manifest.json
exit: 1
--- stdout
tests/fixtures/cli/lint/severity/build_manifest.json:$.built_images.rocm-primus.docker_image: error: image-tag: docker_image "rocm/primus" has no tag: docker resolves it to "latest", which moves; pin a version tag or a digest
--- stderr
assay lint: 1 error, 0 warnings in 1 file
