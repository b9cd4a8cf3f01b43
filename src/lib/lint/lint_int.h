/* Inside the linter: the family table entry each rules_<family>.c exports,
 * the context a check runs in, and helpers shared by the families. */
#ifndef ASSAY_LINT_INT_H
#define ASSAY_LINT_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "assay/lint.h"

#define KIND(k) ASSAY_LINT_KIND_BIT(ASSAY_LINT_##k)
#define KIND_ALL                                                                                   \
	(KIND(MANIFEST) | KIND(MODELS) | KIND(PLATFORMS) | KIND(SWEEP) | KIND(SUITE) |             \
	 KIND(CONTEXT))

struct lint_ctx {
	/* What the rules read: the document, or for an additional-context file
	 * its manifest-shaped view, or a manifest merged with a context file. */
	const json_t *doc;
	const json_t *source; /* the document as read */
	enum assay_lint_kind kind;
	const char *file;
	bool on_disk; /* file is the path of text on disk (assay_lint_file) */
	const struct assay_lint_options *opts;
	struct assay_lint_result *res;
	/* With --context: the context file merged into doc (NULL otherwise). */
	const json_t *context_doc;
	const char *context_file;
	/* lint_report puts findings in this file (its paths), when set. */
	const char *finding_file;
};

/* A manifest, or the manifest-shaped view of an additional-context file:
 * the rules of madengine manifests apply to both. */
static inline bool lint_manifest_like(const struct lint_ctx *c)
{
	return (c->kind == ASSAY_LINT_MANIFEST || c->kind == ASSAY_LINT_CONTEXT) &&
	       json_is_object(c->doc);
}

/* Strict JSON into jansson values, fast (fastjson.c); NULL when the text
 * is not JSON that assay_json_loadb accepts, or not simply so: then read it
 * with assay_json_loadb, which words the error. */
json_t *lint_json_fast(const char *text, size_t len);

/* A bump arena for the jansson values of one lint (arena.c). begin returns
 * false when none is used (sanitizer builds, or one already in use on this
 * thread); then values must be released as usual. end drops every value
 * allocated since begin: none may be used after it. */
struct lint_arena {
	struct chunk *head;
};
bool lint_arena_begin(struct lint_arena *a);
void lint_arena_end(struct lint_arena *a);

/* madengine additional-context files (context.c). */
bool lint_looks_like_context(const json_t *doc);
/* The keys an additional-context file sets for the deployment (madengine
 * copies them into deployment_config), NULL-terminated. */
extern const char *const lint_context_deploy_keys[];
bool lint_context_is_deploy_key(const char *key);
/* The view of a context file the manifest rules read: its deployment keys
 * under deployment_config, everything else under context. */
json_t *lint_context_view(const json_t *ctx);
/* A path of the view back in the context file's terms (new string). */
char *lint_context_view_path(const char *view_path);
/* The manifest as madengine runs it with this context file. */
json_t *lint_context_merge(const json_t *manifest, const json_t *ctx);
/* When the value at path of the merged manifest comes from the context
 * file: its path there (new string); NULL when it is the manifest's. */
char *lint_context_merged_path(const json_t *manifest, const json_t *ctx, const char *path);

struct lint_family {
	const char *name;
	const struct assay_lint_rule *rules; /* rules[i].family == name */
	size_t n_rules;
	void (*check)(struct lint_ctx *c);
};

/* One per rules_<family>.c; the table of families is in lint.c. */
extern const struct lint_family lint_family_placement;
extern const struct lint_family lint_family_images;
extern const struct lint_family lint_family_job;
extern const struct lint_family lint_family_network;
extern const struct lint_family lint_family_placeholders;
extern const struct lint_family lint_family_secrets;
extern const struct lint_family lint_family_cards;
extern const struct lint_family lint_family_suite;
extern const struct lint_family lint_family_gates;
extern const struct lint_family lint_family_assay;
extern const struct lint_family lint_family_context;
extern const struct lint_family lint_family_container;
extern const struct lint_family lint_family_preset;
extern const struct lint_family lint_family_context_valid;
extern const struct lint_family lint_family_cluster;

