# A placeholder of the container block that a combo leaves unfilled is
# refused when the suite loads, naming the JSON path
args: run --dry-run tests/cli/run/inputs/container-unfilled.json
exit: 2
--- stdout
--- stderr
tests/cli/run/inputs/container-unfilled.json: $.container.image: placeholder {IMAGE} has no value
