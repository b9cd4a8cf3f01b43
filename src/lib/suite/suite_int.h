/* Shared by the suite loader's files: the kind parsers and planners, and
 * small helpers for names, values and templates. Not a public header. */
#ifndef ASSAY_SUITE_INT_H
#define ASSAY_SUITE_INT_H

#include "assay/cfg.h"
#include "assay/suite.h"

extern const char *const assay_suite_ep_keys[];
extern const char *const assay_suite_command_keys[];
extern const char *const assay_suite_collective_keys[];

int suite_parse_ep(struct assay_cfg *c, const json_t *doc, struct assay_suite *s);
int suite_parse_command(struct assay_cfg *c, const json_t *doc, struct assay_suite *s);
/* kind "collective" (collective.c) */
int suite_parse_collective(struct assay_cfg *c, const json_t *doc, struct assay_suite *s);
assay_err suite_plan_collective(const struct assay_suite *s, const struct assay_suite_case *c,
				const json_t *vars, struct assay_case_plan *p,
				struct assay_error *e);
int suite_parse_coll_thresholds(struct assay_cfg *c, const json_t *g, struct assay_suite *s);
void suite_coll_release(struct assay_suite_coll *k);
/* kind "inference" (inference.c): the command kind's keys and "server". */
extern const char *const assay_suite_inference_keys[];
int suite_parse_inference(struct assay_cfg *c, const json_t *doc, struct assay_suite *s);
/* After suite_plan_command: the server's log watched for signatures. */
void suite_plan_inference(const struct assay_suite *s, const json_t *vars,
			  struct assay_case_plan *p);
void suite_infer_release(struct assay_suite_infer *k, size_t n);
/* The gates block (gates.c), once the cases are known. */
int suite_parse_gates(struct assay_cfg *c, const json_t *doc, struct assay_suite *s);
void suite_gates_release(struct assay_suite_gates *g);
assay_err suite_plan_ep(const struct assay_suite *s, const struct assay_suite_case *c,
			const json_t *vars, const char *assay_ep, struct assay_case_plan *p,
			struct assay_error *e);
assay_err suite_plan_command(const struct assay_suite *s, const struct assay_suite_case *c,
			     const json_t *vars, struct assay_case_plan *p, struct assay_error *e);

/* Variants and repeats (variants.c). parse: "variants" and "repeat", after
 * the common keys; expand: every case into one per repeat and variant,
 * interleaved, once the kind's cases are known; apply: a variant's
 * overrides on a planned case (vars: the case's, built-ins included). */
extern const char *const assay_suite_variant_keys[];
int suite_parse_variants(struct assay_cfg *c, const json_t *doc, struct assay_suite *s);
int suite_expand_variants(struct assay_cfg *c, struct assay_suite *s);
assay_err suite_variant_apply(const struct assay_suite *s, const struct assay_suite_case *c,
			      const json_t *vars, struct assay_case_plan *p, struct assay_error *e);
void suite_variants_release(struct assay_suite *s);
/* Every variant's templates expand for every case (at load). */
assay_err suite_check_variants(const struct assay_suite *s, struct assay_error *e);
/* A combo's values with a variant's vars over them (v NULL: a copy). */
json_t *suite_variant_vars(const json_t *combo, const struct assay_suite_variant *v);
/* The expect block (expect.c); its check against every case, at load. */
int suite_parse_expect(struct assay_cfg *c, const json_t *doc, struct assay_suite *s);
int suite_check_expect(struct assay_suite *s, struct assay_error *e);
void suite_expect_release(struct assay_suite *s);

/* [A-Za-z_][A-Za-z0-9_]*: environment variables and placeholders. */
bool suite_valid_name(const char *s);
/* The suite's name when it gives none: its file's, less ".json". */
void suite_default_name(struct assay_suite *s);
/* Append a string, number or boolean as text; -1 (located error) otherwise. */
int suite_scalar_text(struct assay_cfg *c, const json_t *v, const char *path, struct sbuf *out);
void suite_short_hostname(char *buf, size_t size);
/* The case's placeholder values plus the run's built-ins. */
json_t *suite_builtin_vars(const struct assay_suite *s, const struct assay_suite_case *c,
			   const char *run_id, const char *case_dir);
