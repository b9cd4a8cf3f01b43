/* The PostgreSQL backend of the store (backend.h): a store is one database
 * (its current schema), reached through libpq with a connection string
 * (postgresql://..., postgres://... or service=...). Writers take turns
 * through a transaction-level advisory lock, as SQLite's writers take turns
 * through its write lock; readers never wait. The only file that calls libpq. */
#include <ctype.h>
#include <errno.h>
#include <libpq-fe.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pg_int.h"
#include "store_int.h"

extern const struct store_backend store_postgres;

/* The advisory lock that writers of one database take turns on: 'assy'. */
#define PG_WRITER_LOCK "1634956153"

#define OID_INT8   20
#define OID_TEXT   25
#define OID_FLOAT8 701

struct store_conn {
	PGconn *pg;
	char *err;       /* the last failure's message */
	char state[6];   /* its SQLSTATE ("" when libpq had none) */
	int64_t changes; /* rows the last INSERT, UPDATE or DELETE changed */
	unsigned names;  /* prepared statements named so far */
	bool copying;    /* a COPY FROM STDIN is open */
	long wait_ms;    /* the longest wait for an answer (pg_wire.c) */
};

struct pg_param {
	char *v;      /* NULL: SQL NULL */
	bool own;     /* v is ours to free */
	unsigned oid; /* 0 (NULL): the server infers its type */
	bool unused;  /* the SQL does not name it */
	char num[32]; /* a number's text */
};

struct pg_stmt {
	struct store_stmt base;
	struct store_conn *c;
	char *sql; /* with $n parameters */
	int n;     /* parameters */
	struct pg_param *p;
	char name[16];  /* "": not prepared on the server */
	unsigned *prep; /* the types it was prepared with */
	unsigned runs;  /* times run since it was prepared here */
	PGresult *res;
	int row, rows;
	bool ran;
};

static inline struct pg_stmt *pgs(struct store_stmt *st)
{
	return (struct pg_stmt *)st;
}

/* ---- failures ---- */

static void set_err(struct store_conn *c, const char *state, const char *msg)
{
	free(c->err);
	/* libpq's messages end in a newline and may hold several lines. */
	struct sbuf sb = SBUF_INIT;
	for (const char *p = msg ? msg : "unknown error"; *p; p++) {
		if (*p == '\n' || *p == '\t') {
			if (p[1] && sb.len && sb.buf[sb.len - 1] != ' ')
				sbuf_adds(&sb, p[-1] == '.' || p[-1] == ':' ? " " : "; ");
		} else if (!(*p == ' ' && sb.len && sb.buf[sb.len - 1] == ' ')) {
			sbuf_addch(&sb, *p);
		}
	}
	while (sb.len && (sb.buf[sb.len - 1] == ' ' || sb.buf[sb.len - 1] == ';'))
		sb.buf[--sb.len] = 0;
	c->err = sbuf_detach(&sb, NULL);
	snprintf(c->state, sizeof(c->state), "%s", state ? state : "");
}

static void res_err(struct store_conn *c, const PGresult *r)
{
	const char *msg = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	if (!msg)
		msg = PQerrorMessage(c->pg);
	if (PQstatus(c->pg) == CONNECTION_BAD)
		set_err(c, state, *PQerrorMessage(c->pg) ? PQerrorMessage(c->pg) : msg);
	else
		set_err(c, state, msg);
}

/* The answer to what was just sent (sent: PQsend*'s return), waited for
 * at most c->wait_ms: NULL with the failure kept. */
static PGresult *ask(struct store_conn *c, int sent)
{
	if (!sent) {
		set_err(c, NULL, PQerrorMessage(c->pg));
		return NULL;
	}
	const char *why = NULL;
	PGresult *r = pg_wire_answer(c->pg, c->wait_ms, &why);
	if (!r && why) {
		char msg[160];
		snprintf(msg, sizeof(msg), "%s (waited %ld s; ASSAY_STORE_STATEMENT_MS)", why,
			 c->wait_ms / 1000);
		set_err(c, "57014", msg);
	} else if (!r) {
		set_err(c, NULL, PQerrorMessage(c->pg));
	}
	return r;
}

