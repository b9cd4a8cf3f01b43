/* Placeholder rules: template text left in a file (<changeme>, {user-id},
 * TODO, FIXME; a suite's {NAME} templates are not), and shell variables
 * written where nothing expands them (docker_env_vars, docker_mounts, image
 * names, #SBATCH options). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lint_int.h"

static const struct assay_lint_rule rules[] = {
    {"placeholder", "placeholders", ASSAY_LINT_ERROR, true, KIND_ALL,
     "a leftover template placeholder: <changeme>, {user-id}, TODO, FIXME, CHANGEME"},
    {"unexpanded-variable", "placeholders", ASSAY_LINT_ERROR, true, KIND(MANIFEST) | KIND(CONTEXT),
     "${VAR} or $VAR in a value that nothing expands"},
};
#define R_PLACEHOLDER (&rules[0])
#define R_VARIABLE    (&rules[1])

static bool word_char(char ch)
{
	return isalnum((unsigned char)ch);
}

/* A whole word w at s[i] (case-insensitive when icase). */
static bool word_at(const char *s, size_t len, size_t i, const char *w, bool icase)
{
	size_t n = strlen(w);
	if (i + n > len || (i > 0 && word_char(s[i - 1])) || (i + n < len && word_char(s[i + n])))
		return false;
	return icase ? !strncasecmp(s + i, w, n) : !strncmp(s + i, w, n);
}

bool lint_find_placeholder(const char *s, size_t len, size_t *start, size_t *end)
{
	static const char *const upper_words[] = {"TODO", "FIXME"};
	static const char *const any_case_words[] = {"changeme", "change_me", "change-me"};
	/* The bytes a placeholder can start with. */
	static const unsigned char starts[256] = {
	    ['<'] = 1, ['{'] = 1, ['T'] = 1, ['F'] = 1, ['c'] = 1, ['C'] = 1};
	for (size_t i = 0; i < len; i++) {
		while (i < len && !starts[(unsigned char)s[i]])
			i++;
		if (i >= len)
			break;
		char ch = s[i];
		if (ch == '<' && i + 1 < len &&
		    (isalpha((unsigned char)s[i + 1]) || s[i + 1] == '_')) {
			size_t j = i + 1;
			while (j < len && j - i <= 80 && s[j] != '>' && s[j] != '<' &&
			       s[j] != '\n' && s[j] != '"')
				j++;
			if (j < len && s[j] == '>') {
				*start = i;
				*end = j + 1;
				return true;
			}
		} else if (ch == '{' && i + 1 < len &&
			   (isalpha((unsigned char)s[i + 1]) || s[i + 1] == '_') &&
			   (i == 0 || (s[i - 1] != '$' && s[i - 1] != '{'))) {
			size_t j = i + 1;
			while (j < len &&
			       (isalnum((unsigned char)s[j]) || s[j] == '_' || s[j] == '-'))
				j++;
			if (j < len && s[j] == '}' && (j + 1 >= len || s[j + 1] != '}')) {
				*start = i;
				*end = j + 1;
				return true;
			}
		} else if ((ch == 'T' && i + 1 < len && s[i + 1] == 'O') ||
			   (ch == 'F' && i + 1 < len && s[i + 1] == 'I')) {
			for (size_t w = 0; w < ARRAY_SIZE(upper_words); w++) {
				if (word_at(s, len, i, upper_words[w], false)) {
					*start = i;
					*end = i + strlen(upper_words[w]);
					return true;
				}
			}
		} else if ((ch == 'c' || ch == 'C') && i + 1 < len && (s[i + 1] | 0x20) == 'h') {
			for (size_t w = 0; w < ARRAY_SIZE(any_case_words); w++) {
				if (word_at(s, len, i, any_case_words[w], true)) {
					*start = i;
					*end = i + strlen(any_case_words[w]);
					return true;
				}
			}
		}
	}
	return false;
}

/* In a suite, {NAME} (a valid placeholder name) is a template that assay run
 * fills (docs/suite.md), not leftover text; {user-id} is not a name. */
