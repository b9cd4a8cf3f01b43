/* The sweep: suite name, routing, modes and their phases, EP degrees,
 * precisions, timing profile and the workload with its token ladders.
 * Format: docs/config.md. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "assay/config.h"
#include "assay/json.h"

static const char *const sweep_keys[] = {"suite",      "routing", "modes",    "ep_degrees",
					 "precisions", "timing",  "workload", NULL};
static const char *const workload_keys[] = {"name", "hidden",        "topk", "experts",
					    "seed", "token_ladders", NULL};
static const char *const mode_names[] = {"normal", "low-latency", NULL};

/* One routing of the factor, as assay-ep --routing takes it (docs/ep.md,
 * "Routing distributions"): uniform, zipf:S (a decimal from 0 to 4),
 * hot:K:P (1 <= K < experts, 0 < P < 1) or file:PATH. The syntax only
 * (config/ cannot reach ep/): assay-ep reads a routing file itself. */
static bool decimal(const char *s, size_t n, double min, double max, bool open)
{
	size_t digits = 0, dots = 0;
	for (size_t i = 0; i < n; i++)
		digits += s[i] >= '0' && s[i] <= '9', dots += s[i] == '.';
	if (!digits || dots > 1 || digits + dots != n)
		return false;
	char *t = xstrndup(s, n);
	double v = strtod(t, NULL);
	free(t);
	return open ? v > min && v < max : v >= min && v <= max;
}

static bool routing_ok(const char *r, long long experts)
{
	if (!strcmp(r, "uniform"))
		return true;
	if (assay_starts_with(r, "zipf:"))
		return decimal(r + 5, strlen(r + 5), 0, 4, false);
	if (assay_starts_with(r, "file:"))
		return r[5] != '\0';
	const char *colon = assay_starts_with(r, "hot:") ? strchr(r + 4, ':') : NULL;
	if (!colon || colon == r + 4)
		return false;
	long long k = 0;
	for (const char *q = r + 4; q < colon; q++)
		if (*q < '0' || *q > '9' || (k = k * 10 + (*q - '0')) >= experts)
			return false;
	return k >= 1 && decimal(colon + 1, strlen(colon + 1), 0, 1, true);
}

static int parse_routing(struct assay_cfg *c, const json_t *doc, struct assay_sweep *s)
{
	json_t *v = json_object_get(doc, "routing");
	if (!v)
		strlist_push(&s->routings, "uniform");
	else if (json_is_string(v))
		strlist_push(&s->routings, json_string_value(v));
	else if (assay_cfg_string_list(c, doc, "$", "routing", ASSAY_CFG_REQUIRED, NULL,
				       &s->routings) < 0)
		return -1;
	for (size_t i = 0; i < s->routings.n; i++) {
		if (routing_ok(s->routings.v[i], s->workload.experts))
			continue;
		char ip[64], brief[128];
		if (json_is_array(v))
			assay_json_path_index(ip, sizeof(ip), "$.routing", i);
		/* The value as every loader quotes one: cut, secrets masked. */
		json_t *val = json_string(s->routings.v[i]);
		assay_json_brief(val, brief, sizeof(brief));
		json_decref(val);
		return assay_cfg_fail(c, json_is_array(v) ? ip : "$.routing",
				      "expected uniform, zipf:S (S from 0 to 4), hot:K:P (1 <= K "
				      "< experts (%lld), 0 < P < 1) or file:PATH, got %s",
				      s->workload.experts, brief);
	}
	s->routing = xstrdup(s->routings.v[0]);
	return 0;
}