static PGresult *ask_sql(struct store_conn *c, const char *sql)
{
	return ask(c, PQsendQuery(c->pg, sql));
}

/* Result r (NULL: failed already, its failure kept) has status want: 0,
 * or -1 with the failure kept. r is freed. */
static int expect(struct store_conn *c, PGresult *r, ExecStatusType want)
{
	if (!r)
		return -1;
	int rc = PQresultStatus(r) == want ? 0 : -1;
	if (rc)
		res_err(c, r);
	PQclear(r);
	return rc;
}

/* Run sql (no parameters): 0, or -1 with the failure kept. */
static int pg_exec(struct store_conn *c, const char *sql)
{
	PGresult *r = ask_sql(c, sql);
	if (!r)
		return -1;
	ExecStatusType st = PQresultStatus(r);
	int rc =
	    st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK || st == PGRES_EMPTY_QUERY ? 0 : -1;
	if (rc)
		res_err(c, r);
	else if (st == PGRES_COMMAND_OK && *PQcmdTuples(r))
		c->changes = strtoll(PQcmdTuples(r), NULL, 10);
	PQclear(r);
	return rc;
}

/* ---- opening ---- */

static long env_ms(const char *name, long dflt)
{
	const char *v = getenv(name);
	long long ms;
	if (v && assay_parse_long(v, &ms) && ms >= 0 && ms <= 86400000)
		return (long)ms;
	return dflt;
}

/* libpq's keywords and values for path, with the defaults assay adds
 * where the user set none: a connect timeout and TCP keepalives, so that a
 * server that went away is an error, not a hang. */
static assay_err conninfo(const char *path, char ***kw, char ***val, struct assay_error *e)
{
	char *perr = NULL;
	PQconninfoOption *opts = PQconninfoParse(path, &perr);
	if (!opts) {
		char *shown = pg_redact(path);
		/* libpq's message may quote the whole string, password and all. */
		char *why = pg_scrub(perr ? perr : "out of memory", path);
		assay_error_set(e, ASSAY_USAGE, "%s: not a PostgreSQL connection string: %s", shown,
				why);
		free(why);
		free(shown);
		PQfreemem(perr);
		return ASSAY_USAGE;
	}
	static const char *const dflt[][2] = {
	    {"connect_timeout", "10"},     {"keepalives", "1"},       {"keepalives_idle", "30"},
	    {"keepalives_interval", "10"}, {"keepalives_count", "3"}, {"application_name", "assay"},
	};
	size_t n = 0;
	for (PQconninfoOption *o = opts; o->keyword; o++)
		n++;
	*kw = xcalloc(n + ARRAY_SIZE(dflt) + 1, sizeof(char *));
	*val = xcalloc(n + ARRAY_SIZE(dflt) + 1, sizeof(char *));
	size_t k = 0;
	for (PQconninfoOption *o = opts; o->keyword; o++) {
		if (!o->val)
			continue;
		(*kw)[k] = xstrdup(o->keyword);
		(*val)[k++] = xstrdup(o->val);
	}
	for (size_t i = 0; i < ARRAY_SIZE(dflt); i++) {
		bool set = false;
		for (size_t j = 0; j < k && !set; j++)
			set = !strcmp((*kw)[j], dflt[i][0]);
		if (!set) {
			(*kw)[k] = xstrdup(dflt[i][0]);
			(*val)[k++] = xstrdup(dflt[i][1]);
		}
	}
	PQconninfoFree(opts);
	return ASSAY_OK;
}

static void strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* The session: quiet notices, a lock timeout (the busy timeout of
 * SQLite's writers), a statement timeout (a server that stops answering is
 * an error, not a hang), read-only where asked. */
