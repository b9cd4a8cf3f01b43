#!/usr/bin/env bash
# --notify on assay run, gate and publish, against the loopback recording
# server (server.py): run sends each failed gate of its cases (gate-failed)
# once per target and revision, with what each target answered in the run
# folder's notify.json; gate sends its failed verdicts (it has no store, so
# every time); publish sends `published` with the publication's digest.
# Exit codes stay the commands' own.
#   commands.sh ASSAY
set -uo pipefail
assay=$1
src=${ASSAY_SOURCE_DIR:?}
T=$(mktemp -d /tmp/assay-notify-commands.XXXXXX)
# shellcheck source=../lib/store.sh
. "$src/tests/lib/store.sh"
# shellcheck source=lib.sh
. "$src/tests/notify/lib.sh"
trap 'server_stop; sink_stop; store_cleanup; rm -rf "$T"' EXIT
store_init "$T"
server_start "$T"
cd "$T" || exit 1

sink_start "$T"
CANARY=c4n4ry-77aa88bb99cc
export HOOK_URL=$BASE/ok/$CANARY/hook SLACK_URL=$BASE/ok/$CANARY/slack
export TEAMS_URL=$BASE/ok/$CANARY/teams GH_TOKEN=ghp_$CANARY SMTP_URL=smtp://127.0.0.1:$SMTP_PORT
cat >notify.json <<'EOF'
{"targets": [
  {"name": "hook", "type": "webhook", "url_env": "HOOK_URL", "events": ["gate-failed", "infra", "published"]},
  {"name": "chat", "type": "slack", "url_env": "SLACK_URL", "events": ["gate-failed", "infra", "published"]}]}
EOF
# publish's event goes to every type.
cat >publish.json <<EOF
{"targets": [
  {"name": "hook", "type": "webhook", "url_env": "HOOK_URL", "events": ["published"]},
  {"name": "chat", "type": "slack", "url_env": "SLACK_URL", "events": ["published"]},
  {"name": "room", "type": "teams", "url_env": "TEAMS_URL", "events": ["published"]},
  {"name": "gh", "type": "github", "token_env": "GH_TOKEN", "repo": "acme/gpu-perf",
   "api_url": "$BASE/github", "events": ["published"]},
  {"name": "mail", "type": "email", "url_env": "SMTP_URL", "from": "assay@ci.example.com",
   "to": ["team@example.com"], "events": ["published"]}]}
EOF
events() { # the webhook's events of the requests so far: "kind|message" lines
	python3 - "$LOG" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["path"].endswith("/hook"):
        for e in json.loads(r["body"])["events"]:
            print(e["event"] + "|" + (e["revision"] or "") + "|" + e["message"])
PY
}
S=$(store_new commands) || exit 1

# assay run: the replayed training suite, one case of which fails a gate
# (its paths are relative to the source folder, where it runs).
suite=configs/examples/replay-training.json
replay() { (cd "$src" && "$assay" run --store "$S" --out "$T/out" --quiet --notify "$T/notify.json" "$@" "$suite"); }
replay --revision r1 >run1.out 2>run1.err
[ $? = 1 ] || fail "run: exit 1 (a gate failed) expected: $(tail -3 run1.err)"
events >run1.events
[ "$(wc -l <run1.events)" = 1 ] || fail "run: one gate-failed event expected: $(cat run1.events)"
grep -q '^gate-failed|r1|case megatron-mbs8: threshold tflops_per_gpu/steady_mean: ' run1.events ||
	fail "run: $(cat run1.events)"
grep -qx 'notify: hook (webhook): sent 1 event (HTTP 200: ok)' run1.err || fail "run: $(cat run1.err)"
record=$(ls out/*/notify.json | head -1)
python3 - "$record" <<'PY' || fail "run: the record of what was sent"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "assay.notify-results/1"
t = {x["target"]: x for x in d["targets"]}
assert set(t) == {"hook", "chat"}
assert t["hook"] == {"target": "hook", "type": "webhook", "delivered": True, "events": 1,
                     "sent_before": 0, "attempts": 1, "status": 200,
                     "message": "sent 1 event (HTTP 200: ok)"}, t["hook"]
PY
# The report says what the notifications did.
grep -q '^> Notified: hook (webhook, 1 event), chat (slack, 1 event)\.$' "$(dirname "$record")/summary.md" ||
	fail "run: summary.md does not say what was notified: $(head -5 "$(dirname "$record")/summary.md")"
grep -q 'Notified: hook (webhook, 1 event), chat (slack, 1 event)\.' "$(dirname "$record")/report.html" ||
	fail "run: report.html does not say what was notified"
# A failed delivery: on stderr, in notify.json and in the report; exit 1 still.
HOOK_URL=$BASE/500/$CANARY/hook replay --revision r0 >run0.out 2>run0.err
[ $? = 1 ] || fail "a failed delivery changed the exit code"
grep -qx 'notify: hook (webhook): not sent after 4 attempts: HTTP 500: ok' run0.err || fail "$(cat run0.err)"
dir0=$(dirname "$(grep -l '"not sent after 4 attempts: HTTP 500: ok"' out/*/notify.json)")
grep -q '^> Notification to hook (webhook) failed: not sent after 4 attempts: HTTP 500: ok$' "$dir0/summary.md" ||
	fail "run: summary.md does not report the failed delivery"
