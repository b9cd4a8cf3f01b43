#!/usr/bin/env bash
# assay detect --notify with webhook targets, against the loopback recording
# server (server.py): the payload field by field (docs/notify.md's schema),
# each regression once per target (the store remembers), an ack annotation
# stops it, a 500 then a 200 delivers once, a 429 with Retry-After: 2 waits
# at least 2 s, a target that hangs ends within the timeout, delivery never
# changes the exit code or output (--notify-required: exit 5), a kill -9
# during delivery sends at most twice and records once, and the secret
# canary in each URL is in no byte assay writes.
#   webhook.sh ASSAY
set -uo pipefail
assay=$1
src=${ASSAY_SOURCE_DIR:?}
T=$(mktemp -d /tmp/assay-notify-webhook.XXXXXX)
# shellcheck source=../lib/store.sh
. "$src/tests/lib/store.sh"
# shellcheck source=lib.sh
. "$src/tests/notify/lib.sh"
trap 'server_stop; store_cleanup; rm -rf "$T"' EXIT
store_init "$T"
server_start "$T"
cd "$T" || exit 1

CANARY=c4n4ry-9f8e7d6c5b4a
export HOOK_OK=$BASE/ok/$CANARY HOOK_FLAKY=$BASE/fail-once/$CANARY
export HOOK_429=$BASE/429-once/$CANARY HOOK_HANG=$BASE/hang/$CANARY HOOK_500=$BASE/500/$CANARY
export HOOK_SLOW=$BASE/slow-once/$CANARY HOOK_404=$BASE/404/$CANARY
targets() { # FILE NAME VAR [more json members]
	printf '{"timeout_s": %s, "backoff_s": 0.2, "report_url": "https://ci.example.com/r/",
	  "targets": [{"name": "%s", "type": "webhook", "url_env": "%s"%s}]}\n' \
		"${TIMEOUT:-20}" "$2" "$3" "${4:-}" >"$1"
}
S=$(store_new notify) || exit 1
"$assay" store ingest --store "$S" "$src/tests/fixtures/ingest/rccl_ci-history.jsonl" >/dev/null ||
	fail "ingest"
"$assay" detect --store "$S" >plain.out 2>plain.err
plain_rc=$?

# 1. One regression, one POST, checked field by field.
targets ok.json hook HOOK_OK
"$assay" detect --store "$S" --notify ok.json >1.out 2>1.err
rc=$?
[ $rc = $plain_rc ] || fail "exit $rc with --notify, $plain_rc without"
cmp -s plain.out 1.out || fail "stdout differs with --notify"
grep -qx 'notify: hook (webhook): sent 1 event (HTTP 200: ok)' 1.err || fail "stderr: $(cat 1.err)"
[ "$(log_count 'r["path"].startswith("/ok/")')" = 1 ] || fail "expected one POST"
python3 - "$LOG" <<'PY' || fail "webhook payload"
import json, re, sys
r = [json.loads(l) for l in open(sys.argv[1])][0]
assert r["method"] == "POST", r["method"]
assert r["headers"]["Content-Type"] == "application/json"
d = json.loads(r["body"])
want_top = {"schema", "version", "target", "command", "revision", "report_url", "count", "events"}
assert set(d) == want_top, set(d) ^ want_top
assert d["schema"] == "assay.notify" and d["version"] == 1
assert d["target"] == "hook" and d["command"] == "detect" and d["revision"] is None
assert d["report_url"] == "https://ci.example.com/r/"
assert d["count"] == 1 and len(d["events"]) == 1
e = d["events"][0]
want = {"event", "id", "series_key", "series", "unit", "direction", "before", "after",
        "change_percent", "pvalue", "revision", "previous_revision", "timestamp", "message"}