static int session(struct store_conn *c, int flags)
{
	long stmt = env_ms("ASSAY_STORE_STATEMENT_MS", 600000);
	/* The server cancels a statement at its timeout; the client stops
	 * waiting a little after, in case the server cannot. */
	c->wait_ms = stmt ? stmt + 30000 : 86400000L * 365;
	if (PQsetnonblocking(c->pg, 1) != 0) {
		set_err(c, NULL, PQerrorMessage(c->pg));
		return -1;
	}
	char sql[320];
	snprintf(sql, sizeof(sql),
		 "SET client_min_messages = warning; SET lock_timeout = %ld; "
		 "SET statement_timeout = %ld; SET extra_float_digits = 3; "
		 "SET datestyle = 'ISO'%s",
		 env_ms("ASSAY_STORE_BUSY_MS", 300000), stmt,
		 flags & ASSAY_STORE_READONLY ? "; SET default_transaction_read_only = on" : "");
	return pg_exec(c, sql);
}

static void quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

static assay_err pg_open(const char *path, int flags, struct store_conn **out,
			 struct assay_error *e)
{
	*out = NULL;
	char **kw = NULL, **val = NULL;
	assay_err rc = conninfo(path, &kw, &val, e);
	if (rc != ASSAY_OK)
		return rc;
	struct store_conn *c = xcalloc(1, sizeof(*c));
	c->pg = PQconnectdbParams((const char *const *)kw, (const char *const *)val, 0);
	strv_free(kw);
	strv_free(val);
	if (!c->pg || PQstatus(c->pg) != CONNECTION_OK) {
		char *why = pg_scrub(c->pg ? PQerrorMessage(c->pg) : "out of memory", path);
		set_err(c, NULL, why);
		free(why);
	} else {
		PQsetNoticeProcessor(c->pg, quiet, NULL);
		if (session(c, flags) == 0) {
			*out = c;
			return ASSAY_OK;
		}
	}
	char *shown = pg_redact(path);
	assay_error_set(e, ASSAY_INFRA, "%s: cannot open the store: %s", shown, c->err);
	free(shown);
	PQfinish(c->pg);
	free(c->err);
	free(c);
	return ASSAY_INFRA;
}

static assay_err pg_close(struct store_conn *c, const char *path, struct assay_error *e)
{
	(void)path;
	(void)e;
	if (c->copying)
		PQputCopyEnd(c->pg, "closed");
	PQfinish(c->pg);
	free(c->err);
	free(c);
	return ASSAY_OK;
}

/* ---- the connection ---- */

static int pg_begin(struct store_conn *c, enum store_txn how)
{
	if (how == STORE_TXN_DEFERRED)
		return pg_exec(c, "BEGIN ISOLATION LEVEL REPEATABLE READ");
	/* Writers take turns, as SQLite's do: the lock is held to the commit. */
	if (pg_exec(c, "BEGIN") != 0)
		return -1;
	if (PQtransactionStatus(c->pg) == PQTRANS_INTRANS &&
	    pg_exec(c, "SELECT pg_advisory_xact_lock(" PG_WRITER_LOCK ")") != 0) {
		char *err = xstrdup(c->err);
		char state[6];
		memcpy(state, c->state, sizeof(state));
		pg_exec(c, "ROLLBACK");
		set_err(c, state, err);
		free(err);
		return -1;
	}
	return 0;
}

static int pg_commit(struct store_conn *c)
{
	PGresult *r = ask_sql(c, "COMMIT");
	if (!r)
		return -1;
	int rc = PQresultStatus(r) == PGRES_COMMAND_OK ? 0 : -1;
	/* A COMMIT of a failed transaction reports ROLLBACK: not committed. */
	if (!rc && !strcmp(PQcmdStatus(r), "ROLLBACK")) {
		set_err(c, "25P02", "the transaction failed and was rolled back");
		rc = -1;
	} else if (rc) {
		res_err(c, r);
	}
	PQclear(r);
	return rc;
}

static int pg_rollback(struct store_conn *c)
{
	return pg_exec(c, "ROLLBACK");
}

static bool pg_in_txn(struct store_conn *c)
{
	PGTransactionStatusType t = PQtransactionStatus(c->pg);
	return t == PQTRANS_INTRANS || t == PQTRANS_INERROR || t == PQTRANS_ACTIVE;
}

