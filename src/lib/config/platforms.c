/* The platform registry: per SKU its GPUs, scale-up domain, transports, the
 * backends it supports at which EP sizes, and allowlisted network and
 * operator blocks. Format: docs/config.md. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "assay/config.h"
#include "assay/json.h"
#include "config_int.h"

const char *const assay_known_backends[] = {"deepep-v2", "mori", "uccl-ep", "nccl-ep",
					    "nccl",      "mpi",  "shm",     NULL};
const char *const assay_known_precisions[] = {"bf16", "fp8", NULL};

static const char *const platform_keys[] = {"arch",
					    "gpus_per_node",
					    "scale_up_domain",
					    "scale_up_transport",
					    "scale_out_transport",
					    "backends",
					    "ll_backends",
					    "fabric",
					    "network",
					    "operator",
					    NULL};
static const char *const fabric_keys[] = {"nic", "switch", NULL};

/* Allowlisted fields of the network and operator blocks, with their types. */
struct field {
	const char *key;
	json_type
	    type; /* JSON_STRING, JSON_INTEGER, JSON_TRUE (boolean), JSON_ARRAY (of strings) */
};
static const struct field network_fields[] = {
    {"socket_ifname", JSON_STRING},     {"rdma_devices", JSON_ARRAY},
    {"ib_gid_index", JSON_INTEGER},     {"ib_traffic_class", JSON_INTEGER},
    {"ib_service_level", JSON_INTEGER}, {"net_plugin", JSON_STRING},
    {"master_port", JSON_INTEGER},
};
static const struct field operator_fields[] = {
    {"partition", JSON_STRING},   {"account", JSON_STRING},  {"qos", JSON_STRING},
    {"reservation", JSON_STRING}, {"nodelist", JSON_STRING}, {"exclude", JSON_STRING},
    {"constraint", JSON_STRING},  {"time", JSON_STRING},     {"exclusive", JSON_TRUE},
    {"gpu_gres", JSON_TRUE},
};

static int check_fields(struct assay_cfg *c, const json_t *v, const char *path,
			const struct field *fields, size_t n)
{
	const char *keys[16];
	for (size_t i = 0; i < n; i++)
		keys[i] = fields[i].key;
	keys[n] = NULL;
	if (assay_cfg_object(c, v, path, keys) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		json_t *m;
		if (fields[i].type == JSON_ARRAY) {
			struct strlist l = STRLIST_INIT;
			int rc = assay_cfg_string_list(c, v, path, fields[i].key,
						       ASSAY_CFG_OPTIONAL, NULL, &l);
			strlist_clear(&l);
			if (rc < 0)
				return -1;
		} else if (fields[i].type == JSON_STRING) {
			const char *s;
			if (assay_cfg_string(c, v, path, fields[i].key, ASSAY_CFG_OPTIONAL, &s) < 0)
				return -1;
		} else if (fields[i].type == JSON_INTEGER) {
			long long x;
			if (assay_cfg_int(c, v, path, fields[i].key, ASSAY_CFG_OPTIONAL, 0, 65535,
					  &x) < 0)
				return -1;
		} else if (assay_cfg_member(c, v, path, fields[i].key, ASSAY_CFG_OPTIONAL,
					    fields[i].type, &m) < 0) {
			return -1;
		}
	}
	return 0;
}

static int cmp_backend(const void *a, const void *b)
{
	return strcmp(((const struct assay_backend_eps *)a)->name,
		      ((const struct assay_backend_eps *)b)->name);
}

static int cmp_platform(const void *a, const void *b)
{
	return strcmp(((const struct assay_platform *)a)->sku,
		      ((const struct assay_platform *)b)->sku);
}

static bool known(const char *const list[], const char *s)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

