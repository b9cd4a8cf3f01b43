# a moving latest tag is refused (image-tag, an error under --strict)
args: manifest --platforms configs/examples/mi355x-platforms.json --suite tests/fixtures/cli/manifest/latest-tag.json --combo bf16-2node
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/manifest/latest-tag.json: $.madengine.docker_image: docker_image "rocm/primus:latest" uses the moving "latest" tag: pin a version tag or a digest
