#!/usr/bin/env bash
# Builds the Debian package (make deb): a Release build for /usr with
# Debian's hardening flags (dpkg-buildflags), the man pages gzip-compressed
# and zsh completion where Debian's zsh looks, then CPack's DEB generator
# (cmake/package.cmake) and lintian. The GPU backends are left out: CUDA and
# NCCL are not Debian packages the package could depend on (docs/install.md).
#   scripts/deb.sh [BUILD_DIR]   (default build/deb); prints the .deb's path
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/deb}
jobs=$(nproc 2>/dev/null || echo 2)
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
cflags=$(dpkg-buildflags --get CFLAGS) ldflags=$(dpkg-buildflags --get LDFLAGS)
cppflags=$(dpkg-buildflags --get CPPFLAGS)
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DASSAY_TESTS=OFF -DASSAY_NCCL=OFF \
  -DASSAY_RCCL=OFF -DCMAKE_INSTALL_PREFIX=/usr -DASSAY_GZIP_MAN=ON -DASSAY_DEB=ON \
  -DASSAY_ZSH_COMPLETION_DIR=share/zsh/vendor-completions \
  "-DCMAKE_C_FLAGS=$cflags $cppflags" "-DCMAKE_EXE_LINKER_FLAGS=$ldflags" >"$dir.log" 2>&1 ||
  { cat "$dir.log"; exit 1; }
cmake --build "$dir" -j "$jobs" >>"$dir.log" 2>&1 || { tail -n 30 "$dir.log"; exit 1; }
rm -f "$dir"/package/assay_*.deb
(cd "$dir" && cpack -G DEB >>cpack.log 2>&1) || { tail -n 30 "$dir/cpack.log"; exit 1; }
deb=$(ls "$dir"/package/assay_*.deb)
if command -v lintian >/dev/null; then
  # Debian's archive rejects a package on lintian errors; warnings are shown.
  lintian --fail-on error "$deb" || { echo "deb: lintian reports errors for $deb" >&2; exit 1; }
else
  echo "deb: lintian is not installed (scripts/deps.sh check): not checked" >&2
fi
echo "$deb"
