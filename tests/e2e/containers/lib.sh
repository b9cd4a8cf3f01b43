# Shared by tests/e2e/containers/t-*.sh: everything the run e2e lib has
# (tests/e2e/run/lib.sh), plus rootful podman made to work on this machine
# and a tiny image built here from files already on it. Nothing is pulled.
#   . "$(dirname "$0")/lib.sh" "$@"
# What a VM may need, and what this file does about it:
#  - setrlimit refused inside the VM ("error setting rlimit type 7"): a
#    containers.conf with `default_ulimits = []`, passed as CONTAINERS_CONF;
#  - crun refusing hybrid cgroups (v1 controllers plus a v2 mount): the
#    runc runtime (`--runtime runc`, set in the same containers.conf).
# When podman cannot run a container at all the test skips (exit 77) with
# the reason, and fails instead under ASSAY_REQUIRE_CONTAINERS=1 (.ci/run).
. "$(dirname "${BASH_SOURCE[0]}")/../run/lib.sh" "$1"

IMAGE=localhost/assay-e2e:busybox-2
skip() {
  if [ "${ASSAY_REQUIRE_CONTAINERS:-0}" = 1 ]; then
    fail "containers required (ASSAY_REQUIRE_CONTAINERS=1) but $*"
  fi
  echo "SKIP: $*"
  exit 77
}
[ "$(id -u)" = 0 ] || skip "rootful podman needs root (uid $(id -u))"
command -v podman >/dev/null || skip "podman is not installed (scripts/deps.sh check)"
BUSYBOX=$(command -v busybox || true)
[ -n "$BUSYBOX" ] && case $(ldd "$BUSYBOX" 2>&1 || true) in *"not a dynamic"*) true ;; *) false ;; esac ||
  skip "no static busybox for the test image (busybox-static)"

# containers.conf: only what this machine needs.
conf_try() {
  CONTAINERS_CONF=$T/containers.conf timeout 60 podman run --rm --pull=never "$IMAGE" /bin/true \
    >"$T/podman-try.txt" 2>&1
}
printf '[containers]\n' >"$T/containers.conf"
export CONTAINERS_CONF=$T/containers.conf

# The image: a static busybox with its applets as links, imported once per
# machine (tagged; re-imported when missing).
if ! podman image exists "$IMAGE" 2>/dev/null; then
  root=$T/rootfs
  mkdir -p "$root/bin" "$root/tmp" "$root/proc" "$root/sys" "$root/dev" "$root/etc"
  cp "$BUSYBOX" "$root/bin/busybox"
  for a in $("$root/bin/busybox" --list); do
    [ "$a" = busybox ] || ln -sf busybox "$root/bin/$a"
  done
  echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
  # A merged-/usr host's /lib and /lib64 are links into /usr: the same links
  # here let host programs run from a read-only /usr mount (t-ep-case.sh).
  for d in lib lib64; do
    if [ -L "/$d" ]; then ln -s "$(readlink "/$d")" "$root/$d"; fi
  done
  tar -C "$root" -c . | podman import - "$IMAGE" >"$T/import.txt" 2>&1 ||
    skip "podman import failed: $(tail -n 3 "$T/import.txt" | tr '\n' ' ')"
  rm -rf "$root"
fi
if ! conf_try; then
  if grep -q 'rlimit' "$T/podman-try.txt"; then
    printf 'default_ulimits = []\n' >>"$T/containers.conf"
  fi
  if ! conf_try && grep -qiE 'crun|cgroup' "$T/podman-try.txt" && command -v runc >/dev/null; then
    printf '[engine]\nruntime = "runc"\n' >>"$T/containers.conf"
  fi
  conf_try || skip "podman cannot run a container here: $(tail -n 2 "$T/podman-try.txt" | tr '\n' ' ')"
fi

# containers_of RUN_ID: names of the run's containers, any state.
containers_of() {
  podman ps -a --filter "label=assay.run=$1" --format '{{.Names}}'
}
expect_no_containers() {
  local left
  left=$(containers_of "$1")
  [ -z "$left" ] || fail "containers of run $1 remain: $left"
}
# Remove what a failed test left (the run's label), then the scratch folder.
cleanup_containers() {
  local db r n
  for db in "$T"/*.db; do
    [ -e "$db" ] || continue
    for r in $(sqlite3 -batch -noheader "$db" "SELECT run_id FROM runs" 2>/dev/null || true); do
      for n in $(containers_of "$r"); do podman rm -f "$n" >/dev/null 2>&1 || true; done
    done
  done
  rm -rf "$T"
}
trap cleanup_containers EXIT
