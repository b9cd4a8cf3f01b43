/* Private to the SGLang importers (import_cvs_sglang.c: single and
 * distributed; import_cvs_sglang_disagg.c: disaggregated): the state they
 * share and the parts of a suite they build alike. docs/import.md. */
#ifndef ASSAY_IMPORT_CVS_SGLANG_H
#define ASSAY_IMPORT_CVS_SGLANG_H

#include <stdbool.h>

#include "assay/cfg.h"
#include "assay/import.h"
#include "assay/json.h"

struct sg {
	struct assay_cfg c;
	const struct assay_import_opts *o;
	struct assay_import *im;
	const char *dir;
	const json_t *cfg, *bp, *bench;
	char bp_path[256], bench_path[320], th_path[300];
	/* sglang_distributed (--cluster): the server on the cluster file's
	 * first `nodes` hosts, rank 0 on head; the ranks meet at dist_init.
	 * Disaggregated: dist too, and dist_init the role's being written. */
	bool dist;
	long long nodes, pp; /* pp: pipeline_parallelism */
	char *head, *dist_init;
};

/* A setting as CVS formats it, {user-id} replaced; "<changeme>" refused. */
int sg_text(struct sg *x, const json_t *obj, const char *parent, const char *key, const char *def,
	    char **out);
/* s appended to argv as a literal (cvs_literal). */
void sg_lit(json_t *argv, const char *s);
/* The benchmark_params variant (bp, bench and their paths). */
int sg_pick_variant(struct sg *x, const json_t *root);
/* combos, runs and gates from the variant's threshold file. */
int sg_import_gates(struct sg *x, long long tp, json_t *suite);
/* The env scripts' variables, env_dict and add_export_env into env. */
int sg_import_env(struct sg *x, const char *model, const char *tp, const char *pp, json_t *env);
/* add_flags' words onto argv. */
int sg_add_flags(struct sg *x, json_t *argv);
/* `bash -c 'exec "$@" --node-rank …' sglang-node` onto argv (dist_init). */
void sg_dist_prefix(const struct sg *x, json_t *argv);
/* The suite's argv: CVS's bench_serving against host:port. */
int sg_client_argv(struct sg *x, const char *host, const char *port, const char *prompts,
		   json_t *suite);
/* The suite's container. */
int sg_import_container(struct sg *x, json_t *suite);
/* The suite's context (series identity, MFU inputs). */
int sg_import_context(struct sg *x, const char *model, const char *tp, const char *prompts,
		      json_t *suite);
/* The config and variant keys CVS's SGLang loader reads. */
extern const char *const sg_cfg_keys[];
extern const char *const sg_bp_keys[];
bool sg_listed(const char *const *keys, const char *key);
/* Notes on the config keys all SGLang tests read alike (but skip's). */
void sg_why_notes(struct sg *x, const char *const *skip);
/* Notes on the variant, and on keys neither the loader nor more names. */
void sg_tail_notes(struct sg *x, const char *const *more);

/* CVS's disaggregated configs (prefill_node_list, decode_node_list,
 * proxy_router_node): prefill and decode role servers and a router. */
assay_err cvs_import_sglang_disagg(const json_t *root, const char *config_path,
				   const struct assay_import_opts *o, struct assay_import *out,
				   struct assay_error *e);

#endif
