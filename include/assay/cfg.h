/* Config validation helpers: every check names the file and the JSON path
 * and says what was expected and what was found, e.g.
 *   configs/sweep.json: $.timing.trials: expected a positive integer, got "8"
 * All return -1 on error (ASSAY_USAGE in c->err), 0 when an optional key is
 * absent, 1 when the value was read. */
#ifndef ASSAY_CFG_H
#define ASSAY_CFG_H

#include <jansson.h>
#include <stdbool.h>

#include "assay/error.h"
#include "assay/util.h"

struct assay_cfg {
	const char *file;
	struct assay_error *err;
};

enum { ASSAY_CFG_OPTIONAL = 0, ASSAY_CFG_REQUIRED = 1 };

/* Fail with a message at path (printf-style). Always returns -1. */
int assay_cfg_fail(struct assay_cfg *c, const char *path, const char *fmt, ...) ASSAY_PRINTF(3, 4);
/* Fail with "expected <what>, got <brief v>". */
int assay_cfg_expected(struct assay_cfg *c, const char *path, const char *what, const json_t *v);

/* v must be an object whose keys are all in the NULL-terminated list. */
int assay_cfg_object(struct assay_cfg *c, const json_t *v, const char *path,
		     const char *const keys[]);

/* Members of object obj (at path). */
int assay_cfg_int(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
		  int flags, long long min, long long max, long long *out);
int assay_cfg_number(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
		     int flags, double min, double max, double *out);
int assay_cfg_bool(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
		   int flags, bool *out);
/* Non-empty string; *out points into obj. */
int assay_cfg_string(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
		     int flags, const char **out);
/* String from a NULL-terminated list of allowed values. */
int assay_cfg_enum(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
		   int flags, const char *const values[], const char **out);
/* Any JSON type check: *out borrowed. type is a jansson json_type. */
int assay_cfg_member(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
		     int flags, json_type type, json_t **out);
/* A non-empty array of integers in [min, max], no duplicates; *out is a new
 * array of *n values. */
int assay_cfg_int_list(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
		       int flags, long long min, long long max, long long **out, size_t *n);
/* A non-empty array of distinct non-empty strings, each (when values is
 * not NULL) from the allowed list; appended to out. */
int assay_cfg_string_list(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
			  int flags, const char *const values[], struct strlist *out);

/* Words for an integer range: "a positive integer", "an integer from 1 to 8". */
void assay_cfg_int_range_words(long long min, long long max, char *buf, size_t size);

#endif
