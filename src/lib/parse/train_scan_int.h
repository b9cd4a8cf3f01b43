/* Private to the training-log scanner (train_scan.c, train_iteration.c,
 * train_events.c, train_stream.c): its state, the byte-level helpers its
 * files share, and the line readers each offers the others. */
#ifndef ASSAY_PARSE_TRAIN_SCAN_INT_H
#define ASSAY_PARSE_TRAIN_SCAN_INT_H

#include <string.h>

#include "train_scan.h"

/* The scanner's state over one log. */
struct scan {
	const struct train_dialect *d;
	const struct assay_train_opts *o;
	struct assay_train_result *r;
	const char *counted;  /* line numbers are known up to here */
	long line_no;         /* the line that `counted` is on */
	long long log_world;  /* from a logger prefix (Primus rank-R/W) */
	long long line_world; /* from a line that states it */
	long long max_step;   /* the largest step number seen */
	bool unordered;       /* a step came out of order: use the set from then on */
	long long *set;       /* open-addressing set of step numbers seen */
	size_t set_cap, set_n;
	/* Evidence of the format: lines only Primus prints, lines Megatron-LM
	 * prints (Primus prints them too). */
	bool auto_format, ev_primus, ev_megatron;
	unsigned long long fed; /* bytes scanned so far */
	struct assay_classifier *cls;
};

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline bool is_word(char c)
{
	return is_alpha(c) || is_digit(c) || c == '_';
}

static inline const char *skip_spaces(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Does [start, at) end with the literal s? */
static inline bool preceded_by(const char *start, const char *at, const char *s, size_t n)
{
	return (size_t)(at - start) >= n && !memcmp(at - n, s, n);
}

#define LIT(s) s, sizeof(s) - 1

/* A non-negative integer of at most 18 digits at p. */
static inline const char *read_count(const char *p, const char *end, long long *out)
{
	long long v = 0;
	int n = 0;
	while (p < end && is_digit(*p) && n < 18) {
		v = v * 10 + (*p - '0');
		p++;
		n++;
	}
	if (!n || (p < end && is_digit(*p)))
		return NULL;
	*out = v;
	return p;
}

/* The 1-based number of the line starting at ls; lines are counted by
 * their \n (a \r ends a line for the scanner, not for line numbers). */
static inline long line_of(struct scan *s, const char *ls)
{
	const char *p = s->counted;
	if (ls < p) {
		/* Back within the current block (a classified line came first). */
		for (const char *q = ls; q < p && (q = memchr(q, '\n', (size_t)(p - q))); q++)
			s->line_no--;
		s->counted = ls;
		return s->line_no;
	}
	while (p < ls && (p = memchr(p, '\n', (size_t)(ls - p)))) {
		s->line_no++;
		p++;
	}
	s->counted = ls;
	return s->line_no;
}

/* Lines end at \n or \r. */
static inline const char *line_start(const char *lo, const char *h)
{
	const char *nl = h > lo ? memrchr(lo, '\n', (size_t)(h - lo)) : NULL;
	const char *from = nl ? nl + 1 : lo;
	const char *cr = h > from ? memrchr(from, '\r', (size_t)(h - from)) : NULL;
	return cr ? cr + 1 : from;
}

static inline const char *line_end(const char *h, const char *end)
{
	const char *nl = h < end ? memchr(h, '\n', (size_t)(end - h)) : NULL;
	const char *stop = nl ? nl : end;
	const char *cr = h < stop ? memchr(h, '\r', (size_t)(stop - h)) : NULL;
	return cr ? cr : stop;
}

/* The first needle (n >= 2 bytes) in [p, end), as memmem (train_scan.c). */
const char *train_find(const char *p, const char *end, const char *needle, size_t n);
/* Whole lines [data, data + len): the last one may lack its line end
 * (train_scan.c). */
void train_scan_lines(struct scan *s, const char *data, size_t len);

/* "iteration N/ M | label: value | ..." at it (the line [ls, le)): false
 * when the line is not of that shape (train_iteration.c). */
bool train_step_line(struct scan *s, const char *ls, const char *it, const char *le);

/* A last line cut short (train_events.c): only its error signatures. */
void train_scan_cut(struct scan *s, const char *data, size_t len);
/* The lines between iteration lines (train_events.c): those of [lo, hi)
 * holding a keyword of their own, in order; then the error signatures. */
void train_scan_gap(struct scan *s, const char *lo, const char *hi);
/* The lines that hold "iteration" but are not iteration lines, from
 * train_scan.c's iteration_word(): a memory report (p at its first "|"), a
 * checkpoint, its timer (h at "-checkpoint"), an evaluation (its step, -1
 * at the end of training) and the summary of a metric (val after its
 * colon). */
void train_memory_line(struct scan *s, const char *ls, const char *p, const char *le);
void train_add_ckpt(struct assay_train_result *r, enum assay_ckpt_op op, long long iteration,
		    double ms, long line);
void train_timer_line(struct scan *s, const char *ls, const char *h, const char *le);
void train_eval_line(struct scan *s, const char *ls, const char *from, const char *le,
		     long long step);
/* A step's values for CVS's fallback means (assay_train_cvs_value()):
 * unique, or another copy of a step already read (counted by CVS only). */
void train_cvs_count(struct assay_train_result *r, const struct assay_train_step *s, bool unique);
void train_summary(struct scan *s, int metric, const char *val, const char *le, const char *ls);

/* The log's last lines as ROCm/cvs's older library reads them
 * (train_cvs_tail.c): fed every byte, and at the end its patterns' matches
 * counted into r->cvs_old_n, cvs_old_min, cvs_old_bad. */
struct cvs_tail {
	char *buf;
	size_t len, cap;
};
void cvs_tail_feed(struct cvs_tail *t, const char *data, size_t len);
void cvs_tail_end(struct cvs_tail *t, struct assay_train_result *r);

#endif
