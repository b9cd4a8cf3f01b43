/* CollectiveX's matrix inputs read as they are: configs/platform_config.json
 * (platforms with per-backend and low-latency EP sizes) and configs/sweep.json,
 * from SemiAnalysisAI/InferenceX experimental/CollectiveX, into assay's
 * registry and sweep. Expansion rules: docs/matrix.md, "CollectiveX inputs". */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/config.h"
#include "assay/json.h"
#include "config_int.h"

/* The dispatch precisions each backend realizes, and those off every serving
 * path (only in a matrix that names them): BACKEND_PRECISIONS and
 * OFF_PATH_PRECISIONS of CollectiveX's sweep_matrix.py, which keeps them in
 * code rather than in its configs. */
static const struct {
	const char *backend;
	const char *precisions[3];
	const char *off_path[2];
} cx_backends[] = {
    {"deepep-v2", {"bf16", "fp8"}, {NULL}},      {"mori", {"bf16", "fp8"}, {NULL}},
    {"uccl-ep", {"bf16", "fp8"}, {NULL}},        {"nccl-ep", {"bf16"}, {NULL}},
    {"flashinfer-ep", {"bf16", "fp8"}, {"fp8"}},
};

static const char *const top_keys[] = {"backend_maturity", "platforms", NULL};
static const char *const platform_keys[] = {"arch",
					    "product",
					    "image",
					    "image_platform",
					    "gpus_per_node",
					    "scale_up_domain",
					    "scale_up_transport",
					    "launcher",
					    "backends",
					    "ll_backends",
					    "fabric",
					    "operator",
					    "network",
					    NULL};

bool assay_registry_collectivex_detect(const json_t *doc)
{
	return json_is_object(doc) && json_object_get(doc, "backend_maturity");
}

static int cmp_backend(const void *a, const void *b)
{
	return strcmp(((const struct assay_backend_eps *)a)->name,
		      ((const struct assay_backend_eps *)b)->name);
}

static int known_backend(struct assay_cfg *c, const char *path, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(cx_backends); i++)
		if (!strcmp(cx_backends[i].backend, name))
			return (int)i;
	struct sbuf sb = SBUF_INIT;
	for (size_t i = 0; i < ARRAY_SIZE(cx_backends); i++)
		sbuf_addf(&sb, "%s%s", i ? ", " : "", cx_backends[i].backend);
	assay_cfg_fail(c, path, "unknown CollectiveX backend \"%s\" (known: %s)", name,
		       sbuf_str(&sb));
	sbuf_release(&sb);
	return -1;
}

static int parse_backends(struct assay_cfg *c, const json_t *v, const char *path,
			  struct assay_platform *p)
{
	p->backends = xcalloc(json_object_size(v) + 1, sizeof(*p->backends));
	const char *name;
	json_t *eps;
	json_object_foreach((json_t *)v, name, eps)
	{
		char bp[256];
		assay_json_path_key(bp, sizeof(bp), path, name);
		int k = known_backend(c, bp, name);
		if (k < 0)
			return -1;
		struct assay_backend_eps *b = &p->backends[p->n_backends++];
		b->name = xstrdup(name);
		if (assay_cfg_int_list(c, v, path, name, ASSAY_CFG_REQUIRED, 1, 1 << 20, &b->eps,
				       &b->n) < 0)
			return -1;
		for (size_t i = 0; cx_backends[k].precisions[i]; i++)
			strlist_push(&b->precisions, cx_backends[k].precisions[i]);
		for (size_t i = 0; cx_backends[k].off_path[i]; i++)
			strlist_push(&b->off_path, cx_backends[k].off_path[i]);
	}
	if (!p->n_backends)
		return assay_cfg_fail(c, path, "expected at least one backend");
	qsort(p->backends, p->n_backends, sizeof(*p->backends), cmp_backend);
	return 0;
}

