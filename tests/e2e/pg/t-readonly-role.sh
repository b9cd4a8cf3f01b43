#!/usr/bin/env bash
# A role with SELECT only (assay_ro) reads a store that assay wrote: store
# series/export/runs/ingests/check, detect, history, report and publish
# print what the writing role's runs print (the store's name aside). Every
# write (store ingest, annotate, forget, copy into it, run) exits 5 with a
# message that says the role may only read, and writes nothing: the
# tables' row counts are as before.
. "$(dirname "$0")/lib.sh" "$@"
shared_server
W=$(store_new ro)
R=${W/assay@/assay_ro@}
[ "$R" != "$W" ] || fail "cannot make the read-only URL from $W"
run_assay 0 store ingest --store "$W" "$FIX/rccl_ci-nightly.jsonl"
cat >suite.json <<'JSON'
{"kind": "command", "name": "ro", "cluster": "e2e", "revision": "r1",
 "combos": {"a": {"V": 1}, "b": {"V": 2}},
 "argv": ["sh", "-c", "printf '{\"series\":{\"workload\":\"w\",\"v\":%s},\"metric\":\"m\",\"statistic\":\"mean\",\"value\":%s.5,\"unit\":\"s\",\"direction\":\"lower\"}\\n' {V} {V} > {CASE_DIR}/rows.ndjson"],
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"]}
JSON
for i in 1 2 3; do run_assay 0 run --store "$W" --out out --quiet --no-report suite.json; done
key=$(q "$W" "SELECT key FROM series WHERE precision = 'fp8_e4m3'")
run_assay 0 store annotate --store "$W" --series "${key:0:12}" --revision n24 --kind ack --note 'new kernel'

counts() {
  q "$W" "SELECT (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM cases) || ' ' ||
                 (SELECT count(*) FROM measurements) || ' ' || (SELECT count(*) FROM series) || ' ' ||
                 (SELECT count(*) FROM annotations) || ' ' || (SELECT count(*) FROM ingests)"
}
before=$(counts)
# reads AS STORE: every read command, its output in AS/ with the store's
# name as STORE; report and publish write into AS-files/, named D/.
reads() {
  local as=$1 s=$2 i=0 c argv
  mkdir "$as"
  while IFS= read -r c; do
    i=$((i + 1))
    read -r -a argv <<<"${c//@S/$s}"
    argv=("${argv[@]//@D/$as-files}")
    run_assay 0 "${argv[@]}"
    sed "s#$s#STORE#g; s#$as-files/#D/#g" out.txt >"$as/$i.out"
    sed "s#$s#STORE#g; s#$as-files/#D/#g" err.txt >"$as/$i.err"
  done <<'CMDS'
store series --store @S
store export --store @S --format csv
store runs --store @S
store ingests --store @S
store check --store @S
store annotate --store @S --list
detect --store @S --format csv
detect --store @S --regressions-only
history --store @S --match precision=fp8
report --store @S --out @D/rep last
publish --store @S --suite ro --last 3 --revision r1 --out @D/pub
CMDS
}
reads rw "$W"
reads ro "$R"
diff -r rw ro >reads.diff || { cat reads.diff >&2; fail "a read as assay_ro differs from the same read as assay"; }
expect_grep ',n24,n23,.*,regression,ack,higher,' rw/7.out
[ -s ro-files/rep/report.html ] || fail "no report.html as assay_ro"
[ -s ro-files/pub/rows.ndjson ] || fail "no published rows as assay_ro"

# Writes: refused, saying why, nothing written.
writes() {
  local c argv rc
  while IFS= read -r c; do
    read -r -a argv <<<"${c//@S/$R}"
    set +e
    "$ASSAY" "${argv[@]}" >out.txt 2>err.txt
    rc=$?
    set -e
    [ "$rc" = 5 ] || { cat out.txt err.txt >&2; fail "assay $c as assay_ro exited $rc, expected 5"; }
    grep -q 'this role may only read the store' err.txt || { cat err.txt >&2; fail "assay $c as assay_ro: no message that the role may only read"; }
    expect_eq "$(counts)" "$before" "rows after assay $c as assay_ro"
  done
}
run_assay 0 store copy "$W" copy.db
writes <<CMDS
store ingest --store @S $FIX/rccl_ci-nightly-more.jsonl
store annotate --store @S --series ${key:0:12} --revision n25 --kind ack --note x
store forget --store @S 1
store copy copy.db @S
run --store @S --out out2 --quiet suite.json
CMDS
[ ! -e out2 ] || [ -z "$(ls -A out2)" ] || echo "note: assay run as assay_ro left $(ls out2) in its output folder" >&2
echo ok
