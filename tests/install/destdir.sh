#!/usr/bin/env bash
# `cmake --install` into a DESTDIR, then the installed programs run from
# there with the source and build trees gone: a mount namespace lays an
# empty tmpfs over the source tree (the build folder is inside it, or is
# hidden too). They find their files relative to their own prefix (assay
# --help names PREFIX/share/assay/configs; assay run finds assay-ep next to
# itself), the example configs run from a copy, the man pages render and
# the completion loads.
#   destdir.sh SOURCE_DIR BUILD_DIR
set -u
src=$(cd "$1" && pwd) build=$(cd "$2" && pwd)
tmp=$(mktemp -d /tmp/assay-destdir.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root prefix=/opt/assay-test
DESTDIR=$root cmake --install "$build" --prefix $prefix >"$tmp/install.log" ||
  { cat "$tmp/install.log"; echo "FAIL: cmake --install"; exit 1; }
if ! unshare -m true 2>/dev/null; then
  echo "SKIP: no mount namespace here (unshare -m): the source tree cannot be hidden"
  exit 77
fi
cat >"$tmp/inside.sh" <<'SH'
set -u
src=$1 build=$2 p=$3 work=$4
mount -t tmpfs none "$src" || exit 1
case $build in "$src"/*) ;; *) mount -t tmpfs none "$build" ;; esac
[ -z "$(ls -A "$src")" ] || { echo "FAIL: the source tree is still there"; exit 1; }
export ASAN_OPTIONS=detect_leaks=0 MANWIDTH=80 LC_ALL=C.UTF-8 PATH=$p/bin:/usr/bin:/bin
fail=0
check() { # check WHAT PATTERN COMMAND...
  local what=$1 pat=$2; shift 2
  out=$("$@" 2>&1); rc=$?
  if [ $rc != 0 ] || ! grep -qE -- "$pat" <<<"$out"; then
    echo "FAIL: $what (exit $rc):"; echo "$out" | head -20; fail=1
  else echo "ok: $what"; fi
}
cd "$work" || exit 1
check "assay --version" '^assay [0-9]' assay --version
check "assay --help names the installed configs" "Example configs: $p/share/assay/configs " assay --help
check "assay help run" '^usage: assay run' assay help run
cp -r "$p/share/assay/configs" .
check "assay matrix on the installed registry" 'case|shard' \
  assay matrix --platforms configs/platforms.json configs/sweep-ep.json
check "assay run --dry-run finds assay-ep next to itself" "$p/bin/assay-ep" \
  assay run --dry-run configs/quickstart.json
if [ -x "$p/bin/assay-ep" ]; then
  check "assay-ep --help" '^usage: assay-ep' assay-ep --help
  check "assay-coll --help" '^usage: mpirun -np N assay-coll' assay-coll --help
fi
n=0
for f in "$p"/share/man/man[15]/*; do
  w=$(man --warnings=w -l "$f" 2>&1 >/dev/null)
  [ -z "$w" ] || { echo "FAIL: man -l $f: $w"; fail=1; }
  n=$((n + 1))
done
[ $n -ge 5 ] && echo "ok: $n installed man pages render" || { echo "FAIL: $n man pages"; fail=1; }
[ -f "$p/share/doc/assay/README.md" ] && [ -f "$p/share/doc/assay/run.md" ] ||
  { echo "FAIL: docs not in share/doc/assay"; fail=1; }
got=$(bash -c 'source "$1"; COMP_WORDS=(assay ma); COMP_CWORD=1; _assay; echo "${COMPREPLY[*]}"' _ \
  "$p/share/bash-completion/completions/assay")
[ "$got" = "manifest matrix" ] && echo "ok: installed bash completion" ||
  { echo "FAIL: installed bash completion: '$got'"; fail=1; }
ls "$p"/share/zsh/*/_assay >/dev/null || { echo "FAIL: no zsh completion"; fail=1; }
exit $fail
SH
mkdir -p "$tmp/work"
unshare -m bash "$tmp/inside.sh" "$src" "$build" "$root$prefix" "$tmp/work"
