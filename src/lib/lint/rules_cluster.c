/* CVS cluster file rules (docs/ssh.md, ROCm/cvs dddd914
 * cvs/input/cluster_file/README.md): a template placeholder left in a value
 * or a node's key, a private key file that does not exist where lint runs
 * ({user-id} as the current user, as CVS resolves it), a node without its
 * vpc_ip, a head node that is not one of the nodes, and a persistent
 * container whose name is not pinned. */
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lint_int.h"

static const struct assay_lint_rule rules[] = {
    {"cluster-placeholder", "cluster", ASSAY_LINT_ERROR, true, KIND(CLUSTER),
     "a cluster file value or node still holding the template's placeholder"},
    {"cluster-key-file", "cluster", ASSAY_LINT_WARNING, true, KIND(CLUSTER),
     "a cluster file's priv_key_file that does not exist where lint runs"},
    {"cluster-vpc-ip", "cluster", ASSAY_LINT_ERROR, true, KIND(CLUSTER),
     "a node of a cluster file without its vpc_ip (the address other nodes reach)"},
    {"cluster-head-node", "cluster", ASSAY_LINT_ERROR, true, KIND(CLUSTER),
     "a cluster file's head_node_dict.mgmt_ip that is not a key of node_dict"},
    {"cluster-persistent-name", "cluster", ASSAY_LINT_WARNING, true, KIND(CLUSTER),
     "a persistent container without a pinned name (its default name moves with the image)"},
};
#define R_PLACEHOLDER (&rules[0])
#define R_KEY_FILE    (&rules[1])
#define R_VPC_IP      (&rules[2])
#define R_HEAD        (&rules[3])
#define R_PERSISTENT  (&rules[4])

/* A template's placeholder ("{xx.xx.xx.xx|hostname}", "<changeme>"); CVS's
 * own {user-id} is not one. */
static bool placeholder(const char *v)
{
	if (strstr(v, "<changeme>"))
		return true;
	for (const char *p = strchr(v, '{'); p; p = strchr(p + 1, '{'))
		if (strncmp(p, "{user-id}", 9) && strchr(p, '}'))
			return true;
	return false;
}

static void check_value(struct lint_ctx *c, const json_t *obj, const char *parent, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	if (!json_is_string(v) || !placeholder(json_string_value(v)))
		return;
	char *p = lint_path_key(parent, key);
	char b[80];
	lint_report(c, R_PLACEHOLDER, p, "placeholder %s left: fill in the cluster file",
		    lint_brief(json_string_value(v), b, sizeof(b)));
	free(p);
}

static void check_key_file(struct lint_ctx *c, const json_t *doc)
{
	const json_t *v = json_object_get(doc, "priv_key_file");
	if (!json_is_string(v) || placeholder(json_string_value(v)))
		return;
	const struct passwd *pw = getpwuid(getuid());
	struct sbuf path = SBUF_INIT;
	for (const char *s = json_string_value(v); *s;) {
		if (!strncmp(s, "{user-id}", 9)) {
			sbuf_adds(&path, pw ? pw->pw_name : "root");
			s += 9;
		} else {
			sbuf_addch(&path, *s++);
		}
	}
	struct stat st;
	if (stat(sbuf_str(&path), &st) != 0) {
		char b[200];
		lint_report(
		    c, R_KEY_FILE, "$.priv_key_file",
		    "key file %s does not exist here; ssh cannot log in to the nodes with it",
		    lint_brief(sbuf_str(&path), b, sizeof(b)));
	}
	sbuf_release(&path);
}

static void check_nodes(struct lint_ctx *c, const json_t *nodes)
{
	const char *host;
	const json_t *n;
	json_object_foreach((json_t *)nodes, host, n)
	{
		char *p = lint_path_key("$.node_dict", host);
		char b[80];
		if (placeholder(host))
			lint_report(
			    c, R_PLACEHOLDER, p,
			    "node %s is the template's placeholder: fill in the cluster file",
			    lint_brief(host, b, sizeof(b)));
		const json_t *vpc = json_is_object(n) ? json_object_get(n, "vpc_ip") : NULL;
		if (!json_is_string(vpc) || !json_string_length(vpc))
			lint_report(c, R_VPC_IP, p,
				    "no vpc_ip: the address the other nodes reach this one by (the "
				    "host itself when there is no separate network)");
		else
			check_value(c, n, p, "vpc_ip");
		free(p);
	}
}

static void check_head(struct lint_ctx *c, const json_t *doc, const json_t *nodes)
{
	const json_t *head = json_object_get(doc, "head_node_dict");
	const json_t *mgmt = json_is_object(head) ? json_object_get(head, "mgmt_ip") : NULL;
	if (!json_is_string(mgmt))
		return;
	if (placeholder(json_string_value(mgmt))) {
		check_value(c, head, "$.head_node_dict", "mgmt_ip");
		return;
	}
	if (json_is_object(nodes) && !json_object_get(nodes, json_string_value(mgmt))) {
		char b[80];
		lint_report(c, R_HEAD, "$.head_node_dict.mgmt_ip",
			    "%s is not a node of node_dict (the head node must be one of them)",
			    lint_brief(json_string_value(mgmt), b, sizeof(b)));
	}
}

/* CVS's pitfall (cluster_file/README.md): a persistent container's default
 * name is <user>_<image>, so a new image tag starts another container and
 * abandons the one holding the earlier runs' state. */
static void check_persistent(struct lint_ctx *c, const json_t *doc)
{
	const json_t *orch = json_object_get(doc, "orchestrator");
	const json_t *blk = json_object_get(doc, "container");
	const json_t *life = json_is_object(blk) ? json_object_get(blk, "lifetime") : NULL;
	if (!json_is_string(orch) || strcmp(json_string_value(orch), "container") ||
	    !json_is_string(life) || strcmp(json_string_value(life), "persistent"))
		return;
	const json_t *name = json_object_get(blk, "name");
	if (json_is_string(name) && json_string_length(name))
		return;
	lint_report(c, R_PERSISTENT, "$.container",
		    "lifetime persistent without a \"name\": the default name follows the "
		    "image, so a new tag starts a fresh container and leaves the old one "
		    "running; pin \"name\"");
}

static void check(struct lint_ctx *c)
{
	if (c->kind != ASSAY_LINT_CLUSTER || !json_is_object(c->doc))
		return;
	check_value(c, c->doc, "$", "username");
	check_value(c, c->doc, "$", "priv_key_file");
	check_key_file(c, c->doc);
	const json_t *nodes = json_object_get(c->doc, "node_dict");
	if (json_is_object(nodes))
		check_nodes(c, nodes);
	check_head(c, c->doc, nodes);
	check_persistent(c, c->doc);
}

const struct lint_family lint_family_cluster = {"cluster", rules, ARRAY_SIZE(rules), check};
