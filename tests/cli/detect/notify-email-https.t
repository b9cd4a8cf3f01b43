# an email target's URL is smtps:// or smtp:// (never quoted: it may hold a login)
env: ASSAY_TEST_HOOK=https://hooks.example.com/x
args: detect --store /nonexistent/x.db --notify tests/fixtures/notify/email-https.json
exit: 2
--- stdout
--- stderr
tests/fixtures/notify/email-https.json: $.targets[0].url_env: the URL in ASSAY_TEST_HOOK must start with smtps:// or smtp://
