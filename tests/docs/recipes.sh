#!/usr/bin/env bash
# The recipes of docs/development.md ("Adding things") hold for every entry
# of every registry: a step skipped for one command, input format or error
# signature fails this test and names the missing piece. (Lint rules have
# their own check, tests/lint/check-coverage.sh; options, tests/docs/options.sh.)
#   ASSAY_SOURCE_DIR=... ASSAY_BIN=... recipes.sh REGISTRY
set -u
registry=$1
cd "${ASSAY_SOURCE_DIR:?}" || exit 1
assay=${ASSAY_BIN:?}
fail=0
miss() {
  echo "$1: $2"
  fail=1
}
entries=$("$registry") || { echo "the registry program failed"; exit 1; }

# A command: its file, its page, golden tests, a line in the README tour and
# in `assay help`'s list (where the names come from).
commands=$("$assay" help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
[ -n "$commands" ] || miss "assay help" "no command listed"
for c in $commands; do
  [ -f "src/assay/cmd_$c.c" ] || miss "command $c" "no src/assay/cmd_$c.c"
  [ -f "docs/$c.md" ] || miss "command $c" "no docs/$c.md"
  compgen -G "tests/cli/$c/*.t" >/dev/null || miss "command $c" "no golden test tests/cli/$c/*.t"
  grep -q "assay $c\b" README.md || miss "command $c" "not in README.md's tour (no 'assay $c')"
done

# An input format: a row of the format table (where the names come from) and
# a fuzz target tests/fuzz/fuzz_<name>.c (dashes become underscores); its
# row in docs/ingest.md and its name in the help: tests/docs/formats.sh.
for f in $(awk '$1 == "format" { print $2 }' <<<"$entries"); do
  [ -f "tests/fuzz/fuzz_${f//-/_}.c" ] || miss "format $f" "no fuzz target tests/fuzz/fuzz_${f//-/_}.c"
done

# An error signature: a row of docs/suite.md's table with its family; every
# family is named there too.
while read -r _ fam name; do
  grep -q "^| \`$fam\` | \`$name\` |" docs/suite.md ||
    miss "signature $name" "no '| \`$fam\` | \`$name\` |' row in docs/suite.md"
done < <(awk '$1 == "signature"' <<<"$entries")
for fam in $(awk '$1 == "family" { print $2 }' <<<"$entries"); do
  grep -q "\`$fam\`" docs/suite.md || miss "signature family $fam" "not named in docs/suite.md"
done
# A suite key (every kind's key list in src/lib/suite/suite.c, e.g.
# "expect"): a row of one of docs/suite.md's key tables names it in its
# first cell.
for k in $(awk '$1 == "suitekey" { print $2 ":" $3 }' <<<"$entries"); do
  grep -Eq "^\| [^|]*\`${k#*:}\`[^|]*\|" docs/suite.md ||
    miss "suite key ${k#*:} (kind ${k%%:*})" "no row naming \`${k#*:}\` in docs/suite.md's key tables"
done
[ "$fail" = 0 ] && echo "ok: $(wc -w <<<"$commands") commands, $(grep -c '^format' <<<"$entries") formats, $(grep -c '^signature' <<<"$entries") signatures"
exit $fail