static int64_t pg_changes(struct store_conn *c)
{
	return c->changes;
}

static int64_t pg_last_id(struct store_conn *c)
{
	PGresult *r = ask_sql(c, "SELECT lastval()");
	int64_t id = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1
			 ? strtoll(PQgetvalue(r, 0, 0), NULL, 10)
			 : 0;
	PQclear(r);
	return id;
}

static enum store_fail pg_fail(struct store_conn *c)
{
	if (!strncmp(c->state, "23", 2))
		return STORE_FAIL_CONSTRAINT;
	if (!strcmp(c->state, "55P03") || !strcmp(c->state, "40P01") || !strcmp(c->state, "40001"))
		return STORE_FAIL_BUSY;
	return STORE_FAIL_OTHER;
}

static const char *pg_errmsg(struct store_conn *c)
{
	return c->err ? c->err : "unknown error";
}

/* ---- statements ---- */

/* s starts with " IS NULL" or " IS NOT NULL" (any case, any spaces). */
static bool is_null_test(const char *s)
{
	static const char *const words[][3] = {{"IS", "NULL", NULL}, {"IS", "NOT", "NULL"}};
	for (size_t w = 0; w < 2; w++) {
		const char *p = s;
		size_t i = 0;
		for (; i < 3 && words[w][i]; i++) {
			if (!isspace((unsigned char)*p))
				break;
			while (isspace((unsigned char)*p))
				p++;
			size_t n = strlen(words[w][i]);
			if (strncasecmp(p, words[w][i], n) || isalnum((unsigned char)p[n]) ||
			    p[n] == '_')
				break;
			p += n;
		}
		if (i == 3 || !words[w][i])
			return true;
	}
	return false;
}

/* sql with SQLite's ?N (and bare ?) parameters as $N; *n gets the largest. */
static char *dollar_params(const char *sql, int *n, struct sbuf *used)
{
	struct sbuf sb = SBUF_INIT;
	int max = 0;
	char quote = 0;
	for (const char *p = sql; *p; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
			sbuf_addch(&sb, *p);
			continue;
		}
		if (*p == '\'' || *p == '"') {
			quote = *p;
			sbuf_addch(&sb, *p);
			continue;
		}
		if (*p != '?') {
			sbuf_addch(&sb, *p);
			continue;
		}
		int k = 0;
		if (p[1] >= '0' && p[1] <= '9') {
			while (p[1] >= '0' && p[1] <= '9')
				k = k * 10 + (*++p - '0');
		} else {
			k = max + 1;
		}
		if (k > max)
			max = k;
		while (used->len <= (size_t)k)
			sbuf_addch(used, 0);
		used->buf[k] = 1;
		/* "$n IS NULL" alone cannot tell the server $n's type. */
		if (is_null_test(p + 1))
			sbuf_addf(&sb, "CAST($%d AS TEXT)", k);
		else
			sbuf_addf(&sb, "$%d", k);
	}
	*n = max;
	return sbuf_detach(&sb, NULL);
}

static struct store_stmt *pg_prepare(struct store_conn *c, const char *sql)
{
	struct pg_stmt *p = xcalloc(1, sizeof(*p));
	p->base.be = &store_postgres;
	p->c = c;
	struct sbuf used = SBUF_INIT;
	p->sql = dollar_params(sql, &p->n, &used);
	p->p = xcalloc((size_t)p->n + 1, sizeof(*p->p));
	/* A parameter the SQL does not name has no type to infer: text. */
	for (int i = 0; i < p->n; i++) {
		p->p[i].unused = !used.buf[i + 1];
		p->p[i].oid = p->p[i].unused ? OID_TEXT : 0;
	}
	sbuf_release(&used);
	return &p->base;
}

static void param_drop(struct pg_param *q)
{
	if (q->own)
		free(q->v);
	q->v = NULL;
	q->own = false;
	q->oid = q->unused ? OID_TEXT : 0;
}

static void pg_reset(struct store_stmt *st)
{
	struct pg_stmt *p = pgs(st);
	PQclear(p->res);
	p->res = NULL;
	p->ran = false;
	p->row = p->rows = 0;
}

