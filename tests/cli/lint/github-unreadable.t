# --format github: a file that cannot be linted is an ::error annotation
args: lint --format github tests/cli/lint/inputs/not-json.json tests/cli/lint/inputs/warnings.json
exit: 2
--- stdout
::error file=tests/cli/lint/inputs/not-json.json,line=4,col=7,title=assay lint::invalid JSON: '}' expected near '"b"'
::warning file=tests/cli/lint/inputs/warnings.json,line=2,col=36,title=image-tag::$.built_images.rocm-primus.docker_image: docker_image "rocm/primus" has no tag: docker resolves it to "latest", which moves; pin a version tag or a digest
--- stderr
tests/cli/lint/inputs/not-json.json:4:7: invalid JSON: '}' expected near '"b"'
