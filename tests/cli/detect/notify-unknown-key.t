# a URL is never written in the targets file: only the name of its variable
env: ASSAY_TEST_HOOK=https://hooks.example.com/x
args: detect --store /nonexistent/x.db --notify tests/fixtures/notify/unknown-key.json
exit: 2
--- stdout
--- stderr
tests/fixtures/notify/unknown-key.json: $.targets[0].url: unknown key (expected one of: name, type, url_env, token_env, events, match, ca_file)
