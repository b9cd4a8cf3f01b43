#!/usr/bin/env bash
# Installs the Debian packages assay needs, and only those that are missing.
# Idempotent: when everything is present it installs nothing and says so.
#   scripts/deps.sh build   compilers and libraries (make quickstart)
#   scripts/deps.sh check   build + what the test suite needs (make check)
#   scripts/deps.sh GROUP.. further groups: slurm, chromium, otava (numpy and scipy
#                           for bench/detect-compare.sh, which runs an Apache Otava checkout)
set -euo pipefail

# libpq-dev: the store's PostgreSQL backend (src/lib/store/postgres.c).
pkgs_build="gcc make cmake pkg-config libjansson-dev libsqlite3-dev libssl-dev libpcre2-dev
            libpq-dev libopenmpi-dev openmpi-bin"
# hipcc: the compile check of assay-ep's HIP kernels (tests/e2e/ep).
# podman, runc, busybox-static: the container tests (tests/e2e/containers)
# run rootful podman on an image imported from a static busybox.
# postgresql: the server (initdb, pg_ctl) and psql of the tests' fixture pg
# (tests/pg/server.sh), which every NAME@pg test uses.
pkgs_check="$pkgs_build libcmocka-dev clang clang-format libclang-rt-dev libxml2-utils python3 sqlite3 hipcc
            podman runc busybox-static postgresql"
pkgs_check="$pkgs_check groff man-db zsh bash-completion dpkg-dev lintian debootstrap gzip"  # tests/install: man -l, groff -ww, completions, make deb (dpkg-shlibdeps, lintian), the package in a fresh Debian root
# libcurl4-openssl-dev: the notifications' HTTP and SMTP transport (src/lib/notify/http.c).
pkgs_build="$pkgs_build libcurl4-openssl-dev"; pkgs_check="$pkgs_check libcurl4-openssl-dev"
# python3-prometheus-client, prometheus-node-exporter, prometheus-pushgateway: the
# consumers tests/notify/openmetrics.sh feeds `store export --format openmetrics` to.
pkgs_check="$pkgs_check python3-prometheus-client prometheus-node-exporter prometheus-pushgateway"
pkgs_check="$pkgs_check openssh-server openssh-client pdsh"  # the ssh launcher tests run one sshd per loopback node (tests/ssh/nodes.sh); bench/ssh-launch.sh compares with pdsh
pkgs_check="$pkgs_check catatonit"  # podman --init (issue 35): e2e/containers/init-no-log
pkgs_build="$pkgs_build libmicrohttpd-dev"; pkgs_check="$pkgs_check libmicrohttpd-dev"  # assay serve's HTTP transport (src/assay/cmd_serve.c)
pkgs_check="$pkgs_check nginx-light"  # docs/serve.md's reverse proxy, run by tests/serve/proxy.sh
pkgs_slurm="slurm-wlm munge"
pkgs_chromium="chromium"
pkgs_otava="python3 python3-numpy python3-scipy"

want=()
for group in "${@:-build}"; do
  var="pkgs_$group"
  if [ -z "${!var+x}" ]; then
    echo "deps.sh: unknown group '$group' (build, check, slurm, chromium, otava)" >&2
    exit 2
  fi
  for p in ${!var}; do want+=("$p"); done
done

missing=()
for p in "${want[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = installed ] || missing+=("$p")
done
# Deduplicate while keeping order.
if [ ${#missing[@]} -gt 0 ]; then
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | awk '!seen[$0]++')
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#want[@]} packages present (${*:-build})"
  exit 0
fi

sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null; then sudo=sudo; else
    echo "deps: missing packages: ${missing[*]}; run as root or install them" >&2
    exit 5
  fi
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y --no-install-recommends "${missing[@]}" >/tmp/assay-deps.log 2>&1; then
  $sudo apt-get update >>/tmp/assay-deps.log 2>&1 || true
  if ! $sudo apt-get install -y --no-install-recommends "${missing[@]}" >>/tmp/assay-deps.log 2>&1; then
    tail -n 20 /tmp/assay-deps.log >&2
    echo "deps: apt-get failed (log: /tmp/assay-deps.log)" >&2
    exit 5
  fi
fi
echo "deps: installed ${#missing[@]} package(s)"
