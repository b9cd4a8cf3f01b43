/* The sweep matrix: a sweep times a platform registry gives cases (runnable,
 * or unsupported with a reason), grouped into shards, with stable ids and
 * SHA-256 digests of the case list and the catalog. Rules: docs/matrix.md. */
#ifndef ASSAY_MATRIX_H
#define ASSAY_MATRIX_H

#include <jansson.h>
#include <stdbool.h>

#include "assay/config.h"
#include "assay/error.h"
#include "assay/util.h"

struct assay_case {
	char *id;
	char *sku, *backend, *workload, *mode, *phase, *routing, *precision;
	long long ep, nodes, gpus_per_node, scale_up_domain;
	const char *scope;    /* "scale-up" or "scale-out" */
	const char *topology; /* "single-node", "multi-node-scale-up", "multi-node-scale-out" */
	char *transport;      /* the platform's scale-up or scale-out transport */
	bool runnable;
	const char *reason; /* NULL when runnable */
	char *shard;        /* NULL when unsupported */
	long long *tokens;  /* the phase's ladder (owned) */
	size_t n_tokens;
	long long hidden, experts, topk, seed;
};

struct assay_shard {
	char *id;
	char *sku, *backend, *mode, *precision;
	long long nodes;
	struct strlist cases;
};

/* Each list only removes cases; an empty list filters nothing. Values are
 * checked against the inputs: an unknown value is an error. */
struct assay_filters {
	struct strlist sku, backend, ep, precision, mode, phase;
};

struct assay_matrix {
	struct assay_case *cases; /* sorted by id */
	size_t n;
	struct assay_shard *shards; /* sorted by id */
	size_t n_shards;
	size_t runnable, unsupported, ladder_points;
	char matrix_sha256[65];
	char catalog_sha256[65];
	struct assay_timing timing;
	char *suite;
	char *platforms_file, *sweep_file;
	char platforms_sha256[65], sweep_sha256[65];
};

void assay_filters_release(struct assay_filters *f);

/* Expand; ASSAY_USAGE for an unknown filter value or a duplicate case id. */
assay_err assay_matrix_build(const struct assay_registry *reg, const struct assay_sweep *sweep,
			     const struct assay_filters *filters, struct assay_matrix *m,
			     struct assay_error *e);
void assay_matrix_release(struct assay_matrix *m);

const struct assay_shard *assay_matrix_shard(const struct assay_matrix *m, const char *id);
const struct assay_case *assay_matrix_case(const struct assay_matrix *m, const char *id);
json_t *assay_case_to_json(const struct assay_case *c, const struct assay_timing *t);
/* The whole document (schema assay.matrix/1); only_shard limits the cases. */
json_t *assay_matrix_to_json(const struct assay_matrix *m, const char *only_shard);

/* Lower-case s and replace runs of characters outside [a-z0-9.] by '-'. */
char *assay_id_sanitize(const char *s);

#endif
