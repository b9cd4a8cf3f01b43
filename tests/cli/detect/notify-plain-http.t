# plain http only to a loopback address; the message does not quote the URL (a secret)
env: ASSAY_TEST_HOOK=http://hooks.example.com/services/T0/B0/CANARYc4n4ry
args: detect --store /nonexistent/x.db --notify tests/fixtures/notify/plain-http.json
exit: 2
--- stdout
--- stderr
tests/fixtures/notify/plain-http.json: $.targets[0].url_env: the URL in ASSAY_TEST_HOOK must start with https:// (http:// only to 127.0.0.1, [::1] or localhost)
