/* Static checks of madengine build manifests, madengine model cards and
 * assay's own configs (docs/lint.md). The library finds and locates
 * findings and renders them into buffers or JSON documents; the lint
 * command prints them. Rules live in src/lib/lint/rules_<family>.c. */
#ifndef ASSAY_LINT_H
#define ASSAY_LINT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "assay/error.h"
#include "assay/util.h"

enum assay_lint_severity {
	ASSAY_LINT_WARNING = 1, /* reported, exit code stays 0 */
	ASSAY_LINT_ERROR = 2,   /* reported, exit code 1 */
};

/* What a file is. AUTO asks for detection from the content. */
enum assay_lint_kind {
	ASSAY_LINT_AUTO = 0,
	ASSAY_LINT_MANIFEST,  /* madengine build_manifest.json */
	ASSAY_LINT_MODELS,    /* madengine models.json: an array of model cards */
	ASSAY_LINT_PLATFORMS, /* assay platform registry */
	ASSAY_LINT_SWEEP,     /* assay sweep */
	ASSAY_LINT_SUITE,     /* assay suite ("kind": "ep" or "command", docs/suite.md) */
	ASSAY_LINT_CONTEXT,   /* madengine --additional-context-file */
	ASSAY_LINT_CLUSTER,   /* a ROCm CVS cluster file (docs/ssh.md) */
	ASSAY_LINT_KIND_COUNT
};
#define ASSAY_LINT_KIND_BIT(k) (1u << (k))

struct assay_lint_rule {
	const char *id;     /* stable, e.g. "misplaced-key" */
	const char *family; /* the rules_<family>.c it lives in */
	enum assay_lint_severity severity;
	bool default_on;     /* off-by-default rules need --enable */
	unsigned kinds;      /* ASSAY_LINT_KIND_BIT()s it applies to */
	const char *summary; /* one line, for --list-rules and SARIF */
};

/* The rules of every family, in one stable order (indices are stable within
 * a build). */
size_t assay_lint_rule_count(void);
const struct assay_lint_rule *assay_lint_rule_at(size_t i);
/* Index of the rule with this id, or -1. */
int assay_lint_rule_index(const char *id);

const char *assay_lint_kind_name(enum assay_lint_kind k);
/* Parse a kind name ("manifest", "models", "platforms", "sweep", "suite", "context"); -1
 * when unknown. */
int assay_lint_kind_from_name(const char *name);
const char *assay_lint_severity_name(enum assay_lint_severity s);
/* The kind of a loaded document, or ASSAY_LINT_AUTO when it cannot tell. */
enum assay_lint_kind assay_lint_detect(const json_t *doc);

#define ASSAY_LINT_MAX_RULES 64

/* Where a severity override can turn a rule off (.assay-lint.json "severity"). */
#define ASSAY_LINT_OFF 3

struct assay_lint_options {
	enum assay_lint_kind kind;     /* ASSAY_LINT_AUTO to detect */
	bool on[ASSAY_LINT_MAX_RULES]; /* by rule index */
	/* Severity by rule index; 0 keeps the rule's own (--strict sets some). */
	unsigned char severity[ASSAY_LINT_MAX_RULES];
	/* A madengine --additional-context-file to lint a manifest with, merged
	 * the way madengine merges it (NULL: none). Only assay_lint_file reads it. */
	const char *context_file;
};
/* Kind AUTO and every rule at its default. */
void assay_lint_options_init(struct assay_lint_options *o);
/* Turn a rule (or "all") on or off; ASSAY_USAGE naming it when unknown. */
assay_err assay_lint_options_set(struct assay_lint_options *o, const char *id, bool on,
				 struct assay_error *e);
/* The --strict preset: the multi-node and reproducibility traps that are
 * warnings by default become errors. */
void assay_lint_options_strict(struct assay_lint_options *o);
/* Whether --strict promotes the rule at index i. */
bool assay_lint_rule_strict(size_t i);

struct assay_lint_finding;

/* Per-file allow lists from a .assay-lint.json beside the linted files:
 *   {"allow": {"build_manifest.json": ["image-tag", "placeholder $.context"]}}
 * A key is a file name or fnmatch(3) pattern matched against the linted
 * file's base name; an entry allows a rule in the whole file, or at a JSON
 * path and below it. */
