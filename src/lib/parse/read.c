/* The results reader (include/assay/parse.h): every command reads a result
 * file here. A file or an open fd, its format found by assay_results_format(),
 * read whole and parsed by its row of the table, or a training text log fed
 * block by block to assay_train_stream (assay parse) in bounded memory. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/json.h"
#include "assay/parse.h"
#include "assay/training.h"

#define BLOCK (1u << 20)

static bool named(const char *hint)
{
	return hint && strcmp(hint, "auto");
}

static void results_init(const struct assay_results_opts *o, struct assay_results *out)
{
	out->format = NULL;
	out->fail = ASSAY_RESULTS_OK;
	out->sha256[0] = '\0';
	out->streamed = false;
	out->fd = -1;
	if (o->train)
		memset(o->train, 0, sizeof(*o->train));
}

static assay_err fail(struct assay_results *out, enum assay_results_fail why, assay_err rc)
{
	out->fail = why;
	return rc;
}

static assay_err unreadable(const char *file, int err, struct assay_results *out,
			    struct assay_error *e)
{
	return fail(
	    out, ASSAY_RESULTS_UNREADABLE,
	    assay_error_at(e, ASSAY_USAGE, file, NULL, 0, "cannot read: %s", strerror(err)));
}

/* No format: the hint names none, or none claims the content. */
static assay_err no_format(const char *file, const char *hint, struct assay_results *out,
			   struct assay_error *e)
{
	if (named(hint))
		return fail(
		    out, ASSAY_RESULTS_UNKNOWN,
		    assay_error_at(e, ASSAY_USAGE, file, NULL, 0, "unknown format '%s'", hint));
	return fail(out, ASSAY_RESULTS_UNDETECTED,
		    assay_error_at(e, ASSAY_USAGE, file, NULL, 0,
				   "cannot tell the format from the content"));
}

/* Parse the bytes as f: a training format through assay_train_parse (its
 * result in o->train when asked), any other by its row's parse. */
static assay_err parse_as(const struct assay_format *f, const char *file, const char *data,
			  size_t len, const struct assay_results_opts *o, struct assay_results *out,
			  struct assay_error *e)
{
	struct assay_parse_opts po = o->parse;
	po.file = file;
	out->format = f;
	assay_err rc = ASSAY_OK;
	if (!f->training) {
		if (!o->no_rows)
			rc = f->parse(data, len, &po, &out->rows, e);
	} else {
		struct assay_train_result own, *r = o->train ? o->train : &own;
		rc = assay_train_parse(f->name, data, len, o->train_opts, file, r, e);
		if (rc == ASSAY_OK && !o->no_rows)
			rc = assay_train_rows(r, &po, &out->rows, e);
		if (r == &own)
			assay_train_result_release(&own);
	}
	return rc == ASSAY_OK ? ASSAY_OK : fail(out, ASSAY_RESULTS_INVALID, rc);
}

static assay_err parse_bytes(const char *file, const char *data, size_t len,
			     const struct assay_results_opts *o, struct assay_results *out,
			     struct assay_error *e)
{
	const struct assay_format *f = assay_results_format(o->hint, data, len, o->by);
	if (!f)
		return no_format(file, o->hint, out, e);
	return parse_as(f, file, data, len, o, out, e);
}

assay_err assay_results_parse(const char *file, const char *data, size_t len,
			      const struct assay_results_opts *o, struct assay_results *out,
			      struct assay_error *e)
{
	results_init(o, out);
	return parse_bytes(file, data, len, o, out, e);
}

/* ---- streaming a training text log ---- */

/* For opts.again on a pipe: an unlinked temporary file, or -1 (e set). */
static int keep_copy(const char *file, const char *why, struct assay_error *e)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof(path), "%s/assay-parse-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	if (fd < 0) {
		assay_error_at(e, ASSAY_INFRA, file, NULL, 0,
			       "cannot keep a copy of the input for %s: %s", why, strerror(errno));
		return -1;
	}
	unlink(path);
	return fd;
}

/* Feed fd to ts after the first n bytes in buf (a BLOCK), copying every byte
 * to tee when it is >= 0. 0, or the errno of a failed read or copy. */
static int feed(struct assay_train_stream *ts, int fd, int tee, const struct assay_results_opts *o,
		const char *file, char *buf, ssize_t n)
{
	int err = 0;
	while (n > 0) {
		if (tee >= 0 && write(tee, buf, (size_t)n) != n) {
			err = errno ? errno : EIO;
			break;
		}
		assay_train_stream_feed(ts, buf, (size_t)n);
		if (n < (ssize_t)BLOCK)
			break;
		if (tee < 0 && o->feed_rest)
			o->feed_rest(ts, fd, file);
		n = assay_read_full(fd, buf, BLOCK);
	}
	if (n < 0)
		err = errno;
	return err;
}

/* What the stream ended with: format "auto" that no line placed is
 * undetected; the log's rows (its warm-up taken out exactly first). */
static assay_err stream_rows(const char *file, int fd, const char *format, int err, assay_err rc,
			     struct assay_train_result *r, const struct assay_results_opts *o,
			     struct assay_results *out, struct assay_error *e)
{
	if (rc == ASSAY_USAGE && !strcmp(format, "auto") && !err)
		return fail(out, ASSAY_RESULTS_UNDETECTED, rc);
	if (rc != ASSAY_OK)
		return fail(out, ASSAY_RESULTS_INVALID, rc);
	if (err)
		return unreadable(file, err, out, e);
	if (!o->no_rows && r->stride > 1)
		rc = assay_train_refine(r, fd, o->train_opts, file, e);
	if (rc == ASSAY_OK && !o->no_rows) {
		struct assay_parse_opts po = o->parse;
		po.file = file;
		rc = assay_train_rows(r, &po, &out->rows, e);
	}
	if (rc != ASSAY_OK)
		return fail(out, ASSAY_RESULTS_INVALID, rc);
	out->format = assay_format_find(r->format);
	out->streamed = true;
	return ASSAY_OK;
}

