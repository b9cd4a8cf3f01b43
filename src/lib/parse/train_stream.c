/* Training logs as a stream: each block's whole lines go to the scanner at
 * once, the unterminated last line is carried to the next block, and a line
 * longer than ASSAY_TRAIN_LINE_CAP is scanned in overlapping pieces; at the
 * end the format (for "auto") and the result are settled. */
#include <stdlib.h>
#include <string.h>

#include "assay/watch.h"
#include "train_scan_int.h"

struct assay_train_stream {
	struct scan s;
	struct assay_train_result *r;
	struct assay_train_opts o;
	char *carry; /* the unterminated last line so far, at most ASSAY_TRAIN_LINE_CAP */
	size_t carry_len;
	bool in_long; /* carry continues a line longer than the cap */
	struct cvs_tail tail;
};

struct assay_train_stream *assay_train_stream_new(const char *format,
						  const struct assay_train_opts *o,
						  struct assay_train_result *r)
{
	struct assay_train_stream *st = xcalloc(1, sizeof(*st));
	if (o)
		st->o = *o;
	else
		assay_train_opts_init(&st->o);
	bool is_auto = !strcmp(format, "auto");
	const struct train_dialect *d =
	    !strcmp(format, "megatron") ? &train_megatron : &train_primus;
	train_result_init(r, d->name);
	r->keep = st->o.keep_steps ? st->o.keep_steps : ASSAY_TRAIN_KEEP_STEPS;
	r->warm_cap = st->o.warm_record ? st->o.warm_record : ASSAY_TRAIN_WARM_RECORD;
	st->r = r;
	st->s.d = d;
	st->s.o = &st->o;
	st->s.r = r;
	st->s.line_no = 1;
	st->s.auto_format = is_auto;
	if (!st->o.no_errors)
		st->s.cls = assay_classifier_new();
	st->carry = xmalloc(ASSAY_TRAIN_LINE_CAP);
	return st;
}

/* A piece of a line longer than the cap: scanned, and its last
 * PIECE_OVERLAP bytes begin the next piece, so a marker across the cut
 * (every keyword is shorter) is seen whole in one of them. An iteration
 * record that starts in the piece's last RECORD_MAX bytes is not scanned
 * there: the piece ends before it (the overlap with it), and the next piece
 * reads the record whole. */
#define PIECE_OVERLAP 256
#define RECORD_MAX    (64u << 10)
static bool record_start(const char *h, const char *end)
{
	const char *p = h + 9;
	if (end - p >= 9 && !memcmp(p, "s) memory", 9))
		return true; /* "(after N iterations) memory (MB) | ..." */
	p = skip_spaces(p, end);
	return p < end && is_digit(*p); /* "iteration N/ M |", "... at iteration N |" */
}

static size_t piece_end(const struct assay_train_stream *st)
{
	const char *end = st->carry + st->carry_len, *last = NULL;
	for (const char *h = end - RECORD_MAX; (h = train_find(h, end, LIT("iteration"))) != NULL;
	     h += 9)
		if (record_start(h, end))
			last = h;
	return last ? (size_t)(last - st->carry) : st->carry_len;
}

static void long_piece(struct assay_train_stream *st)
{
	struct assay_train_result *r = st->r;
	if (!st->in_long) {
		st->in_long = true;
		if (!r->long_lines++)
			r->long_line_first = st->s.line_no;
	}
	long line = st->s.line_no;
	size_t end = piece_end(st);
	train_scan_lines(&st->s, st->carry, end);
	st->s.line_no = line; /* the line goes on */
	size_t keep = st->carry_len - end + PIECE_OVERLAP;
	memmove(st->carry, st->carry + st->carry_len - keep, keep);
	st->carry_len = keep;
}

/* Append [p, p + n) to the carried line, scanning pieces of a long one. */
static void carry_add(struct assay_train_stream *st, const char *p, size_t n)
{
	while (n) {
		size_t room = ASSAY_TRAIN_LINE_CAP - st->carry_len;
		size_t take = n < room ? n : room;
		memcpy(st->carry + st->carry_len, p, take);
		st->carry_len += take;
		p += take;
		n -= take;
		if (st->carry_len == ASSAY_TRAIN_LINE_CAP)
			long_piece(st);
	}
}

static const char *first_eol(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	const char *stop = nl ? nl : end;
	const char *cr = p < stop ? memchr(p, '\r', (size_t)(stop - p)) : NULL;
	return cr ? cr : nl;
}

static const char *last_eol(const char *p, const char *end)
{
	const char *nl = memrchr(p, '\n', (size_t)(end - p));
	const char *from = nl ? nl + 1 : p;
	const char *cr = from < end ? memrchr(from, '\r', (size_t)(end - from)) : NULL;
	return cr ? cr : nl;
}

void assay_train_stream_feed(struct assay_train_stream *st, const char *data, size_t len)
{
	const char *p = data, *end = data + len;
	if (!len)
		return;
	cvs_tail_feed(&st->tail, data, len);
	if (st->carry_len || st->in_long) {
		const char *eol = first_eol(p, end);
		if (!eol) {
			carry_add(st, p, len);
			return;
		}
		carry_add(st, p, (size_t)(eol + 1 - p));
		train_scan_lines(&st->s, st->carry, st->carry_len);
		st->carry_len = 0;
		st->in_long = false;
		p = eol + 1;
	}
	if (p >= end)
		return;
	const char *last = last_eol(p, end);
	if (last) {
		train_scan_lines(&st->s, p, (size_t)(last + 1 - p));
		p = last + 1;
	}
	carry_add(st, p, (size_t)(end - p));
}

/* The last line has no line end. Complete by its own grammar (it closes
 * with the "|" after a field) it is read as any other; cut anywhere else,
 * its values could be cut too ("80" of "80.4", "1.234567" of
 * "1.234567E+01"), so only its error signatures are read. */
static void last_line(struct assay_train_stream *st)
{
	const char *p = st->carry, *e = p + st->carry_len;
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (e > p && e[-1] == '|') {
		train_scan_lines(&st->s, st->carry, st->carry_len);
		return;
	}
	st->r->cut_line = st->s.line_no;
	train_scan_cut(&st->s, st->carry, st->carry_len);
}

assay_err assay_train_stream_end(struct assay_train_stream *st, const char *file,
				 struct assay_error *e)
{
	struct scan *s = &st->s;
	struct assay_train_result *r = st->r;
	bool unterminated = st->carry_len > 0;
	if (st->carry_len)
		last_line(st);
	/* line_no is the line after the last line end; a last line without
	 * one is a line too (as tail(1) counts them). */
	r->n_lines = s->line_no - (unterminated ? 0 : 1);
	cvs_tail_end(&st->tail, r);
	assay_err rc = ASSAY_OK;
	if (s->auto_format) {
		if (s->ev_primus)
			r->format = train_primus.name;
		else if (s->ev_megatron)
			r->format = train_megatron.name;
		else if (r->n_errors) {
			/* It crashed before any line that tells the format: a
			 * failed workload with its errors, read as Megatron-LM's
			 * lines (Primus prints them too). */
			r->format = train_megatron.name;
			r->format_unknown = true;
		} else
			rc = assay_error_at(e, ASSAY_USAGE, file, NULL, 0,
					    "cannot tell the format: not a Megatron-LM or Primus "
					    "log, nor a golden-values file (use --input-format)");
	}
	long long world = s->line_world ? s->line_world : s->log_world;
	train_finish(r, &st->o, world);
	free(s->set);
	assay_classifier_free(s->cls);
	free(st->carry);
	free(st);
	return rc;
}
