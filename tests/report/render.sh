#!/usr/bin/env bash
# Renders a sample report (assay_report_sample, 48 cases, a canary secret)
# in headless Chromium: tests/report/chrome-check.sh says what is checked.
# Exit 77 (CTest skip) when Chromium is missing and cannot be installed.
#   render.sh REPORT_SAMPLE OUTDIR
set -euo pipefail
sample=$1
out=$2
canary=c4n4ryRender77
rm -rf "$out"
mkdir -p "$out"
"$sample" --cases 48 --secret "$canary" "$out"
exec "$(dirname "$0")/chrome-check.sh" "$out" "$canary"
