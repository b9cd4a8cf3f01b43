# --format github: a file that cannot be linted is an ::error annotation
args: lint --format github tests/fixtures/cli/lint/not-json.json tests/fixtures/cli/lint/warnings.json
exit: 2
--- stdout
::error file=tests/fixtures/cli/lint/not-json.json,line=4,col=7,title=assay lint::invalid JSON: '}' expected near '"b"'
::warning file=tests/fixtures/cli/lint/warnings.json,line=2,col=36,title=image-tag::$.built_images.rocm-primus.docker_image: docker_image "rocm/primus" has no tag: docker resolves it to "latest", which moves; pin a version tag or a digest
--- stderr
tests/fixtures/cli/lint/not-json.json:4:7: invalid JSON: '}' expected near '"b"'
