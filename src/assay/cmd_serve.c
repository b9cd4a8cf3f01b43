/* assay serve: the store's history over HTTP (docs/serve.md). This file is
 * the transport: options, libmicrohttpd with its limits, and a log line per
 * request; every answer comes from the library (include/assay/serve.h). */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/serve.h"
#include "cli.h"
#include "opt.h"
#include "store_cli.h"

struct serve_args {
	struct store_cli sc;
	const char *listen, *token_env, *publications;
	long long max_connections, timeout, threads;
	bool no_log;
};

static const struct cli_opt serve_opts[] = {
    CLI_OPT_TABLE(store_cli_path_opts, struct serve_args, sc),
    {.type = CLI_STRING,
     .name = "listen",
     .arg = "ADDR:PORT",
     .off = offsetof(struct serve_args, listen),
     .help = "listen on this IPv4 address and port (port 0: any free one);\n"
	     "the default is loopback only",
     .def = "127.0.0.1:8765"},
    CLI_OPT_STRING("token-env", "NAME", struct serve_args, token_env,
		   "take bearer tokens from the environment variable NAME:\n"
		   "NAME:read:SECRET or NAME:write:SECRET entries separated by spaces;\n"
		   "without it the server is read-only"),
    CLI_OPT_STRING("publications", "DIR", struct serve_args, publications,
		   "show the publication folders in DIR (assay publish --out DIR/NAME)\n"
		   "on /publications, each verified when the page is asked for"),
    {.type = CLI_INT,
     .name = "max-connections",
     .arg = "N",
     .off = offsetof(struct serve_args, max_connections),
     .help = "connections served at once; more wait until one closes",
     .def = "64",
     .min = 1},
    {.type = CLI_INT,
     .name = "timeout",
     .arg = "SECONDS",
     .off = offsetof(struct serve_args, timeout),
     .help = "close a connection idle this long (a slow client cannot hold one)",
     .def = "15",
     .min = 1},
    {.type = CLI_INT,
     .name = "threads",
     .arg = "N",
     .off = offsetof(struct serve_args, threads),
     .help = "threads answering requests, each with its own store connection (at most 16)",
     .def = "2",
     .min = 1},
    CLI_OPT_FLAG("no-log", struct serve_args, no_log, "print no line per request on stderr"),
    CLI_OPT_END,
};

const struct cli_spec cmd_serve_spec = {
    .name = "serve",
    .usage = "assay serve [--store PATH|URI] [--listen ADDR:PORT] [--token-env NAME]",
    .about = "Serve the store's history in a browser and as JSON: an overview of every series\n"
	     "(latest value, sparkline, newest change point), a page per series (the\n"
	     "report's chart, points, annotations) and /api/v1/... with the documents\n"
	     "`assay store series` and `assay history` print with --format json. With write\n"
	     "tokens, POST /api/v1/annotations records an ack, expected or ignore. Runs\n"
	     "until SIGINT or SIGTERM.\n",
    .opts = serve_opts,
    .examples = "ASSAY_TOKENS='alice:write:'\"$(openssl rand -hex 24)\" \\\n"
		"    assay serve --store postgresql://assay@db/assay --token-env ASSAY_TOKENS",
    .exits = "Exit codes: 0 stopped by a signal, 2 bad arguments or tokens, 5 the store or\n"
	     "the socket failed.\n",
    .min_args = 0,
    .max_args = 0,
    .args_what = NULL,
};

/* One request: its raw target (libmicrohttpd's URI log callback hands it
 * over before any decoding) and its body. */
struct request {
	char *target;
	struct sbuf body;
	bool started, too_large;
};

#define MAX_THREADS 16

/* The server: the state every thread starts from, and each thread's own
 * copy (its store connection and page cache), made on its first request. */
struct server {
	struct assay_serve srv;
	bool log, writable;
	pthread_mutex_t lock;
	struct assay_serve *workers[MAX_THREADS];
	size_t nworkers;
};

static __thread struct assay_serve *worker;

static struct assay_serve *thread_serve(struct server *s)
{
	if (worker)
		return worker;
	struct assay_serve *w = xcalloc(1, sizeof(*w));
	struct assay_error e;
	*w = s->srv;
	w->cache = NULL;
	w->store = NULL;
	pthread_mutex_lock(&s->lock);
	bool room = s->nworkers < MAX_THREADS;
	if (room)
		s->workers[s->nworkers++] = w;
	pthread_mutex_unlock(&s->lock);
	if (!room || assay_store_open(s->srv.store_path, s->writable ? 0 : ASSAY_STORE_READONLY,
				      &w->store, &e) != ASSAY_OK)
		return NULL;
	return worker = w;
}

