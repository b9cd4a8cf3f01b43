#!/usr/bin/env bash
# Eight writers ingest overlapping files into one store at once: every file
# holds a chunk common to all, its own chunk and its neighbour's (so each
# pair of files shares rows: same run_id, revision and timestamp). Writers
# 0-3 start; the one seen in its COPY is killed (-9); while another is in
# its COPY the server restarts; writers 4-7 start after it, and the one seen
# in its COPY is killed too. Each writer ends 0, 5 (the restart) or 137
# (killed); the failed ones run again; then all eight once more, adding
# nothing. At the end the store holds every row of the files exactly once:
# as many measurements as distinct identities in the files, none twice.
# The test restarts its server: it runs on a server of its own.
. "$(dirname "$0")/lib.sh" "$@"
own_server
S=$(store_new w)
db=$(db_of "$S")
series=40
# Chunk c: points [200 c, 200 c + 200) of $series series (8,000 rows);
# chunk 8 is the common one.
for c in $(seq 0 8); do rows_file "chunk$c.ndjson" "$series" 200 $((200 * c)); done
for i in $(seq 0 7); do
  cat chunk8.ndjson "chunk$i.ndjson" "chunk$(((i + 1) % 8)).ndjson" >"f$i.ndjson"
done
rm chunk*.ndjson
want=$(python3 -c '
import json, sys
ids = set()
for i in range(8):
    for l in open("f%d.ndjson" % i):
        r = json.loads(l)
        ids.add((json.dumps(r["series"], sort_keys=True), r["metric"], r["statistic"], r["run_id"], r["revision"], r["timestamp"]))
print(len(ids))')
expect_eq "$want" 72000 "distinct identities in the files"

declare -A pid rc
start() { # I: writer I in the background, application_name wI
  "$ASSAY" store ingest --store "$S?application_name=w$1" "f$1.ndjson" >"out$1.txt" 2>"err$1.txt" &
  pid[$1]=$!
  PIDS="$PIDS $!"
}
# copying: the writer (its number) whose COPY the server shows, if any.
copying() {
  admin "SELECT substr(application_name, 2) FROM pg_stat_activity WHERE datname = '$db'
         AND application_name LIKE 'w%' AND query LIKE 'COPY%' AND state = 'active' LIMIT 1"
}
# wait_copy [EXCEPT]: wait for a writer (not EXCEPT) in its COPY; prints it.
# Fails when every writer has ended first.
wait_copy() {
  local w alive p
  while :; do
    w=$(copying)
    if [ -n "$w" ] && [ "$w" != "${1:-}" ]; then echo "$w"; return 0; fi
    alive=0
    for p in "${pid[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ "$alive" = 1 ] || return 1
    sleep 0.05
  done
}
collect() { # I: wait for writer I, keep its exit status
  set +e
  wait "${pid[$1]}"
  rc[$1]=$?
  set -e
}
for i in 0 1 2 3; do start "$i"; done
k1=$(wait_copy) || fail "no writer of 0-3 was seen in its COPY"
kill -KILL "${pid[$k1]}"
k2=$(wait_copy "$k1") || fail "no second writer was seen in its COPY"
restart_server
for i in 0 1 2 3; do collect "$i"; done
for i in 4 5 6 7; do start "$i"; done
k3=$(wait_copy) || fail "no writer of 4-7 was seen in its COPY"
kill -KILL "${pid[$k3]}"
for i in 4 5 6 7; do collect "$i"; done
PIDS=""
echo "killed $k1 and $k3; $k2 was in its COPY at the restart"
again=""
for i in $(seq 0 7); do
  case ${rc[$i]} in
  0) expect_grep "^f$i\.ndjson: rows, [0-9]+ new, [0-9]+ already present" "out$i.txt" ;;
  5) grep -qF "postgresql://assay@127.0.0.1:$ASSAY_PG_PORT/$db" "err$i.txt" || fail "writer $i: no store in: $(cat "err$i.txt")"
     again="$again $i" ;;
  137) again="$again $i" ;;
  *) cat "err$i.txt" >&2; fail "writer $i exited ${rc[$i]} (0, 5 or 137 expected)" ;;
  esac
done
expect_eq "${rc[$k1]}:${rc[$k2]}:${rc[$k3]}" "137:5:137" "the killed writers and the one in its COPY at the restart"
# A reader sees whole ingests only: each stored run has all its file's rows.
expect_eq "$(q "$S" "SELECT count(*) FROM ingests i WHERE i.rows <> (SELECT count(*) FROM measurements m WHERE m.run = i.run)
                     AND i.rows <> 24000")" 0 "ingests with part of their rows"
for i in $again; do
  run_assay 0 store ingest --store "$S" "f$i.ndjson"
  expect_grep "^f$i\.ndjson: rows, [0-9]+ new, [0-9]+ already present" out.txt
done
for i in $(seq 0 7); do
  run_assay 0 store ingest --store "$S" "f$i.ndjson"
  expect_grep "^f$i\.ndjson: rows, 0 new, 24000 already present$" out.txt
done
expect_eq "$(q "$S" "SELECT count(*) FROM measurements")" "$want" "measurements (distinct identities in the files)"
dups=$(q "$S" "SELECT s.key, m.run_id, m.revision, m.timestamp, count(*) FROM measurements m JOIN series s ON s.id = m.series
               GROUP BY s.key, m.run_id, m.revision, m.case_id, m.timestamp HAVING count(*) > 1 LIMIT 5")
[ -z "$dups" ] || fail "identities stored more than once: $dups"
expect_eq "$(q "$S" "SELECT count(*) FROM series")" "$series" "series"
echo ok
