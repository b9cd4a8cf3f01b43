#!/usr/bin/env bash
# The Containerfile built with podman on a Debian 12 root file system made
# here by debootstrap (tests/install/debroot.sh), imported as the base
# image: no registry (--pull=never) and no network (--network=none). The
# image runs assay, assay-ep and the packaged example configs.
#   container.sh SOURCE_DIR BUILD_DIR
. "$(dirname "$0")/debroot.sh" "$@"
command -v podman >/dev/null || skip "podman is not installed (scripts/deps.sh check)"
# This machine's podman: setrlimit refused in a VM, crun refusing hybrid
# cgroups (as tests/e2e/containers/lib.sh finds).
printf '[containers]\n' >"$T/containers.conf"
export CONTAINERS_CONF=$T/containers.conf
key=$(basename "$ROOT_TAR" .tar | sed 's/^debian12-//')
base=localhost/assay-debian12-base:$key
image=localhost/assay-install-test:$$
if ! podman image exists "$base"; then
  say "podman import $ROOT_TAR as $base"
  podman import "$ROOT_TAR" "$base" >"$T/import.log" 2>&1 ||
    skip "podman import failed: $(tail -n 2 "$T/import.log" | tr '\n' ' ')"
fi
try() { timeout 120 podman run --rm --pull=never --network=none "$base" /bin/true >"$T/try.log" 2>&1; }
if ! try; then
  grep -q rlimit "$T/try.log" && printf 'default_ulimits = []\n' >>"$T/containers.conf"
  if ! try && grep -qiE 'crun|cgroup' "$T/try.log" && command -v runc >/dev/null; then
    printf '[engine]\nruntime = "runc"\n' >>"$T/containers.conf"
  fi
  try || skip "podman cannot run a container here: $(tail -n 2 "$T/try.log" | tr '\n' ' ')"
fi
mkdir -p "$T/ctx"
cp "$DEB" "$T/ctx/"
say "podman build -f Containerfile"
if ! podman build --pull=never --network=none --build-arg BASE="$base" -f "$SRC/Containerfile" \
  -t "$image" "$T/ctx" >"$T/build.log" 2>&1; then
  echo "FAIL: podman build:"; tail -n 30 "$T/build.log"; exit 1
fi
trap 'podman rmi -f "$image" >/dev/null 2>&1; rm -rf "$T"' EXIT
fail=0
check() { # check WHAT PATTERN PODMAN-RUN-ARGS...
  local what=$1 pat=$2; shift 2
  out=$(podman run --rm --pull=never --network=none "$@" 2>&1); rc=$?
  if [ $rc != 0 ] || ! grep -qE -- "$pat" <<<"$out"; then
    echo "FAIL: $what (exit $rc):"; echo "$out" | head -20; fail=1
  else echo "ok: $what"; fi
}
check "assay --version" '^assay [0-9]' "$image" --version
check "assay help run" '^usage: assay run' "$image" help run
check "assay matrix on the packaged configs" 'case|shard' --workdir /usr/share/assay "$image" \
  matrix --platforms configs/platforms.json configs/sweep-ep.json
check "assay-ep --help" '^usage: assay-ep' --entrypoint assay-ep "$image" --help
exit $fail
