/* A ROCm CVS cluster file read as it is (ROCm/cvs dddd914,
 * cvs/input/cluster_file/README.md and cluster*.json): username and
 * priv_key_file with {user-id} as the current user, node_dict's hosts in
 * file order with their vpc_ip, env_vars exported before the command.
 * Placeholders left in are refused, naming the JSON path. */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/json.h"
#include "ssh_int.h"

int ssh_cluster_read(struct assay_cfg *c, const char *file, const char *path, struct ssh_opts *o);

/* {user-id} replaced by the user assay runs as. */
static char *resolve_user(const char *v)
{
	const struct passwd *pw = getpwuid(getuid());
	const char *me = pw ? pw->pw_name : "root";
	struct sbuf sb = SBUF_INIT;
	for (const char *p = v; *p;) {
		if (!strncmp(p, "{user-id}", 9)) {
			sbuf_adds(&sb, me);
			p += 9;
		} else {
			sbuf_addch(&sb, *p++);
		}
	}
	return sbuf_detach(&sb, NULL);
}

/* A value still holding a template's placeholder ("{xx.xx.xx.xx|hostname}",
 * "<changeme>"). */
static bool placeholder(const char *v)
{
	const char *open = strchr(v, '{');
	return (open && strchr(open, '}')) || strstr(v, "<changeme>");
}

int ssh_cluster_string(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
		       int flags, char **out)
{
	const char *v = NULL;
	int got = assay_cfg_string(c, obj, path, key, flags, &v);
	if (got <= 0)
		return got;
	char p[300];
	assay_json_path_key(p, sizeof(p), path, key);
	char *r = resolve_user(v);
	if (placeholder(r)) {
		free(r);
		return assay_cfg_fail(c, p, "placeholder left in \"%s\": fill in the cluster file",
				      v);
	}
	*out = r;
	return 1;
}

static int read_nodes(struct assay_cfg *c, const json_t *doc, struct ssh_opts *o)
{
	json_t *nodes;
	if (assay_cfg_member(c, doc, "$", "node_dict", ASSAY_CFG_REQUIRED, JSON_OBJECT, &nodes) < 0)
		return -1;
	if (!json_object_size(nodes))
		return assay_cfg_fail(c, "$.node_dict", "expected at least one node");
	o->hosts = xcalloc(json_object_size(nodes), sizeof(*o->hosts));
	const char *host;
	json_t *n;
	json_object_foreach(nodes, host, n)
	{
		char p[300];
		assay_json_path_key(p, sizeof(p), "$.node_dict", host);
		if (placeholder(host))
			return assay_cfg_fail(
			    c, p, "placeholder left as a host: fill in the cluster file");
		if (host[0] == '-' || !host[0])
			return assay_cfg_fail(c, p, "not a host name");
		if (!json_is_object(n))
			return assay_cfg_expected(c, p, "an object with \"vpc_ip\"", n);
		char *addr = NULL;
		if (ssh_cluster_string(c, n, p, "vpc_ip", ASSAY_CFG_REQUIRED, &addr) < 0)
			return -1;
		o->hosts[o->n_hosts].host = xstrdup(host);
		o->hosts[o->n_hosts].addr = addr;
		o->n_hosts++;
	}
	return 0;
}

static int read_env(struct assay_cfg *c, const json_t *doc, struct ssh_opts *o)
{
	json_t *env;
	int got = assay_cfg_member(c, doc, "$", "env_vars", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &env);
	if (got <= 0)
		return got;
	const char *name;
	json_t *v;
	json_object_foreach(env, name, v)
	{
		char p[300];
		assay_json_path_key(p, sizeof(p), "$.env_vars", name);
		size_t k = 0;
		while (name[k] == '_' || (name[k] >= 'A' && name[k] <= 'Z') ||
		       (name[k] >= 'a' && name[k] <= 'z') ||
		       (k && name[k] >= '0' && name[k] <= '9'))
			k++;
		if (!k || name[k])
			return assay_cfg_fail(c, p, "not a variable name");
		if (!json_is_string(v))
			return assay_cfg_expected(c, p, "a string", v);
		char *kv = xasprintf("%s=%s", name, json_string_value(v));
		strlist_push(&o->env, kv);
		free(kv);
	}
	return 0;
}

