# the store remembers what was sent by target name: names are unique
env: ASSAY_TEST_HOOK=https://hooks.example.com/x
args: detect --store /nonexistent/x.db --notify tests/fixtures/notify/duplicate-name.json
exit: 2
--- stdout
--- stderr
tests/fixtures/notify/duplicate-name.json: $.targets[1].name: target name "hook" is already used by $.targets[0]
