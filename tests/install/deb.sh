#!/usr/bin/env bash
# make deb's package installed with dpkg -i into a fresh Debian 12 root
# (debootstrap, tests/install/debroot.sh) that holds only what its Depends
# name: the installed programs run there, from /usr, with the example
# configs the package ships.
#   deb.sh SOURCE_DIR BUILD_DIR
. "$(dirname "$0")/debroot.sh" "$@"
# libcrypto is loaded with dlopen: its package must be named by hand.
dpkg-deb -f "$DEB" Depends | grep -q 'libssl3' ||
  { echo "FAIL: Depends lacks libssl3 (libcrypto.so.3, loaded with dlopen): $(dpkg-deb -f "$DEB" Depends)"; exit 1; }
root=$T/root
mkdir -p "$root"
tar -C "$root" -xf "$ROOT_TAR"
cp "$DEB" "$root/tmp/assay.deb"
cat >"$root/tmp/inside.sh" <<'SH'
set -u
export PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8
fail=0
check() { # check WHAT PATTERN COMMAND...
  local what=$1 pat=$2; shift 2
  out=$("$@" 2>&1); rc=$?
  if [ $rc != 0 ] || ! grep -qE -- "$pat" <<<"$out"; then
    echo "FAIL: $what (exit $rc):"; echo "$out" | head -20; fail=1
  else echo "ok: $what"; fi
}
check "dpkg -i assay.deb" "Setting up assay" dpkg -i /tmp/assay.deb
check "assay --version" '^assay [0-9]' assay --version
check "assay help run" '^usage: assay run' assay help run
mkdir -p /tmp/w && cd /tmp/w && cp -r /usr/share/assay/configs .
check "assay matrix on the packaged configs" 'case|shard' \
  assay matrix --platforms configs/platforms.json configs/sweep-ep.json
check "assay-ep --help" '^usage: assay-ep' assay-ep --help
check "assay-coll --help" '^usage: mpirun -np N assay-coll' assay-coll --help
check "man pages installed" 'assay-run.1.gz' ls /usr/share/man/man1
check "copyright" 'Upstream-Name: assay' cat /usr/share/doc/assay/copyright
exit $fail
SH
unshare -m bash -c 'mount -t proc proc "$1/proc" && chroot "$1" bash /tmp/inside.sh' _ "$root"