static int parse_ll(struct assay_cfg *c, const json_t *v, const char *path,
		    struct assay_platform *p)
{
	const char *name;
	json_t *eps;
	json_object_foreach((json_t *)v, name, eps)
	{
		char bp[256];
		assay_json_path_key(bp, sizeof(bp), path, name);
		struct assay_backend_eps *b = NULL;
		for (size_t i = 0; i < p->n_backends; i++)
			if (!strcmp(p->backends[i].name, name))
				b = &p->backends[i];
		if (!b)
			return assay_cfg_fail(
			    c, bp, "\"%s\" is not one of this platform's backends", name);
		if (assay_cfg_int_list(c, v, path, name, ASSAY_CFG_REQUIRED, 1, 1 << 20, &b->ll_eps,
				       &b->n_ll) < 0)
			return -1;
		strlist_push(&p->ll_backends, name);
	}
	return 0;
}

/* The Slurm placement fields assay knows, under assay's names. */
static json_t *carry_operator(const json_t *op)
{
	static const char *const map[][2] = {{"partition", "partition"},
					     {"account", "account"},
					     {"qos", "qos"},
					     {"exclude_nodes", "exclude"}};
	json_t *out = json_object();
	for (size_t i = 0; i < ARRAY_SIZE(map); i++) {
		json_t *v = json_object_get(op, map[i][0]);
		if (json_is_string(v))
			json_object_set(out, map[i][1], v);
	}
	return out;
}

static json_t *carry_network(const json_t *net)
{
	json_t *out = json_object(), *v;
	if (json_is_string(v = json_object_get(net, "socket_ifname")))
		json_object_set(out, "socket_ifname", v);
	if (json_is_string(v = json_object_get(net, "rdma_devices"))) {
		json_t *list = json_array();
		char *copy = xstrdup(json_string_value(v)), *save = NULL;
		for (char *d = strtok_r(copy, ",", &save); d; d = strtok_r(NULL, ",", &save))
			json_array_append_new(list, json_string(d));
		free(copy);
		json_object_set_new(out, "rdma_devices", list);
	}
	long long gid;
	v = json_object_get(net, "ib_gid_index");
	if (json_is_integer(v))
		json_object_set(out, "ib_gid_index", v);
	else if (json_is_string(v) && assay_parse_long(json_string_value(v), &gid))
		json_object_set_new(out, "ib_gid_index", json_integer(gid));
	return out;
}

static int parse_platform(struct assay_cfg *c, const json_t *v, const char *path,
			  struct assay_platform *p)
{
	const char *s;
	json_t *m;
	char kp[256];
	if (assay_cfg_object(c, v, path, platform_keys) < 0 ||
	    assay_cfg_string(c, v, path, "arch", ASSAY_CFG_REQUIRED, &s) < 0)
		return -1;
	p->arch = xstrdup(s);
	if (assay_cfg_string(c, v, path, "product", ASSAY_CFG_REQUIRED, &s) < 0 ||
	    assay_cfg_string(c, v, path, "image", ASSAY_CFG_OPTIONAL, &s) < 0 ||
	    assay_cfg_string(c, v, path, "image_platform", ASSAY_CFG_OPTIONAL, &s) < 0 ||
	    assay_cfg_string(c, v, path, "launcher", ASSAY_CFG_OPTIONAL, &s) < 0)
		return -1;
	if (assay_cfg_int(c, v, path, "gpus_per_node", ASSAY_CFG_REQUIRED, 1, 4096,
			  &p->gpus_per_node) < 0 ||
	    assay_cfg_int(c, v, path, "scale_up_domain", ASSAY_CFG_REQUIRED, 1, 1 << 20,
			  &p->scale_up_domain) < 0 ||
	    assay_cfg_string(c, v, path, "scale_up_transport", ASSAY_CFG_REQUIRED, &s) < 0)
		return -1;
	p->scale_up_transport = xstrdup(s);
	/* CollectiveX: every scale-out path is RDMA. */
	p->scale_out_transport = xstrdup("rdma");
	assay_json_path_key(kp, sizeof(kp), path, "backends");
	if (assay_cfg_member(c, v, path, "backends", ASSAY_CFG_REQUIRED, JSON_OBJECT, &m) < 0 ||
	    parse_backends(c, m, kp, p) < 0)
		return -1;
	m = NULL;
	assay_json_path_key(kp, sizeof(kp), path, "ll_backends");
	if (assay_cfg_member(c, v, path, "ll_backends", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &m) < 0 ||
	    (m && parse_ll(c, m, kp, p) < 0))
		return -1;
	m = NULL;
	if (assay_cfg_member(c, v, path, "fabric", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &m) < 0)
		return -1;
	p->fabric = m ? json_incref(m) : json_object();
	m = NULL;
	if (assay_cfg_member(c, v, path, "network", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &m) < 0)
		return -1;
	if (m)
		p->network = carry_network(m);
	m = NULL;
	if (assay_cfg_member(c, v, path, "operator", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &m) < 0)
		return -1;
	if (m)
		p->op = carry_operator(m);
	return 0;
}

