/* The Slurm launcher's settings: the suite's launcher block (validated with
 * the JSON path of every bad value), the registry's operator defaults under
 * it, and the node-count checks that must pass before anything is submitted. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/slurm.h"

static const char *const option_keys[] = {
    "type",      "partition",       "account",   "qos",         "reservation",     "time",
    "exclusive", "nodelist",        "exclude",   "constraint",  "gpu_gres",        "gpus_per_node",
    "mpi",       "mpi_launcher",    "srun_args", "sbatch_args", "poll_interval_s", "master_port",
    "job_per",   "ntasks_per_node", NULL};

/* sbatch options that have their own key, or that assay sets itself. */
static const struct {
	const char *opt, *key;
} reserved[] = {
    {"--partition", "partition"},
    {"--account", "account"},
    {"--qos", "qos"},
    {"--reservation", "reservation"},
    {"--time", "time"},
    {"--exclusive", "exclusive"},
    {"--nodelist", "nodelist"},
    {"--exclude", "exclude"},
    {"--constraint", "constraint"},
    {"--gpus-per-node", NULL},
    {"--gpus", NULL},
    {"--job-name", NULL},
    {"--nodes", NULL},
    {"--ntasks", NULL},
    {"--ntasks-per-node", NULL},
    {"--output", NULL},
    {"--error", NULL},
    {"--export", NULL},
    {"--chdir", NULL},
    {"--parsable", NULL},
    {"--wrap", NULL},
    {"--array", NULL},
};

void assay_slurm_options_init(struct assay_slurm_options *o)
{
	memset(o, 0, sizeof(*o));
	o->exclusive = -1;
	o->gpu_gres = -1;
}

void assay_slurm_options_release(struct assay_slurm_options *o)
{
	free(o->partition);
	free(o->account);
	free(o->qos);
	free(o->reservation);
	free(o->time);
	free(o->nodelist);
	free(o->exclude);
	free(o->constraint);
	free(o->mpi);
	strlist_clear(&o->mpi_launcher);
	strlist_clear(&o->srun_args);
	strlist_clear(&o->sbatch_args);
	assay_slurm_options_init(o);
}

static int get_string(struct assay_cfg *c, const json_t *v, const char *path, const char *key,
		      char **out)
{
	const char *s;
	int rc = assay_cfg_string(c, v, path, key, ASSAY_CFG_OPTIONAL, &s);
	if (rc <= 0)
		return rc;
	if (!assay_slurm_sbatch_safe(s)) {
		char kp[256];
		assay_json_path_key(kp, sizeof(kp), path, key);
		return assay_cfg_fail(c, kp,
				      "contains a control character, '\"' or '\\', which "
				      "an #SBATCH line cannot carry");
	}
	*out = xstrdup(s);
	return 1;
}

static int get_bool(struct assay_cfg *c, const json_t *v, const char *path, const char *key,
		    int *out)
{
	bool b;
	int rc = assay_cfg_bool(c, v, path, key, ASSAY_CFG_OPTIONAL, &b);
	if (rc == 1)
		*out = b;
	return rc;
}

/* An array of non-empty strings (repeats allowed), each accepted by ok(). */
static int get_argv(struct assay_cfg *c, const json_t *v, const char *path, const char *key,
		    bool (*ok)(const char *, char *, size_t), struct strlist *out)
{
	json_t *a;
	char kp[256], ip[256];
	int rc = assay_cfg_member(c, v, path, key, ASSAY_CFG_OPTIONAL, JSON_ARRAY, &a);
	if (rc <= 0)
		return rc;
	assay_json_path_key(kp, sizeof(kp), path, key);
	if (!json_array_size(a))
		return assay_cfg_expected(c, kp, "a non-empty array of strings", a);
	size_t i;
	json_t *s;
	json_array_foreach(a, i, s)
	{
		assay_json_path_index(ip, sizeof(ip), kp, i);
		char why[160];
		if (!json_is_string(s) || !json_string_length(s))
			return assay_cfg_expected(c, ip, "a non-empty string", s);
		if (!ok(json_string_value(s), why, sizeof(why)))
			return assay_cfg_fail(c, ip, "\"%s\": %s", json_string_value(s), why);
		strlist_push(out, json_string_value(s));
	}
	return 1;
}

static bool no_newline(const char *s, char *why, size_t size)
{
	snprintf(why, size, "expected no newline");
	return !strchr(s, '\n');
}