static int parse_backends(struct assay_cfg *c, const json_t *v, const char *path,
			  struct assay_platform *p)
{
	if (!json_is_object(v) || !json_object_size(v))
		return assay_cfg_expected(c, path, "a non-empty object of backend: [EP sizes]", v);
	p->backends = xcalloc(json_object_size(v), sizeof(*p->backends));
	const char *name;
	json_t *eps;
	json_object_foreach((json_t *)v, name, eps)
	{
		char kp[256];
		assay_json_path_key(kp, sizeof(kp), path, name);
		if (!known(assay_known_backends, name)) {
			struct sbuf sb = SBUF_INIT;
			for (size_t i = 0; assay_known_backends[i]; i++)
				sbuf_addf(&sb, "%s%s", i ? ", " : "", assay_known_backends[i]);
			assay_cfg_fail(c, kp, "unknown backend (expected one of: %s)",
				       sbuf_str(&sb));
			sbuf_release(&sb);
			return -1;
		}
		struct assay_backend_eps *b = &p->backends[p->n_backends++];
		b->name = xstrdup(name);
		if (assay_cfg_int_list(c, v, path, name, ASSAY_CFG_REQUIRED, 1, 1 << 20, &b->eps,
				       &b->n) < 0)
			return -1;
	}
	qsort(p->backends, p->n_backends, sizeof(*p->backends), cmp_backend);
	return 0;
}

static int parse_platform(struct assay_cfg *c, const json_t *v, const char *path,
			  struct assay_platform *p)
{
	const char *s;
	json_t *m;
	if (assay_cfg_object(c, v, path, platform_keys) < 0)
		return -1;
	if (assay_cfg_string(c, v, path, "arch", ASSAY_CFG_REQUIRED, &s) < 0)
		return -1;
	p->arch = xstrdup(s);
	if (assay_cfg_int(c, v, path, "gpus_per_node", ASSAY_CFG_REQUIRED, 1, 4096,
			  &p->gpus_per_node) < 0 ||
	    assay_cfg_int(c, v, path, "scale_up_domain", ASSAY_CFG_REQUIRED, 1, 1 << 20,
			  &p->scale_up_domain) < 0)
		return -1;
	if (assay_cfg_string(c, v, path, "scale_up_transport", ASSAY_CFG_REQUIRED, &s) < 0)
		return -1;
	p->scale_up_transport = xstrdup(s);
	if (assay_cfg_string(c, v, path, "scale_out_transport", ASSAY_CFG_REQUIRED, &s) < 0)
		return -1;
	p->scale_out_transport = xstrdup(s);
	char kp[256];
	assay_json_path_key(kp, sizeof(kp), path, "backends");
	if (assay_cfg_member(c, v, path, "backends", ASSAY_CFG_REQUIRED, JSON_OBJECT, &m) < 0 ||
	    parse_backends(c, m, kp, p) < 0)
		return -1;
	if (assay_cfg_string_list(c, v, path, "ll_backends", ASSAY_CFG_OPTIONAL, NULL,
				  &p->ll_backends) < 0)
		return -1;
	for (size_t i = 0; i < p->ll_backends.n; i++) {
		if (assay_platform_backend(p, p->ll_backends.v[i]))
			continue;
		char lp[256], ip[256];
		assay_json_path_key(lp, sizeof(lp), path, "ll_backends");
		assay_json_path_index(ip, sizeof(ip), lp, i);
		struct sbuf sb = SBUF_INIT;
		for (size_t j = 0; j < p->n_backends; j++)
			sbuf_addf(&sb, "%s%s", j ? ", " : "", p->backends[j].name);
		assay_cfg_fail(c, ip, "\"%s\" is not one of this platform's backends (%s)",
			       p->ll_backends.v[i], sbuf_str(&sb));
		sbuf_release(&sb);
		return -1;
	}
	assay_json_path_key(kp, sizeof(kp), path, "fabric");
	if (assay_cfg_member(c, v, path, "fabric", ASSAY_CFG_REQUIRED, JSON_OBJECT, &m) < 0 ||
	    assay_cfg_object(c, m, kp, fabric_keys) < 0 ||
	    assay_cfg_string(c, m, kp, "nic", ASSAY_CFG_REQUIRED, &s) < 0 ||
	    assay_cfg_string(c, m, kp, "switch", ASSAY_CFG_REQUIRED, &s) < 0)
		return -1;
	p->fabric = json_incref(m);
	m = NULL;
	assay_json_path_key(kp, sizeof(kp), path, "network");
	if (assay_cfg_member(c, v, path, "network", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &m) < 0)
		return -1;
	if (m) {
		if (check_fields(c, m, kp, network_fields, ARRAY_SIZE(network_fields)) < 0)
			return -1;
		p->network = json_incref(m);
	}
	m = NULL;
	assay_json_path_key(kp, sizeof(kp), path, "operator");
	if (assay_cfg_member(c, v, path, "operator", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &m) < 0)
		return -1;
	if (m) {
		if (check_fields(c, m, kp, operator_fields, ARRAY_SIZE(operator_fields)) < 0)
			return -1;
		p->op = json_incref(m);
	}
	return 0;
}

