# recipients are bare addresses (no header characters)
env: ASSAY_TEST_SMTP=smtps://smtp.example.com
args: detect --store /nonexistent/x.db --notify tests/fixtures/notify/email-bad-to.json
exit: 2
--- stdout
--- stderr
tests/fixtures/notify/email-bad-to.json: $.targets[0].to[1]: expected an address, got "Team <lead@example.com>"
