#!/usr/bin/env bash
# Files and functions small enough to hold in mind: no file in src/ over
# 1,000 lines and no function over 80. A function counts from the first line
# of its definition (the last line at column 0 before the lone "{" that the
# .clang-format's Linux braces put there) to its closing "}" at column 0.
# Names each offender; exit 1 on any.
#   check-size.sh SOURCE_DIR [MAX_FILE_LINES [MAX_FUNCTION_LINES]]
set -u
root=${1:?usage: check-size.sh SOURCE_DIR [MAX_FILE_LINES [MAX_FUNCTION_LINES]]}
max_file=${2:-1000}
max_fn=${3:-80}
cd "$root" || exit 2
files=$(find src -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) | sort)
# shellcheck disable=SC2086
awk -v max_file="$max_file" -v max_fn="$max_fn" '
function report_file() {
	if (FILENAME_PREV != "" && lines > max_file) {
		print FILENAME_PREV ": " lines " lines (at most " max_file " in src/: split it by concern)"
		bad++
	}
}
FNR == 1 { report_file(); FILENAME_PREV = FILENAME; lines = 0; start = 0; inbody = 0 }
{ lines = FNR }
!inbody && $0 == "{" {
	if (!start) {
		print FILENAME ":" FNR ": a lone \"{\" with no definition line before it: cannot measure the function (is the file formatted?)"
		bad++
	}
	inbody = 1
	next
}
!inbody {
	if ($0 ~ /^[A-Za-z_]/ && $0 !~ /^(typedef|struct|enum|union)[^(]*$/) {
		start = FNR
		hdr = $0
	} else if ($0 ~ /^$/ || $0 ~ /^[#}\/]/) {
		start = 0
	}
	next
}
/^}/ {
	inbody = 0
	n = FNR - start + 1
	if (n > max_fn) {
		name = hdr
		gsub(/__attribute__\(\([^)]*\)\)\)? */, "", name)
		sub(/\(.*/, "", name)
		sub(/.*[ *]/, "", name)
		print FILENAME ":" start ": " name "() is " n " lines (at most " max_fn ": split it by concern)"
		bad++
	}
	start = 0
}
END {
	report_file()
	if (bad) { print bad " too long"; exit 1 }
}
' $files
rc=$?
[ $rc -eq 0 ] && echo "$(echo "$files" | wc -l) files in src/: none over $max_file lines, no function over $max_fn"
exit $rc
