#!/usr/bin/env bash
# The email target against a loopback SMTP sink (smtp_sink.py): one
# message per command with the events as plain text and the Markdown
# summary as a text/markdown part, to every recipient (one refused with 451
# the first time: tried again), logged in with the password from the
# environment; regression, recovered, gate-failed and infra each reach it;
# the next run sends nothing; the password canary is in no byte assay
# writes.
#   email.sh ASSAY
set -uo pipefail
assay=$1
src=${ASSAY_SOURCE_DIR:?}
T=$(mktemp -d /tmp/assay-notify-email.XXXXXX)
# shellcheck source=../lib/store.sh
. "$src/tests/lib/store.sh"
# shellcheck source=lib.sh
. "$src/tests/notify/lib.sh"
trap 'sink_stop; store_cleanup; rm -rf "$T"' EXIT
store_init "$T"
sink_start "$T"
cd "$T" || exit 1

CANARY=c4n4ry-smtp-5e6f7a8b
export SMTP_URL=smtp://127.0.0.1:$SMTP_PORT SMTP_PASSWORD=$CANARY
cat >notify.json <<'EOF2'
{"report_url": "https://ci.example.com/r/", "backoff_s": 0.2,
 "targets": [{"name": "mail", "type": "email", "url_env": "SMTP_URL", "token_env": "SMTP_PASSWORD",
   "user": "ci-bot", "from": "assay@ci.example.com",
   "to": ["team@example.com", "tempfail-once@example.com"],
   "events": ["regression", "recovered", "gate-failed", "infra"]}]}