/* After the daemon stopped: each thread's connection and cache (the
 * tokens are the server's). */
static void workers_release(struct server *s)
{
	for (size_t i = 0; i < s->nworkers; i++) {
		struct assay_serve *w = s->workers[i];
		assay_store_close(w->store, NULL);
		w->tokens = (struct assay_serve_tokens){0};
		assay_serve_release(w);
		free(w);
	}
	s->nworkers = 0;
}

static void *request_begin(void *cls, const char *uri, struct MHD_Connection *c)
{
	(void)cls;
	(void)c;
	struct request *r = xcalloc(1, sizeof(*r));
	r->target = xstrdup(uri ? uri : "");
	return r;
}

static void request_end(void *cls, struct MHD_Connection *c, void **ctx,
			enum MHD_RequestTerminationCode why)
{
	(void)cls;
	(void)c;
	(void)why;
	struct request *r = *ctx;
	if (r) {
		free(r->target);
		sbuf_release(&r->body);
		free(r);
	}
	*ctx = NULL;
}

static enum MHD_Result count_header(void *cls, enum MHD_ValueKind kind, const char *k,
				    const char *v)
{
	(void)kind;
	(void)k;
	(void)v;
	++*(size_t *)cls;
	return MHD_YES;
}

static enum MHD_Result respond(struct MHD_Connection *c, const struct assay_serve_response *rs)
{
	struct MHD_Response *resp =
	    rs->fd >= 0 ? MHD_create_response_from_fd((uint64_t)rs->fd_size, rs->fd)
			: MHD_create_response_from_buffer(rs->body.len,
							  rs->body.buf ? rs->body.buf : (char *)"",
							  MHD_RESPMEM_MUST_COPY);
	if (!resp)
		return MHD_NO;
	for (size_t i = 0; assay_serve_headers[i]; i += 2)
		MHD_add_response_header(resp, assay_serve_headers[i], assay_serve_headers[i + 1]);
	MHD_add_response_header(resp, "Content-Type", rs->content_type);
	if (rs->etag[0])
		MHD_add_response_header(resp, "ETag", rs->etag);
	if (rs->location[0])
		MHD_add_response_header(resp, "Location", rs->location);
	if (rs->allow)
		MHD_add_response_header(resp, "Allow", rs->allow);
	if (rs->www_authenticate)
		MHD_add_response_header(resp, "WWW-Authenticate", "Bearer");
	enum MHD_Result ok = MHD_queue_response(c, (unsigned)rs->status, resp);
	MHD_destroy_response(resp);
	return ok;
}

/* The log line: method, path (the query left out), status. Never a header. */
static void log_request(const struct server *s, const char *method, const char *target, int status)
{
	if (s->log)
		fprintf(stderr, "%s %.*s %d\n", method, (int)strcspn(target, "?"), target, status);
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *data,
			      size_t *data_size, void **ctx)
{
	(void)url;
	(void)version;
	struct server *s = cls;
	struct request *r = *ctx;
	if (!r->started) {
		r->started = true;
		const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
		r->too_large = cl && strtoull(cl, NULL, 10) > ASSAY_SERVE_MAX_BODY;
		if (!r->too_large)
			return MHD_YES;
	}
	if (*data_size) {
		if (r->body.len + *data_size > ASSAY_SERVE_MAX_BODY)
			r->too_large = true;
		else
			sbuf_add(&r->body, data, *data_size);
		*data_size = 0;
		return MHD_YES;
	}
	struct assay_serve_request rq = {
	    .method = method,
	    .target = r->target,
	    .authorization = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization"),
	    .if_none_match = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "If-None-Match"),
	    .body = r->body.buf,
	    .body_len = r->body.len,
	    .body_too_large = r->too_large,
	};
	MHD_get_connection_values(c, MHD_HEADER_KIND, count_header, &rq.nheaders);
	struct assay_serve_response rs = {0};
	struct assay_serve *srv = thread_serve(s);
	if (srv) {
		assay_serve_handle(srv, &rq, &rs);
	} else {
		rs.status = 500;
		rs.fd = -1;
		rs.content_type = "text/plain; charset=utf-8";
		sbuf_adds(&rs.body, "500: the store failed\n");
	}
	log_request(s, method, r->target, rs.status);
	enum MHD_Result ok = respond(c, &rs);
	assay_serve_response_release(&rs);
	return ok;
}

