/* The matrix inputs: the platform registry (configs/platforms.json), the
 * sweep (configs/sweep-*.json) and the timing profile they share with
 * assay-ep. Formats: docs/config.md. */
#ifndef ASSAY_CONFIG_H
#define ASSAY_CONFIG_H

#include <jansson.h>
#include <stdbool.h>

#include "assay/cfg.h"
#include "assay/error.h"
#include "assay/util.h"

/* Backends assay knows by name (external ones are cataloged; assay-ep
 * implements mpi, shm and nccl), NULL-terminated. */
extern const char *const assay_known_backends[];
/* Precisions: "bf16", "fp8", NULL-terminated. */
extern const char *const assay_known_precisions[];

/* The timing contract of docs/ep.md. */
struct assay_timing {
	char profile[32]; /* "quick", "reference" or "custom" */
	long long trials;
	long long iters_per_trial;
	long long warmups_per_trial;
	long long chain_trials;
	long long chain_pairs;
	long long chain_drop;
};
/* Fill t from a named profile; -1 when unknown. */
int assay_timing_profile(const char *name, struct assay_timing *t);
/* Parse {"profile": ..., "trials": ...}: a profile with overrides, or all six
 * fields. -1 on error. */
int assay_timing_parse(struct assay_cfg *c, const json_t *v, const char *path,
		       struct assay_timing *t);
assay_err assay_timing_load_file(const char *file, struct assay_timing *t, struct assay_error *e);
json_t *assay_timing_to_json(const struct assay_timing *t);

struct assay_backend_eps {
	char *name;
	long long *eps;
	size_t n;
	/* CollectiveX registries only (config/collectivex.c): */
	long long *ll_eps; /* EP sizes that run the low-latency mode */
	size_t n_ll;
	struct strlist precisions; /* dispatch precisions it realizes */
	struct strlist off_path;   /* realized, off every serving path: only when asked for */
};

struct assay_platform {
	char *sku;
	char *arch;
	long long gpus_per_node;
	long long scale_up_domain;
	char *scale_up_transport;
	char *scale_out_transport;
	struct assay_backend_eps *backends; /* sorted by name */
	size_t n_backends;
	struct strlist ll_backends;
	json_t *fabric;  /* {nic, switch} */
	json_t *network; /* allowlisted fields, or NULL */
	json_t *op;      /* "operator" block, allowlisted fields, or NULL */
};

struct assay_registry {
	char *file;
	bool collectivex; /* read from CollectiveX's platform_config.json (docs/matrix.md) */
	struct assay_platform *v; /* sorted by sku */
	size_t n;
	char sha256[65]; /* of the canonical JSON of the whole file */
};

assay_err assay_registry_load(const char *file, struct assay_registry *reg, struct assay_error *e);
assay_err assay_registry_parse(const json_t *doc, const char *file, struct assay_registry *reg,
			       struct assay_error *e);
void assay_registry_release(struct assay_registry *reg);
/* CollectiveX's configs/platform_config.json and configs/sweep.json
 * (config/collectivex.c): detection from the content, and readers that
 * assay_registry_parse() and assay_sweep_parse() call for such a doc. */
bool assay_registry_collectivex_detect(const json_t *doc);
assay_err assay_registry_collectivex_parse(const json_t *doc, const char *file,
					   struct assay_registry *reg, struct assay_error *e);
bool assay_sweep_collectivex_detect(const json_t *doc);
const struct assay_platform *assay_registry_find(const struct assay_registry *reg, const char *sku);
/* The EP sizes of backend on p, or NULL when p does not list the backend. */
const struct assay_backend_eps *assay_platform_backend(const struct assay_platform *p,
						       const char *backend);

struct assay_ladder {
	char *phase;
	long long *tokens;
	size_t n;
};

struct assay_mode {
	char *name; /* "normal" or "low-latency" */
	struct strlist phases;
};

struct assay_sweep {
	char *file;
	char *suite;
	char *routing;           /* the first of routings */
	struct strlist routings; /* the routing factor: "uniform", "zipf:S", ... */
	struct assay_mode modes[2];
	size_t n_modes;
	long long *ep_degrees;
	size_t n_ep;
	struct strlist precisions;
	struct assay_timing timing;
	struct {
		char *name;
		long long hidden, topk, experts, seed;
		struct assay_ladder *ladders;
		size_t n_ladders;
	} workload;
	char sha256[65];
};

assay_err assay_sweep_load(const char *file, struct assay_sweep *s, struct assay_error *e);
assay_err assay_sweep_parse(const json_t *doc, const char *file, struct assay_sweep *s,
			    struct assay_error *e);
void assay_sweep_release(struct assay_sweep *s);
assay_err assay_sweep_collectivex_parse(const json_t *doc, const char *file, struct assay_sweep *s,
					struct assay_error *e);
const struct assay_ladder *assay_sweep_ladder(const struct assay_sweep *s, const char *phase);

#endif
