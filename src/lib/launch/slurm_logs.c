/* A Slurm case's logs: follow the files Slurm writes per node (and the
 * batch output), redact them as they grow, keep a copy of each in the case
 * folder, and hand whole lines to the runner's watcher and to the case's
 * stdout.log and stderr.log. The unredacted originals are removed at the end. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "slurm_int.h"

#define READ_CHUNK  (1u << 20)
#define MAX_SOURCES 8192

static const char *const merged_names[2] = {"stdout.log", "stderr.log"};
static const char *const stream_names[2] = {"stdout", "stderr"};

static assay_err write_all(int fd, const char *data, size_t len, const char *what,
			   struct assay_error *e)
{
	while (len) {
		ssize_t w = write(fd, data, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return assay_error_at(e, ASSAY_INFRA, what, NULL, 0, "cannot write: %s",
					      strerror(errno));
		data += w;
		len -= (size_t)w;
	}
	return ASSAY_OK;
}

static int create(const char *path, struct assay_error *e)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		assay_error_at(e, ASSAY_INFRA, path, NULL, 0, "cannot write: %s", strerror(errno));
	return fd;
}

assay_err node_logs_open(struct node_logs *n, const char *raw, const char *case_dir,
			 const struct assay_redactor *redact, assay_output_fn on_output, void *ctx,
			 struct assay_error *e)
{
	memset(n, 0, sizeof(*n));
	n->merged[0] = n->merged[1] = -1;
	n->raw = xstrdup(raw);
	n->copies = xasprintf("%s/nodes", case_dir);
	n->redact = redact;
	n->on_output = on_output;
	n->ctx = ctx;
	n->scanned_at = -1e9;
	if (assay_mkdirs(n->copies, e) != ASSAY_OK)
		return ASSAY_INFRA;
	for (int i = 0; i < 2; i++) {
		char *path = xasprintf("%s/%s", case_dir, merged_names[i]);
		n->merged[i] = create(path, e);
		free(path);
		if (n->merged[i] < 0)
			return ASSAY_INFRA;
	}
	return ASSAY_OK;
}

static struct log_source *add_source(struct node_logs *n, const char *name, int stream,
				     struct assay_error *e)
{
	if (n->n >= MAX_SOURCES) {
		assay_error_at(e, ASSAY_INFRA, n->raw, NULL, 0,
			       "more than %d log files: not a case's per-node logs", MAX_SOURCES);
		return NULL;
	}
	ALLOC_GROW(n->v, n->n + 1, n->alloc);
	struct log_source *s = &n->v[n->n];
	memset(s, 0, sizeof(*s));
	s->tail.fd = -1; /* no file unless scan() gives it one */
	s->name = xstrdup(name);
	s->stream = stream;
	s->copy_fd = -1;
	assay_redact_stream_init(&s->rs, n->redact);
	n->n++;
	(void)e;
	return s;
}

/* The copy of a source, made when it first has something: "<job>-<jobid>-
 * <node>.out" is kept as "<node>.out". */
static int copy_fd(struct node_logs *n, struct log_source *s, struct assay_error *e)
{
	if (s->copy_fd >= 0)
		return s->copy_fd;
	const char *name = s->name;
	const char *cut = n->job_id[0] ? strstr(name, n->job_id) : NULL;
	if (cut && cut[strlen(n->job_id)])
		name = cut + strlen(n->job_id);
	char *copy = xasprintf("%s/%s", n->copies, name);
	s->copy_fd = create(copy, e);
	free(copy);
	return s->copy_fd;
}

void node_logs_set_job(struct node_logs *n, const char *job_id)
{
	snprintf(n->job_id, sizeof(n->job_id), "-%s-", job_id);
}

static struct log_source *find_source(struct node_logs *n, const char *name)
{
	for (size_t i = 0; i < n->n; i++)
		if (!strcmp(n->v[i].name, name))
			return &n->v[i];
	return NULL;
}

void node_logs_add_shared(struct node_logs *n, struct assay_tail *t, const char *name)
{
	struct assay_error ignore;
	struct log_source *s = add_source(n, name, 1, &ignore);
	if (s)
		s->shared = t;
}

/* Redacted bytes of one source: copy them, and pass on its whole lines (a
 * partial line too when final, ended with a newline). */
