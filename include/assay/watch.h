/* Watching: while a case runs, its output and log files are scanned for
 * error signatures (PCRE2 with JIT). Built-in families cover NCCL/RCCL
 * errors and timeouts, GPU faults, out of memory, torch.distributed elastic
 * failures, Python tracebacks, crashes and MPI aborts; suites add their own
 * patterns and benign patterns that suppress a match on their line. Input is
 * consumed incrementally: each byte is scanned once, lines split across
 * reads are joined. After the first match the scanner reads on for a settle
 * window, where a signature of a higher-priority family takes over and a
 * Python traceback gets its exception line. docs/suite.md lists the
 * built-in signatures and the family priorities. */
#ifndef ASSAY_WATCH_H
#define ASSAY_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "assay/error.h"
#include "assay/util.h"

/* What a match reports as its line. */
enum assay_sig_context {
	ASSAY_SIG_LINE,         /* the matching line */
	ASSAY_SIG_PY_TRACEBACK, /* the traceback's exception line, once read */
};

struct assay_builtin_signature {
	const char *family;
	const char *name;
	const char *pattern;
	/* Literals at least one of which occurs in every match (NULL-terminated):
	 * one pass over the input finds the few lines worth running the
	 * patterns on. */
	const char *const *anchors;
	enum assay_sig_context context;
};
/* The built-in signatures, terminated by a row with name NULL. */
extern const struct assay_builtin_signature assay_builtin_signatures[];

/* Family priorities: within one settle window the match of the highest
 * priority wins (ties: the earliest). The most specific families rank
 * highest: a GPU fault explains the out-of-memory, NCCL and traceback lines
 * that follow it, and a traceback header says only that Python failed. */
struct assay_signature_family {
	const char *name;
	int priority;
};
/* Terminated by a row with name NULL; includes "user" (suite patterns). */
extern const struct assay_signature_family assay_signature_families[];
/* The priority of family name; 0 when it is not one of the table's. */
int assay_signature_family_priority(const char *family);

/* The settle window's defaults: after the first match, read on for this
 * long or this many lines, whichever comes first, before the case stops. */
#define ASSAY_SETTLE_S     2.0
#define ASSAY_SETTLE_LINES 50
/* A line without its line end is scanned once no byte came for this long. */
#define ASSAY_PARTIAL_WAIT_S 0.2

struct assay_signature {
	char *name;
	char *family; /* built-in family, "user" for suite patterns */
	char *pattern;
	bool benign;                /* a line that matches a benign pattern never fails a case */
	void *code;                 /* pcre2_code */
	const char *const *anchors; /* built-ins: see above; NULL: scan with the pattern */
	int priority;               /* its family's, or the suite's for its own */
	double settle_s;            /* the settle window a first match opens */
	unsigned settle_lines;
	enum assay_sig_context context;
};

struct assay_sigset {
	struct assay_signature *v;
	size_t n, alloc;
};
#define ASSAY_SIGSET_INIT                                                                          \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

/* Compile every built-in signature into set. */
void assay_sigset_add_builtins(struct assay_sigset *set);
/* Add a pattern. ASSAY_USAGE when the name is taken or the pattern does not
 * compile ("invalid pattern at offset N: ..."). */
assay_err assay_sigset_add(struct assay_sigset *set, const char *name, const char *pattern,
			   bool benign, struct assay_error *e);
/* Set the settle window (and, priority >= 0, the priority) of the error
 * signatures called name, or of family name. Returns how many were set. */
size_t assay_sigset_tune(struct assay_sigset *set, const char *name, double settle_s,
			 unsigned settle_lines, int priority);
/* Remove the error signatures called name, or of family name. Returns how
 * many were removed (0: no such name or family). */
size_t assay_sigset_disable(struct assay_sigset *set, const char *name);
const struct assay_signature *assay_sigset_find(const struct assay_sigset *set, const char *name);
void assay_sigset_release(struct assay_sigset *set);

/* One pattern on its own, compiled as signatures are (PCRE2, multi-line,
 * any of \n \r \r\n ends a line): NULL with "invalid pattern at offset N:
 * ..." (ASSAY_USAGE) when it does not compile. search: the first match in
 * [data, data + len), its bytes [*start, *end). */
void *assay_pattern_compile(const char *pattern, struct assay_error *e);
bool assay_pattern_search(const void *code, const char *data, size_t len, size_t *start,
			  size_t *end);
void assay_pattern_free(void *code);

