#!/usr/bin/env bash
# Doc meta-test: every command has a page (docs/NAME.md, or the page its help
# names), and every command with an option table has, on that page, the
# option list its table makes (scripts/doc-options.sh writes it), and every
# option of the table appears in its --help. Deleting one option's line from
# a page, or adding an option without documenting it, fails this test, and so
# does a command without an option table (unless it is listed in pending).
set -u
assay=${ASSAY_BIN:?}
cd "${ASSAY_SOURCE_DIR:?}" || exit 1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
commands=$("$assay" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
[ -n "$commands" ] || { echo "FAIL: no commands in assay --help"; exit 1; }
# Commands still on hand-written help (being converted elsewhere); any other
# command without an option table fails.
pending=" "
with_table=0
for c in $commands; do
  page=docs/$c.md
  if [ ! -f "$page" ]; then
    echo "FAIL: $c has no page ($page)"; fail=1; continue
  fi
  if ! "$assay" help --options-md "$c" >"$tmp/want" 2>/dev/null; then
    case $pending in
      *" $c "*) echo "note: $c has no option table yet; its options are not checked" ;;
      *) echo "FAIL: $c has no option table (src/cli/opt.h)"; fail=1 ;;
    esac
    continue
  fi
  with_table=$((with_table + 1))
  awk -v name="$c" '
    $0 == "<!-- options: " name " -->" { on = 1; found = 1; next }
    /^<!-- \/options -->$/ { on = 0 }
    on { print }
    END { if (!found) exit 3 }
  ' "$page" >"$tmp/got"
  case $? in
    0) ;;
    3) echo "FAIL: $page has no '<!-- options: $c -->' block (run scripts/doc-options.sh)"; fail=1; continue ;;
  esac
  if ! diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
    echo "FAIL: $page: the option list differs from $c's option table (run scripts/doc-options.sh):"
    cat "$tmp/diff"; fail=1
  fi
  "$assay" help "$c" >"$tmp/help"
  for opt in $(grep -o '^- `[^`]*`' "$tmp/want" | grep -o -- '--[a-z0-9-]*'); do
    grep -q -- "$opt" "$tmp/help" || grep -q "deprecated spelling" <(grep -- "$opt" "$tmp/want") ||
      { echo "FAIL: $opt of $c is not in 'assay help $c'"; fail=1; }
  done
done
[ "$with_table" -gt 0 ] || { echo "FAIL: no command has an option table"; fail=1; }
[ $fail = 0 ] && echo "ok: $with_table commands checked against their pages"
exit $fail
