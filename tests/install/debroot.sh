# shellcheck shell=bash
# Shared by tests/install/deb.sh and container.sh: the .deb (built once per
# build folder by scripts/deb.sh) and a fresh Debian 12 root file system
# made locally by debootstrap from Debian's own packages, holding exactly
# the packages the .deb's Depends name (and theirs), cached as a tarball.
#   . tests/install/debroot.sh SOURCE_DIR BUILD_DIR
# Sets SRC, BUILD, T (scratch, removed at exit), DEB, ROOT_TAR; skip() exits 77.
set -u
SRC=$(cd "$1" && pwd) BUILD=$(cd "$2" && pwd)
T=$(mktemp -d /tmp/assay-deb.XXXXXX)
trap 'rm -rf "$T"' EXIT
CACHE=${ASSAY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/assay}
MIRROR=${ASSAY_DEBIAN_MIRROR:-http://deb.debian.org/debian}
skip() {
  if [ "${ASSAY_REQUIRE_PACKAGE_TESTS:-0}" = 1 ]; then echo "FAIL: $*"; exit 1; fi
  echo "SKIP: $*"; exit 77
}
say() { echo "$(date -u +%T) $*"; }
[ "$(id -u)" = 0 ] || skip "debootstrap and chroot need root (uid $(id -u))"
for t in dpkg-deb debootstrap unshare; do
  command -v $t >/dev/null || skip "$t is not installed (scripts/deps.sh check)"
done

# The package: scripts/deb.sh in BUILD/deb (incremental after the first time).
say "building the package (scripts/deb.sh)"
DEB=$("$SRC/scripts/deb.sh" "$BUILD/deb" | tail -n 1) || { echo "FAIL: scripts/deb.sh"; exit 1; }
[ -f "$DEB" ] || { echo "FAIL: no package: $DEB"; exit 1; }
depends=$(dpkg-deb -f "$DEB" Depends)
case $depends in *-dev*) echo "FAIL: Depends names a build-only package: $depends"; exit 1 ;; esac
# "libc6 (>= 2.34), libjansson4 (>= 2.14)" -> "libc6,libjansson4"
include=$(echo "$depends" | sed 's/([^)]*)//g; s/|[^,]*//g; s/ //g')
key=$(echo "bookworm $include" | sha256sum | cut -c1-12)
ROOT_TAR=$CACHE/debian12-$key.tar
if [ ! -s "$ROOT_TAR" ]; then
  say "debootstrap bookworm (minbase + $include) into the cache $ROOT_TAR"
  mkdir -p "$CACHE"
  debootstrap --variant=minbase --include="$include" bookworm "$T/root" "$MIRROR" \
    >"$T/debootstrap.log" 2>&1 ||
    skip "debootstrap from $MIRROR failed: $(tail -n 2 "$T/debootstrap.log" | tr '\n' ' ')"
  rm -rf "$T/root/var/cache/apt/archives/"*.deb
  tar -C "$T/root" -cf "$ROOT_TAR.tmp" . && mv "$ROOT_TAR.tmp" "$ROOT_TAR"
  rm -rf "$T/root"
fi
