#!/usr/bin/env bash
# The layering of docs/architecture.md, checked on the code: every module of
# src/lib includes only its own headers and those of lower layers; each
# program only public headers, its own and src/mpi's (the benchmark
# programs); MPI and CUDA only in the benchmark programs; the library never
# prints or exits. The layers and which public header belongs to which
# module are read from the table between "<!-- layers -->" and
# "<!-- /layers -->" in docs/architecture.md, so the document and this test
# cannot disagree. A library line that must print or exit says why in a
# comment on that line: "layers: allowed (why)". Names each offending
# file:line; exit 1 on any.
#   check-layers.sh SOURCE_DIR
set -u
root=${1:?usage: check-layers.sh SOURCE_DIR}
cd "$root" || exit 2
doc=docs/architecture.md
[ -f "$doc" ] || { echo "$doc: missing"; exit 1; }
files=$(find src include -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) | sort)
libdirs=$(find src/lib -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)
headers=$(find include/assay -name '*.h' -printf '%f\n' | sort)
# shellcheck disable=SC2086
awk -v doc="$doc" -v libdirs="$libdirs" -v headers="$headers" '
function fail(msg) { print msg; bad++ }
function strip(line,    out, i, c, n) {
	# Code only: comments, strings and character literals become blanks.
	out = ""
	n = length(line)
	for (i = 1; i <= n; i++) {
		c = substr(line, i, 1)
		if (incomment) {
			if (c == "*" && substr(line, i + 1, 1) == "/") { incomment = 0; i++ }
			continue
		}
		if (c == "/" && substr(line, i + 1, 1) == "*") { incomment = 1; i++; continue }
		if (c == "/" && substr(line, i + 1, 1) == "/") break
		if (c == "\"" || c == "\047") {
			qc = c
			for (i++; i <= n; i++) {
				c = substr(line, i, 1)
				if (c == "\\") { i++; continue }
				if (c == qc) break
			}
			out = out " "
			continue
		}
		out = out c
	}
	return out
}
BEGIN {
	# The table: | layer | module | headers |
	while ((getline line < doc) > 0) {
		if (line ~ /<!-- layers -->/) { on = 1; continue }
		if (line ~ /<!-- \/layers -->/) break
		if (!on || line !~ /^\| *[0-9]+ *\|/) continue
		n = split(line, col, "|")
		lay = col[2]; gsub(/[ `]/, "", lay)
		mod = col[3]; gsub(/[ `\/]/, "", mod)
		layer[mod] = lay + 0
		nh = split(col[4], hs, /[ ,`]+/)
		for (i = 1; i <= nh; i++)
			if (hs[i] ~ /\.h$/) {
				if (hs[i] in owner)
					fail(doc ": " hs[i] " is listed for both " owner[hs[i]] " and " mod)
				owner[hs[i]] = mod
			}
	}
	if (!on) { fail(doc ": no <!-- layers --> table"); exit }
	split(libdirs, d, "\n")
	for (i in d) if (d[i] != "" && !(d[i] in layer))
		fail("src/lib/" d[i] "/: a module that the layers table of " doc " does not list")
	for (m in layer) {
		found = 0
		for (i in d) if (d[i] == m) found = 1
		if (!found) fail(doc ": the layers table lists " m ", but src/lib/" m "/ does not exist")
	}
	split(headers, h, "\n")
	for (i in h) if (h[i] != "" && !(h[i] in owner))
		fail("include/assay/" h[i] ": a public header that the layers table of " doc " gives no module")
}
FNR == 1 {
	incomment = 0
	path = FILENAME
	prog = ""; mod = ""
	if (path ~ /^src\/lib\//) { split(path, p, "/"); mod = p[3] }
	else if (path ~ /^include\/assay\//) { split(path, p, "/"); mod = owner[p[3]] }
	else if (path ~ /^src\//) { split(path, p, "/"); prog = p[2] }
	dir = path; sub(/\/[^\/]*$/, "", dir)
}
/^[ \t]*#[ \t]*include/ {
	inc = $0
	if (match(inc, /<[^>]*>/)) {
		sys = substr(inc, RSTART + 1, RLENGTH - 2)
		if ((sys ~ /^(mpi\.h|nccl\.h|rccl|cuda|hip\/)/) && prog !~ /^(assay-ep|assay-coll|mpi)$/)
			fail(path ":" FNR ": includes <" sys ">: only the benchmark programs (src/assay-ep, src/assay-coll, src/mpi) use MPI, CUDA or HIP")
		next
	}
	if (!match(inc, /"[^"]*"/)) next
	name = substr(inc, RSTART + 1, RLENGTH - 2)
	if (name ~ /^assay\//) {
		hn = substr(name, 7)
		tm = owner[hn]
		if (tm == "") { fail(path ":" FNR ": includes " name ", which no module of the layers table owns"); next }
	} else if (name ~ /\//) {
		split(name, q, "/"); tm = q[1]
		if (!(tm in layer)) tm = ""
	} else tm = ""
	if (mod != "") {
		if (tm == "" || tm == mod) next
		if (layer[tm] >= layer[mod])
			fail(path ":" FNR ": " mod " (layer " layer[mod] ") includes " name " of " tm " (layer " layer[tm] "): a module includes only its own headers and those of lower layers (" doc ", Layers)")
		next
	}
	if (prog != "") {
		if (name ~ /^assay\//) next
		if (tm != "") { fail(path ":" FNR ": the program " prog " includes " name ", an internal header of src/lib/" tm ": programs use the public headers (include/assay/)"); next }
		if ((getline junk < (dir "/" name)) >= 0) { close(dir "/" name); next }
		if (prog ~ /^(assay-ep|assay-coll)$/ && (getline junk < ("src/mpi/" name)) >= 0) { close("src/mpi/" name); next }
		# src/cli: the option-table engine every program shares.
		if ((getline junk < ("src/cli/" name)) >= 0) { close("src/cli/" name); next }
		fail(path ":" FNR ": the program " prog " includes " name ", which is neither its own nor a public header (" doc ", Layout)")
	}
	next
}
mod != "" && path ~ /^src\/lib\// {
	code = strip($0)
	# A line may say why it is the exception: "layers: allowed (why)".
	if ($0 ~ /layers: allowed \(/)
		next
	if (code ~ /(^|[^A-Za-z0-9_])(printf|puts|putchar|perror|exit)[ \t]*\(/ || code ~ /(^|[^A-Za-z0-9_])(stdout|stderr|STDOUT_FILENO|STDERR_FILENO)([^A-Za-z0-9_]|$)/ || code ~ /(^|[^A-Za-z0-9_])write[ \t]*\([ \t]*[12][ \t]*,/)
		fail(path ":" FNR ": the library never prints or exits (returns an assay_error; the program prints): " $0)
}
END { if (bad) { print bad " layering problem(s)"; exit 1 } }
' $files
rc=$?
[ $rc -eq 0 ] && echo "$(echo "$files" | wc -l) files within the layers of $doc"
exit $rc
