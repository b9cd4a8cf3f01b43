#!/usr/bin/env python3
"""The payloads targets.sh recorded (changes.jsonl, gate.jsonl, infra.jsonl,
check.jsonl in the current folder), each checked against its service's
documented shape (shape.py) and field by field against what detect found.

usage: check_targets.py SOURCE_DIR GITHUB_SHA
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shape import check  # noqa: E402

SRC, SHA, SHAPES = None, None, {}
ARROW = "\u2192"


def classify(path):
    """webhook, slack, teams, status, check-run or comment."""
    if path.startswith("/ok/"):
        return {"hook": "webhook", "slack": "slack", "teams": "teams"}[path.rsplit("/", 1)[1]]
    if "/statuses/" in path:
        return "status"
    if path.endswith("/check-runs"):
        return "check-run"
    if path.endswith("/comments"):
        return "comment"
    raise AssertionError("unexpected request " + path)


def load(name):
    out = {}
    for line in open(name + ".jsonl"):
        r = json.loads(line)
        kind = classify(r["path"])
        assert kind not in out, f"{name}: two {kind} requests"
        out[kind] = (r, json.loads(r["body"]))
    return out


def shaped(kind, body, service, root):
    errs = check(SHAPES[service], root, body)
    assert not errs, f"{kind}: " + "; ".join(errs)


def github_headers(r):
    h = r["headers"]
    assert h["Authorization"].startswith("Bearer ghp_"), "the token, as a bearer token"
    assert h["Accept"] == "application/vnd.github+json"
    assert h["X-GitHub-Api-Version"] == "2022-11-28"


def check_changes():
    got = load("changes")
    assert set(got) == {"webhook", "slack", "teams", "status", "comment"}, set(got)
    hook = got["webhook"][1]
    kinds = sorted((e["event"], e["revision"]) for e in hook["events"])
    assert kinds == [("recovered", "r40"), ("regression", "c30")], kinds
    rec = [e for e in hook["events"] if e["event"] == "recovered"][0]
    assert rec["previous_revision"] == "r39" and abs(rec["before"] - 900.05) < 0.01
    assert abs(rec["after"] - 1000.05) < 0.01 and rec["direction"] == "higher"

    slack = got["slack"][1]
    shaped("slack", slack, "slack", "message")
    assert slack["text"] == "assay detect: 1 regression, 1 recovered", slack["text"]
    b = slack["blocks"]
    assert [x["type"] for x in b] == ["header", "section", "section", "context"], b
    assert b[0]["text"] == {"type": "plain_text", "text": "assay detect: 1 regression, 1 recovered"}
    texts = {x["text"]["text"].split(" ", 1)[0]: x["text"]["text"] for x in b[1:3]}
    reg = texts["*regression*"]
    assert reg.startswith("*regression* `llama3-70b-pretrain tokens_per_sec_per_gpu/value "), reg
    assert f"`\n1501.31 {ARROW} 1423.35 " in reg and "(*-5.19%*)" in reg, reg
    assert f"revisions c29 {ARROW} c30, p = " in reg, reg
    assert b[1]["text"]["type"] == "mrkdwn"
    assert f"900.05 {ARROW} 1000.05" in texts["*recovered*"] and "(*+11.11%*)" in texts["*recovered*"]
    ctx = b[3]["elements"][0]
    assert ctx["type"] == "mrkdwn" and "<https://ci.example.com/r/|the report>" in ctx["text"], ctx

    teams = got["teams"][1]
    shaped("teams", teams, "teams", "message")
    card = teams["attachments"][0]["content"]
    assert card["version"] == "1.4"
    body = card["body"]
    assert body[0]["text"] == "assay detect: 1 regression, 1 recovered" and body[0]["weight"] == "Bolder"
    titles = [x["text"] for x in body if x["type"] == "TextBlock"][1:]
    assert any(t.startswith("regression: llama3-70b-pretrain tokens_per_sec_per_gpu/value") for t in titles), titles
    assert any(t.startswith("recovered: recover-bench") for t in titles), titles
    facts = [{f["title"]: f["value"] for f in x["facts"]} for x in body if x["type"] == "FactSet"]
    reg = [f for f in facts if f["Change"] == "-5.19%"][0]
    assert reg[f"Before {ARROW} after"].startswith(f"1501.31 {ARROW} 1423.35"), reg
    assert reg["Revisions"] == f"c29 {ARROW} c30", reg
    assert card["actions"] == [{"type": "Action.OpenUrl", "title": "Open the report",
                                "url": "https://ci.example.com/r/"}]

    r, status = got["status"]
    github_headers(r)
    shaped("status", status, "github", "status")
    assert r["path"] == f"/github/repos/acme/gpu-perf/statuses/{SHA}", r["path"]
    assert status == {"state": "failure", "description": "assay detect: 1 regression, 1 recovered",
                      "context": "assay", "target_url": "https://ci.example.com/r/"}, status
    r, comment = got["comment"]
    github_headers(r)
    shaped("comment", comment, "github", "comment")
    assert r["path"] == "/github/repos/acme/gpu-perf/issues/7/comments", r["path"]
    md = comment["body"]
    assert md.startswith("**assay detect: 1 regression, 1 recovered**\n\n| event | series |"), md
    assert "| regression | llama3-70b-pretrain tokens_per_sec_per_gpu/value " in md
    assert "| 1501.31 | 1423.35 | -5.19% | c29..c30 |" in md, md
    assert "[The report](https://ci.example.com/r/)" in md


def check_gate():
    got = load("gate")
    hook = got["webhook"][1]
    evs = hook["events"]
    assert [e["event"] for e in evs] == ["gate-failed"] * 3, [e["event"] for e in evs]
    msgs = sorted(e["message"] for e in evs)
    assert any(m.startswith("rolling-mean") or "vs mean" in m for m in msgs), msgs
    assert all(e["series_key"] and e["series"]["workload"] == "llama3-70b-pretrain" for e in evs)
    slack = got["slack"][1]
    shaped("slack", slack, "slack", "message")
    assert slack["text"] == "assay detect: 3 failed gates", slack["text"]
    assert all(x["text"]["text"].startswith("*gate-failed* ") for x in slack["blocks"][1:4])
    teams = got["teams"][1]
    shaped("teams", teams, "teams", "message")
    status = got["status"][1]
    shaped("status", status, "github", "status")
    assert status["state"] == "failure"


def check_infra():
    got = load("infra")
    evs = got["webhook"][1]["events"]
    assert [e["event"] for e in evs] == ["infra"], evs
    assert evs[0]["series_key"] is None and evs[0]["before"] is None
    assert "exit 5" in evs[0]["message"]
    slack = got["slack"][1]
    shaped("slack", slack, "slack", "message")
    assert slack["blocks"][1]["text"]["text"].startswith("*infra* assay detect ended with exit 5")
    shaped("teams", got["teams"][1], "teams", "message")
    status = got["status"][1]
    shaped("status", status, "github", "status")
    assert status["state"] == "error", status


def check_check_run():
    got = load("check")
    assert set(got) == {"check-run", "comment"}, "check.json's other targets had sent it all"
    r, run = got["check-run"]
    github_headers(r)
    shaped("check-run", run, "github", "check-run")
    assert r["path"] == "/github/repos/acme/gpu-perf/check-runs"
    assert run["name"] == "assay" and run["head_sha"] == SHA and run["status"] == "completed"
    assert run["conclusion"] == "failure" and run["details_url"] == "https://ci.example.com/r/"
    assert run["output"]["title"] == "assay detect: 1 regression, 1 recovered"
    assert "| 1501.31 | 1423.35 | -5.19% | c29..c30 |" in run["output"]["summary"]


if __name__ == "__main__":
    SRC, SHA = sys.argv[1], sys.argv[2]
    SHAPES = {n: json.load(open(f"{SRC}/tests/fixtures/notify/shapes/{n}.json"))
              for n in ("slack", "teams", "github")}
    check_changes()
    check_gate()
    check_infra()
    check_check_run()
    print("ok: regression, recovered, gate-failed and infra to webhook, slack, teams and github")
