# --format github: workflow command annotations with line and column
args: lint --format github tests/fixtures/cli/lint/manifest.json
exit: 1
--- stdout
::warning file=tests/fixtures/cli/lint/manifest.json,line=3,col=21,title=image-tag::$.built_images.rocm-primus.docker_image: docker_image "rocm/primus:latest" uses the moving "latest" tag; pin a version tag or a digest
::error file=tests/fixtures/cli/lint/manifest.json,line=8,col=3,title=misplaced-key::$.slurm: madengine ignores "slurm" here; deployment_config.slurm is set too, to a different value, and that one takes effect
--- stderr