/* The head node, when named, must be one of the nodes (CVS's rule). */
static int check_head(struct assay_cfg *c, const json_t *doc, const struct ssh_opts *o)
{
	json_t *head = json_object_get(doc, "head_node_dict");
	char *mgmt = NULL;
	if (!head)
		return 0;
	if (!json_is_object(head))
		return assay_cfg_expected(c, "$.head_node_dict", "an object", head);
	int got =
	    ssh_cluster_string(c, head, "$.head_node_dict", "mgmt_ip", ASSAY_CFG_OPTIONAL, &mgmt);
	if (got <= 0)
		return got;
	bool found = false;
	for (size_t k = 0; k < o->n_hosts && !found; k++)
		found = !strcmp(o->hosts[k].host, mgmt);
	int rc = found ? 0
		       : assay_cfg_fail(c, "$.head_node_dict.mgmt_ip",
					"\"%s\" is not a key of node_dict", mgmt);
	free(mgmt);
	return rc;
}

static int read_doc(struct assay_cfg *c, const json_t *doc, struct ssh_opts *o)
{
	if (!json_is_object(doc))
		return assay_cfg_expected(c, "$", "a CVS cluster file (an object)", doc);
	json_t *orch = json_object_get(doc, "orchestrator");
	const char *ov = json_is_string(orch) ? json_string_value(orch) : "";
	if (orch && strcmp(ov, "baremetal") && strcmp(ov, "container"))
		return assay_cfg_expected(c, "$.orchestrator", "\"baremetal\" or \"container\"",
					  orch);
	/* CVS reads the container block only for orchestrator container. */
	if (!strcmp(ov, "container") && ssh_cvs_parse(c, doc, o) < 0)
		return -1;
	if (ssh_cluster_string(c, doc, "$", "username", ASSAY_CFG_REQUIRED, &o->user) < 0 ||
	    ssh_cluster_string(c, doc, "$", "priv_key_file", ASSAY_CFG_REQUIRED, &o->identity) <
		0 ||
	    read_nodes(c, doc, o) < 0 || read_env(c, doc, o) < 0 || check_head(c, doc, o) < 0)
		return -1;
	return 0;
}

int ssh_cluster_read(struct assay_cfg *c, const char *file, const char *path, struct ssh_opts *o)
{
	/* Relative to where assay runs, as every path of a suite. */
	char *full = xstrdup(file);
	json_t *doc = assay_json_load_file(full, c->err);
	(void)path;
	if (!doc) {
		free(full);
		return -1; /* the error names the file */
	}
	struct assay_cfg cc = {full, c->err};
	int rc = read_doc(&cc, doc, o);
	json_decref(doc);
	o->cluster_file = full;
	return rc;
}

assay_err assay_ssh_cluster_hosts(const char *file, struct strlist *hosts, struct assay_error *e)
{
	struct ssh_opts o = {0};
	struct assay_cfg c = {NULL, e};
	assay_error_clear(e);
	int rc = ssh_cluster_read(&c, file, "$", &o);
	for (size_t k = 0; rc == 0 && k < o.n_hosts; k++)
		strlist_push(hosts, o.hosts[k].host);
	for (size_t k = 0; k < o.n_hosts; k++) {
		free(o.hosts[k].host);
		free(o.hosts[k].addr);
	}
	free(o.hosts);
	free(o.user);
	free(o.identity);
	free(o.cluster_file);
	ssh_cvs_free(o.cvs);
	strlist_clear(&o.env);
	return rc ? ASSAY_USAGE : ASSAY_OK;
}