static assay_err deliver(struct node_logs *n, struct log_source *s, const char *data, size_t len,
			 bool final, struct assay_error *e)
{
	if (len &&
	    (copy_fd(n, s, e) < 0 || write_all(s->copy_fd, data, len, n->copies, e) != ASSAY_OK))
		return ASSAY_INFRA;
	sbuf_add(&s->pending, data, len);
	size_t upto = s->pending.len;
	while (upto && s->pending.buf[upto - 1] != '\n' && s->pending.buf[upto - 1] != '\r')
		upto--;
	if (final && s->pending.len > upto) {
		sbuf_addch(&s->pending, '\n');
		upto = s->pending.len;
	} else if (!upto && s->pending.len > READ_CHUNK) {
		upto = s->pending.len; /* a runaway line: pass it on as it is */
	}
	if (!upto)
		return ASSAY_OK;
	if (write_all(n->merged[s->stream], s->pending.buf, upto, merged_names[s->stream], e) !=
	    ASSAY_OK)
		return ASSAY_INFRA;
	if (n->on_output)
		n->on_output(n->ctx, stream_names[s->stream], s->pending.buf, upto);
	memmove(s->pending.buf, s->pending.buf + upto, s->pending.len - upto);
	s->pending.len -= upto;
	s->pending.buf[s->pending.len] = '\0';
	return ASSAY_OK;
}

static assay_err feed(struct node_logs *n, struct log_source *s, const char *data, size_t len,
		      bool final, struct assay_error *e)
{
	struct sbuf red = SBUF_INIT;
	if (len)
		assay_redact_stream_feed(&s->rs, data, len, &red);
	if (final)
		assay_redact_stream_flush(&s->rs, &red);
	assay_err rc = deliver(n, s, red.buf ? red.buf : "", red.len, final, e);
	sbuf_release(&red);
	return rc;
}

assay_err node_logs_push(struct node_logs *n, const char *name, int stream, const char *data,
			 size_t len, struct assay_error *e)
{
	struct log_source *s = find_source(n, name);
	if (!s && !(s = add_source(n, name, stream, e)))
		return ASSAY_INFRA;
	return feed(n, s, data, len, false, e);
}

/* New *.out and *.err files in the raw folder. */
static assay_err scan(struct node_logs *n, struct assay_error *e)
{
	DIR *d = opendir(n->raw);
	if (!d)
		return ASSAY_OK; /* not there yet */
	struct dirent *de;
	assay_err rc = ASSAY_OK;
	while (rc == ASSAY_OK && (de = readdir(d))) {
		const char *name = de->d_name;
		int stream = assay_ends_with(name, ".err")   ? 1
			     : assay_ends_with(name, ".out") ? 0
							     : -1;
		if (stream < 0 || name[0] == '.' || find_source(n, name))
			continue;
		struct log_source *s = add_source(n, name, stream, e);
		if (!s) {
			rc = ASSAY_INFRA;
			break;
		}
		char *path = xasprintf("%s/%s", n->raw, name);
		assay_tail_init(&s->tail, path);
		free(path);
	}
	closedir(d);
	return rc;
}

static assay_err drain(struct node_logs *n, struct log_source *s, bool final, struct assay_error *e)
{
	struct assay_tail *t = s->shared ? s->shared : s->tail.path ? &s->tail : NULL;
	struct sbuf raw = SBUF_INIT;
	assay_err rc = ASSAY_OK;
	if (t && final)
		assay_tail_refresh(t);
	for (;;) {
		sbuf_reset(&raw);
		long long got = t ? assay_tail_read(t, &raw, READ_CHUNK) : 0;
		if (got <= 0)
			break;
		if ((rc = feed(n, s, raw.buf, raw.len, false, e)) != ASSAY_OK ||
		    (size_t)got < READ_CHUNK)
			break;
	}
	if (rc == ASSAY_OK && final)
		rc = feed(n, s, NULL, 0, true, e);
	/* A node (or task) that wrote nothing still gets its copy, empty: it
	 * ran, and a provenance expectation must find it silent. */
	if (rc == ASSAY_OK && final && !s->shared && s->tail.path && copy_fd(n, s, e) < 0)
		rc = ASSAY_INFRA;
	sbuf_release(&raw);
	return rc;
}

assay_err node_logs_poll(struct node_logs *n, bool final, struct assay_error *e)
{
	double now = assay_monotonic();
	if (final || now - n->scanned_at >= 1.0) {
		n->scanned_at = now;
		if (scan(n, e) != ASSAY_OK)
			return ASSAY_INFRA;
	}
	for (size_t i = 0; i < n->n; i++)
		if (drain(n, &n->v[i], final, e) != ASSAY_OK)
			return ASSAY_INFRA;
	return ASSAY_OK;
}

void node_logs_remove_raw(const struct node_logs *n)
{
	if (n->raw)
		assay_remove_flat_dir(n->raw);
}

void node_logs_release(struct node_logs *n)
{
	for (size_t i = 0; i < n->n; i++) {
		struct log_source *s = &n->v[i];
		free(s->name);
		assay_tail_release(&s->tail);
		assay_redact_stream_release(&s->rs);
		sbuf_release(&s->pending);
		if (s->copy_fd >= 0)
			close(s->copy_fd);
	}
	free(n->v);
	for (int i = 0; i < 2; i++)
		if (n->merged[i] >= 0)
			close(n->merged[i]);
	free(n->raw);
	free(n->copies);
	memset(n, 0, sizeof(*n));
	n->merged[0] = n->merged[1] = -1;
}
