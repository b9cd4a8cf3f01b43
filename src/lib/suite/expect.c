/* Provenance expectations ("expect", docs/suite.md): the block's loading
 * and checks (name, PCRE2 pattern, per node or per rank), and each case's
 * patterns with its placeholders filled and compiled. The run matches them
 * against the case's output (src/lib/run/expect.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/watch.h"
#include "suite_int.h"

static const char *const expect_keys[] = {"name", "pattern", "per", NULL};
static const char *const pers[] = {"node", "rank", NULL};

const char *assay_expect_per_name(enum assay_expect_per per)
{
	return per == ASSAY_EXPECT_RANK ? "rank" : "node";
}

/* A pattern without placeholders is compiled now, so that a bad one is
 * refused even when no case would run. */
static int check_literal(struct assay_cfg *c, const char *path, const char *pattern)
{
	json_t *none = json_object();
	struct sbuf sb = SBUF_INIT;
	char *missing = NULL;
	int rc = 0;
	if (assay_template_expand(pattern, none, &sb, &missing) == 0) {
		struct assay_error e2;
		void *code = assay_pattern_compile(sbuf_str(&sb), &e2);
		if (!code)
			rc = assay_cfg_fail(c, path, "%s", e2.message);
		assay_pattern_free(code);
	}
	free(missing);
	sbuf_release(&sb);
	json_decref(none);
	return rc;
}

int suite_parse_expect(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	const json_t *list = json_object_get(doc, "expect");
	if (!list)
		return 0;
	if (!json_is_array(list))
		return assay_cfg_expected(
		    c, "$.expect", "an array of {\"name\", \"pattern\", \"per\"} objects", list);
	s->expect = xcalloc(json_array_size(list) + 1, sizeof(*s->expect));
	size_t i;
	json_t *v;
	json_array_foreach(list, i, v)
	{
		char p[256], pp[300];
		assay_json_path_index(p, sizeof(p), "$.expect", i);
		const char *name, *pattern, *per = "node";
		if (!json_is_object(v))
			return assay_cfg_expected(c, p, "an object with name, pattern and per", v);
		if (assay_cfg_object(c, v, p, expect_keys) < 0 ||
		    assay_cfg_string(c, v, p, "name", ASSAY_CFG_REQUIRED, &name) < 0 ||
		    assay_cfg_string(c, v, p, "pattern", ASSAY_CFG_REQUIRED, &pattern) < 0 ||
		    assay_cfg_enum(c, v, p, "per", ASSAY_CFG_OPTIONAL, pers, &per) < 0)
			return -1;
		assay_json_path_key(pp, sizeof(pp), p, "name");
		for (size_t k = 0; k < s->n_expect; k++)
			if (!strcmp(s->expect[k].name, name))
				return assay_cfg_fail(c, pp, "expectation \"%s\" is named twice",
						      name);
		assay_json_path_key(pp, sizeof(pp), p, "pattern");
		if (check_literal(c, pp, pattern) < 0)
			return -1;
		struct assay_expect *x = &s->expect[s->n_expect++];
		x->name = xstrdup(name);
		x->pattern = xstrdup(pattern);
		x->per = !strcmp(per, "rank") ? ASSAY_EXPECT_RANK : ASSAY_EXPECT_NODE;
	}
	return 0;
}

void suite_expect_release(struct assay_suite *s)
{
	for (size_t i = 0; i < s->n_expect; i++) {
		free(s->expect[i].name);
		free(s->expect[i].pattern);
	}
	free(s->expect);
	s->expect = NULL;
	s->n_expect = 0;
}

bool assay_suite_expect_per_rank(const struct assay_suite *s)
{
	for (size_t i = 0; i < s->n_expect; i++)
		if (s->expect[i].per == ASSAY_EXPECT_RANK)
			return true;
	return false;
}

assay_err assay_suite_expect_plan(const struct assay_suite *s, const json_t *vars,
				  struct assay_expect_plan *p, struct assay_error *e)
{
	memset(p, 0, sizeof(*p));
	p->v = xcalloc(s->n_expect + 1, sizeof(*p->v));
	struct sbuf sb = SBUF_INIT;
	assay_err rc = ASSAY_OK;
	for (size_t i = 0; i < s->n_expect && rc == ASSAY_OK; i++) {
		char ip[64], path[96];
		assay_json_path_index(ip, sizeof(ip), "$.expect", i);
		assay_json_path_key(path, sizeof(path), ip, "pattern");
		sbuf_reset(&sb);
		if ((rc = suite_expand(s->expect[i].pattern, vars, s->file, path, &sb, e)) !=
		    ASSAY_OK)
			break;
		struct assay_error e2;
		void *code = assay_pattern_compile(sbuf_str(&sb), &e2);
		if (!code) {
			rc = assay_error_at(e, ASSAY_USAGE, s->file, path, 0, "%s", e2.message);
			break;
		}
		struct assay_expect_case *x = &p->v[p->n++];
		x->name = xstrdup(s->expect[i].name);
		x->pattern = xstrdup(sbuf_str(&sb));
		x->per = s->expect[i].per;
		x->code = code;
	}
	sbuf_release(&sb);
	if (rc != ASSAY_OK)
		assay_expect_plan_release(p);
	return rc;
}

void assay_expect_plan_release(struct assay_expect_plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].name);
		free(p->v[i].pattern);
		assay_pattern_free(p->v[i].code);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}

/* Every runnable case fills every expectation's placeholders, and the
 * filled pattern compiles (checked at load, like the other templates).
 * With variants every variant's copy of a case is checked, with its vars. */
int suite_check_expect(struct assay_suite *s, struct assay_error *e)
{
	for (size_t i = 0; s->n_expect && i < s->n_cases; i++) {
		const struct assay_suite_case *c = &s->cases[i];
		if (!c->runnable)
			continue;
		json_t *vars = suite_builtin_vars(s, c, "RUN", "CASE_DIR");
		struct assay_expect_plan one;
		assay_err rc = assay_suite_expect_plan(s, vars, &one, e);
		json_decref(vars);
		if (rc != ASSAY_OK) {
			/* Which case: a pattern is filled per case. */
			size_t n = strlen(e->message);
			snprintf(e->message + n, sizeof(e->message) - n, " (case %s)", c->id);
			return -1;
		}
		assay_expect_plan_release(&one);
	}
	return 0;
}

json_t *assay_suite_case_vars(const struct assay_suite *s, const struct assay_suite_case *c,
			      const char *run_id, const char *case_dir)
{
	return suite_builtin_vars(s, c, run_id, case_dir);
}
