/* Network rules for madengine manifests: a multi-node job names its
 * bootstrap interface, does not fall back to TCP sockets, and sets
 * NCCL/GLOO_SOCKET_IFNAME to one value wherever it sets them. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lint_int.h"

static const struct assay_lint_rule rules[] = {
    {"no-network-interface", "network", ASSAY_LINT_WARNING, true, KIND(MANIFEST) | KIND(CONTEXT),
     "a multi-node Slurm job without slurm.network_interface: NCCL/GLOO pick an interface "
     "by auto-detection"},
    {"tcp-fallback", "network", ASSAY_LINT_ERROR, true, KIND(MANIFEST) | KIND(CONTEXT),
     "NCCL_IB_DISABLE=1 or a socket-only NCCL_NET on a multi-node job"},
    {"socket-ifname-conflict", "network", ASSAY_LINT_ERROR, true, KIND(MANIFEST) | KIND(CONTEXT),
     "NCCL_SOCKET_IFNAME, GLOO_SOCKET_IFNAME or slurm.network_interface set to different "
     "values"},
};
#define R_NO_IFACE (&rules[0])
#define R_TCP      (&rules[1])
#define R_IFNAME   (&rules[2])

/* The environment blocks of a manifest, job side first. */
static const struct {
	const char *chain, *path;
} env_blocks[] = {
    {"deployment_config.env_vars", "$.deployment_config.env_vars"},
    {"context.docker_env_vars", "$.context.docker_env_vars"},
};

static bool truthy(const json_t *v)
{
	if (json_is_integer(v))
		return json_integer_value(v) != 0;
	if (json_is_true(v))
		return true;
	if (!json_is_string(v))
		return false;
	const char *s = json_string_value(v);
	return !strcmp(s, "1") || !strcasecmp(s, "true") || !strcasecmp(s, "yes") ||
	       !strcasecmp(s, "on");
}

static void check_interface(struct lint_ctx *c)
{
	const json_t *slurm = lint_get(c->doc, "deployment_config.slurm");
	if (!json_is_object(slurm))
		return;
	const json_t *ni = json_object_get(slurm, "network_interface");
	if (json_is_string(ni) && json_string_length(ni))
		return;
	const json_t *env = lint_get(c->doc, "deployment_config.env_vars");
	if (json_is_object(env) && json_object_get(env, "NCCL_SOCKET_IFNAME") &&
	    json_object_get(env, "GLOO_SOCKET_IFNAME"))
		return;
	lint_report(c, R_NO_IFACE, "$.deployment_config.slurm",
		    "multi-node job without slurm.network_interface: the NCCL and GLOO bootstrap "
		    "interface is left to auto-detection (ib0, else the default route)");
}

static void check_tcp(struct lint_ctx *c)
{
	for (size_t b = 0; b < ARRAY_SIZE(env_blocks); b++) {
		const json_t *env = lint_get(c->doc, env_blocks[b].chain);
		if (!json_is_object(env))
			continue;
		const json_t *ib = json_object_get(env, "NCCL_IB_DISABLE");
		if (truthy(ib)) {
			char *p = lint_path_key(env_blocks[b].path, "NCCL_IB_DISABLE");
			lint_report(
			    c, R_TCP, p,
			    "NCCL_IB_DISABLE turns InfiniBand/RoCE off on a multi-node job: "
			    "NCCL falls back to TCP sockets without a word");
			free(p);
		}
		const json_t *net = json_object_get(env, "NCCL_NET");
		if (json_is_string(net) && !strcasecmp(json_string_value(net), "Socket")) {
			char *p = lint_path_key(env_blocks[b].path, "NCCL_NET");
			lint_report(
			    c, R_TCP, p,
			    "NCCL_NET=Socket on a multi-node job: NCCL runs over TCP sockets, "
			    "not InfiniBand/RoCE");
			free(p);
		}
	}
}

struct ifname {
	size_t block;
	char *path;
	const char *where; /* for messages */
	const char *value;
};

static void add_ifname(struct ifname *v, size_t *n, size_t block, char *path, const char *where,
		       const json_t *val)
{
	/* Only literal values can be compared; references are another rule's matter. */
	if (!json_is_string(val) || !json_string_length(val) ||
	    strchr(json_string_value(val), '$')) {
		free(path);
		return;
	}
	v[*n].block = block;
	v[*n].path = path;
	v[*n].where = where;
	v[*n].value = json_string_value(val);
	(*n)++;
}

static void check_ifnames(struct lint_ctx *c)
{
	static const char *const names[] = {"NCCL_SOCKET_IFNAME", "GLOO_SOCKET_IFNAME"};
	static const char *const where[2][2] = {
	    {"deployment_config.env_vars.NCCL_SOCKET_IFNAME",
	     "deployment_config.env_vars.GLOO_SOCKET_IFNAME"},
	    {"context.docker_env_vars.NCCL_SOCKET_IFNAME",
	     "context.docker_env_vars.GLOO_SOCKET_IFNAME"},
	};
	struct ifname v[5];
	size_t n = 0;
	add_ifname(v, &n, 0, xstrdup("$.deployment_config.slurm.network_interface"),
		   "deployment_config.slurm.network_interface",
		   lint_get(c->doc, "deployment_config.slurm.network_interface"));
	for (size_t b = 0; b < ARRAY_SIZE(env_blocks); b++) {
		const json_t *env = lint_get(c->doc, env_blocks[b].chain);
		if (!json_is_object(env))
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(names); k++)
			add_ifname(v, &n, b + 1, lint_path_key(env_blocks[b].path, names[k]),
				   where[b][k], json_object_get(env, names[k]));
	}
	bool reported[3] = {false, false, false};
	for (size_t i = 1; i < n; i++) {
		if (reported[v[i].block] || !strcmp(v[i].value, v[0].value))
			continue;
		reported[v[i].block] = true;
		char b1[96], b2[96];
		const char *name = strrchr(v[i].where, '.') + 1;
		lint_report(c, R_IFNAME, v[i].path,
			    "%s %s contradicts %s from %s: NCCL/GLOO bootstrap and data traffic "
			    "pick different interfaces",
			    name, lint_brief(v[i].value, b1, sizeof(b1)),
			    lint_brief(v[0].value, b2, sizeof(b2)), v[0].where);
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
}

static void check(struct lint_ctx *c)
{
	if (!lint_manifest_like(c))
		return;
	if (lint_multinode(c->doc)) {
		check_interface(c);
		check_tcp(c);
	}
	check_ifnames(c);
}

const struct lint_family lint_family_network = {"network", rules, ARRAY_SIZE(rules), check};
