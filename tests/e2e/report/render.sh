#!/usr/bin/env bash
# Renders the quickstart report that quickstart.sh left in WORK/report in
# headless Chromium (tests/report/chrome-check.sh: a PNG, no console
# messages, the page's script ran, the canary in no output).
#   render.sh WORK
set -euo pipefail
work=$1
[ -f "$work/report/report.html" ] || { echo "FAIL: no report in $work/report" >&2; exit 1; }
exec "$(dirname "$0")/../../report/chrome-check.sh" "$work/report" "$(cat "$work/canary")" \
  "$work/report.png" 1400,2400
