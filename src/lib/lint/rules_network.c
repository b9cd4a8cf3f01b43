/* Network rules for madengine manifests and additional-context files: a
 * multi-node job names its bootstrap interface, does not fall back to TCP
 * sockets, sets NCCL/GLOO_SOCKET_IFNAME to interfaces that agree wherever it
 * sets them, and writes NCCL values that NCCL reads the way they look
 * (NCCL's grammar for interface lists: ^ excludes, = matches exactly, a
 * comma separates, both signs only at the start of the value). */
#include <ctype.h>
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
     "NCCL_SOCKET_IFNAME, GLOO_SOCKET_IFNAME or slurm.network_interface select no common "
     "interface"},
    {"nccl-env-value", "network", ASSAY_LINT_ERROR, true, KIND(MANIFEST) | KIND(CONTEXT),
     "an NCCL/RCCL or Gloo variable that the library reads differently from how it looks"},
};
#define R_NO_IFACE (&rules[0])
#define R_TCP      (&rules[1])
#define R_IFNAME   (&rules[2])
#define R_VALUE    (&rules[3])

/* The environment blocks of a manifest, job side first. */
static const struct {
	const char *chain, *path;
} env_blocks[] = {
    {"deployment_config.env_vars", "$.deployment_config.env_vars"},
    {"context.docker_env_vars", "$.context.docker_env_vars"},
};

/* The text a variable gets: madengine writes JSON strings as they are and
 * other scalars as Python prints them (str(True) is "True"). NULL for
 * objects, arrays and null. */
static const char *env_text(const json_t *v, char *buf, size_t size)
{
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v)) {
		snprintf(buf, size, "%lld", (long long)json_integer_value(v));
		return buf;
	}
	if (json_is_boolean(v))
		return json_is_true(v) ? "True" : "False";
	return NULL;
}

/* How NCCL reads an integer variable (ncclLoadParam: strtoll(value, NULL,
 * 0)): leading white space skipped, then an optional sign and digits (0x
 * hex, 0 octal), the rest ignored; no digits reads as 0. *rest is set
 * when text other than white space follows the number; *digits is false
 * when there is no number at all. */
static long long nccl_int(const char *s, bool *digits, bool *rest)
{
	char *end;
	long long v = strtoll(s, &end, 0);
	const char *p = s;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '+' || *p == '-')
		p++;
	*digits = isdigit((unsigned char)*p) != 0;
	if (!*digits)
		end = (char *)s;
	while (isspace((unsigned char)*end))
		end++;
	*rest = *digits && *end;
	return *digits ? v : 0;
}

static bool has_outer_space(const char *s)
{
	size_t n = strlen(s);
	return n && (isspace((unsigned char)s[0]) || isspace((unsigned char)s[n - 1]));
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
	char buf[64];
	const char *from,
	    *nccl = lint_job_env(c->doc, "NCCL_SOCKET_IFNAME", buf, sizeof(buf), &from);
	char b[96];
	if (nccl)
		/* madengine's job template auto-detects an interface only when
		 * NCCL_SOCKET_IFNAME is unset, which the multi-node preset never
		 * leaves it. */
		lint_report(c, R_NO_IFACE, "$.deployment_config.slurm",
			    "multi-node job without slurm.network_interface: NCCL bootstraps over "
			    "NCCL_SOCKET_IFNAME=%s (from %s), so the job script's auto-detection "
			    "does not run, and GLOO_SOCKET_IFNAME is not set; give "
			    "slurm.network_interface (the job exports it as both)",
			    lint_brief(nccl, b, sizeof(b)), from);
	else
		lint_report(c, R_NO_IFACE, "$.deployment_config.slurm",
			    "multi-node job without slurm.network_interface: the NCCL and GLOO "
			    "bootstrap interface is left to auto-detection (ib0, else the default "
			    "route)");
}

/* NCCL_IB_DISABLE from madengine's multi-node preset: the manifest does
 * not set it for the job, and the job gets the preset's 1. */
static void check_tcp_preset(struct lint_ctx *c)
{
	char buf[64];
	const char *from, *ib = lint_job_env(c->doc, "NCCL_IB_DISABLE", buf, sizeof(buf), &from);
	bool digits, rest;
	if (!ib || strcmp(from, "madengine's multi-node Slurm preset") ||
	    !nccl_int(ib, &digits, &rest))
		return;
	lint_report(c, R_TCP, "$.deployment_config.slurm",
		    "NCCL_IB_DISABLE is %s in this job: %s sets it when "
		    "deployment_config.env_vars does not, the job script exports it and the "
		    "container runner copies it into the container, so NCCL runs over TCP "
		    "sockets; set deployment_config.env_vars.NCCL_IB_DISABLE to \"0\"",
		    ib, from);
}

