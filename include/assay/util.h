/* Small shared helpers: allocation that cannot fail silently, a growable
 * string buffer, whole-file reading, string lists and UTC timestamps. */
#ifndef ASSAY_UTIL_H
#define ASSAY_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <stdint.h>
#include <stdio.h>

#include "assay/error.h"

/* Allocation: on exhaustion these abort(), the one way the library may end
 * the process (there is nothing sensible to report without memory). */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) ASSAY_PRINTF(1, 2);

/* Grow array p (of *alloc elements) so that it holds at least nr elements. */
#define ALLOC_GROW(p, nr, alloc)                                                                   \
	do {                                                                                       \
		if ((nr) > (alloc)) {                                                              \
			size_t grow_ = (alloc) < 16 ? 16 : (alloc)*2;                              \
			if (grow_ < (nr))                                                          \
				grow_ = (nr);                                                      \
			(p) = xrealloc((p), grow_ * sizeof(*(p)));                                 \
			(alloc) = grow_;                                                           \
		}                                                                                  \
	} while (0)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Spreads a 64-bit key over all bits (splitmix64's finalizer), for the
 * bucket of an open-addressing hash table: mix & (capacity - 1). */
static inline uint64_t assay_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* A growable, always NUL-terminated string. */
struct sbuf {
	char *buf;
	size_t len;
	size_t alloc;
};
#define SBUF_INIT                                                                                  \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}
void sbuf_init(struct sbuf *sb);
void sbuf_release(struct sbuf *sb);
void sbuf_reset(struct sbuf *sb);
void sbuf_grow(struct sbuf *sb, size_t extra);
void sbuf_add(struct sbuf *sb, const void *data, size_t n);
void sbuf_adds(struct sbuf *sb, const char *s);
void sbuf_addch(struct sbuf *sb, char c);
void sbuf_addf(struct sbuf *sb, const char *fmt, ...) ASSAY_PRINTF(2, 3);
/* Returns buf ("" when empty, never NULL). */
const char *sbuf_str(const struct sbuf *sb);
/* Hands the buffer to the caller and resets sb. */
char *sbuf_detach(struct sbuf *sb, size_t *len);

/* A list of owned strings. */
struct strlist {
	char **v;
	size_t n;
	size_t alloc;
};
#define STRLIST_INIT                                                                               \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}
void strlist_push(struct strlist *l, const char *s);
bool strlist_has(const struct strlist *l, const char *s);
void strlist_clear(struct strlist *l);
/* Join with sep into a new string. */
char *strlist_join(const struct strlist *l, const char *sep);

/* Read a whole file (NUL-terminated; *len excludes the NUL). On failure
 * returns NULL and fills e with ASSAY_USAGE naming the file. */
char *assay_read_file(const char *path, size_t *len, struct assay_error *e);
/* A whole file, mapped read-only when it is a regular file (no copy; the
 * bytes are not NUL-terminated then, and the file must not shrink while
 * mapped) and read otherwise (pipes, /dev/stdin). Errors as
 * assay_read_file(); release with assay_unmap_file(). */
struct assay_file_map {
	const char *data; /* never NULL after success */
	size_t len;
	void *base; /* what to unmap or free */
	bool mapped;
};
assay_err assay_map_file(const char *path, struct assay_file_map *m, struct assay_error *e);
void assay_unmap_file(struct assay_file_map *m);
/* read() until n bytes or the end (EINTR retried): the count read, fewer
 * than n only at the end, or -1 with errno set. */
ssize_t assay_read_full(int fd, void *buf, size_t n);
/* write() all n bytes (EINTR retried); false with errno set on failure. */
bool assay_write_full(int fd, const void *buf, size_t n);
/* Write data to path atomically (temporary file and rename); ASSAY_INFRA. */
assay_err assay_write_file_atomic(const char *path, const void *data, size_t len,
				  struct assay_error *e);
/* mkdir -p; ASSAY_INFRA on failure. */
assay_err assay_mkdirs(const char *path, struct assay_error *e);
/* Remove a folder of plain files (best effort: what cannot go stays). */
void assay_remove_flat_dir(const char *dir);

/* UTC time as RFC 3339 with seconds, e.g. 2026-11-30T19:15:02Z. */
void assay_time_rfc3339(int64_t unix_seconds, char out[32]);
void assay_now_rfc3339(char out[32]);
/* Parse RFC 3339 (T or space, optional fraction, Z or +hh:mm; no zone means
 * UTC) or a bare date YYYY-MM-DD into whole Unix seconds (fraction dropped). */
bool assay_time_parse(const char *s, int64_t *unix_seconds);
/* s (as assay_time_parse reads it) in UTC with its fraction of a second
 * kept: 2026-05-01T03:04:05.123456Z (trailing zeros dropped, at most 9
 * digits; no fraction, or an all-zero one, gives whole seconds). False
 * when s is not a time. */
bool assay_time_canonical(const char *s, char out[32]);
/* Whether a canonical time has a fraction of a second; its whole second
 * (the text without the fraction) into sec[32] when it has. */
bool assay_time_whole_second(const char *ts, char sec[32]);
/* Monotonic clock in seconds. */
double assay_monotonic(void);

/* Strict number parsing of a whole string. */
bool assay_parse_long(const char *s, long long *out);
bool assay_parse_double(const char *s, double *out);

bool assay_starts_with(const char *s, const char *prefix);
bool assay_ends_with(const char *s, const char *suffix);
/* A shell variable name: a letter or '_', then letters, digits and '_'. */
bool assay_env_name_valid(const char *s);

#endif
