#!/usr/bin/env bash
# A store that cannot be opened: connection refused (a closed port), a wrong
# password (in the URL, or in PGPASSWORD), an unknown database. Every
# command exits 5 with the store (without the password), the host, the port
# and libpq's reason, verbatim (the ports read PORT); no password anywhere.
. "$(dirname "$0")/lib.sh" "$@"
shared_server
rows_file rows.ndjson 2 2
# A closed port of 127.0.0.1: none listening, none of the server's.
closed=""
for p in $(seq 1 200); do
  c=$((20000 + (RANDOM % 40000)))
  [ "$c" = "$ASSAY_PG_PORT" ] && continue
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$c") 2>/dev/null; then closed=$c; break; fi
done
[ -n "$closed" ] || fail "no closed port found"
wrong=wrong-$(head -c 4 /dev/urandom | od -An -tx1 | tr -d ' \n')
refused="postgresql://assay_pw:$wrong@127.0.0.1:$closed/somedb"
badpw="postgresql://assay_pw:$wrong@127.0.0.1:$ASSAY_PG_PORT/postgres"
nopw="postgresql://assay_pw@127.0.0.1:$ASSAY_PG_PORT/postgres"
nodb="postgresql://assay@127.0.0.1:$ASSAY_PG_PORT/no_such_db"

# each STORE [ENV...]: every command against STORE; stderr appended to errs.txt.
: >errs.txt
cmds=("store ingest --store @S rows.ndjson" "detect --store @S" "history --store @S --match workload=w0"
  "store series --store @S" "store export --store @S" "store runs --store @S" "report --store @S --out rep last")
each() {
  local store=$1 c argv rc
  shift
  for c in "${cmds[@]}"; do
    read -r -a argv <<<"${c//@S/$store}"
    set +e
    env "$@" "$ASSAY" "${argv[@]}" >out.txt 2>err.txt
    rc=$?
    set -e
    [ "$rc" = 5 ] || { cat err.txt >&2; fail "assay $c (@S: $store) exited $rc, expected 5"; }
    [ -s out.txt ] && fail "assay $c printed on stdout: $(cat out.txt)"
    sed "s/$closed/PORT/g; s/$ASSAY_PG_PORT/PORT/g" err.txt >>errs.txt
  done
}
each "$refused" X=1
each "$badpw" X=1
each "$nopw" PGPASSWORD="$wrong"
each "$nodb" X=1
if grep -F -- "$wrong" errs.txt; then fail "a password is in the messages above"; fi
r='postgresql://assay_pw@127.0.0.1:PORT/somedb: cannot open the store: connection to server at "127.0.0.1", port PORT failed: Connection refused; Is the server running on that host and accepting TCP/IP connections?'
p='postgresql://assay_pw@127.0.0.1:PORT/postgres: cannot open the store: connection to server at "127.0.0.1", port PORT failed: FATAL: password authentication failed for user "assay_pw"'
d='postgresql://assay@127.0.0.1:PORT/no_such_db: cannot open the store: connection to server at "127.0.0.1", port PORT failed: FATAL: database "no_such_db" does not exist'
{
  for i in 1 2 3 4 5 6 7; do echo "$r"; done
  for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do echo "$p"; done
  for i in 1 2 3 4 5 6 7; do echo "$d"; done
} >want.txt
diff -u want.txt errs.txt || fail "the messages differ from the expected ones (diff above)"
# Nothing was created on the server by the failed opens.
expect_eq "$(admin "SELECT count(*) FROM pg_database WHERE datname IN ('no_such_db', 'somedb')")" 0 "databases created"
echo ok
