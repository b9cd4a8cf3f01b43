#!/usr/bin/env python3
"""The counts junit.xml must have for a run, from its summary.json (the
mapping of docs/report.md): "TESTS FAILURES ERRORS SKIPPED".

One testcase per case and per gate verdict; failures: gate-failed and
workload-failed cases and FAIL verdicts; errors: no-metrics and
infrastructure cases; skipped: unsupported and skipped cases and SKIPPED
verdicts.
    junit-counts.py RUN_DIR/summary.json"""
import json
import sys

summary = json.load(open(sys.argv[1]))
cases = summary["cases"]
verdicts = [v["status"] for c in cases for v in c.get("verdicts", [])]
outcomes = [c["outcome"] for c in cases]
print(len(cases) + len(verdicts),
      sum(o in ("gate-failed", "workload-failed") for o in outcomes) + verdicts.count("FAIL"),
      sum(o in ("no-metrics", "infrastructure") for o in outcomes),
      sum(o in ("unsupported", "skipped") for o in outcomes) + verdicts.count("SKIPPED"))
