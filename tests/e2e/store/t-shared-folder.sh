#!/usr/bin/env bash
# A store in a folder every user may write (0777 or 1777), owned by one user
# (0644): another user's reads must leave nothing that blocks the owner. At
# 8b835ec a reader's `assay history` left -wal/-shm files it owned, and the
# owner's next `store ingest` failed with "attempt to write a readonly
# database" (exit 5). Needs root, to run the reader as a second user
# (assaytest, made with useradd -M when missing): skipped otherwise.
. "$(dirname "$0")/lib.sh" "$@"
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: needs root to run a reader as a second user"
  exit 0
fi
if ! id assaytest >/dev/null 2>&1 && ! useradd -M assaytest 2>/dev/null; then
  echo "SKIP: no user assaytest and useradd failed"
  exit 0
fi
as_reader() { setpriv --reuid=assaytest --regid=assaytest --clear-groups -- "$@"; }
chmod 755 "$T"
for mode in 1777 0777; do
  d=$T/shared-$mode
  mkdir "$d"
  chmod "$mode" "$d"
  # The owner (root here) ingests; the file stays 0644, root's.
  run_assay 0 store ingest --store "$d/s.db" "$FIX/rccl_ci-history.jsonl"
  chmod 0644 "$d/s.db"
  # Another user reads, several ways.
  for args in "history --match precision=bf16" "detect" "store series" "store ingests"; do
    # shellcheck disable=SC2086
    as_reader "$ASSAY" $args --store "$d/s.db" >"$T/read.txt" 2>&1 ||
      { cat "$T/read.txt" >&2; fail "$mode: the reader's assay $args failed"; }
  done
  left=$(find "$d" -mindepth 1 ! -user root -printf '%f ')
  expect_eq "$left" "" "$mode: files the reader left"
  # The owner writes again.
  run_assay 0 store ingest --store "$d/s.db" "$FIX/rccl_ci-nightly.jsonl"
  run_assay 0 store check --store "$d/s.db"
  # The reader sees the owner's latest commit.
  as_reader "$ASSAY" store ingests --store "$d/s.db" --format csv >"$T/read.txt"
  expect_eq "$(wc -l <"$T/read.txt")" "3" "$mode: ingests the reader sees"
done
# A writer killed in the middle of a commit (here sqlite3, its cache spilt)
# leaves a hot journal: another user's reader cannot roll it back and says
# so (exit 5); the owner's next read rolls it back; then all read again.
d=$T/shared-1777
sqlite3 "$d/s.db" "PRAGMA cache_size = 10; BEGIN; UPDATE measurements SET value = value + 1;
  CREATE TABLE junk AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000)
  SELECT randomblob(1000) AS b FROM c;
  WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000000) SELECT count(*) FROM c;" \
  >/dev/null 2>&1 &
writer=$!
for _ in $(seq 100); do
  [ "$(stat -c %s "$d/s.db" 2>/dev/null)" -gt 10000000 ] && break
  sleep 0.2
done
kill -9 "$writer"
wait "$writer" 2>/dev/null || true
[ -s "$d/s.db-journal" ] || fail "no journal left by the killed writer"
set +e
as_reader "$ASSAY" store series --store "$d/s.db" >"$T/read.txt" 2>&1
rc=$?
set -e
expect_eq "$rc" 5 "a reader's exit with a hot journal"
expect_grep 'a writer stopped in the middle of a commit .* its owner should open it once' "$T/read.txt"
run_assay 0 store series --store "$d/s.db"
[ ! -e "$d/s.db-journal" ] || fail "the owner's read left the journal"
as_reader "$ASSAY" store series --store "$d/s.db" >"$T/read.txt"
expect_grep '^b7bca5ca73da +70 +1421.5 ' "$T/read.txt"
echo "ok: readers in shared folders leave nothing behind"