static void pg_clear(struct store_stmt *st)
{
	struct pg_stmt *p = pgs(st);
	for (int i = 0; i < p->n; i++)
		param_drop(&p->p[i]);
}

static void pg_finalize(struct store_stmt *st)
{
	struct pg_stmt *p = pgs(st);
	pg_reset(st);
	pg_clear(st);
	if (p->name[0] && !p->c->copying && PQstatus(p->c->pg) == CONNECTION_OK) {
		char sql[40];
		snprintf(sql, sizeof(sql), "DEALLOCATE %s", p->name);
		PQclear(ask_sql(p->c, sql));
	}
	free(p->prep);
	free(p->p);
	free(p->sql);
	free(p);
}

static int pg_params(struct store_stmt *st)
{
	return pgs(st)->n;
}

static struct pg_param *param(struct store_stmt *st, int idx)
{
	struct pg_stmt *p = pgs(st);
	if (idx < 1 || idx > p->n)
		return NULL;
	param_drop(&p->p[idx - 1]);
	return &p->p[idx - 1];
}

static void pg_bind_int64(struct store_stmt *st, int idx, int64_t v)
{
	struct pg_param *q = param(st, idx);
	if (!q || q->unused)
		return;
	snprintf(q->num, sizeof(q->num), "%lld", (long long)v);
	q->v = q->num;
	q->oid = OID_INT8;
}

static void pg_bind_double(struct store_stmt *st, int idx, double v)
{
	struct pg_param *q = param(st, idx);
	if (!q || q->unused)
		return;
	store_double_text(q->num, sizeof(q->num), v);
	q->v = q->num;
	q->oid = OID_FLOAT8;
}

static void pg_bind_text(struct store_stmt *st, int idx, const char *v, int len, bool copy)
{
	struct pg_param *q = param(st, idx);
	if (!q || !v || q->unused)
		return;
	if (len >= 0) {
		q->v = xstrndup(v, (size_t)len);
		q->own = true;
	} else if (copy) {
		q->v = xstrdup(v);
		q->own = true;
	} else {
		q->v = (char *)v;
	}
	q->oid = OID_TEXT;
}

static void pg_bind_null(struct store_stmt *st, int idx)
{
	param(st, idx);
}

/* The types to prepare with: text and NULL left for the server to infer. */
static bool types_differ(const struct pg_stmt *p)
{
	for (int i = 0; i < p->n; i++)
		if (p->p[i].oid && p->p[i].oid != p->prep[i])
			return true;
	return false;
}

/* Prepare p on the server (its second run: a statement run once is not). */
static int server_prepare(struct pg_stmt *p)
{
	struct store_conn *c = p->c;
	if (p->name[0]) {
		char sql[40];
		snprintf(sql, sizeof(sql), "DEALLOCATE %s", p->name);
		PQclear(ask_sql(c, sql));
		p->name[0] = 0;
	}
	free(p->prep);
	p->prep = xcalloc((size_t)p->n + 1, sizeof(*p->prep));
	for (int i = 0; i < p->n; i++)
		p->prep[i] = p->p[i].oid;
	char name[16];
	snprintf(name, sizeof(name), "a%u", ++c->names);
	if (expect(c, ask(c, PQsendPrepare(c->pg, name, p->sql, p->n, (const Oid *)p->prep)),
		   PGRES_COMMAND_OK) != 0)
		return -1;
	memcpy(p->name, name, sizeof(name));
	return 0;
}

static PGresult *run(struct pg_stmt *p)
{
	struct store_conn *c = p->c;
	const char **vals = xcalloc((size_t)p->n + 1, sizeof(*vals));
	unsigned *types = xcalloc((size_t)p->n + 1, sizeof(*types));
	for (int i = 0; i < p->n; i++) {
		vals[i] = p->p[i].v;
		types[i] = p->p[i].oid;
	}
	PGresult *r = NULL;
	if (p->runs++ == 0 && !p->name[0]) {
		r = ask(c, PQsendQueryParams(c->pg, p->sql, p->n, (const Oid *)types, vals, NULL,
					     NULL, 0));
	} else if ((!p->name[0] || types_differ(p)) && server_prepare(p) != 0) {
		r = NULL;
	} else {
		r = ask(c, PQsendQueryPrepared(c->pg, p->name, p->n, vals, NULL, NULL, 0));
	}
	free(vals);
	free(types);
	return r;
}