static bool suite_template(const struct lint_ctx *c, const char *s, size_t start, size_t end)
{
	if (c->kind != ASSAY_LINT_SUITE || s[start] != '{')
		return false;
	for (size_t i = start + 1; i + 1 < end; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

static void placeholder_visit(struct lint_ctx *c, const struct lint_str *s, void *arg)
{
	(void)arg;
	size_t from = 0, start, end;
	for (;;) {
		if (!lint_find_placeholder(s->s + from, s->len - from, &start, &end))
			return;
		start += from;
		end += from;
		if (!suite_template(c, s->s, start, end))
			break;
		from = end;
	}
	const char *what = s->is_key ? "key" : "value";
	if (!s->is_key && s->key && lint_key_is_secret(s->key)) {
		lint_report(c, R_PLACEHOLDER, lint_str_path(s),
			    "leftover placeholder in the %s (not shown: the key names a secret)",
			    what);
		return;
	}
	char *ph = xstrndup(s->s + start, end - start);
	char b[96];
	lint_report(c, R_PLACEHOLDER, lint_str_path(s), "leftover placeholder %s in the %s",
		    lint_brief(ph, b, sizeof(b)), what);
	free(ph);
}

/* The first shell variable reference in s: $NAME, ${...} or $(...). */
static bool find_variable(const char *s, size_t len, size_t *start, size_t *end)
{
	for (size_t i = 0; i + 1 < len; i++) {
		if (s[i] != '$')
			continue;
		char nx = s[i + 1];
		size_t j = i + 2;
		if (nx == '{' || nx == '(') {
			char close = nx == '{' ? '}' : ')';
			while (j < len && s[j] != close && j - i < 80)
				j++;
			if (j < len && s[j] == close) {
				*start = i;
				*end = j + 1;
				return true;
			}
		} else if (isalpha((unsigned char)nx) || nx == '_') {
			while (j < len && (isalnum((unsigned char)s[j]) || s[j] == '_'))
				j++;
			*start = i;
			*end = j;
			return true;
		}
	}
	return false;
}

/* Report the first variable in v, at parent's member pkey; whether there
 * was one. The path is built only for a finding. */
static bool variable_in(struct lint_ctx *c, const char *parent, const char *pkey, const char *key,
			const json_t *v, const char *why)
{
	if (!json_is_string(v) || !memchr(json_string_value(v), '$', json_string_length(v)))
		return false;
	size_t start, end;
	if (!find_variable(json_string_value(v), json_string_length(v), &start, &end))
		return false;
	char *path = lint_path_key(parent, pkey);
	if (key && lint_key_is_secret(key) && !(start == 0 && end == json_string_length(v))) {
		lint_report(c, R_VARIABLE, path, "a shell variable in this value %s", why);
		free(path);
		return true;
	}
	char *var = xstrndup(json_string_value(v) + start, end - start);
	char b[96];
	lint_report(c, R_VARIABLE, path, "%s %s", lint_brief(var, b, sizeof(b)), why);
	free(var);
	free(path);
	return true;
}

static void check_variables(struct lint_ctx *c)
{
	const char *k;
	json_t *v;
	const json_t *env = lint_get(c->doc, "context.docker_env_vars");
	if (json_is_object(env)) {
		json_object_foreach((json_t *)env, k, v)
		{
			variable_in(c, "$.context.docker_env_vars", k, k, v,
				    assay_starts_with(k, "MAD_SECRETS")
					? "reaches the container as literal text; madengine "
					  "forwards MAD_SECRETS_* from the host environment by "
					  "itself, so delete this entry"
					: "reaches the container as literal text: madengine passes "
					  "docker_env_vars to docker run single-quoted");
		}
	}
	const json_t *mounts = lint_get(c->doc, "context.docker_mounts");
	if (json_is_object(mounts)) {
		json_object_foreach((json_t *)mounts, k, v)
		{
			json_t *kv = json_string(k);
			const char *why =
			    "is not expanded in docker_mounts: docker gets the literal "
			    "path";
			if (!variable_in(c, "$.context.docker_mounts", k, NULL, kv, why))
				variable_in(c, "$.context.docker_mounts", k, NULL, v, why);
			json_decref(kv);
		}
	}
	const json_t *images = lint_get(c->doc, "built_images");
	if (json_is_object(images)) {
		json_object_foreach((json_t *)images, k, v)
		{
			if (!json_is_object(v))
				continue;
			char *ep = lint_path_key("$.built_images", k);
			static const char *const fields[] = {"docker_image", "registry_image"};
			for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
				variable_in(c, ep, fields[i], NULL, json_object_get(v, fields[i]),
					    "is not expanded in an image name");
			free(ep);
		}
	}
	static const char *const sbatch[] = {"partition",   "account",  "qos",
					     "reservation", "nodelist", "exclude",
					     "constraint",  "time",     "output_dir"};
	const json_t *slurm = lint_get(c->doc, "deployment_config.slurm");
	if (json_is_object(slurm)) {
		for (size_t i = 0; i < ARRAY_SIZE(sbatch); i++)
			variable_in(c, "$.deployment_config.slurm", sbatch[i], NULL,
				    json_object_get(slurm, sbatch[i]),
				    "is not expanded: madengine writes it into an #SBATCH line");
	}
}

static void check(struct lint_ctx *c)
{
	if (lint_on(c, R_PLACEHOLDER))
		lint_walk_strings(c, placeholder_visit, NULL);
	if (lint_manifest_like(c) && lint_on(c, R_VARIABLE))
		check_variables(c);
}

const struct lint_family lint_family_placeholders = {"placeholders", rules, ARRAY_SIZE(rules),
						     check};