/* Expand tmpl; a missing value is ASSAY_USAGE at file/path. */
assay_err suite_expand(const char *tmpl, const json_t *vars, const char *file, const char *path,
		       struct sbuf *out, struct assay_error *e);

/* assay import cvs --cluster: the suite runs on the cluster file's nodes
 * through the ssh launcher (src/lib/suite/import_cluster.c). -1 on error. */
struct assay_import;
int cvs_import_cluster(const char *cluster_file, json_t *suite, struct assay_import *out,
		       struct assay_error *e);

/* `assay import cvs` (import_cvs.c, import_cvs_legacy.c): text with assay's
 * placeholder braces doubled; s single-quoted for sh when not plain; a suite
 * with its keys in hand-written order (new reference); CVS's older
 * non-schema Megatron configs (top-level config and model_params). */
char *cvs_literal(const char *s);
void cvs_suite_name(json_t *suite, const char *base);
void cvs_env_set(json_t *env, const char *name, const char *value);
/* A note on what an import leaves out: "PATH: not carried over: MESSAGE",
 * once per text, in im's notes (the importers print them on stderr). */
void cvs_note(struct assay_import *im, const char *path, const char *fmt, ...) ASSAY_PRINTF(3, 4);
int cvs_count(struct assay_cfg *c, const char *path, const char *s, long long *out);
/* $.sweep.runs into the suite's runs: the combinations run, in order (absent:
 * all of them); -1 on a bad or unknown name, or one listed twice. */
int cvs_import_runs(struct assay_cfg *c, const json_t *sw, const json_t *combos, json_t *suite);
void cvs_sh_word(struct sbuf *sb, const char *s);
json_t *cvs_ordered(const json_t *suite);
struct assay_import;
/* The inference importers' (import_cvs_vllm.c, import_cvs_sglang.c): the
 * config's folder ("" for the working one), and the end of an import that
 * returned rc: the suite's keys in their documented order into out, or, on
 * an error, no notes and e's code. */
char *cvs_config_dir(const char *config_path);
assay_err cvs_inference_done(int rc, const json_t *suite, struct assay_import *out,
			     struct assay_error *e);
struct assay_import_opts;
assay_err cvs_import_legacy(const json_t *root, const char *config_path,
			    const struct assay_import_opts *o, struct assay_import *out,
			    struct assay_error *e);
/* CVS's docker block ($.container) as the suite's container block, with its
 * notes; CVS's vLLM configs (framework "vllm", import_cvs_vllm.c). */
void cvs_import_container(const json_t *ct, const char *config_path,
			  const struct assay_import_opts *o, struct assay_import *im,
			  json_t *suite);
assay_err cvs_import_vllm(const json_t *root, const char *config_path,
			  const struct assay_import_opts *o, struct assay_import *out,
			  struct assay_error *e);
/* CVS's single-node SGLang configs (top-level "config" and
 * "benchmark_params", import_cvs_sglang.c). */
assay_err cvs_import_sglang(const json_t *root, const char *config_path,
			    const struct assay_import_opts *o, struct assay_import *out,
			    struct assay_error *e);
/* CVS's JAX/MaxText configs (framework "jaxmaxtext", import_cvs_maxtext.c). */
assay_err cvs_import_maxtext(const json_t *root, const char *config_path,
			     const struct assay_import_opts *o, struct assay_import *out,
			     struct assay_error *e);
/* CVS's TorchTitan configs (framework "torchtitan_*", import_cvs_torchtitan.c),
 * and the threshold file next to a config as CVS finds it (NULL: none). */
assay_err cvs_import_torchtitan(const json_t *root, const char *config_path,
				const struct assay_import_opts *o, struct assay_import *out,
				struct assay_error *e);
/* A note for each top-level key of root that CVS's WHO loader does not read
 * (neither in used nor starting with "_"); scaling_baseline gets the note
 * scaling instead where scaling is not NULL. */
void cvs_note_unknown(struct assay_import *im, const json_t *root, const char *const *used,
		      const char *who, const char *scaling);
int cvs_threshold_file(const json_t *root, const char *config_path,
		       const struct assay_import_opts *o, struct assay_error *e, char **out);

#endif