static int parse_workload(struct assay_cfg *c, const json_t *w, struct assay_sweep *s)
{
	const char *name;
	json_t *ladders;
	if (assay_cfg_object(c, w, "$.workload", workload_keys) < 0 ||
	    assay_cfg_string(c, w, "$.workload", "name", ASSAY_CFG_REQUIRED, &name) < 0)
		return -1;
	s->workload.name = xstrdup(name);
	if (assay_cfg_int(c, w, "$.workload", "hidden", ASSAY_CFG_REQUIRED, 32, 1 << 20,
			  &s->workload.hidden) < 0 ||
	    assay_cfg_int(c, w, "$.workload", "experts", ASSAY_CFG_REQUIRED, 1, 1 << 20,
			  &s->workload.experts) < 0 ||
	    assay_cfg_int(c, w, "$.workload", "topk", ASSAY_CFG_REQUIRED, 1, s->workload.experts,
			  &s->workload.topk) < 0 ||
	    assay_cfg_int(c, w, "$.workload", "seed", ASSAY_CFG_REQUIRED, 0, LLONG_MAX,
			  &s->workload.seed) < 0 ||
	    assay_cfg_member(c, w, "$.workload", "token_ladders", ASSAY_CFG_REQUIRED, JSON_OBJECT,
			     &ladders) < 0)
		return -1;
	if (!json_object_size(ladders))
		return assay_cfg_fail(c, "$.workload.token_ladders", "expected at least one phase");
	s->workload.ladders = xcalloc(json_object_size(ladders), sizeof(*s->workload.ladders));
	const char *phase;
	json_t *v;
	json_object_foreach(ladders, phase, v)
	{
		(void)v;
		struct assay_ladder *l = &s->workload.ladders[s->workload.n_ladders++];
		l->phase = xstrdup(phase);
		if (assay_cfg_int_list(c, ladders, "$.workload.token_ladders", phase,
				       ASSAY_CFG_REQUIRED, 1, 1 << 24, &l->tokens, &l->n) < 0)
			return -1;
	}
	return 0;
}

static int parse_modes(struct assay_cfg *c, const json_t *m, struct assay_sweep *s)
{
	if (assay_cfg_object(c, m, "$.modes", mode_names) < 0)
		return -1;
	if (!json_object_size(m))
		return assay_cfg_fail(c, "$.modes", "expected at least one mode");
	for (size_t i = 0; mode_names[i]; i++) {
		if (!json_object_get(m, mode_names[i]))
			continue;
		struct assay_mode *md = &s->modes[s->n_modes++];
		md->name = xstrdup(mode_names[i]);
		if (assay_cfg_string_list(c, m, "$.modes", mode_names[i], ASSAY_CFG_REQUIRED, NULL,
					  &md->phases) < 0)
			return -1;
		for (size_t j = 0; j < md->phases.n; j++) {
			if (assay_sweep_ladder(s, md->phases.v[j]))
				continue;
			char mp[256], ip[256];
			assay_json_path_key(mp, sizeof(mp), "$.modes", mode_names[i]);
			assay_json_path_index(ip, sizeof(ip), mp, j);
			struct sbuf sb = SBUF_INIT;
			for (size_t k = 0; k < s->workload.n_ladders; k++)
				sbuf_addf(&sb, "%s%s", k ? ", " : "", s->workload.ladders[k].phase);
			assay_cfg_fail(c, ip,
				       "unknown phase \"%s\" (workload.token_ladders has: %s)",
				       md->phases.v[j], sbuf_str(&sb));
			sbuf_release(&sb);
			return -1;
		}
	}
	return 0;
}