static void check_tcp(struct lint_ctx *c)
{
	check_tcp_preset(c);
	for (size_t b = 0; b < ARRAY_SIZE(env_blocks); b++) {
		const json_t *env = lint_get(c->doc, env_blocks[b].chain);
		if (!json_is_object(env))
			continue;
		char nb[32];
		const char *ib = env_text(json_object_get(env, "NCCL_IB_DISABLE"), nb, sizeof(nb));
		bool digits, rest;
		if (ib && nccl_int(ib, &digits, &rest) != 0) {
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

/* An interface selection: NCCL's prefix list (optionally ^ exclude, =
 * exact), or a list of exact names (Gloo, madengine's network_interface). */
struct selector {
	bool exclude, exact;
	struct strlist items;
};

/* Parse as NCCL does (parseStringList: items split at ',', a ':PORT'
 * suffix dropped, empty items skipped, nothing trimmed). */
static void selector_parse(struct selector *sel, const char *s, bool nccl)
{
	memset(sel, 0, sizeof(*sel));
	sel->exact = !nccl;
	if (nccl && *s == '^') {
		sel->exclude = true;
		s++;
	}
	if (nccl && *s == '=') {
		sel->exact = true;
		s++;
	}
	while (*s) {
		size_t n = strcspn(s, ",");
		size_t item = nccl ? strcspn(s, ",:") : n;
		if (item > n)
			item = n;
		if (item) {
			char *it = xstrndup(s, item);
			strlist_push(&sel->items, it);
			free(it);
		}
		s += n + (s[n] == ',');
	}
}

/* Whether an item of a and an item of b can name the same interface. */
static bool items_meet(const char *x, bool x_exact, const char *y, bool y_exact)
{
	if (x_exact && y_exact)
		return !strcmp(x, y);
	if (x_exact)
		return assay_starts_with(x, y);
	if (y_exact)
		return assay_starts_with(y, x);
	return assay_starts_with(x, y) || assay_starts_with(y, x);
}

/* Whether include item x is wholly excluded by exclusion list e. */
static bool excluded(const char *x, bool x_exact, const struct selector *e)
{
	for (size_t i = 0; i < e->items.n; i++) {
		const char *p = e->items.v[i];
		if (e->exact ? (x_exact && !strcmp(x, p)) : assay_starts_with(x, p))
			return true;
	}
	return false;
}

/* Whether some interface satisfies both selections. */
static bool selectors_agree(const struct selector *a, const struct selector *b)
{
	if (a->exclude && b->exclude)
		return true;
	if (a->exclude || b->exclude) {
		const struct selector *inc = a->exclude ? b : a, *exc = a->exclude ? a : b;
		for (size_t i = 0; i < inc->items.n; i++)
			if (!excluded(inc->items.v[i], inc->exact, exc))
				return true;
		return inc->items.n == 0;
	}
	if (!a->items.n || !b->items.n)
		return true;
	for (size_t i = 0; i < a->items.n; i++)
		for (size_t j = 0; j < b->items.n; j++)
			if (items_meet(a->items.v[i], a->exact, b->items.v[j], b->exact))
				return true;
	return false;
}

struct ifname {
	size_t block;
	char *path;
	const char *where; /* for messages */
	const char *value;
	struct selector sel;
};

static void add_ifname(struct ifname *v, size_t *n, size_t block, char *path, const char *where,
		       const json_t *val, bool nccl)
{
	/* Only literal values can be compared; references are another rule's matter. */
	if (!json_is_string(val) || !json_string_length(val) ||
	    strchr(json_string_value(val), '$') ||
	    (!nccl && strchr("^=", json_string_value(val)[0]))) {
		/* (A Gloo name with NCCL's signs is nccl-env-value's finding.) */
		free(path);
		return;
	}
	v[*n].block = block;
	v[*n].path = path;
	v[*n].where = where;
	v[*n].value = json_string_value(val);
	selector_parse(&v[*n].sel, v[*n].value, nccl);
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
		   lint_get(c->doc, "deployment_config.slurm.network_interface"), false);
	for (size_t b = 0; b < ARRAY_SIZE(env_blocks); b++) {
		const json_t *env = lint_get(c->doc, env_blocks[b].chain);
		if (!json_is_object(env))
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(names); k++)
			add_ifname(v, &n, b + 1, lint_path_key(env_blocks[b].path, names[k]),
				   where[b][k], json_object_get(env, names[k]), k == 0);
	}
	bool reported[3] = {false, false, false};
	for (size_t i = 1; i < n; i++) {
		if (reported[v[i].block] || selectors_agree(&v[i].sel, &v[0].sel))
			continue;
		reported[v[i].block] = true;
		char b1[96], b2[96];
		const char *name = strrchr(v[i].where, '.') + 1;
		lint_report(c, R_IFNAME, v[i].path,
			    "%s %s selects no interface that %s from %s selects: NCCL/GLOO "
			    "bootstrap and data traffic pick different interfaces",
			    name, lint_brief(v[i].value, b1, sizeof(b1)),
			    lint_brief(v[0].value, b2, sizeof(b2)), v[0].where);
	}
	for (size_t i = 0; i < n; i++) {
		free(v[i].path);
		strlist_clear(&v[i].sel.items);
	}
}

/* NCCL/RCCL variables read as integers (ncclLoadParam). */
static const char *const nccl_ints[] = {
    "NCCL_IB_DISABLE",      "NCCL_P2P_DISABLE",
    "NCCL_SHM_DISABLE",     "NCCL_IB_GID_INDEX",
    "NCCL_IB_TIMEOUT",      "NCCL_IB_RETRY_CNT",
    "NCCL_NET_GDR_READ",    "NCCL_NSOCKS_PERTHREAD",
    "NCCL_SOCKET_NTHREADS", "NCCL_MIN_NCHANNELS",
    "NCCL_MAX_NCHANNELS",   "NCCL_BUFFSIZE",
    "NCCL_CROSS_NIC",       "NCCL_IB_QPS_PER_CONNECTION",
    "NCCL_CUMEM_ENABLE",    "RCCL_MSCCL_ENABLE",
};

/* A value NCCL or Gloo reads otherwise than it looks: one finding per value. */
static void check_value(struct lint_ctx *c, const char *path, const char *name, const json_t *jv)
{
	char nb[32], b[96];
	const char *s = env_text(jv, nb, sizeof(nb));
	if (!s || strchr(s, '$'))
		return;
	bool ifname = !strcmp(name, "NCCL_SOCKET_IFNAME") || !strcmp(name, "NCCL_IB_HCA");
	bool gloo = !strcmp(name, "GLOO_SOCKET_IFNAME") || !strcmp(name, "network_interface");
	if (ifname || gloo) {
		if (has_outer_space(s) || strstr(s, ", ") || strstr(s, " ,")) {
			lint_report(
			    c, R_VALUE, path,
			    "%s %s holds white space, which %s keeps as part of the name, "
			    "so that item matches no interface",
			    name, lint_brief(s, b, sizeof(b)),
			    !strcmp(name, "network_interface")
				? "the job script's unquoted export splits the value at, and NCCL"
				: (gloo ? "Gloo" : "NCCL"));
			return;
		}
		if (gloo && (*s == '^' || *s == '=')) {
			lint_report(
			    c, R_VALUE, path,
			    "%s %s: Gloo takes interface names as written, without NCCL's ^ "
			    "and = signs, so it looks for an interface named %s",
			    name, lint_brief(s, b, sizeof(b)), lint_brief(s, nb, sizeof(nb)));
			return;
		}
		if (ifname && s[0] == '=' && s[1] == '^') {
			lint_report(
			    c, R_VALUE, path,
			    "%s %s: NCCL reads ^ only first, so this selects the exact name "
			    "\"%s\"; exclusion of an exact name is \"^=%s\"",
			    name, lint_brief(s, b, sizeof(b)), s + 1, s + 2);
			return;
		}
		if (ifname) {
			const char *p = strchr(s, ',');
			for (; p; p = strchr(p + 1, ','))
				if (p[1] == '^' || p[1] == '=') {
					lint_report(
					    c, R_VALUE, path,
					    "%s %s: NCCL reads ^ and = only at the start of "
					    "the value, for the whole list; inside it %c is part "
					    "of a name",
					    name, lint_brief(s, b, sizeof(b)), p[1]);
					return;
				}
		}
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(nccl_ints); i++) {
		if (strcmp(nccl_ints[i], name))
			continue;
		bool digits, rest;
		long long v = nccl_int(s, &digits, &rest);
		if (!digits && *s)
			lint_report(c, R_VALUE, path, "%s %s is not a number: NCCL reads it as 0%s",
				    name, lint_brief(s, b, sizeof(b)),
				    strstr(name, "DISABLE") ? ", so nothing is disabled" : "");
		else if (rest)
			lint_report(
			    c, R_VALUE, path,
			    "%s %s: NCCL reads only the leading number, %lld, and ignores the "
			    "rest",
			    name, lint_brief(s, b, sizeof(b)), v);
		else if (has_outer_space(s))
			lint_report(
			    c, R_VALUE, path,
			    "%s %s has white space around it: NCCL reads %lld, but a script "
			    "or tool that compares the text does not; write \"%lld\"",
			    name, lint_brief(s, b, sizeof(b)), v, v);
		return;
	}
}

static void check_values(struct lint_ctx *c)
{
	for (size_t b = 0; b < ARRAY_SIZE(env_blocks); b++) {
		const json_t *env = lint_get(c->doc, env_blocks[b].chain);
		if (!json_is_object(env))
			continue;
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)env, k, v)
		{
			if (strncmp(k, "NCCL_", 5) && strncmp(k, "RCCL_", 5) &&
			    strcmp(k, "GLOO_SOCKET_IFNAME"))
				continue;
			char *p = lint_path_key(env_blocks[b].path, k);
			check_value(c, p, k, v);
			free(p);
		}
	}
	const json_t *ni = lint_get(c->doc, "deployment_config.slurm.network_interface");
	if (ni)
		check_value(c, "$.deployment_config.slurm.network_interface", "network_interface",
			    ni);
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
	if (lint_on(c, R_VALUE))
		check_values(c);
}

const struct lint_family lint_family_network = {"network", rules, ARRAY_SIZE(rules), check};
