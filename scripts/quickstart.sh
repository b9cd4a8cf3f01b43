#!/usr/bin/env bash
# Runs the default local suite with a release build and says where the results went.
set -euo pipefail
build=${1:-build/release}
out=out/quickstart
mkdir -p "$out"
"$build/bin/assay" matrix --platforms configs/platforms.json --sku local-cpu configs/sweep-local.json \
  | tee "$out/matrix.txt"
"$build/bin/assay" matrix --platforms configs/platforms.json --sku local-cpu --json configs/sweep-local.json \
  >"$out/matrix.json"
echo
echo "results: $out/matrix.txt and $out/matrix.json"
