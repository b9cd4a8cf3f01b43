#!/usr/bin/env bash
# Stops the private Slurm that slurm-up.sh started in DIR: cancels its jobs,
# stops slurmctld, slurmd and munged by their pid files (bounded waits, then
# SIGKILL) and removes DIR (kept when ASSAY_KEEP_SLURM=1, for its logs).
#
#   slurm-down.sh DIR
set -uo pipefail

[ $# -eq 1 ] || { echo "usage: slurm-down.sh DIR" >&2; exit 2; }
dir=$1
[ -d "$dir" ] || exit 0
# Only ever act on a folder slurm-up.sh wrote.
if [ -e "$dir/slurm.conf" ] && ! grep -q '^# Written by tests/e2e/slurm/slurm-up.sh' "$dir/slurm.conf"; then
	echo "slurm-down: $dir/slurm.conf was not written by slurm-up.sh; leaving it alone" >&2
	exit 1
fi

# The pid in FILE when that process is alive and named NAME, else nothing.
live_pid() {
	local pid
	pid=$(cat "$1" 2>/dev/null) || return 1
	[[ "$pid" =~ ^[0-9]+$ ]] || return 1
	[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] || return 1
	echo "$pid"
}

# Wait up to 10 s for the process in FILE to end, then SIGKILL it.
stop() {
	local pid
	pid=$(live_pid "$1" "$2") || return 0
	kill -TERM "$pid" 2>/dev/null
	for _ in $(seq 100); do
		live_pid "$1" "$2" >/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null
}

if [ -e "$dir/slurm.conf" ] && live_pid "$dir/slurmctld.pid" slurmctld >/dev/null; then
	export SLURM_CONF=$dir/slurm.conf
	jobs=$(squeue -h -t all -o %i 2>/dev/null)
	if [ -n "$jobs" ]; then
		# shellcheck disable=SC2086
		scancel $jobs 2>/dev/null
		for _ in $(seq 50); do
			[ -z "$(squeue -h -t running,completing -o %i 2>/dev/null)" ] && break
			sleep 0.2
		done
	fi
	scontrol shutdown >/dev/null 2>&1
fi
stop "$dir/slurmd.pid" slurmd
stop "$dir/slurmctld.pid" slurmctld
stop "$dir/munged.pid" munged

if [ "${ASSAY_KEEP_SLURM:-0}" = 1 ]; then
	echo "slurm-down: stopped; kept $dir"
else
	rm -rf "$dir"
	echo "slurm-down: stopped and removed $dir"
fi
