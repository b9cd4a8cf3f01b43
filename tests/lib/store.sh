# Stores for tests, on the backend the test runs on (docs/development.md,
# "Stores on both backends"). Source it, then:
#   store_init DIR       once: DIR holds SQLite stores (the test's scratch
#                        folder); on postgres, reads the server's facts, or
#                        exits 77 (1 under ASSAY_REQUIRE_POSTGRES=1) without one
#   store_new NAME       prints a fresh store: DIR/NAME.db, or on postgres a new
#                        database's URL postgresql://assay@127.0.0.1:PORT/t_NAME_RANDOM
#   store_sql STORE SQL  runs one SQL statement (sqlite3 or psql -At): rows
#                        one a line, columns |-separated, NULL empty
#   store_exists STORE   true when STORE holds tables (an SQLite file exists)
#   store_files STORE    prints the files that hold STORE's bytes, to grep for
#                        what must never be written: the SQLite file (and its
#                        -wal/-journal), or the server's data folder and log
#                        after a CHECKPOINT
#   store_cleanup        drops the databases store_new made (call it on exit)
# The backend is $ASSAY_TEST_BACKEND: sqlite (default) or postgres; CTest's
# NAME@pg variants set postgres and ASSAY_PG_ENV (the facts file of
# tests/pg/server.sh).

store_backend() { echo "${ASSAY_TEST_BACKEND:-sqlite}"; }

store_init() {
	STORE_DIR=$1
	export STORE_DIR
	case $(store_backend) in
	sqlite) ;;
	postgres)
		local why=""
		if [ -z "${ASSAY_PG_ENV:-}" ]; then
			why="ASSAY_PG_ENV is not set (run the test through ctest, which starts the server: fixture pg)"
		elif [ ! -f "$ASSAY_PG_ENV" ]; then
			why="no PostgreSQL test server ($ASSAY_PG_ENV missing: pg/start skipped or failed)"
		elif ! command -v psql >/dev/null; then
			why="psql is not installed"
		fi
		if [ -n "$why" ]; then
			if [ "${ASSAY_REQUIRE_POSTGRES:-0}" = 1 ]; then
				echo "FAIL (ASSAY_REQUIRE_POSTGRES=1): $why" >&2
				exit 1
			fi
			echo "SKIP: $why" >&2
			exit 77
		fi
		# shellcheck disable=SC1090
		. "$ASSAY_PG_ENV"
		# The list of databases to drop; a file, as store_new runs in $(...).
		STORE_DBS=$STORE_DIR/.store-databases
		: >"$STORE_DBS" || exit 1
		export STORE_DBS
		;;
	*)
		echo "store_init: unknown ASSAY_TEST_BACKEND '$ASSAY_TEST_BACKEND' (sqlite, postgres)" >&2
		exit 2
		;;
	esac
}

store_new() {
	local name=$1 db
	case $(store_backend) in
	sqlite) echo "$STORE_DIR/$name.db" ;;
	postgres)
		db=t_$(printf '%s' "$name" | tr -c 'a-zA-Z0-9_' '_' | tr 'A-Z' 'a-z' | cut -c1-40)_$(head -c 5 /dev/urandom | od -An -tx1 | tr -d ' \n')
		psql -X -q -v ON_ERROR_STOP=1 "$ASSAY_PG_URL/postgres" -c "CREATE DATABASE $db" >&2 ||
			{ echo "store_new: cannot create database $db on $ASSAY_PG_URL" >&2; return 1; }
		echo "$db" >>"$STORE_DBS"
		echo "$ASSAY_PG_URL/$db"
		;;
	esac
}

store_sql() {
	case $1 in
	postgresql://* | postgres://* | service=*)
		psql -X -q -At -v ON_ERROR_STOP=1 "$1" -c "$2"
		;;
	*) sqlite3 -batch -noheader "$1" "$2" ;;
	esac
}

store_exists() {
	case $1 in
	postgresql://* | postgres://* | service=*)
		[ "$(store_sql "$1" "SELECT count(*) FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')")" != 0 ]
		;;
	*) [ -e "$1" ] ;;
	esac
}

store_files() {
	local f
	case $1 in
	postgresql://* | postgres://* | service=*)
		psql -X -q "$ASSAY_PG_ADMIN" -c CHECKPOINT >&2 || return 1
		echo "$ASSAY_PG_BASE/data"
		echo "$ASSAY_PG_BASE/server.log"
		;;
	*)
		for f in "$1" "$1-wal" "$1-journal"; do
			[ -e "$f" ] && echo "$f"
		done
		;;
	esac
	return 0
}

store_cleanup() {
	[ -n "${STORE_DBS:-}" ] && [ -f "$STORE_DBS" ] || return 0
	local db
	while read -r db; do
		[ -n "$db" ] && psql -X -q "$ASSAY_PG_URL/postgres" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1
	done <"$STORE_DBS"
	rm -f "$STORE_DBS"
}
