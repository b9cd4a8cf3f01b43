#!/usr/bin/env bash
# Write each command's option list, made from its option table, into its doc
# page between the markers
#   <!-- options: NAME -->
#   <!-- /options -->
# Usage: scripts/doc-options.sh [ASSAY_BIN]   (default build/check/bin/assay)
# tests/docs/options.sh fails when a page and its table disagree.
set -euo pipefail
cd "$(dirname "$0")/.."
assay=${1:-build/check/bin/assay}
for page in docs/*.md; do
  grep -q '^<!-- options: ' "$page" || continue
  tmp=$(mktemp)
  awk -v assay="$assay" '
    /^<!-- options: [a-z]+ -->$/ {
      print; name = $3
      cmd = assay " help --options-md " name
      while ((cmd | getline line) > 0) print line
      if (close(cmd) != 0) { print "doc-options: " name " has no option table" > "/dev/stderr"; exit 1 }
      skip = 1; next
    }
    /^<!-- \/options -->$/ { skip = 0 }
    !skip { print }
  ' "$page" >"$tmp"
  if cmp -s "$tmp" "$page"; then rm -f "$tmp"; else mv "$tmp" "$page"; echo "updated $page"; fi
done