/* ---- the operator overlay (runtime/config.py, operator_config) ----
 *
 * CollectiveX resolves a SKU's operator settings as: the registry's
 * `operator` block, overlaid per field by `runners.<sku>` of an operator
 * document ($COLLECTIVEX_OPERATOR_CONFIG, else
 * ${XDG_CONFIG_HOME:-$HOME/.config}/inferencex/collectivex.json; none when no
 * file is there), then by the registry's `network` fields (the registry's
 * network selectors win). Every field must be one it knows, and every value
 * a string or an integer; anything else fails closed. */

static const char *const operator_fields[] = {
    "partition",     "account",  "qos",      "squash_dir",    "stage_dir", "enroot_cache_path",
    "exclude_nodes", "nodelist", "lock_dir", "storage_roots", NULL};
static const char *const network_fields[] = {"socket_ifname",
					     "rdma_devices",
					     "ib_gid_index",
					     "rdma_service_level",
					     "rdma_traffic_class",
					     "rail_isolated",
					     NULL};

static bool in_list(const char *const *l, const char *k)
{
	for (; *l; l++)
		if (!strcmp(*l, k))
			return true;
	return false;
}

/* The operator document's path into path (as CollectiveX's common.sh
 * forms it); false when no file is there. */
static bool overlay_path(char *path, size_t size)
{
	const char *env = getenv("COLLECTIVEX_OPERATOR_CONFIG");
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	if (env && *env)
		snprintf(path, size, "%s", env);
	else if (xdg && *xdg)
		snprintf(path, size, "%s/inferencex/collectivex.json", xdg);
	else
		snprintf(path, size, "%s/.config/inferencex/collectivex.json", home ? home : "");
	return access(path, F_OK) == 0;
}

/* Merge src's fields into sel, each checked; where names the file's path
 * of src for errors. */
static int overlay_fields(struct assay_cfg *c, json_t *sel, const json_t *src, const char *where,
			  const char *const *only)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)src, k, v)
	{
		if (only && !in_list(only, k))
			continue;
		char p[512];
		assay_json_path_key(p, sizeof(p), where, k);
		if (!in_list(operator_fields, k) && !in_list(network_fields, k))
			return assay_cfg_fail(
			    c, p,
			    "CollectiveX refuses operator field \"%s\" (it knows "
			    "partition, account, qos, squash_dir, stage_dir, "
			    "enroot_cache_path, exclude_nodes, nodelist, lock_dir, "
			    "storage_roots and the network selectors)",
			    k);
		if (strcmp(k, "storage_roots") && !json_is_string(v) && !json_is_integer(v) &&
		    !json_is_boolean(v))
			return assay_cfg_expected(c, p, "a string or an integer", v);
		json_object_set(sel, k, v);
	}
	return 0;
}

/* One platform's operator and network settings as CollectiveX resolves
 * them, into p->op and p->network. */
