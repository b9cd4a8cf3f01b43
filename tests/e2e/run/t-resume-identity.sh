#!/usr/bin/env bash
# A resume is identified through the store (issue 14, defect 4): another
# suite is refused with exit 2 naming both digests even when --out points
# elsewhere (so no summary.json is there to compare with), and nothing is
# changed; the same suite resumes through the store with another --out.
. "$(dirname "$0")/lib.sh" "$@"
S=$(store_new s)
cat >work.sh <<'EOF2'
#!/bin/sh
# work.sh CASE_DIR I: case 2 hangs in the first attempt only.
if [ "$2" = 2 ] && [ ! -e hung ]; then touch hung; echo hanging; sleep 1000; fi
printf '{"series":{"workload":"w","i":%s},"metric":"m","statistic":"mean","value":%s,"unit":"s","direction":"lower"}\n' "$2" "$2" > "$1/rows.ndjson"
EOF2
suite() { # suite FILE REVISION
  cat >"$1" <<JSON
{"kind": "command", "name": "ident", "cluster": "e2e", "revision": "$2",
 "combos": {"c1": {"I": 1}, "c2": {"I": 2}, "c3": {"I": 3}},
 "argv": ["sh", "work.sh", "{CASE_DIR}", "{I}"],
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"],
 "launcher": {"type": "local", "grace_s": 1}}
JSON
}
suite a.json r1
suite b.json r2
"$ASSAY" run --store "$S" --out o1 --quiet a.json >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 300); do [ -e hung ] && break; sleep 0.1; done
[ -e hung ] || fail "case 2 did not start"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
digest_a=$(q "$S" "SELECT config_sha256 FROM runs")
expect_eq "${#digest_a}" 64 "stored suite digest length"
# Another suite, another out folder: refused, naming both digests.
run_assay 2 run --store "$S" --out o2 --resume last --quiet b.json
expect_grep "^b.json: run [^ ]+ was made from a different suite \(or configs it reads\): its suite digest is $digest_a, this one's is [0-9a-f]{64}; resume it with the same files$" err.txt
expect_eq "$(q "$S" "SELECT resumed || ':' || coalesce(CAST(exit_code AS TEXT), 'open') FROM runs")" "0:open" "run after a refused resume"
[ ! -e o2 ] || fail "a refused resume wrote o2"
# The same suite with another out folder: found through the store, resumed.
run_assay 0 run --store "$S" --out o2 --resume last --quiet a.json
expect_grep '^3 cases: 3 passed$' out.txt
expect_grep '^c1 +passed .*\(earlier attempt\)' out.txt
expect_eq "$(q "$S" "SELECT count(*) FROM measurements")" 3 "rows"
expect_eq "$(q "$S" "SELECT resumed || ':' || exit_code FROM runs")" "1:0" "run after the resume"
echo ok