/* ADDR:PORT into sin; 0 or a usage error. */
static int parse_listen(const char *spec, struct sockaddr_in *sin)
{
	const char *colon = strrchr(spec, ':');
	long long port;
	char addr[64];
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	if (!colon || (size_t)(colon - spec) >= sizeof(addr) ||
	    !assay_parse_long(colon + 1, &port) || port < 0 || port > 65535)
		return cli_usage_error("serve", "--listen %s: expected ADDR:PORT", spec);
	snprintf(addr, sizeof(addr), "%.*s", (int)(colon - spec), spec);
	if (inet_pton(AF_INET, addr, &sin->sin_addr) != 1)
		return cli_usage_error("serve", "--listen %s: expected an IPv4 address", spec);
	sin->sin_port = htons((uint16_t)port);
	return ASSAY_OK;
}

static int read_tokens(const struct serve_args *a, struct assay_serve_tokens *t, bool *writable)
{
	*writable = false;
	if (!a->token_env)
		return ASSAY_OK;
	const char *spec = getenv(a->token_env);
	if (!spec || !*spec)
		return cli_usage_error("serve", "--token-env %s: the variable is not set",
				       a->token_env);
	struct assay_error e;
	if (assay_serve_tokens_parse(spec, t, &e) != ASSAY_OK)
		return cli_usage_error("serve", "--token-env %s: %s", a->token_env, e.message);
	for (size_t i = 0; i < t->n; i++)
		*writable |= t->v[i].write;
	return ASSAY_OK;
}

/* Run the daemon until SIGINT or SIGTERM (blocked here, so libmicrohttpd's
 * thread never takes them). */
static int run(struct server *s, const struct serve_args *a, const struct sockaddr_in *sin)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	struct MHD_Daemon *d = MHD_start_daemon(
	    MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, 0, NULL, NULL, answer, s,
	    MHD_OPTION_THREAD_POOL_SIZE, (unsigned)(a->threads > 1 ? a->threads : 0),
	    MHD_OPTION_SOCK_ADDR, sin, MHD_OPTION_CONNECTION_LIMIT, (unsigned)a->max_connections,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)a->timeout, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
	    (size_t)(32 * 1024), MHD_OPTION_URI_LOG_CALLBACK, request_begin, NULL,
	    MHD_OPTION_NOTIFY_COMPLETED, request_end, NULL, MHD_OPTION_END);
	if (!d) {
		char addr[INET_ADDRSTRLEN];
		inet_ntop(AF_INET, &sin->sin_addr, addr, sizeof(addr));
		fprintf(stderr, "assay serve: cannot listen on %s:%u\n", addr,
			ntohs(sin->sin_port));
		return ASSAY_INFRA;
	}
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	char addr[INET_ADDRSTRLEN];
	inet_ntop(AF_INET, &sin->sin_addr, addr, sizeof(addr));
	printf("serving %s at http://%s:%u/ (%s)\n", s->srv.store_name, addr,
	       info ? info->port : ntohs(sin->sin_port),
	       s->srv.tokens.n ? "annotations need a token" : "read-only");
	fflush(stdout);
	int sig = 0;
	sigwait(&set, &sig);
	MHD_stop_daemon(d);
	workers_release(s);
	return ASSAY_OK;
}

int cmd_serve(int argc, char **argv)
{
	struct serve_args a = {
	    .listen = "127.0.0.1:8765", .max_connections = 64, .timeout = 15, .threads = 2};
	int first, rc = cli_parse(&cmd_serve_spec, argc, argv, &a, &first);
	struct server s = {.log = true, .lock = PTHREAD_MUTEX_INITIALIZER};
	struct sockaddr_in sin;
	bool writable = false;
	if (rc == ASSAY_OK && a.threads > MAX_THREADS)
		rc = cli_usage_error("serve", "--threads %lld: at most %d", a.threads, MAX_THREADS);
	if (rc == ASSAY_OK)
		rc = parse_listen(a.listen, &sin);
	if (rc == ASSAY_OK)
		rc = read_tokens(&a, &s.srv.tokens, &writable);
	if (rc) {
		store_cli_release(&a.sc);
		assay_serve_release(&s.srv);
		return rc < 0 ? ASSAY_OK : rc;
	}
	s.log = !a.no_log;
	s.writable = writable;
	s.srv.publications = a.publications;
	char *name = assay_store_name(a.sc.path);
	s.srv.store_name = name;
	s.srv.store_path = a.sc.path ? a.sc.path : ASSAY_STORE_DEFAULT_PATH;
	rc = store_cli_open(&a.sc, writable, &s.srv.store);
	if (rc == ASSAY_OK)
		rc = run(&s, &a, &sin);
	if (s.srv.store)
		rc = store_cli_close(s.srv.store, rc);
	assay_serve_release(&s.srv);
	store_cli_release(&a.sc);
	free(name);
	return rc;
}