EOF2
python3 - >recover.jsonl <<'PY'
import json
for i in range(60):
    v = (1000.0 if i < 20 or i >= 40 else 900.0) + [0.0, 1.5, -1.0, 0.5, -1.5, 1.0][i % 6]
    print(json.dumps({"run_id": 7000 + i, "timestamp": "2026-09-%02dT%02d:00:00Z" % (1 + i // 24, i % 24),
                      "commit": "r%02d" % i, "workload": "recover-bench", "scale": "1x8",
                      "precision": "BF16", "tflops_per_gpu": None, "tokens_per_sec_per_gpu": v,
                      "metric_value": None, "status": "pass", "cluster": "mi300x-a"}))
PY
S=$(store_new email) || exit 1
"$assay" store ingest --store "$S" recover.jsonl "$src/tests/fixtures/ingest/rccl_ci-history.jsonl" >/dev/null ||
	fail "ingest"

"$assay" detect --store "$S" --notify notify.json >1.out 2>1.err || fail "detect: $(cat 1.err)"
grep -qx 'notify: mail (email): sent 2 events (SMTP 250)' 1.err || fail "$(cat 1.err)"
python3 - "$MAIL_LOG" "$CANARY" <<'PY' || fail "the message"
import email, email.policy, json, sys
msgs = [json.loads(l) for l in open(sys.argv[1])]
assert len(msgs) == 1, f"{len(msgs)} messages"
m = msgs[0]
assert m["from"] == "assay@ci.example.com"
assert m["rcpt"] == ["team@example.com", "tempfail-once@example.com"], m["rcpt"]
assert m["login"] == {"user": "ci-bot", "password": sys.argv[2]}, m["login"]
msg = email.message_from_string(m["data"], policy=email.policy.default)
assert msg["From"] == "assay@ci.example.com"
assert msg["To"] == "team@example.com, tempfail-once@example.com"
assert msg["Subject"] == "assay detect: 1 regression, 1 recovered", msg["Subject"]
assert msg["Date"] and msg["Message-ID"].endswith("@assay>")
assert msg.get_content_type() == "multipart/mixed"
parts = list(msg.iter_parts())
assert [p.get_content_type() for p in parts] == ["text/plain", "text/markdown"]
text = parts[0].get_content().replace("\r\n", "\n")
assert text.startswith("assay detect: 1 regression, 1 recovered\n"), text
assert "- regression: llama3-70b-pretrain tokens_per_sec_per_gpu/value " in text
assert " 1501.31 -> 1423.35 tokens/s/GPU (-5.19%) at c30 (after c29)" in text, text
assert "- recovered: recover-bench " in text and "(+11.11%) at r40 (after r39)" in text
assert "The report: https://ci.example.com/r/" in text
md = parts[1].get_content().replace("\r\n", "\n")
assert parts[1].get_filename() == "summary.md"
assert md.startswith("**assay detect: 1 regression, 1 recovered**\n\n| event | series |"), md
assert "| 1501.31 | 1423.35 | -5.19% | c29..c30 |" in md, md
print("ok: one message, two parts")
PY

: >"$MAIL_LOG"
"$assay" detect --store "$S" --notify notify.json >2.out 2>2.err
grep -qx 'notify: mail (email): nothing new to send (2 sent before)' 2.err || fail "$(cat 2.err)"
[ ! -s "$MAIL_LOG" ] || fail "sent again"

"$assay" detect --store "$S" --notify notify.json --gate changepoint,rolling-mean \
	"$src/tests/fixtures/ingest/rccl_ci-new.jsonl" >3.out 2>3.err
grep -qx 'notify: mail (email): sent 3 events (SMTP 250)' 3.err || fail "gate: $(cat 3.err)"
sqlite3 newer.db "PRAGMA application_id = 1634956153; PRAGMA user_version = 99; CREATE TABLE t (x);"
"$assay" detect --store newer.db --notify notify.json >4.out 2>4.err
grep -qx 'notify: mail (email): sent 1 event (SMTP 250)' 4.err || fail "infra: $(cat 4.err)"
python3 - "$MAIL_LOG" <<'PY' || fail "gate-failed and infra messages"
import email, email.policy, json, sys
msgs = [email.message_from_string(json.loads(l)["data"], policy=email.policy.default) for l in open(sys.argv[1])]
assert [m["Subject"] for m in msgs] == ["assay detect: 3 failed gates", "assay detect: 1 infrastructure failure"]
gate = list(msgs[0].iter_parts())[0].get_content()
assert gate.count("- gate-failed: ") == 3, gate
infra = list(msgs[1].iter_parts())[0].get_content()
assert "- infra: assay detect ended with exit 5" in infra, infra
PY

# STARTTLS: a sink that offers it gets the message over TLS, its
# certificate verified (refused without the target's ca_file).
sink_stop
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
	-addext subjectAltName=IP:127.0.0.1 -keyout key.pem -out cert.pem >/dev/null 2>&1 ||
	fail "openssl could not make a certificate"
mkdir tls
sink_start "$T/tls" "$T/cert.pem" "$T/key.pem"
export SMTP_URL=smtp://127.0.0.1:$SMTP_PORT
sed 's/"name": "mail"/"name": "mail-tls"/' notify.json >tls.json
"$assay" detect --store "$S" --notify tls.json >5.out 2>5.err
grep -Eq '^notify: mail-tls \(email\): not sent after 1 attempt: SSL certificate problem: self[- ]signed certificate' 5.err ||
	fail "STARTTLS without the ca_file: $(cat 5.err)"
sed 's|"name": "mail"|"name": "mail-tls", "ca_file": "'"$T"'/cert.pem"|' notify.json >tls-ca.json
"$assay" detect --store "$S" --notify tls-ca.json >6.out 2>6.err
grep -qx 'notify: mail-tls (email): sent 2 events (SMTP 250)' 6.err || fail "STARTTLS: $(cat 6.err)"
python3 - "$MAIL_LOG" "$CANARY" <<'PY' || fail "STARTTLS message"
import json, sys
msgs = [json.loads(l) for l in open(sys.argv[1])]
assert len(msgs) == 1 and msgs[0]["tls"] is True, msgs
assert msgs[0]["login"]["password"] == sys.argv[2]
PY

for f in ./*.out ./*.err $(store_files "$S"); do
	if grep -rqa "$CANARY" "$f"; then fail "the SMTP password is in $f"; fi
done
echo "ok"
