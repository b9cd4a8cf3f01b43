/* Per-file allow lists: .assay-lint.json beside the linted files names, per
 * file name or pattern, the rules (optionally at a JSON path) whose findings
 * are accepted there. JSON has no comments, so this is where exceptions live. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assay/cfg.h"
#include "assay/json.h"
#include "lint_int.h"

static int parse_entry(struct assay_cfg *c, const char *pattern, const json_t *v, const char *path,
		       struct assay_lint_allow *a)
{
	if (!json_is_string(v) || !json_string_length(v))
		return assay_cfg_expected(c, path, "a rule id, optionally followed by a JSON path",
					  v);
	const char *s = json_string_value(v);
	const char *sp = strchr(s, ' ');
	char *id = sp ? xstrndup(s, (size_t)(sp - s)) : xstrdup(s);
	const char *jpath = NULL;
	if (sp) {
		jpath = sp + 1;
		while (*jpath == ' ')
			jpath++;
		if (*jpath != '$') {
			free(id);
			return assay_cfg_fail(
			    c, path,
			    "expected a JSON path starting with $ after the rule id, "
			    "got \"%s\"",
			    jpath);
		}
	}
	int rule = assay_lint_rule_index(id);
	if (rule < 0) {
		assay_cfg_fail(c, path, "unknown rule \"%s\" (see 'assay lint --list-rules')", id);
		free(id);
		return -1;
	}
	free(id);
	ALLOC_GROW(a->v, a->n + 1, a->alloc);
	struct assay_lint_allow_entry *en = &a->v[a->n++];
	en->pattern = xstrdup(pattern);
	en->rule = assay_lint_rule_at((size_t)rule);
	en->path = jpath ? xstrdup(jpath) : NULL;
	return 0;
}

/* "severity": {"RULE": "error" | "warning" | "off"} */
static int parse_severity(struct assay_cfg *c, const json_t *sev, struct assay_lint_allow *a)
{
	static const char *const levels[] = {"warning", "error", "off", NULL};
	static const unsigned char values[] = {ASSAY_LINT_WARNING, ASSAY_LINT_ERROR,
					       ASSAY_LINT_OFF};
	const char *id;
	json_t *v;
	json_object_foreach((json_t *)sev, id, v)
	{
		char sp[512];
		assay_json_path_key(sp, sizeof(sp), "$.severity", id);
		int rule = assay_lint_rule_index(id);
		if (rule < 0 || rule >= ASSAY_LINT_MAX_RULES)
			return assay_cfg_fail(
			    c, sp, "unknown rule \"%s\" (see 'assay lint --list-rules')", id);
		size_t i = 0;
		while (levels[i] &&
		       !(json_is_string(v) && !strcmp(json_string_value(v), levels[i])))
			i++;
		if (!levels[i])
			return assay_cfg_expected(c, sp, "\"error\", \"warning\" or \"off\"", v);
		a->severity[rule] = values[i];
	}
	return 0;
}

assay_err assay_lint_allow_parse(const json_t *doc, const char *file, struct assay_lint_allow *a,
				 struct assay_error *e)
{
	static const char *const top_keys[] = {"allow", "severity", NULL};
	struct assay_cfg c = {file, e};
	json_t *allow = NULL, *sev = NULL;
	memset(a, 0, sizeof(*a));
	a->file = xstrdup(file);
	if (assay_cfg_object(&c, doc, "$", top_keys) < 0 ||
	    assay_cfg_member(&c, doc, "$", "allow", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &allow) < 0 ||
	    assay_cfg_member(&c, doc, "$", "severity", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &sev) < 0)
		goto fail;
	if (!allow && !sev) {
		assay_cfg_fail(&c, "$", "expected \"allow\" or \"severity\" (or both)");
		goto fail;
	}
	if (sev && parse_severity(&c, sev, a) < 0)
		goto fail;
	if (!allow)
		return ASSAY_OK;
	const char *pattern;
	json_t *list;
	json_object_foreach(allow, pattern, list)
	{
		char lp[512];
		assay_json_path_key(lp, sizeof(lp), "$.allow", pattern);
		if (!json_is_array(list)) {
			assay_cfg_expected(&c, lp, "an array of rule ids", list);
			goto fail;
		}
		size_t i;
		json_t *v;
		json_array_foreach(list, i, v)
		{
			char ip[600];
			assay_json_path_index(ip, sizeof(ip), lp, i);
			if (parse_entry(&c, pattern, v, ip, a) < 0)
				goto fail;
		}
	}
	return ASSAY_OK;
fail:
	assay_lint_allow_release(a);
	return ASSAY_USAGE;
}

assay_err assay_lint_allow_load_dir(const char *dir, struct assay_lint_allow *a,
				    struct assay_error *e)
{
	memset(a, 0, sizeof(*a));
	char *file = xasprintf("%s/%s", dir && *dir ? dir : ".", ASSAY_LINT_ALLOW_FILE);
	struct stat st;
	if (stat(file, &st) != 0) {
		free(file);
		return ASSAY_OK;
	}
	json_t *doc = assay_json_load_file(file, e);
	if (!doc) {
		free(file);
		return ASSAY_USAGE;
	}
	assay_err rc = assay_lint_allow_parse(doc, file, a, e);
	json_decref(doc);
	free(file);
	return rc;
}

void assay_lint_allow_release(struct assay_lint_allow *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->v[i].pattern);
		free(a->v[i].path);
	}
	free(a->v);
	free(a->file);
	memset(a, 0, sizeof(*a));
}

/* path is prefix itself or lies below it. */
static bool path_within(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);
	if (strncmp(path, prefix, n))
		return false;
	return path[n] == '\0' || path[n] == '.' || path[n] == '[';
}

bool assay_lint_allowed(const struct assay_lint_allow *a, const char *file,
			const struct assay_lint_finding *f)
{
	const char *slash = strrchr(file, '/');
	const char *base = slash ? slash + 1 : file;
	for (size_t i = 0; i < a->n; i++) {
		const struct assay_lint_allow_entry *en = &a->v[i];
		if (en->rule != f->rule || fnmatch(en->pattern, base, 0))
			continue;
		if (!en->path || path_within(f->path, en->path))
			return true;
	}
	return false;
}