/* Whether rule is enabled and applies to this file's kind. */
bool lint_on(const struct lint_ctx *c, const struct assay_lint_rule *rule);
/* Add a finding at path (printf-style message). Secrets in token formats
 * are masked in the path and message whatever the caller passed
 * (assay_token_mask). */
void lint_report(struct lint_ctx *c, const struct assay_lint_rule *rule, const char *path,
		 const char *fmt, ...) ASSAY_PRINTF(4, 5);

/* JSON paths in the style of assay_json_path_key: "$.a", "$.a[\"b c\"]", "$.a[2]". */
char *lint_path_key(const char *parent, const char *key);
char *lint_path_index(const char *parent, size_t i);
/* Call fn on each model card of a models file: every element of a top-level
 * array ($[i]), or the document itself when it is one card ($). */
void lint_models_cards(struct lint_ctx *c,
		       void (*fn)(struct lint_ctx *c, const json_t *card, const char *path));
/* Append a key or index component to a path buffer. */
void lint_path_push_key(struct sbuf *path, const char *key);
void lint_path_push_index(struct sbuf *path, size_t i);

/* Member lookup along a dotted chain of plain keys, e.g.
 * lint_get(doc, "deployment_config.slurm"); NULL when any step is absent or
 * not an object. */
const json_t *lint_get(const json_t *v, const char *chain);

/* Every string in the document (values and object keys), depth first in
 * document order. The JSON path is built only when asked for. */
struct lint_walk;
struct lint_str {
	struct lint_walk *walk;
	const char *key; /* the member key the string sits under, NULL at the top */
	const char *s;
	size_t len;
	bool is_key; /* s is the object key itself */
};
/* The path of the value, or of the member for a key; valid until the visitor returns. */
const char *lint_str_path(const struct lint_str *s);
typedef void (*lint_str_fn)(struct lint_ctx *c, const struct lint_str *s, void *arg);
void lint_walk_strings(struct lint_ctx *c, lint_str_fn fn, void *arg);

/* s quoted as JSON and cut to about 60 bytes, for messages. */
const char *lint_brief(const char *s, char *buf, size_t size);

/* Replace bytes that are not valid UTF-8 with '?' (messages and paths go
 * into JSON documents); the _dup form returns a cleaned copy. */
void lint_utf8_clean(struct sbuf *sb);
char *lint_utf8_dup(const char *s);

/* An integer value: a JSON integer, or (when allow_string) a string of
 * decimal digits with an optional sign. */
bool lint_int_value(const json_t *v, bool allow_string, long long *out);

/* More than one node: slurm.nodes, distributed.nnodes or slurm.nodelist. */
bool lint_multinode(const json_t *doc);

/* madengine's Slurm job environment (rules_preset.c). Whether madengine
 * deploys doc to Slurm (deployment_config.slurm an object, no k8s), with
 * slurm.nodes (1 when not given) in *nodes. */
bool lint_slurm_job(const json_t *doc, long long *nodes);
/* The value of variable name in the job's environment after madengine's
 * preset merge and its job template, and in *source where it comes from
 * ("deployment_config.env_vars", "madengine's multi-node Slurm preset",
 * ...); NULL when the job does not set it (or doc is no Slurm job). */
const char *lint_job_env(const json_t *doc, const char *name, char *buf, size_t size,
			 const char **source);
/* Whether madengine's container runner copies name from the job's
 * environment into the container's. */
bool lint_container_copies(const char *name);

/* Key names that hold secrets: *TOKEN, *SECRET*, *PASSWORD*, *API_KEY*,
 * MAD_SECRETS_* (case-insensitive, see docs/lint.md). */
bool lint_key_is_secret(const char *key);

/* The first template placeholder in s[0, len) (<changeme>, {user-id}, TODO,
 * FIXME, CHANGEME): [*start, *end). */
bool lint_find_placeholder(const char *s, size_t len, size_t *start, size_t *end);

/* Byte offset in text (valid JSON) of the member key or array element that
 * path names; the deepest part of the path that exists when it does not. */
size_t lint_locate(const char *text, size_t len, const char *path);
/* 1-based line and column (in code points) of byte offset off. */
void lint_line_col(const char *text, size_t len, size_t off, long *line, long *column);

#endif