static bool srun_arg_ok(const char *s, char *why, size_t size)
{
	if (s[0] != '-') {
		snprintf(why, size, "expected an srun option starting with '-'");
		return false;
	}
	return no_newline(s, why, size);
}

static bool sbatch_arg_ok(const char *s, char *why, size_t size)
{
	const char *eq = strchr(s, '=');
	size_t n = eq ? (size_t)(eq - s) : strlen(s);
	bool ok = n > 2 && s[0] == '-' && s[1] == '-';
	for (size_t i = 2; ok && i < n; i++)
		ok = islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) || s[i] == '-';
	if (!ok) {
		snprintf(why, size, "expected a long sbatch option such as \"--mem=0\"");
		return false;
	}
	if (!assay_slurm_sbatch_safe(s)) {
		snprintf(why, size,
			 "contains a control character, '\"' or '\\', which an "
			 "#SBATCH line cannot carry");
		return false;
	}
	for (size_t i = 0; i < ARRAY_SIZE(reserved); i++) {
		if (strlen(reserved[i].opt) == n && !memcmp(reserved[i].opt, s, n)) {
			if (reserved[i].key)
				snprintf(why, size, "%s has its own key: use \"%s\"",
					 reserved[i].opt, reserved[i].key);
			else
				snprintf(why, size, "assay sets %s itself", reserved[i].opt);
			return false;
		}
	}
	return true;
}

/* The block's strings and flags, with the time limit's syntax and the host
 * lists checked. */
static int get_placement(struct assay_cfg *c, const json_t *v, const char *path,
			 struct assay_slurm_options *o)
{
	char kp[256];
	if (get_string(c, v, path, "partition", &o->partition) < 0 ||
	    get_string(c, v, path, "account", &o->account) < 0 ||
	    get_string(c, v, path, "qos", &o->qos) < 0 ||
	    get_string(c, v, path, "reservation", &o->reservation) < 0 ||
	    get_string(c, v, path, "time", &o->time) < 0 ||
	    get_string(c, v, path, "nodelist", &o->nodelist) < 0 ||
	    get_string(c, v, path, "exclude", &o->exclude) < 0 ||
	    get_string(c, v, path, "constraint", &o->constraint) < 0 ||
	    get_bool(c, v, path, "exclusive", &o->exclusive) < 0 ||
	    get_bool(c, v, path, "gpu_gres", &o->gpu_gres) < 0)
		return -1;
	long long secs;
	if (o->time && (!assay_slurm_time_parse(o->time, &secs) || secs == 0)) {
		assay_json_path_key(kp, sizeof(kp), path, "time");
		return assay_cfg_fail(
		    c, kp,
		    "expected a Slurm time limit (\"M\", \"M:S\", \"H:M:S\", "
		    "\"D-H\", \"D-H:M\", \"D-H:M:S\" or \"UNLIMITED\"), got \"%s\"",
		    o->time);
	}
	const char *lists[] = {"nodelist", "exclude"};
	char *vals[] = {o->nodelist, o->exclude};
	for (size_t i = 0; i < 2; i++) {
		struct assay_error he;
		if (vals[i] && assay_hostlist_count(vals[i], &he) < 0) {
			assay_json_path_key(kp, sizeof(kp), path, lists[i]);
			return assay_cfg_fail(c, kp, "%s", he.message);
		}
	}
	return 0;
}

/* "mpi": the name of an srun --mpi plugin. */
static int get_mpi(struct assay_cfg *c, const json_t *v, const char *path,
		   struct assay_slurm_options *o)
{
	const char *s;
	char kp[256];
	int rc = assay_cfg_string(c, v, path, "mpi", ASSAY_CFG_OPTIONAL, &s);
	if (rc < 0)
		return -1;
	if (rc == 1) {
		bool ok = strlen(s) < 32;
		for (const char *p = s; ok && *p; p++)
			ok = islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_';
		if (!ok) {
			assay_json_path_key(kp, sizeof(kp), path, "mpi");
			return assay_cfg_fail(
			    c, kp,
			    "expected an srun --mpi plugin name such as \"pmix\", "
			    "\"pmi2\" or \"none\", got \"%s\"",
			    s);
		}
		o->mpi = xstrdup(s);
	}
	return 0;
}