assay_err assay_registry_parse(const json_t *doc, const char *file, struct assay_registry *reg,
			       struct assay_error *e)
{
	static const char *const top_keys[] = {"platforms", NULL};
	struct assay_cfg c = {file, e};
	json_t *plats;
	if (assay_registry_collectivex_detect(doc))
		return assay_registry_collectivex_parse(doc, file, reg, e);
	memset(reg, 0, sizeof(*reg));
	reg->file = xstrdup(file);
	if (assay_cfg_object(&c, doc, "$", top_keys) < 0 ||
	    assay_cfg_member(&c, doc, "$", "platforms", ASSAY_CFG_REQUIRED, JSON_OBJECT, &plats) <
		0)
		goto fail;
	if (config_platforms(&c, doc, plats, reg, parse_platform) < 0)
		goto fail;
	return ASSAY_OK;
fail:
	assay_registry_release(reg);
	return ASSAY_USAGE;
}

int config_platforms(struct assay_cfg *c, const json_t *doc, const json_t *plats,
		     struct assay_registry *reg, config_platform_fn parse)
{
	if (!json_object_size(plats)) {
		assay_cfg_fail(c, "$.platforms", "expected at least one platform");
		return -1;
	}
	reg->v = xcalloc(json_object_size(plats), sizeof(*reg->v));
	const char *sku;
	json_t *pv;
	json_object_foreach((json_t *)plats, sku, pv)
	{
		char path[256];
		assay_json_path_key(path, sizeof(path), "$.platforms", sku);
		struct assay_platform *p = &reg->v[reg->n++];
		p->sku = xstrdup(sku);
		if (parse(c, pv, path, p) < 0)
			return -1;
	}
	qsort(reg->v, reg->n, sizeof(*reg->v), cmp_platform);
	assay_json_sha256(doc, reg->sha256);
	return 0;
}

assay_err assay_registry_load(const char *file, struct assay_registry *reg, struct assay_error *e)
{
	memset(reg, 0, sizeof(*reg));
	json_t *doc = assay_json_load_file(file, e);
	if (!doc)
		return ASSAY_USAGE;
	assay_err rc = assay_registry_parse(doc, file, reg, e);
	json_decref(doc);
	return rc;
}

void assay_registry_release(struct assay_registry *reg)
{
	for (size_t i = 0; i < reg->n; i++) {
		struct assay_platform *p = &reg->v[i];
		free(p->sku);
		free(p->arch);
		free(p->scale_up_transport);
		free(p->scale_out_transport);
		for (size_t j = 0; j < p->n_backends; j++) {
			free(p->backends[j].name);
			free(p->backends[j].eps);
			free(p->backends[j].ll_eps);
			strlist_clear(&p->backends[j].precisions);
			strlist_clear(&p->backends[j].off_path);
		}
		free(p->backends);
		strlist_clear(&p->ll_backends);
		json_decref(p->fabric);
		json_decref(p->network);
		json_decref(p->op);
	}
	free(reg->v);
	free(reg->file);
	memset(reg, 0, sizeof(*reg));
}

const struct assay_platform *assay_registry_find(const struct assay_registry *reg, const char *sku)
{
	for (size_t i = 0; i < reg->n; i++)
		if (!strcmp(reg->v[i].sku, sku))
			return &reg->v[i];
	return NULL;
}

const struct assay_backend_eps *assay_platform_backend(const struct assay_platform *p,
						       const char *backend)
{
	for (size_t i = 0; i < p->n_backends; i++)
		if (!strcmp(p->backends[i].name, backend))
			return &p->backends[i];
	return NULL;
}
