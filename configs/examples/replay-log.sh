#!/usr/bin/env bash
# Replays a training log as if a workload were printing it: the file's lines
# on standard output, one by one, with an optional delay between lines, and
# exit status 0 (or the status given). A stand-in workload for command
# suites and their tests.
#   usage: replay-log.sh [--delay SECONDS] [--exit CODE] LOG
set -euo pipefail
delay=0
code=0
while [ $# -gt 1 ]; do
  case "$1" in
    --delay) delay=$2; shift 2 ;;
    --exit) code=$2; shift 2 ;;
    *) break ;;
  esac
done
if [ $# -ne 1 ] || [ ! -r "$1" ]; then
  echo "usage: replay-log.sh [--delay SECONDS] [--exit CODE] LOG" >&2
  exit 2
fi
while IFS= read -r line || [ -n "$line" ]; do
  printf '%s\n' "$line"
  if [ "$delay" != 0 ]; then sleep "$delay"; fi
done <"$1"
exit "$code"