int assay_slurm_options_parse(struct assay_cfg *c, const json_t *v, const char *path,
			      struct assay_slurm_options *o)
{
	static const char *const job_per_values[] = {"shard", "case", NULL};
	const char *s;
	char kp[256];
	if (assay_cfg_object(c, v, path, option_keys) < 0)
		return -1;
	int rc = assay_cfg_string(c, v, path, "type", ASSAY_CFG_OPTIONAL, &s);
	if (rc < 0)
		return -1;
	if (rc == 1 && strcmp(s, "slurm")) {
		assay_json_path_key(kp, sizeof(kp), path, "type");
		return assay_cfg_fail(c, kp, "expected \"slurm\", got \"%s\"", s);
	}
	if (get_placement(c, v, path, o) < 0)
		return -1;
	if (assay_cfg_int(c, v, path, "gpus_per_node", ASSAY_CFG_OPTIONAL, 1, 4096,
			  &o->gpus_per_node) < 0 ||
	    assay_cfg_int(c, v, path, "master_port", ASSAY_CFG_OPTIONAL, 1, 65535,
			  &o->master_port) < 0 ||
	    assay_cfg_int(c, v, path, "ntasks_per_node", ASSAY_CFG_OPTIONAL, 1, 4096,
			  &o->ntasks_per_node) < 0 ||
	    assay_cfg_number(c, v, path, "poll_interval_s", ASSAY_CFG_OPTIONAL, 0.1, 3600,
			     &o->poll_interval_s) < 0)
		return -1;
	if (get_mpi(c, v, path, o) < 0)
		return -1;
	if (get_argv(c, v, path, "mpi_launcher", no_newline, &o->mpi_launcher) < 0 ||
	    get_argv(c, v, path, "srun_args", srun_arg_ok, &o->srun_args) < 0 ||
	    get_argv(c, v, path, "sbatch_args", sbatch_arg_ok, &o->sbatch_args) < 0)
		return -1;
	rc = assay_cfg_enum(c, v, path, "job_per", ASSAY_CFG_OPTIONAL, job_per_values, &s);
	if (rc < 0)
		return -1;
	if (rc == 1)
		o->job_per = !strcmp(s, "case") ? ASSAY_SLURM_PER_CASE : ASSAY_SLURM_PER_SHARD;
	return 0;
}

void assay_slurm_options_copy(struct assay_slurm_options *to,
			      const struct assay_slurm_options *from)
{
	*to = *from; /* the numbers; then the strings and lists of its own */
	char **strings[] = {&to->partition,   &to->account,    &to->qos,
			    &to->reservation, &to->time,       &to->nodelist,
			    &to->exclude,     &to->constraint, &to->mpi};
	for (size_t i = 0; i < ARRAY_SIZE(strings); i++)
		*strings[i] = *strings[i] ? xstrdup(*strings[i]) : NULL;
	struct strlist *lists[] = {&to->mpi_launcher, &to->srun_args, &to->sbatch_args};
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		struct strlist src = *lists[i];
		*lists[i] = (struct strlist)STRLIST_INIT;
		for (size_t k = 0; k < src.n; k++)
			strlist_push(lists[i], src.v[k]);
	}
}

static void op_string(const json_t *op, const char *key, char **field)
{
	const json_t *s = json_object_get(op, key);
	if (!*field && json_is_string(s))
		*field = xstrdup(json_string_value(s));
}

static void op_bool(const json_t *op, const char *key, int *field)
{
	const json_t *b = json_object_get(op, key);
	if (*field < 0 && json_is_boolean(b))
		*field = json_is_true(b);
}

void assay_slurm_options_apply_operator(struct assay_slurm_options *o, const json_t *op)
{
	if (!json_is_object(op))
		return;
	op_string(op, "partition", &o->partition);
	op_string(op, "account", &o->account);
	op_string(op, "qos", &o->qos);
	op_string(op, "reservation", &o->reservation);
	op_string(op, "time", &o->time);
	op_string(op, "nodelist", &o->nodelist);
	op_string(op, "exclude", &o->exclude);
	op_string(op, "constraint", &o->constraint);
	op_bool(op, "exclusive", &o->exclusive);
	op_bool(op, "gpu_gres", &o->gpu_gres);
}