static int overlay_platform(struct assay_cfg *c, struct assay_cfg *oc, const json_t *raw,
			    const json_t *runners, struct assay_platform *p)
{
	char where[512];
	json_t *sel = json_object();
	const json_t *op = json_object_get(raw, "operator"), *net = json_object_get(raw, "network");
	const json_t *mine = runners ? json_object_get(runners, p->sku) : NULL;
	int rc = 0;
	assay_json_path_key(where, sizeof(where), "$.platforms", p->sku);
	char opw[600], rw[512];
	snprintf(opw, sizeof(opw), "%s.operator", where);
	assay_json_path_key(rw, sizeof(rw), "$.runners", p->sku);
	if (mine && !json_is_object(mine))
		rc = assay_cfg_expected(oc, rw, "an object of operator fields", mine);
	if (!rc && json_is_object(op))
		rc = overlay_fields(c, sel, op, opw, NULL);
	if (!rc && mine)
		rc = overlay_fields(oc, sel, mine, rw, NULL);
	if (!rc && json_is_object(net))
		rc = overlay_fields(c, sel, net, where, network_fields);
	if (!rc && (json_is_object(op) || mine)) {
		json_decref(p->op);
		p->op = carry_operator(sel);
	}
	if (!rc && (json_is_object(net) || mine)) {
		json_decref(p->network);
		p->network = carry_network(sel);
	}
	json_decref(sel);
	return rc;
}

static int apply_overlay(struct assay_cfg *c, const json_t *plats, struct assay_registry *reg)
{
	char path[4096];
	json_t *doc = NULL, *runners = NULL;
	struct assay_cfg oc = {path, c->err};
	if (overlay_path(path, sizeof(path))) {
		if (!(doc = assay_json_load_file(path, c->err)))
			return -1;
		if (assay_cfg_member(&oc, doc, "$", "runners", ASSAY_CFG_REQUIRED, JSON_OBJECT,
				     &runners) < 0) {
			json_decref(doc);
			return -1;
		}
	}
	int rc = 0;
	for (size_t i = 0; !rc && i < reg->n; i++)
		rc = overlay_platform(c, &oc, json_object_get(plats, reg->v[i].sku), runners,
				      &reg->v[i]);
	json_decref(doc);
	return rc;
}

assay_err assay_registry_collectivex_parse(const json_t *doc, const char *file,
					   struct assay_registry *reg, struct assay_error *e)
{
	struct assay_cfg c = {file, e};
	json_t *plats, *maturity;
	memset(reg, 0, sizeof(*reg));
	reg->file = xstrdup(file);
	reg->collectivex = true;
	if (assay_cfg_object(&c, doc, "$", top_keys) < 0 ||
	    assay_cfg_member(&c, doc, "$", "backend_maturity", ASSAY_CFG_REQUIRED, JSON_OBJECT,
			     &maturity) < 0 ||
	    assay_cfg_member(&c, doc, "$", "platforms", ASSAY_CFG_REQUIRED, JSON_OBJECT, &plats) <
		0)
		goto fail;
	if (config_platforms(&c, doc, plats, reg, parse_platform) < 0 ||
	    apply_overlay(&c, plats, reg) < 0)
		goto fail;
	return ASSAY_OK;
fail:
	assay_registry_release(reg);
	return ASSAY_USAGE;
}

/* ---- sweep ---- */

/* CollectiveX's names -> assay's, for the keys that differ. */
static const char *const timing_names[][2] = {
    {"trials_per_point", "trials"},
    {"iters_per_trial", "iters_per_trial"},
    {"warmup_iters_per_trial", "warmups_per_trial"},
    {"chain_trials_per_point", "chain_trials"},
    {"chain_iters_per_trial", "chain_pairs"},
    {"chain_drop", "chain_drop"},
};

bool assay_sweep_collectivex_detect(const json_t *doc)
{
	const json_t *w = json_object_get(doc, "workload");
	return json_is_object(doc) && json_object_get(doc, "version") &&
	       json_object_get(w, "routed_experts");
}

