#!/usr/bin/env bash
# summary.md counts the history series as report.html marks them: every
# series whose regression gate failed or where this run starts a worse
# regime is a regression, one where it starts a better regime an
# improvement, one with change points before this run only an earlier
# change. A synthetic store of 8 revisions (tests/report/report_store: the
# last run's slower EP cases give change points at this run). At 9918b4f
# summary.md said "1 regression" (the failed gates only) beside 19 series
# whose chart and message said "this run starts a new regime ... (worse)".
#   history-marks.sh ASSAY REPORT_STORE
set -euo pipefail
assay=$1
gen=$2
T=$(mktemp -d /tmp/assay-history-marks.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T"
run=$("$gen" --cases 40 --runs 8 s.db out)
REPORT_STORE_SECRET=not-in-this-store "$assay" report --store s.db >/dev/null
python3 - "out/$run" <<'PY'
import re, sys
d = sys.argv[1]
html = open(d + "/report.html").read()
md = open(d + "/summary.md").read()
sec = html[html.index('<section id="history">'):]
sec = sec[:sec.index("</section>")]
# One chunk per series: a chart card or a row of the table of the rest.
chunks = re.split(r'<div class="card|<tr><td>', sec)[1:]
chunks = [c for c in chunks if "<th>" not in c]
reg = imp = earlier = detector_only = 0
for c in chunks:
    new = re.search(r"this run starts a new regime: [^<]*\((worse|better)", c)
    failed = 'v-FAIL">FAIL<' in c
    if failed or (new and new.group(1) == "worse"):
        reg += 1
        detector_only += not failed
    elif new:
        imp += 1
    elif "; the latest at " in c:
        earlier += 1
m = re.search(r"History: (\d+) series, (\d+) regressions?, (\d+) improvements?"
              r"(?:, (\d+) with change points before this run only)?\.", md)
assert m, "no history line in summary.md:\n" + md
got = (int(m.group(2)), int(m.group(3)), int(m.group(4) or 0))
want = (reg, imp, earlier)
assert detector_only > 0, "no series that only the detector calls a regression: the test proves nothing"
assert got == want, f"summary.md counts (regressions, improvements, earlier) {got}, report.html shows {want}"
rows = md.split("#### Regressions")[1].split("\n\n")[1].count("\n| ") if "#### Regressions" in md else 0
assert min(reg, 20) == rows, f"{rows} rows in summary.md's regressions table, {reg} regressions"
h2 = re.search(r"<h2>History <small>(\d+) series, (\d+) regressions?, (\d+) improvements?", html)
assert h2 and (int(h2.group(2)), int(h2.group(3))) == want[:2], "report.html's heading differs"
print(f"ok: {reg} regressions ({detector_only} by the detector alone), {imp} improvements, {earlier} earlier")
PY
