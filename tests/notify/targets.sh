#!/usr/bin/env bash
# Each event that assay detect sends (regression, recovered, gate-failed,
# infra) reaches each target type (webhook, slack, teams, github with a PR
# comment) through the loopback recording server (server.py); every payload
# is checked against the service's documented shape
# (tests/fixtures/notify/shapes/*.json, which cite the documentation) by
# shape.py, and field by field against what detect found. 100 regressions
# make one message per target, within each service's limits. The secret
# canaries (in the URLs and the GitHub token) are in no byte assay writes.
#   targets.sh ASSAY
set -uo pipefail
assay=$1
src=${ASSAY_SOURCE_DIR:?}
T=$(mktemp -d /tmp/assay-notify-targets.XXXXXX)
# shellcheck source=../lib/store.sh
. "$src/tests/lib/store.sh"
# shellcheck source=lib.sh
. "$src/tests/notify/lib.sh"
trap 'server_stop; store_cleanup; rm -rf "$T"' EXIT
store_init "$T"
server_start "$T"
cd "$T" || exit 1

CANARY=c4n4ry-0a1b2c3d4e5f
export HOOK_URL=$BASE/ok/$CANARY/hook SLACK_URL=$BASE/ok/$CANARY/slack
export TEAMS_URL=$BASE/ok/$CANARY/teams GH_TOKEN=ghp_${CANARY}
export GITHUB_SHA=0123456789abcdef0123456789abcdef01234567 PR_NUMBER=7
cat >notify.json <<EOF
{"report_url": "https://ci.example.com/r/", "backoff_s": 0.2,
 "targets": [
  {"name": "hook", "type": "webhook", "url_env": "HOOK_URL", "events": ["regression", "recovered", "gate-failed", "infra"]},
  {"name": "chat", "type": "slack", "url_env": "SLACK_URL", "events": ["regression", "recovered", "gate-failed", "infra"]},
  {"name": "room", "type": "teams", "url_env": "TEAMS_URL", "events": ["regression", "recovered", "gate-failed", "infra"]},
  {"name": "gh", "type": "github", "token_env": "GH_TOKEN", "repo": "acme/gpu-perf",
   "api_url": "$BASE/github", "revision_env": "GITHUB_SHA", "pr_env": "PR_NUMBER", "comment": true,
   "events": ["regression", "recovered", "gate-failed", "infra"]}]}
EOF
sed 's/"name": "gh", "type": "github"/"name": "gh-check", "type": "github", "mode": "check"/' notify.json >check.json