assert set(e) == want, set(e) ^ want
assert e["event"] == "regression"
assert re.fullmatch("[0-9a-f]{64}", e["id"]) and re.fullmatch("[0-9a-f]{64}", e["series_key"])
assert e["series_key"].startswith("b7bca5ca73da")
assert e["series"]["precision"] == "bf16" and e["series"]["metric"] == "tokens_per_sec_per_gpu"
assert e["direction"] == "higher"
assert abs(e["before"] - 1501.31) < 0.01 and abs(e["after"] - 1423.35) < 0.01, e
assert abs(e["change_percent"] - (e["after"] / e["before"] - 1) * 100) < 1e-9
assert 0 <= e["pvalue"] < 1e-4
assert e["revision"] == "c30" and e["previous_revision"] == "c29"
assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", e["timestamp"])
assert e["message"].startswith("regression: llama3-70b-pretrain tokens_per_sec_per_gpu/value ")
assert "(-5.19%) at c30 (after c29)" in e["message"], e["message"]
PY
[ "$(store_sql "$S" "SELECT count(*) FROM notifications WHERE target = 'hook'")" = 1 ] ||
	fail "the store records the sent event once"

# 2. The next night, the same data: nothing sent again.
"$assay" detect --store "$S" --notify ok.json >2.out 2>2.err || true
grep -qx 'notify: hook (webhook): nothing new to send (1 sent before)' 2.err || fail "$(cat 2.err)"
[ "$(log_count 'r["path"].startswith("/ok/")')" = 1 ] || fail "sent twice"

# 3. An ack annotation stops it (a target that never got it).
"$assay" store annotate --store "$S" --match precision=bf16 --revision c30 --kind ack >/dev/null
targets ack.json hook-acked HOOK_OK
"$assay" detect --store "$S" --notify ack.json >/dev/null 2>3.err
grep -qx 'notify: hook-acked (webhook): nothing new to send (0 sent before)' 3.err || fail "$(cat 3.err)"
"$assay" store annotate --store "$S" --match precision=bf16 --revision c30 --kind ack --remove >/dev/null

# 4. A 500, then a 200: delivered once, recorded once.
targets flaky.json flaky HOOK_FLAKY
"$assay" detect --store "$S" --notify flaky.json >/dev/null 2>4.err
grep -qx 'notify: flaky (webhook): sent 1 event (HTTP 200: ok)' 4.err || fail "$(cat 4.err)"
[ "$(log_count 'r["path"].startswith("/fail-once/") and r["status"] == 200')" = 1 ] || fail "500 then 200"
[ "$(log_count 'r["path"].startswith("/fail-once/")')" = 2 ] || fail "two attempts"

# 5. A 429 with Retry-After: 2: the second attempt at least 2 s after the first.
targets 429.json limited HOOK_429
"$assay" detect --store "$S" --notify 429.json >/dev/null 2>5.err
grep -qx 'notify: limited (webhook): sent 1 event (HTTP 200: ok)' 5.err || fail "$(cat 5.err)"
python3 - "$LOG" <<'PY' || fail "Retry-After not honoured"
import json, sys
t = [json.loads(l)["time"] for l in open(sys.argv[1]) if '"/429-once/' in l]
assert len(t) == 2 and t[1] - t[0] >= 2.0, t
PY

# 6. A target that hangs: the command ends with its own verdict and output.
TIMEOUT=3 targets hang.json stuck HOOK_HANG
start=$(date +%s)
"$assay" detect --store "$S" --notify hang.json >6.out 2>6.err
rc=$?
took=$(($(date +%s) - start))
[ $rc = $plain_rc ] || fail "exit $rc when a target hangs"
cmp -s plain.out 6.out || fail "stdout differs when a target hangs"
grep -qx 'notify: stuck (webhook): not sent after 1 attempt: no answer within the timeout (3 s for all targets)' 6.err ||
	fail "$(cat 6.err)"
[ "$took" -lt 60 ] || fail "a hanging target held the command $took s (timeout 3 s)"

