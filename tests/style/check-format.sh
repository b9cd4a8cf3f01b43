#!/usr/bin/env bash
# Fails when a tracked .c or .h file differs from what clang-format makes of
# it, naming the files; skips (77) without clang-format or outside a git
# checkout (a source tarball has nothing to compare against).
set -u
cd "${1:?usage: check-format.sh SOURCE_DIR}" || exit 2
command -v clang-format >/dev/null || { echo "skipped: clang-format is not installed"; exit 77; }
files=$(git ls-files '*.c' '*.h' 2>/dev/null) || { echo "skipped: not a git checkout"; exit 77; }
[ -n "$files" ] || { echo "skipped: no tracked sources"; exit 77; }
bad=$(for f in $files; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || echo "$f"
done)
if [ -n "$bad" ]; then
  echo "not formatted by .clang-format (run 'make format'):"
  echo "$bad" | sed 's/^/  /'
  exit 1
fi
echo "$(echo "$files" | wc -l) files formatted"
