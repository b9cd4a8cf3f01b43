#!/usr/bin/env bash
# A password in a --store that cannot be parsed, or that is not taken for a
# connection string, is still never printed: a malformed URL (libpq's parse
# error quotes the whole string) exits 2, and a libpq keyword/value string
# (host=... password=...) is either opened or refused without its password.
# Fails at e9f4fd2: both messages print the password (see the report of
# issue 32's fault tests).
. "$(dirname "$0")/lib.sh" "$@"
shared_server
pw=canary-$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')
leaks=""
try() { # EXPECTED_EXITS STORE (exits: a pattern, 2|5)
  set +e
  "$ASSAY" store series --store "$2" >out.txt 2>err.txt
  local rc=$?
  set -e
  if grep -qF -- "$pw" out.txt err.txt; then
    leaks="$leaks
--store '$2' exited $rc and printed: $(cat out.txt err.txt)"
  fi
  [[ "|$1|" == *"|$rc|"* ]] || leaks="$leaks
--store '$2' exited $rc, expected $1: $(cat err.txt)"
}
try 2 "postgresql://assay_pw:$pw@[::1:$ASSAY_PG_PORT/postgres"
try 2 "postgresql://assay_pw:$pw@127.0.0.1:$ASSAY_PG_PORT/postgres?sslmode=nonsense&x"
try "2|5" "host=127.0.0.1 port=$ASSAY_PG_PORT user=assay_pw password=$pw dbname=postgres"
[ -z "$leaks" ] || fail "a password was shown or an exit code is wrong:$leaks"
echo ok