static enum store_step pg_step(struct store_stmt *st)
{
	struct pg_stmt *p = pgs(st);
	struct store_conn *c = p->c;
	if (!p->ran) {
		p->ran = true;
		p->row = -1;
		PGresult *r = run(p);
		if (!r) {
			if (!c->err)
				set_err(c, NULL, PQerrorMessage(c->pg));
			return STORE_ERROR;
		}
		ExecStatusType s = PQresultStatus(r);
		if (s == PGRES_TUPLES_OK) {
			p->res = r;
			p->rows = PQntuples(r);
		} else if (s == PGRES_COMMAND_OK || s == PGRES_EMPTY_QUERY) {
			c->changes = *PQcmdTuples(r) ? strtoll(PQcmdTuples(r), NULL, 10) : 0;
			PQclear(r);
		} else {
			res_err(c, r);
			PQclear(r);
			return STORE_ERROR;
		}
	}
	if (p->res && ++p->row < p->rows)
		return STORE_ROW;
	return STORE_DONE;
}

static int pg_columns(struct store_stmt *st)
{
	struct pg_stmt *p = pgs(st);
	return p->res ? PQnfields(p->res) : 0;
}

static bool pg_column_null(struct store_stmt *st, int col)
{
	struct pg_stmt *p = pgs(st);
	return !p->res || p->row < 0 || p->row >= p->rows || PQgetisnull(p->res, p->row, col);
}

static const char *pg_column_text(struct store_stmt *st, int col)
{
	struct pg_stmt *p = pgs(st);
	if (pg_column_null(st, col))
		return NULL;
	return PQgetvalue(p->res, p->row, col);
}

static int pg_column_bytes(struct store_stmt *st, int col)
{
	struct pg_stmt *p = pgs(st);
	return pg_column_null(st, col) ? 0 : PQgetlength(p->res, p->row, col);
}

static int64_t pg_column_int64(struct store_stmt *st, int col)
{
	const char *t = pg_column_text(st, col);
	if (!t)
		return 0;
	if (t[0] == 't' && !t[1])
		return 1; /* a boolean */
	return strtoll(t, NULL, 10);
}

static double pg_column_double(struct store_stmt *st, int col)
{
	const char *t = pg_column_text(st, col);
	return t ? pg_text_double(t) : 0;
}

/* ---- the schema's identity, and COPY ---- */

static int pg_identity(struct store_conn *c, int *mark, int *version, int *tables)
{
	*mark = *version = *tables = 0;
	PGresult *r = ask_sql(c, "SELECT to_regclass('assay_store') IS NOT NULL, "
				 "(SELECT count(*) FROM pg_tables WHERE schemaname = "
				 "current_schema())");
	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
		res_err(c, r);
		PQclear(r);
		return -1;
	}
	bool have = PQgetvalue(r, 0, 0)[0] == 't';
	*tables = atoi(PQgetvalue(r, 0, 1));
	PQclear(r);
	if (!have)
		return 0;
	r = ask_sql(c, "SELECT mark, version FROM assay_store");
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		res_err(c, r);
		PQclear(r);
		return -1;
	}
	if (PQntuples(r) == 1) {
		*mark = (int)strtoll(PQgetvalue(r, 0, 0), NULL, 10);
		*version = atoi(PQgetvalue(r, 0, 1));
	}
	PQclear(r);
	return 0;
}

static int pg_stamp(struct store_conn *c, int mark, int version)
{
	char sql[256];
	snprintf(sql, sizeof(sql),
		 "CREATE TABLE IF NOT EXISTS assay_store (mark BIGINT NOT NULL, version INTEGER "
		 "NOT NULL); DELETE FROM assay_store; INSERT INTO assay_store VALUES (%d, %d)",
		 mark, version);
	return pg_exec(c, sql);
}