/* An error the assay reader found in the renamed document, pointed back at
 * the key as CollectiveX spells it. */
static void path_back(struct assay_error *e)
{
	char fixed[256];
	if (!e)
		return;
	if (!strncmp(e->path, "$.workload.experts", 18)) {
		snprintf(fixed, sizeof(fixed), "$.workload.routed_experts%s", e->path + 18);
		snprintf(e->path, sizeof(e->path), "%s", fixed);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(timing_names); i++) {
		char want[64];
		snprintf(want, sizeof(want), "$.timing.%s", timing_names[i][1]);
		if (!strcmp(e->path, want)) {
			snprintf(e->path, sizeof(e->path), "$.timing.%s", timing_names[i][0]);
			return;
		}
	}
}

assay_err assay_sweep_collectivex_parse(const json_t *doc, const char *file, struct assay_sweep *s,
					struct assay_error *e)
{
	static const char *const keys[] = {"version", "suite",      "modes",
					   "routing", "ep_degrees", "precisions",
					   "timing",  "workload",   NULL};
	static const char *const workload_keys[] = {
	    "name", "hidden", "topk", "routed_experts", "seed", "token_ladders", NULL};
	struct assay_cfg c = {file, e};
	long long version;
	json_t *timing, *workload;
	memset(s, 0, sizeof(*s));
	const char *tkeys[ARRAY_SIZE(timing_names) + 1];
	for (size_t i = 0; i < ARRAY_SIZE(timing_names); i++)
		tkeys[i] = timing_names[i][0];
	tkeys[ARRAY_SIZE(timing_names)] = NULL;
	if (assay_cfg_object(&c, doc, "$", keys) < 0 ||
	    assay_cfg_int(&c, doc, "$", "version", ASSAY_CFG_REQUIRED, 1, INT_MAX, &version) < 0 ||
	    assay_cfg_member(&c, doc, "$", "timing", ASSAY_CFG_REQUIRED, JSON_OBJECT, &timing) <
		0 ||
	    assay_cfg_object(&c, timing, "$.timing", tkeys) < 0 ||
	    assay_cfg_member(&c, doc, "$", "workload", ASSAY_CFG_REQUIRED, JSON_OBJECT, &workload) <
		0 ||
	    assay_cfg_object(&c, workload, "$.workload", workload_keys) < 0)
		return ASSAY_USAGE;
	for (size_t i = 0; i < ARRAY_SIZE(timing_names); i++) {
		long long v;
		if (assay_cfg_int(&c, timing, "$.timing", timing_names[i][0], ASSAY_CFG_REQUIRED, 0,
				  LLONG_MAX, &v) < 0)
			return ASSAY_USAGE;
	}
	/* The same document under assay's names, read by assay's reader. */
	json_t *copy = json_deep_copy(doc), *t = json_object(), *w;
	json_object_del(copy, "version");
	for (size_t i = 0; i < ARRAY_SIZE(timing_names); i++)
		json_object_set(t, timing_names[i][1], json_object_get(timing, timing_names[i][0]));
	json_object_set_new(copy, "timing", t);
	w = json_object_get(copy, "workload");
	json_object_set(w, "experts", json_object_get(w, "routed_experts"));
	json_object_del(w, "routed_experts");
	assay_err rc = assay_sweep_parse(copy, file, s, e);
	json_decref(copy);
	if (rc != ASSAY_OK) {
		path_back(e);
		return rc;
	}
	struct assay_timing ref, *got = &s->timing;
	assay_timing_profile("reference", &ref);
	if (got->trials == ref.trials && got->iters_per_trial == ref.iters_per_trial &&
	    got->warmups_per_trial == ref.warmups_per_trial &&
	    got->chain_trials == ref.chain_trials && got->chain_pairs == ref.chain_pairs &&
	    got->chain_drop == ref.chain_drop)
		snprintf(got->profile, sizeof(got->profile), "reference");
	assay_json_sha256(doc, s->sha256);
	return ASSAY_OK;
}