assay_err assay_slurm_check_hosts(long long nodes, const char *nodelist, const char *exclude,
				  const char *where, struct assay_error *e)
{
	struct strlist want = STRLIST_INIT, excl = STRLIST_INIT;
	assay_err rc = ASSAY_OK;
	if (nodelist && assay_hostlist_expand(nodelist, &want, e) != ASSAY_OK) {
		assay_error_prefix(e, "%s: nodelist", where);
		rc = ASSAY_USAGE;
		goto out;
	}
	if (exclude && assay_hostlist_expand(exclude, &excl, e) != ASSAY_OK) {
		assay_error_prefix(e, "%s: exclude", where);
		rc = ASSAY_USAGE;
		goto out;
	}
	if ((long long)want.n > nodes) {
		rc = assay_error_set(e, ASSAY_USAGE,
				     "%s: nodelist \"%s\" names %zu hosts but the job needs %lld "
				     "node(s); Slurm would put every listed host into the job "
				     "(name a pool with a reservation or constraint instead)",
				     where, nodelist, want.n, nodes);
		goto out;
	}
	for (size_t i = 0; i < want.n; i++) {
		if (strlist_has(&excl, want.v[i])) {
			rc =
			    assay_error_set(e, ASSAY_USAGE,
					    "%s: host %s is both in nodelist \"%s\" and in exclude "
					    "\"%s\"",
					    where, want.v[i], nodelist, exclude);
			goto out;
		}
	}
out:
	strlist_clear(&want);
	strlist_clear(&excl);
	return rc;
}

/* gpus_per_node from the launcher must agree with the registry's. */
static assay_err check_gpus(const struct assay_platform *p, const char *registry_file,
			    const struct assay_slurm_options *o, const char *where,
			    struct assay_error *e)
{
	if (!p || !o->gpus_per_node || o->gpus_per_node == p->gpus_per_node)
		return ASSAY_OK;
	return assay_error_set(e, ASSAY_USAGE,
			       "%s: gpus_per_node %lld disagrees with the platform registry "
			       "(%s: $.platforms.%s.gpus_per_node is %lld)",
			       where, o->gpus_per_node, registry_file ? registry_file : "registry",
			       p->sku, p->gpus_per_node);
}

assay_err assay_slurm_shape_ep(const struct assay_platform *p, const char *registry_file,
			       const struct assay_slurm_options *o, const char *where, long long ep,
			       struct assay_slurm_shape *out, struct assay_error *e)
{
	memset(out, 0, sizeof(*out));
	if (check_gpus(p, registry_file, o, where, e) != ASSAY_OK)
		return ASSAY_USAGE;
	long long g = p->gpus_per_node;
	if (ep < 1)
		return assay_error_set(e, ASSAY_USAGE,
				       "%s: EP size %lld: expected a positive integer", where, ep);
	if (ep > g && ep % g)
		return assay_error_set(e, ASSAY_USAGE,
				       "%s: EP %lld spans %lld nodes of platform %s but is not a "
				       "multiple of its gpus_per_node (%lld): every node must run "
				       "the same number of ranks",
				       where, ep, (ep + g - 1) / g, p->sku, g);
	out->nodes = ep > g ? ep / g : 1;
	out->ntasks_per_node = ep > g ? g : ep;
	out->gpus_per_node = o->gpu_gres == 0 ? 0 : out->ntasks_per_node;
	return assay_slurm_check_hosts(out->nodes, o->nodelist, o->exclude, where, e);
}

assay_err assay_slurm_shape_nodes(const struct assay_platform *p, const char *registry_file,
				  const struct assay_slurm_options *o, const char *where,
				  long long nodes, long long ntasks_per_node,
				  struct assay_slurm_shape *out, struct assay_error *e)
{
	memset(out, 0, sizeof(*out));
	if (check_gpus(p, registry_file, o, where, e) != ASSAY_OK)
		return ASSAY_USAGE;
	if (nodes < 1 || ntasks_per_node < 1)
		return assay_error_set(e, ASSAY_USAGE,
				       "%s: %lld node(s) x %lld task(s): expected positive counts",
				       where, nodes, ntasks_per_node);
	long long g = p ? p->gpus_per_node : o->gpus_per_node;
	out->nodes = nodes;
	out->ntasks_per_node = ntasks_per_node;
	out->gpus_per_node = o->gpu_gres == 0 ? 0 : g;
	return assay_slurm_check_hosts(nodes, o->nodelist, o->exclude, where, e);
}