static int pg_copy_begin(struct store_conn *c, const char *sql)
{
	if (expect(c, ask_sql(c, sql), PGRES_COPY_IN) != 0)
		return -1;
	c->copying = true;
	return 0;
}

static int pg_copy_put(struct store_conn *c, const char *buf, size_t len)
{
	const char *why = NULL;
	if (pg_wire_copy(c->pg, buf, len, c->wait_ms, &why) != 0) {
		set_err(c, why ? "57014" : NULL, why ? why : PQerrorMessage(c->pg));
		return -1;
	}
	return 0;
}

static int pg_copy_end(struct store_conn *c)
{
	c->copying = false;
	PGresult *r = ask(c, PQputCopyEnd(c->pg, NULL) == 1);
	if (!r)
		return -1;
	int rc = 0;
	if (PQresultStatus(r) != PGRES_COMMAND_OK) {
		res_err(c, r);
		rc = -1;
	} else {
		c->changes = strtoll(PQcmdTuples(r), NULL, 10);
	}
	PQclear(r);
	return rc;
}

static int pg_ids_follow(struct store_conn *c, const char *table)
{
	char sql[256];
	snprintf(sql, sizeof(sql),
		 "SELECT setval(pg_get_serial_sequence('%s', 'id'), "
		 "(SELECT COALESCE(max(id), 0) + 1 FROM %s), false)",
		 table, table);
	return pg_exec(c, sql);
}

static char *pg_name(const char *path)
{
	return pg_redact(path);
}

static void pg_json_field(struct sbuf *sql, const char *col, const char *key)
{
	sbuf_addf(sql, "(CAST(%s AS jsonb) ->> '", col);
	for (const char *p = key; *p; p++) {
		if (*p == '\'')
			sbuf_adds(sql, "''");
		else
			sbuf_addch(sql, *p);
	}
	sbuf_adds(sql, "')");
}

static void pg_epoch(struct sbuf *sql, const char *expr)
{
	sbuf_addf(sql, "CAST(EXTRACT(EPOCH FROM CAST(%s AS timestamptz)) AS BIGINT)", expr);
}

const struct store_backend store_postgres = {
    .name = "postgres",
    .what = "a PostgreSQL database",
    .open = pg_open,
    .close = pg_close,
    .exec = pg_exec,
    .begin = pg_begin,
    .commit = pg_commit,
    .rollback = pg_rollback,
    .in_txn = pg_in_txn,
    .changes = pg_changes,
    .last_id = pg_last_id,
    .fail_kind = pg_fail,
    .errmsg = pg_errmsg,
    .prepare = pg_prepare,
    .finalize = pg_finalize,
    .reset = pg_reset,
    .clear = pg_clear,
    .params = pg_params,
    .bind_int64 = pg_bind_int64,
    .bind_double = pg_bind_double,
    .bind_text = pg_bind_text,
    .bind_null = pg_bind_null,
    .step = pg_step,
    .columns = pg_columns,
    .column_int64 = pg_column_int64,
    .column_double = pg_column_double,
    .column_text = pg_column_text,
    .column_bytes = pg_column_bytes,
    .column_null = pg_column_null,
    .identity = pg_identity,
    .name_of = pg_name,
    .json_field = pg_json_field,
    .instr_fn = "strpos",
    .epoch = pg_epoch,
    .migration = pg_migration,
    .writable_sql = PG_WRITABLE_SQL,
    .migrate_begin_sql = "",
    .migrate_end_sql = "",
    .dangling_sql = "SELECT 0",
    .stamp = pg_stamp,
    .integrity_sql = "SELECT 'ok'",
    .fk_check_sql = "SELECT 1 WHERE false",
    .bulk_sql = NULL,
    .copy_begin = pg_copy_begin,
    .copy_put = pg_copy_put,
    .copy_end = pg_copy_end,
    .defer_fk_sql = "SET CONSTRAINTS ALL DEFERRED",
    .ids_follow = pg_ids_follow,
};
