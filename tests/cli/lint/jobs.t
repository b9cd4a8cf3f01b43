# --jobs: files from several directories (each with its own allow list) linted in parallel, output in argument order
args: lint --jobs 3 tests/fixtures/cli/lint/allowed/build_manifest.json tests/fixtures/cli/lint/manifest.json tests/fixtures/cli/lint/bad-allow/build_manifest.json tests/fixtures/cli/lint/warnings.json
exit: 2
--- stdout
tests/fixtures/cli/lint/manifest.json:$.built_images.rocm-primus.docker_image: warning: image-tag: docker_image "rocm/primus:latest" uses the moving "latest" tag; pin a version tag or a digest
tests/fixtures/cli/lint/manifest.json:$.slurm: error: misplaced-key: madengine ignores "slurm" here; deployment_config.slurm is set too, to a different value, and that one takes effect
tests/fixtures/cli/lint/warnings.json:$.built_images.rocm-primus.docker_image: warning: image-tag: docker_image "rocm/primus" has no tag: docker resolves it to "latest", which moves; pin a version tag or a digest
--- stderr
tests/fixtures/cli/lint/bad-allow/.assay-lint.json: $.allow["build_manifest.json"][0]: unknown rule "image_tag" (see 'assay lint --list-rules')
assay lint: 1 error, 2 warnings in 3 files; 2 allowed by .assay-lint.json