: >"$LOG"
replay --revision r1 >run2.out 2>run2.err
[ $? = 1 ] || fail "run again: exit 1"
grep -qx 'notify: hook (webhook): nothing new to send (1 sent before)' run2.err || fail "run again: $(cat run2.err)"
[ ! -s "$LOG" ] || fail "run again sent: $(cat "$LOG")"
replay --revision r2 >run3.out 2>run3.err
grep -qx 'notify: hook (webhook): sent 1 event (HTTP 200: ok)' run3.err || fail "a new revision's failure is news: $(cat run3.err)"

# assay gate: no store, so each failing gate run sends.
: >"$LOG"
gate=(gate --warmup 1 --thresholds "$src/tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single_threshold.json"
	--combo MBS=4,GBS=128,PRECISION=FP8 --log "$src/tests/fixtures/training/primus-complete.log")
"$assay" "${gate[@]}" >gate0.out 2>/dev/null
"$assay" "${gate[@]}" --notify notify.json >gate1.out 2>gate1.err
[ $? = 1 ] || fail "gate: exit 1 expected"
cmp -s gate0.out gate1.out || fail "gate: stdout differs with --notify"
events >gate.events
n=$(grep -c '^gate-failed||' gate.events)
[ "$n" -ge 1 ] && [ "$n" = "$(grep -c '^FAIL' gate0.out)" ] || fail "gate: one event per FAIL verdict: $(cat gate.events)"

# assay publish: three runs of a small command suite, published.
cat >work.sh <<'EOF'
#!/bin/sh
for i in 1 2 3 4 5; do
  echo "{\"series\":{\"workload\":\"toy\",\"tokens\":64},\"metric\":\"latency_us\",\"statistic\":\"p50\",\"value\":10$i,\"unit\":\"us\",\"direction\":\"lower\"}"
done >"$CASE_DIR/rows.ndjson"
EOF
cat >pubtoy.json <<'EOF'
{"kind": "command", "name": "pubtoy", "cluster": "ci-pool",
 "combos": {"bf16": {"PRECISION": "bf16"}},
 "argv": ["sh", "work.sh"], "env": {"CASE_DIR": "{CASE_DIR}"},
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"], "context": {"precision": "{PRECISION}"}}
EOF
for i in 1 2 3; do
	"$assay" run --store "$S" --out out --revision rev1 --quiet pubtoy.json >/dev/null 2>&1 || fail "pubtoy run $i"
done
: >"$LOG"
"$assay" publish --store "$S" --suite pubtoy --last 3 --revision rev1 --out pub --notify publish.json >pub.out 2>pub.err ||
	fail "publish: $(cat pub.err)"
events >pub.events
grep -q '^published|rev1|suite pubtoy: 1 series published in pub (unversioned, manifest sha256 ' pub.events ||
	fail "publish: $(cat pub.events)"
python3 - "$LOG" "$MAIL_LOG" <<'PY' || fail "publish: every target type"
import email, email.policy, json, sys
seen = set()
for line in open(sys.argv[1]):
    r = json.loads(line)
    b = json.loads(r["body"])
    if r["path"].endswith("/slack"):
        assert b["text"] == "assay publish: 1 publication", b["text"]
        assert b["blocks"][1]["text"]["text"].startswith("*published* suite pubtoy: 1 series published")
        assert "revision rev1" in b["blocks"][-1]["elements"][0]["text"]
    elif r["path"].endswith("/teams"):
        body = b["attachments"][0]["content"]["body"]
        assert body[0]["text"] == "assay publish: 1 publication"
        assert body[1]["text"].startswith("published: suite pubtoy: 1 series published"), body[1]
    elif "/statuses/" in r["path"]:
        assert r["path"] == "/github/repos/acme/gpu-perf/statuses/rev1", r["path"]
        assert b == {"state": "success", "description": "assay publish: 1 publication",
                     "context": "assay"}, b
    seen.add("github" if "/statuses/" in r["path"] else r["path"].rsplit("/", 1)[1])
assert seen == {"hook", "slack", "teams", "github"}, seen
mails = [json.loads(l) for l in open(sys.argv[2])]
assert len(mails) == 1
m = email.message_from_string(mails[0]["data"], policy=email.policy.default)
assert m["Subject"] == "assay publish: 1 publication"
assert "- published: suite pubtoy: 1 series published in pub" in list(m.iter_parts())[0].get_content()
PY

for f in ./*.out ./*.err out $(store_files "$S"); do
	if grep -rqa "$CANARY" "$f"; then fail "the secret canary is in $f"; fi
done
echo "ok"
