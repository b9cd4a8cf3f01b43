# A placeholder of the container block that a combo leaves unfilled is
# refused when the suite loads, naming the JSON path
args: run --dry-run tests/fixtures/cli/run/container-unfilled.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/container-unfilled.json: $.container.image: placeholder {IMAGE} has no value
