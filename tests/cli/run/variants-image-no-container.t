# A variant's image replaces the container block's: without one it is refused
args: run tests/fixtures/cli/run/variants-image.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/variants-image.json: $.variants.candidate.image: replaces the container's image: the suite has no "container" block (docs/containers.md)
