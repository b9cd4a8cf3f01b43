/* Watching: while a case runs, its output and log files are scanned for
 * error signatures (PCRE2 with JIT). Built-in families cover NCCL/RCCL
 * errors and timeouts, GPU faults, out of memory, torch.distributed elastic
 * failures, Python tracebacks, crashes and MPI aborts; suites add their own
 * patterns and benign patterns that suppress a match on their line. Input is
 * consumed incrementally: each byte is scanned once, lines split across
 * reads are joined. docs/suite.md lists the built-in signatures. */
#ifndef ASSAY_WATCH_H
#define ASSAY_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "assay/error.h"
#include "assay/util.h"

struct assay_builtin_signature {
	const char *family;
	const char *name;
	const char *pattern;
	/* Literals at least one of which occurs in every match (NULL-terminated):
	 * one pass over the input finds the few lines worth running the
	 * patterns on. */
	const char *const *anchors;
};
/* The built-in signatures, terminated by a row with name NULL. */
extern const struct assay_builtin_signature assay_builtin_signatures[];

struct assay_signature {
	char *name;
	char *family; /* built-in family, "user" for suite patterns */
	char *pattern;
	bool benign;                /* a line that matches a benign pattern never fails a case */
	void *code;                 /* pcre2_code */
	const char *const *anchors; /* built-ins: see above; NULL: scan with the pattern */
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
/* Remove the error signatures called name, or of family name. Returns how
 * many were removed (0: no such name or family). */
size_t assay_sigset_disable(struct assay_sigset *set, const char *name);
const struct assay_signature *assay_sigset_find(const struct assay_sigset *set, const char *name);
void assay_sigset_release(struct assay_sigset *set);

/* What ended a case. */
struct assay_match {
	char *signature;
	char *family;
	char *source; /* "stdout", "stderr" or a log file path */
	char *line;   /* the matching line, without its line end, at most 1000 bytes */
};
void assay_match_release(struct assay_match *m);

/* Scans one input (a stream or a file) for the first error signature. */
struct assay_scanner {
	const struct assay_sigset *set;
	char *source;
	struct sbuf partial; /* the unterminated last line so far */
	void *md;            /* pcre2_match_data */
	bool matched;
	struct assay_match match;
	unsigned long long bytes; /* scanned so far */
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
/* Feed the next bytes. Returns true once a signature has matched (s->match);
 * after that further input is ignored. Lines end at \n or \r. */
bool assay_scanner_feed(struct assay_scanner *s, const char *data, size_t len);
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
