#!/usr/bin/env bash
# The style checks can fail: each is run on a copy of the tree with one
# defect planted and must exit 1 naming it.
#   plant.sh SOURCE_DIR layers|size
set -u
src=${1:?usage: plant.sh SOURCE_DIR layers|size}
what=${2:?usage: plant.sh SOURCE_DIR layers|size}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
expect() { # expect CHECKER PATTERN...
	local out rc
	out=$("$here/$1" "$tmp" 2>&1)
	rc=$?
	shift
	if [ $rc -ne 1 ]; then
		echo "FAIL: expected exit 1 with a planted defect, got $rc:"
		echo "$out"
		exit 1
	fi
	for pat in "$@"; do
		if ! grep -qF -- "$pat" <<<"$out"; then
			echo "FAIL: the planted defect is not named ('$pat'):"
			echo "$out"
			exit 1
		fi
	done
	echo "$out"
	echo "ok: the planted defect is named"
}
case $what in
layers)
	cp -r "$src/src" "$src/include" "$tmp/" && mkdir "$tmp/docs" && cp "$src/docs/architecture.md" "$tmp/docs/" || exit 2
	"$here/check-layers.sh" "$tmp" >/dev/null || { echo "FAIL: the unplanted copy does not pass"; exit 1; }
	# An upward include: util (layer 0) including the run module (the top).
	sed -i '0,/^#include/s//#include "assay\/run.h"\n#include/' "$tmp/src/lib/util/alloc.c"
	expect check-layers.sh "src/lib/util/alloc.c:" "util (layer 0) includes assay/run.h of run (layer 8)"
	;;
size)
	mkdir -p "$tmp/src/lib/m" || exit 2
	{
		echo "/* planted */"
		echo "static int long_one(int x)"
		echo "{"
		for i in $(seq 1 78); do echo "	x += $i;"; done
		echo "}"
		for i in $(seq 1 1000); do echo "/* $i */"; done
	} >"$tmp/src/lib/m/planted.c"
	expect check-size.sh "src/lib/m/planted.c:2: long_one() is 81 lines" "src/lib/m/planted.c: 1082 lines"
	;;
*) echo "plant.sh: unknown check '$what'"; exit 2 ;;
esac