/* A training text log as a stream from fd, after the first n bytes in buf. */
static assay_err read_stream(const char *file, int fd, const char *format, char *buf, ssize_t n,
			     const struct assay_results_opts *o, struct assay_results *out,
			     struct assay_error *e)
{
	int tee = -1;
	struct stat st;
	if (o->again && (fstat(fd, &st) || !S_ISREG(st.st_mode)) &&
	    (tee = keep_copy(file, o->again, e)) < 0)
		return fail(out, ASSAY_RESULTS_UNREADABLE, ASSAY_INFRA);
	struct assay_train_result own, *r = o->train ? o->train : &own;
	struct assay_train_stream *ts = assay_train_stream_new(format, o->train_opts, r);
	int err = feed(ts, fd, tee, o, file, buf, n);
	assay_err rc = assay_train_stream_end(ts, file, e);
	rc = stream_rows(file, fd, format, err, rc, r, o, out, e);
	if (rc == ASSAY_OK && o->again) {
		out->fd = tee >= 0 ? tee : dup(fd);
		tee = -1;
	}
	if (tee >= 0)
		close(tee);
	if (r == &own)
		assay_train_result_release(&own);
	return rc;
}

/* ---- reading ---- */

/* With opts.stream, the format to stream the log as (the hint, or "auto"
 * for what no other row claims in the first block), or NULL with *f the
 * format that reads it whole (NULL: none). */
static const char *stream_as(const struct assay_results_opts *o, const char *head, size_t n,
			     const struct assay_format **f)
{
	*f = NULL;
	if (!o->stream)
		return NULL;
	*f = assay_results_format(o->hint, head, n, o->by);
	if (named(o->hint))
		return *f && (*f)->stream ? (*f)->name : NULL;
	return *f && !(*f)->stream ? NULL : "auto";
}

/* The whole input from fd, after its first n bytes in buf, parsed as f
 * (or as its content says when f is NULL and not streaming). */
static assay_err read_whole(const char *file, int fd, const struct assay_format *f, char *buf,
			    ssize_t n, const struct assay_results_opts *o,
			    struct assay_results *out, struct assay_error *e)
{
	if (o->stream && !f)
		return no_format(file, o->hint, out, e);
	struct sbuf all = SBUF_INIT;
	sbuf_add(&all, buf, (size_t)n);
	while (n == (ssize_t)BLOCK) {
		n = assay_read_full(fd, buf, BLOCK);
		if (n > 0)
			sbuf_add(&all, buf, (size_t)n);
	}
	assay_err rc;
	if (n < 0) {
		rc = unreadable(file, errno, out, e);
	} else {
		const char *data = all.buf ? all.buf : "";
		if (o->sha256)
			assay_sha256_hex(data, all.len, out->sha256);
		rc = o->stream ? parse_as(f, file, data, all.len, o, out, e)
			       : parse_bytes(file, data, all.len, o, out, e);
	}
	sbuf_release(&all);
	return rc;
}

static assay_err read_fd(const char *file, int fd, const struct assay_results_opts *o,
			 struct assay_results *out, struct assay_error *e)
{
	char *buf = xmalloc(BLOCK);
	ssize_t n = assay_read_full(fd, buf, BLOCK);
	assay_err rc;
	if (n < 0) {
		rc = unreadable(file, errno, out, e);
	} else {
		const struct assay_format *f;
		const char *stream = stream_as(o, buf, (size_t)n, &f);
		rc = stream ? read_stream(file, fd, stream, buf, n, o, out, e)
			    : read_whole(file, fd, f, buf, n, o, out, e);
	}
	free(buf);
	return rc;
}

/* A path read whole, not streamed: as assay_read_file reads it. */
static assay_err read_path(const char *file, const struct assay_results_opts *o,
			   struct assay_results *out, struct assay_error *e)
{
	size_t len;
	char *data = assay_read_file(file, &len, e);
	if (!data)
		return fail(out, ASSAY_RESULTS_UNREADABLE, e->code);
	if (o->sha256)
		assay_sha256_hex(data, len, out->sha256);
	assay_err rc = parse_bytes(file, data, len, o, out, e);
	free(data);
	return rc;
}

assay_err assay_results_read(const char *file, int fd, const struct assay_results_opts *o,
			     struct assay_results *out, struct assay_error *e)
{
	results_init(o, out);
	if (fd < 0 && !o->stream)
		return read_path(file, o, out, e);
	bool own = fd < 0;
	if (own && (fd = open(file, O_RDONLY | O_CLOEXEC)) < 0)
		return unreadable(file, errno, out, e);
	assay_err rc = read_fd(file, fd, o, out, e);
	if (own)
		close(fd);
	return rc;
}

assay_err assay_read_results(const char *path, const char *hint, enum assay_detect_by by,
			     const struct assay_parse_opts *o, struct assay_results *out,
			     struct assay_error *e)
{
	struct assay_results_opts ro = {.hint = hint, .by = by, .parse = *o, .sha256 = true};
	return assay_results_read(path, -1, &ro, out, e);
}