assay_err assay_sweep_parse(const json_t *doc, const char *file, struct assay_sweep *s,
			    struct assay_error *e)
{
	struct assay_cfg c = {file, e};
	const char *str;
	json_t *m;
	if (assay_sweep_collectivex_detect(doc))
		return assay_sweep_collectivex_parse(doc, file, s, e);
	memset(s, 0, sizeof(*s));
	s->file = xstrdup(file);
	if (assay_cfg_object(&c, doc, "$", sweep_keys) < 0 ||
	    assay_cfg_string(&c, doc, "$", "suite", ASSAY_CFG_REQUIRED, &str) < 0)
		goto fail;
	s->suite = xstrdup(str);
	/* The workload first: modes refer to its ladders, EP sizes and hot
	 * routings to its experts. */
	if (assay_cfg_member(&c, doc, "$", "workload", ASSAY_CFG_REQUIRED, JSON_OBJECT, &m) < 0 ||
	    parse_workload(&c, m, s) < 0 || parse_routing(&c, doc, s) < 0)
		goto fail;
	if (assay_cfg_member(&c, doc, "$", "modes", ASSAY_CFG_REQUIRED, JSON_OBJECT, &m) < 0 ||
	    parse_modes(&c, m, s) < 0)
		goto fail;
	if (assay_cfg_int_list(&c, doc, "$", "ep_degrees", ASSAY_CFG_REQUIRED, 1, 1 << 20,
			       &s->ep_degrees, &s->n_ep) < 0)
		goto fail;
	for (size_t i = 0; i < s->n_ep; i++) {
		char ip[64];
		assay_json_path_index(ip, sizeof(ip), "$.ep_degrees", i);
		if (s->workload.experts % s->ep_degrees[i]) {
			assay_cfg_fail(&c, ip,
				       "expected a divisor of workload.experts (%lld), got %lld",
				       s->workload.experts, s->ep_degrees[i]);
			goto fail;
		}
		for (size_t j = 0; j < s->workload.n_ladders; j++) {
			const struct assay_ladder *l = &s->workload.ladders[j];
			for (size_t k = 0; k < l->n; k++)
				if ((unsigned long long)l->tokens[k] *
					(unsigned long long)s->ep_degrees[i] >
				    0xffffffffULL) {
					assay_cfg_fail(&c, ip,
						       "%lld ranks x %lld tokens per rank exceeds "
						       "2^32 global tokens",
						       s->ep_degrees[i], l->tokens[k]);
					goto fail;
				}
		}
	}
	if (assay_cfg_string_list(&c, doc, "$", "precisions", ASSAY_CFG_REQUIRED,
				  assay_known_precisions, &s->precisions) < 0)
		goto fail;
	if (assay_cfg_member(&c, doc, "$", "timing", ASSAY_CFG_REQUIRED, JSON_OBJECT, &m) < 0 ||
	    assay_timing_parse(&c, m, "$.timing", &s->timing) < 0)
		goto fail;
	assay_json_sha256(doc, s->sha256);
	return ASSAY_OK;
fail:
	assay_sweep_release(s);
	return ASSAY_USAGE;
}

assay_err assay_sweep_load(const char *file, struct assay_sweep *s, struct assay_error *e)
{
	memset(s, 0, sizeof(*s));
	json_t *doc = assay_json_load_file(file, e);
	if (!doc)
		return ASSAY_USAGE;
	assay_err rc = assay_sweep_parse(doc, file, s, e);
	json_decref(doc);
	return rc;
}

void assay_sweep_release(struct assay_sweep *s)
{
	free(s->file);
	free(s->suite);
	free(s->routing);
	strlist_clear(&s->routings);
	for (size_t i = 0; i < s->n_modes; i++) {
		free(s->modes[i].name);
		strlist_clear(&s->modes[i].phases);
	}
	free(s->ep_degrees);
	strlist_clear(&s->precisions);
	free(s->workload.name);
	for (size_t i = 0; i < s->workload.n_ladders; i++) {
		free(s->workload.ladders[i].phase);
		free(s->workload.ladders[i].tokens);
	}
	free(s->workload.ladders);
	memset(s, 0, sizeof(*s));
}

const struct assay_ladder *assay_sweep_ladder(const struct assay_sweep *s, const char *phase)
{
	for (size_t i = 0; i < s->workload.n_ladders; i++)
		if (!strcmp(s->workload.ladders[i].phase, phase))
			return &s->workload.ladders[i];
	return NULL;
}