# 7. Delivery never decides the verdict, unless --notify-required.
targets 500.json down HOOK_500
"$assay" detect --store "$S" --notify 500.json --fail-on-regression >/dev/null 2>7.err
rc=$?
[ $rc = 1 ] || fail "exit $rc: --fail-on-regression's 1 expected whatever the delivery"
grep -qx 'notify: down (webhook): not sent after 4 attempts: HTTP 500: ok' 7.err || fail "$(cat 7.err)"
"$assay" detect --store "$S" --notify 500.json --notify-required >/dev/null 2>7r.err
[ $? = 5 ] || fail "--notify-required: exit 5 expected"
grep -qx 'notify: a delivery failed (--notify-required): exit 5' 7r.err || fail "$(cat 7r.err)"
targets 404.json gone HOOK_404
"$assay" detect --store "$S" --notify 404.json >/dev/null 2>7n.err
grep -qx 'notify: gone (webhook): not sent after 1 attempt: HTTP 404: ok' 7n.err || fail "a 404 is final: $(cat 7n.err)"
[ "$(store_sql "$S" "SELECT count(*) FROM notifications WHERE target IN ('down', 'gone', 'stuck')")" = 0 ] ||
	fail "a failed delivery was recorded as sent"

# 8. kill -9 during delivery, then the same command: at most twice, recorded once.
targets slow.json slow HOOK_SLOW
"$assay" detect --store "$S" --notify slow.json >/dev/null 2>8a.err &
pid=$!
log_wait 'r["path"].startswith("/slow-once/")'
kill -9 $pid
wait $pid 2>/dev/null
"$assay" detect --store "$S" --notify slow.json >/dev/null 2>8b.err
grep -qx 'notify: slow (webhook): sent 1 event (HTTP 200: ok)' 8b.err || fail "$(cat 8b.err)"
"$assay" detect --store "$S" --notify slow.json >/dev/null 2>8c.err
grep -qx 'notify: slow (webhook): nothing new to send (1 sent before)' 8c.err || fail "$(cat 8c.err)"
[ "$(log_count 'r["path"].startswith("/slow-once/")')" = 2 ] || fail "delivered more than twice"
[ "$(store_sql "$S" "SELECT count(*) FROM notifications WHERE target = 'slow'")" = 1 ] ||
	fail "recorded more than once"

# 9. TLS is verified: a self-signed certificate is refused (once: another
# attempt cannot mend it) unless the target's ca_file vouches for it.
server_stop
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
	-addext subjectAltName=IP:127.0.0.1 -keyout key.pem -out cert.pem >/dev/null 2>&1 ||
	fail "openssl could not make a certificate"
LOG_HTTP=$LOG
mkdir -p "$T/tls"
server_start "$T/tls" "$T/cert.pem" "$T/key.pem"
export HOOK_TLS=https://127.0.0.1:$PORT/ok/$CANARY
targets tls.json secure HOOK_TLS
"$assay" detect --store "$S" --notify tls.json >/dev/null 2>9a.err
grep -Eqx 'notify: secure \(webhook\): not sent after 1 attempt: SSL certificate problem: self[- ]signed certificate' 9a.err ||
	fail "an unverified certificate: $(cat 9a.err)"
[ "$(log_count 'True')" = 0 ] || fail "a request reached a server whose certificate did not verify"
targets tls-ca.json secure HOOK_TLS ", \"ca_file\": \"$T/cert.pem\""
"$assay" detect --store "$S" --notify tls-ca.json >/dev/null 2>9b.err
grep -qx 'notify: secure (webhook): sent 1 event (HTTP 200: ok)' 9b.err || fail "with its ca_file: $(cat 9b.err)"
LOG=$LOG_HTTP

# 10. The canary is in no byte assay wrote: its output and the store.
[ "$(log_count "'$CANARY' in r['path']")" -gt 0 ] || fail "the canary never reached the server: proves nothing"
for f in ./*.out ./*.err $(store_files "$S"); do
	if grep -rqa "$CANARY" "$f"; then fail "the secret canary is in $f"; fi
done
echo "ok"