struct assay_lint_allow_entry {
	char *pattern;
	const struct assay_lint_rule *rule;
	char *path; /* NULL: the whole file */
};
struct assay_lint_allow {
	char *file; /* the .assay-lint.json it came from, NULL when none */
	struct assay_lint_allow_entry *v;
	size_t n, alloc;
	/* "severity": {"RULE": "error"|"warning"|"off"}, by rule index; 0 when
	 * not set. Overrides the rule's own severity and --strict. */
	unsigned char severity[ASSAY_LINT_MAX_RULES];
};
#define ASSAY_LINT_ALLOW_FILE ".assay-lint.json"
/* Load dir/.assay-lint.json; a missing file is an empty list. ASSAY_USAGE
 * (file and JSON path) when it is invalid or names an unknown rule. */
assay_err assay_lint_allow_load_dir(const char *dir, struct assay_lint_allow *a,
				    struct assay_error *e);
assay_err assay_lint_allow_parse(const json_t *doc, const char *file, struct assay_lint_allow *a,
				 struct assay_error *e);
void assay_lint_allow_release(struct assay_lint_allow *a);
/* Whether a allows finding f of file (matched on its base name). */
bool assay_lint_allowed(const struct assay_lint_allow *a, const char *file,
			const struct assay_lint_finding *f);

struct assay_lint_finding {
	const struct assay_lint_rule *rule;
	enum assay_lint_severity severity; /* in effect: the rule's, or as overridden */
	char *file;    /* the file path lies in, when not the result's (a context file) */
	char *path;    /* JSON path, e.g. $.deployment_config.slurm.nodes */
	char *message; /* one line; never contains a secret */
	long line;     /* 1-based position of the member or element in the file */
	long column;   /* 1-based, in Unicode code points */
};

struct assay_lint_result {
	char *file;
	enum assay_lint_kind kind;
	struct assay_lint_finding *v; /* sorted by line, column, rule */
	size_t n, alloc;
	size_t errors, warnings; /* errors counts a file that could not be linted */
	size_t allowed;          /* findings dropped by the allow list */
	/* Set when the file could not be linted (unreadable, not JSON, unknown
	 * kind): the error, with its location. Then there are no findings. */
	struct assay_error *error;
};

/* Lint len bytes of text named file. ASSAY_USAGE (with line and column)
 * when it is not JSON, or when the kind is AUTO and cannot be told; then r
 * holds no findings but r->error (a copy of e). allow may be NULL. */
assay_err assay_lint_buffer(const char *text, size_t len, const char *file,
			    const struct assay_lint_options *o,
			    const struct assay_lint_allow *allow, struct assay_lint_result *r,
			    struct assay_error *e);
/* The same for a file on disk; only then is a suite loaded as `assay run`
 * loads it (rule assay-config), since that reads the files it names, and
 * a manifest merged with o->context_file. */
assay_err assay_lint_file(const char *file, const struct assay_lint_options *o,
			  const struct assay_lint_allow *allow, struct assay_lint_result *r,
			  struct assay_error *e);
void assay_lint_result_release(struct assay_lint_result *r);

/* Files linted together (`assay lint FILE...`). */
struct assay_lint_batch {
	size_t n;
	struct assay_lint_result *res; /* file i's; res[i].error when it was not linted */
	bool *allow_invalid;           /* not linted: its directory's .assay-lint.json is invalid */
	struct assay_error *allow_errors; /* each invalid .assay-lint.json once, in file order */
	size_t nallow_errors, allow_alloc;
};
/* Lint n files with assay_lint_file, each with the allow list of its
 * directory (assay_lint_allow_load_dir, read once per directory), on up to
 * threads threads of the util pool (0: one per core). The worst error of a
 * file that could not be linted (ASSAY_USAGE), or ASSAY_OK; b holds every
 * file's result either way. */
assay_err assay_lint_files(char *const *files, size_t n, const struct assay_lint_options *o,
			   int threads, struct assay_lint_batch *b);
void assay_lint_batch_release(struct assay_lint_batch *b);

/* Renderings. Human: "FILE:$.path: severity: rule: message" per line.
 * GitHub: workflow command annotations ("::error file=...::..."), and an
 * ::error for a file that could not be linted. JSON and SARIF carry that
 * error too (an "error" member; a toolExecutionNotification). */
void assay_lint_format_human(struct sbuf *out, const struct assay_lint_result *r);
void assay_lint_format_github(struct sbuf *out, const struct assay_lint_result *r);
/* {"schema": "assay.lint/1", "files": [...], "errors": N, "warnings": N} */
json_t *assay_lint_to_json(const struct assay_lint_result *r, size_t n);
/* A SARIF 2.1.0 log with one run; tool_version may be NULL. */
json_t *assay_lint_to_sarif(const struct assay_lint_result *r, size_t n, const char *tool_version);

#endif
