#!/usr/bin/env bash
# A store in a folder that cannot be written serves every read command:
# detect, history, store series/export/runs/check, annotate --list and
# report. Root ignores folder permissions, so the folder is made read-only
# for real: a read-only bind mount in a private mount namespace (unshare
# -m), else chattr +i, else (not root) chmod. Skipped, saying why, when none
# works. At 53f999a every read command exited 5 ("attempt to write a
# readonly database").
# backends: sqlite (a store file in a read-only folder; PostgreSQL's
# counterpart is a role with SELECT only)
. "$(dirname "$0")/lib.sh" "$@"
mkdir ro out
run_assay 0 store ingest --store ro/s.db "$FIX/rccl_ci-nightly.jsonl"
key=$(q ro/s.db "SELECT key FROM series WHERE precision = 'fp8_e4m3'")
run_assay 0 store annotate --store ro/s.db --series "${key:0:12}" --revision n24 --kind ack --note 'new kernel'
# The reads, run inside the read-only folder's view of the world.
cat >reads.sh <<'READS'
set -eu
A=$1
s=ro/s.db
if touch ro/probe 2>/dev/null; then echo "the folder is writable"; exit 3; fi
$A detect --store $s --match precision=fp8 --format csv >detect.csv
$A history --store $s --match precision=fp8 >history.txt
$A store series --store $s >series.txt
$A store export --store $s --format csv >export.csv
$A store runs --store $s >runs.txt
$A store check --store $s >check.txt
$A store annotate --store $s --list >ann.txt
$A report --store $s --out out last >report.txt
READS
how=
if [ "$(id -u)" = 0 ]; then
  if unshare -m sh -c 'mount --bind ro ro && mount -o remount,bind,ro ro && ! touch ro/probe' 2>/dev/null; then
    how="read-only bind mount"
    set +e
    unshare -m sh -c "mount --bind ro ro && mount -o remount,bind,ro ro && sh reads.sh '$ASSAY'" >reads.out 2>&1
    rc=$?
    set -e
  elif chattr +i ro 2>/dev/null; then
    how="chattr +i"
    CLEANUP="chattr -i '$T/ro'"
    set +e
    sh reads.sh "$ASSAY" >reads.out 2>&1
    rc=$?
    set -e
    chattr -i ro
  else
    echo "SKIP: running as root and neither a read-only bind mount (unshare -m) nor chattr +i works here"
    exit 0
  fi
else
  how="chmod a-w"
  chmod a-w ro
  set +e
  sh reads.sh "$ASSAY" >reads.out 2>&1
  rc=$?
  set -e
  chmod u+w ro
fi
[ "$rc" = 0 ] || { cat reads.out >&2; fail "a read command failed in a read-only folder ($how)"; }
expect_grep ',n24,n23,.*,regression,ack,higher,' detect.csv
expect_grep '^ +24  2026-10-25T02:00:00Z  n24 .*change -4\.[0-9]+% \(regression' history.txt
expect_grep 'precision=fp8_e4m3' series.txt
[ "$(grep -c '' export.csv)" = 61 ] || fail "export: 60 rows and a header expected"
expect_grep 'ok \(schema version 10\)' check.txt
expect_grep 'n24 +ack +new kernel' ann.txt
[ -s out/report.html ] || fail "no report.html"
echo "ok ($how)"