# A series that drops at r20 and comes back at r40 (recovered), beside the
# RCCL CI history whose BF16 series drops at c30 (regression).
python3 - >recover.jsonl <<'PY'
import json
for i in range(60):
    v = (1000.0 if i < 20 or i >= 40 else 900.0) + [0.0, 1.5, -1.0, 0.5, -1.5, 1.0][i % 6]
    print(json.dumps({"run_id": 7000 + i, "timestamp": "2026-09-%02dT%02d:00:00Z" % (1 + i // 24, i % 24),
                      "commit": "r%02d" % i, "workload": "recover-bench", "scale": "1x8",
                      "precision": "BF16", "tflops_per_gpu": None, "tokens_per_sec_per_gpu": v,
                      "metric_value": None, "status": "pass", "cluster": "mi300x-a"}))
PY
S=$(store_new targets) || exit 1
"$assay" store ingest --store "$S" recover.jsonl "$src/tests/fixtures/ingest/rccl_ci-history.jsonl" >/dev/null ||
	fail "ingest"

run() { # NAME ARGS...: assay detect ARGS, its output in NAME.out and NAME.err, then the requests it made in NAME.jsonl
	local name=$1
	shift
	: >"$LOG"
	"$assay" detect "$@" >"$name.out" 2>"$name.err"
	echo $? >"$name.rc"
	cp "$LOG" "$name.jsonl"
}
run changes --store "$S" --notify notify.json
[ "$(cat changes.rc)" = 0 ] || fail "detect: exit $(cat changes.rc)"
run gate --store "$S" --notify notify.json --gate changepoint,rolling-mean \
	"$src/tests/fixtures/ingest/rccl_ci-new.jsonl"
[ "$(cat gate.rc)" = 1 ] || fail "detect --gate: exit $(cat gate.rc), its gates fail (1)"
# A store newer than this assay: exit 5, an infra event (sent without memory).
sqlite3 newer.db "PRAGMA application_id = 1634956153; PRAGMA user_version = 99; CREATE TABLE t (x);"
run infra --store newer.db --notify notify.json
[ "$(cat infra.rc)" = 5 ] || fail "detect on a newer store: exit $(cat infra.rc)"
run check --store "$S" --notify check.json

python3 "$src/tests/notify/check_targets.py" "$src" "$GITHUB_SHA" || fail "payloads"

# 100 regressions: one message per target, within each service's limits.
python3 - >many.jsonl <<'PY'
import json
for s in range(100):
    for i in range(12):
        v = (1000.0 if i < 6 else 800.0) + [0.0, 1.5, -1.0, 0.5, -1.5, 1.0][i % 6]
        print(json.dumps({"run_id": 8000 + i, "timestamp": "2026-08-01T%02d:00:00Z" % i,
                          "commit": "m%02d" % i, "workload": "bench-%03d" % s, "scale": "1x8",
                          "precision": "BF16", "tflops_per_gpu": None, "tokens_per_sec_per_gpu": v,
                          "metric_value": None, "status": "pass", "cluster": "mi300x-a"}))
PY
M=$(store_new many) || exit 1
"$assay" store ingest --store "$M" many.jsonl >/dev/null || fail "ingest many"
run many --store "$M" --notify notify.json --min-segment 1
python3 - "$src" many.jsonl <<'PY' || fail "100 regressions"
import json, sys
sys.path.insert(0, sys.argv[1] + "/tests/notify")
from shape import check
shapes = {n: json.load(open(f"{sys.argv[1]}/tests/fixtures/notify/shapes/{n}.json")) for n in ("slack", "teams", "github")}
import check_targets as ct
by = {}
for line in open(sys.argv[2]):
    r = json.loads(line)
    by.setdefault(ct.classify(r["path"]), []).append(json.loads(r["body"]))
assert {k: len(v) for k, v in by.items()} == {"webhook": 1, "slack": 1, "teams": 1, "status": 1, "comment": 1}, by.keys()
assert by["webhook"][0]["count"] == 100, by["webhook"][0]["count"]
slack = by["slack"][0]
assert not check(shapes["slack"], "message", slack), check(shapes["slack"], "message", slack)
assert slack["blocks"][0]["text"]["text"] == "assay detect: 100 regressions"
assert len(slack["blocks"]) == 23, len(slack["blocks"])
assert "... and 80 more" in slack["blocks"][-2]["text"]["text"], slack["blocks"][-2]
teams = by["teams"][0]
assert not check(shapes["teams"], "message", teams), check(shapes["teams"], "message", teams)
assert "more: the report lists them all" in teams["attachments"][0]["content"]["body"][-1]["text"]
status = by["status"][0]
assert not check(shapes["github"], "status", status) and status["description"] == "assay detect: 100 regressions"
assert "... and 50 more" in by["comment"][0]["body"]
print("ok: 100 regressions, one message per target")
PY

# assay notify test: a sample to each target, what each answered; exit 5
# when one did not take it.
: >"$LOG"
"$assay" notify test notify.json >test.out 2>test.err || fail "notify test: $(cat test.err)"
printf '%s\n' 'hook (webhook): sent 1 event (HTTP 200: ok)' 'chat (slack): sent 1 event (HTTP 200: ok)' \
	'room (teams): sent 1 event (HTTP 200: ok)' 'gh (github): sent 1 event (HTTP 201: {"id": 1})' >test.want
diff test.want test.out || fail "notify test's answers"
[ "$(log_count 'True')" = 5 ] || fail "notify test: one request per target (and the PR comment)"
python3 - "$LOG" <<'PY' || fail "the sample"
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["path"].endswith("/hook"):
        e = json.loads(r["body"])["events"][0]
        assert e["event"] == "recovered" and e["series"]["workload"] == "assay-notify-test", e
        assert json.loads(r["body"])["command"] == "notify test"
PY
HOOK_URL=$BASE/404/$CANARY/hook "$assay" notify test notify.json >test404.out 2>&1
[ $? = 5 ] || fail "notify test with a target that answers 404: exit 5 expected"
grep -qx 'hook (webhook): not sent after 1 attempt: HTTP 404: ok' test404.out || fail "$(cat test404.out)"

# The canaries: in no byte assay wrote (its output, the store).
[ "$(log_count "'$CANARY' in r['path'] or '$CANARY' in r['headers'].get('Authorization', '')")" -gt 0 ] ||
	fail "the canary never reached the server: proves nothing"
for f in ./*.out ./*.err $(store_files "$S"); do
	if grep -rqa "$CANARY" "$f"; then fail "the secret canary is in $f"; fi
done
echo "ok"
