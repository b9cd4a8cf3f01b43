#!/usr/bin/env bash
# The nightly-CI example of docs/notify.md, run as written: its notify.json
# and nightly.sh, taken from the page, over four nights of results (a BF16
# and an FP8 series, ten runs a night); the BF16 series drops 8% on the
# third night. Nights 1 and 2 send nothing; night 3 sends exactly one Slack
# message, one Teams card and one GitHub status (failure); night 4, with the
# regression still there, sends nothing.
#   nightly.sh ASSAY
set -uo pipefail
assay=$1
src=${ASSAY_SOURCE_DIR:?}
T=$(mktemp -d /tmp/assay-notify-nightly.XXXXXX)
# shellcheck source=../lib/store.sh
. "$src/tests/lib/store.sh"
# shellcheck source=lib.sh
. "$src/tests/notify/lib.sh"
trap 'server_stop; store_cleanup; rm -rf "$T"' EXIT
store_init "$T"
server_start "$T"
cd "$T" || exit 1

# The page's blocks, each the fenced block after its "<!-- nightly: FILE -->".
awk '/^<!-- nightly: .* -->$/ { file = $3; next }
     file && /^```/ { if (open) { close(file); file = ""; open = 0 } else open = 1; next }
     file && open { print > file }' "$src/docs/notify.md"
[ -s notify.json ] && [ -s nightly.sh ] || fail "docs/notify.md lost its nightly example"
# The store on this test's backend; the page's nightly.db is its SQLite name.
S=$(store_new nightly) || exit 1
sed -i "s|nightly\.db|$S|g" nightly.sh
mkdir bin && ln -s "$assay" bin/assay
export PATH=$T/bin:$PATH
export SLACK_WEBHOOK_URL=$BASE/ok/slack TEAMS_WEBHOOK_URL=$BASE/ok/teams
export GITHUB_TOKEN=ghp_nightly GITHUB_API_URL=$BASE/github

python3 - <<'PY'
import json
noise = [0.0, 3.0, -2.0, 1.0, -3.0, 2.0, -1.0, 2.5, -2.5, 0.5]
for night in range(1, 5):
    with open(f"night-{night}.jsonl", "w") as f:
        for i in range(10):
            for prec, base in (("BF16", 1500.0), ("FP8", 2290.0)):
                drop = 0.92 if night >= 3 and prec == "BF16" else 1.0
                f.write(json.dumps({"run_id": 9000 + night * 100 + i,
                                    "timestamp": "2026-11-%02dT02:%02d:00Z" % (night, i * 5),
                                    "commit": "n%d-%d" % (night, i), "workload": "llama3-70b-pretrain",
                                    "scale": "2x8", "precision": prec, "tflops_per_gpu": None,
                                    "tokens_per_sec_per_gpu": base * drop + noise[i],
                                    "metric_value": None, "status": "pass",
                                    "cluster": "mi300x-a"}) + "\n")
PY
want_rc=(0 0 0 1 1)
for night in 1 2 3 4; do
	: >"$LOG"
	export GITHUB_SHA=nightly$night
	sh nightly.sh "night-$night.jsonl" >"night-$night.out" 2>"night-$night.err"
	rc=$?
	[ $rc = "${want_rc[$night]}" ] || fail "night $night: exit $rc, expected ${want_rc[$night]}: $(cat "night-$night.err")"
	cp "$LOG" "night-$night.requests"
done
for night in 1 2 4; do
	[ ! -s "night-$night.requests" ] || fail "night $night sent: $(cat "night-$night.requests")"
done
python3 - night-3.requests <<'PY' || fail "night 3"
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
paths = sorted(r["path"] for r in reqs)
assert paths == ["/github/repos/acme/gpu-perf/statuses/nightly3", "/ok/slack", "/ok/teams"], paths
for r in reqs:
    body = json.loads(r["body"])
    if r["path"] == "/ok/slack":
        assert body["text"] == "assay detect: 1 regression", body["text"]
        sections = [b for b in body["blocks"] if b["type"] == "section"]
        assert len(sections) == 1 and "(*-8.00%*)" in sections[0]["text"]["text"], sections
        assert "revisions n2-9 \u2192 n3-0" in sections[0]["text"]["text"]
    elif r["path"] == "/ok/teams":
        card = body["attachments"][0]["content"]
        assert card["body"][0]["text"] == "assay detect: 1 regression"
        assert len([b for b in card["body"] if b["type"] == "FactSet"]) == 1
    else:
        assert body["state"] == "failure" and body["description"] == "assay detect: 1 regression", body
        assert body["target_url"] == "https://ci.example.com/assay/nightly/"
print("ok: night 3 sent one Slack message, one Teams card, one GitHub status")
PY
grep -qx 'notify: team-slack (slack): nothing new to send (1 sent before)' night-4.err || fail "night 4: $(cat night-4.err)"
echo "ok"