/* Removes terminal escape sequences (colours, titles) from [s, s + n) in
 * place, for text that is shown; returns the new length (NUL-terminated
 * when shorter). */
size_t assay_ansi_strip(char *s, size_t n);

/* What ended a case. */
struct assay_match {
	char *signature;
	char *family;
	char *source; /* "stdout", "stderr" or a log file path */
	/* The matching line, without its line end, at most 1000 bytes; for a
	 * Python traceback the exception line once it was read. */
	char *line;
	int priority;
	double settle_s; /* the window the signature opens */
	unsigned settle_lines;
	double at; /* assay_monotonic() when it matched */
};
void assay_match_release(struct assay_match *m);

/* Scans one input (a stream or a file) for the first error signature. */
struct assay_scanner {
	const struct assay_sigset *set;
	char *source;
	struct sbuf partial; /* the unterminated last line so far */
	void *md;            /* pcre2_match_data */
	bool matched;        /* match holds the best match so far */
	bool closed;         /* the settle window is over: input is ignored */
	struct assay_match match;
	unsigned long long bytes; /* scanned so far */
	unsigned lines_after;     /* lines read since the first match */
	double fed_at;            /* assay_monotonic() of the last feed */
	size_t partial_scanned;   /* bytes of partial already scanned as a line */
	/* A Python traceback being read: the header's prefix ("[rank0]: "). */
	bool in_traceback;
	char *tb_prefix;
	/* The anchor prefilter: bigram -> bucket of anchors starting with it. */
	unsigned char *bigram; /* 65536 entries, 0: no anchor starts so */
	const char **anchors;  /* grouped by bucket */
	size_t *bucket_start;  /* bucket b holds anchors [start[b], start[b+1]) */
	size_t n_buckets;
	size_t *unanchored; /* indexes of error signatures without anchors */
	size_t n_unanchored;
};

void assay_scanner_init(struct assay_scanner *s, const struct assay_sigset *set,
			const char *source);
/* Feed the next bytes. Returns true once a signature has matched (s->match).
 * After the first match the scanner keeps reading for its settle window:
 * a later line of a higher-priority family replaces the match; once
 * settle_lines lines were read the window closes (s->closed) and further
 * input is ignored. Lines end at \n or \r. */
bool assay_scanner_feed(struct assay_scanner *s, const char *data, size_t len);
/* Time passes (now: assay_monotonic()): a line without its line end that
 * got no byte for ASSAY_PARTIAL_WAIT_S is scanned as it stands. */
bool assay_scanner_tick(struct assay_scanner *s, double now);
/* Close the settle window: the match is final, further input is ignored. */
void assay_scanner_close(struct assay_scanner *s);
/* End of input: scan the unterminated last line. */
bool assay_scanner_finish(struct assay_scanner *s);
void assay_scanner_release(struct assay_scanner *s);

/* Classifying a finished log (src/lib/watch/classify.c): the built-in
 * signatures above, applied to every line of a block after the fact, as
 * `assay parse` and `assay gate --log` do. */
struct assay_classifier;
struct assay_classifier *assay_classifier_new(void);
void assay_classifier_free(struct assay_classifier *c);
/* Calls hit once for every line of [data, data + len) (lines end at \n or
 * \r; a line cut at either end of the block is taken as it stands) that an
 * error signature matches: the first in table order. offset is the line's
 * start in data. Returns how many lines matched. */
size_t assay_classify(struct assay_classifier *c, const char *data, size_t len,
		      void (*hit)(void *arg, const struct assay_builtin_signature *sig,
				  const char *line, size_t n, size_t offset),
		      void *arg);

/* Follows a growing file: each read returns only the bytes appended since
 * the last one. A file that does not exist yet reads as empty; one that was
 * truncated or replaced is read again from its start. */
struct assay_tail {
	char *path;
	int fd;
	unsigned long long off;
	dev_t dev;
	ino_t ino;
};
void assay_tail_init(struct assay_tail *t, const char *path);
/* Start at the file's current end (when it exists): what was there before,
 * e.g. an earlier case's lines in a shared log, is not read. */
void assay_tail_skip_existing(struct assay_tail *t);
/* Append at most max new bytes to out; returns how many (0: nothing new),
 * or -1 with errno set when the file exists but cannot be read. */
long long assay_tail_read(struct assay_tail *t, struct sbuf *out, size_t max);
/* Open the file again, keeping the offset when it is the same file: on a
 * network file system a fresh open sees what other hosts wrote last. */
void assay_tail_refresh(struct assay_tail *t);
void assay_tail_release(struct assay_tail *t);

#endif
