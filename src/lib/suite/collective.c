/* Suites of kind "collective": operations x dtypes x nodes x ranks, each
 * case one run of an nccl-tests program (all_reduce_perf, ..., any binary
 * given by path) or of assay-coll, with nccl-tests' flags, under the
 * suite's launcher (mpirun, or srun with the MPI plugin). Its stdout is
 * read as format nccl-tests-text. Format: docs/suite.md, docs/collectives.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/collective.h"
#include "assay/json.h"
#include "suite_int.h"

static const char *const operations[] = {"all_reduce", "all_gather", "reduce_scatter", "alltoall",
					 "broadcast",  "reduce",     "sendrecv",       "gather",
					 "scatter",    "hypercube",  "alltoallv",      NULL};
/* nccl-tests' -d names (and rccl-tests' fp8 spellings), passed verbatim. */
static const char *const dtypes[] = {"int8",   "uint8",  "int32",    "uint32",   "int64",
				     "uint64", "half",   "float",    "double",   "bfloat16",
				     "f8e4m3", "f8e5m2", "fp8_e4m3", "fp8_e5m2", NULL};
static const char *const backends[] = {"mpi", "shm", "nccl", "rccl", NULL};
static const char *const size_keys[] = {"min", "max", "factor", NULL};

/* assay-coll next to this program, else by name on PATH. */
static char *default_binary(void)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			char *p = xasprintf("%s/assay-coll", self);
			if (access(p, X_OK) == 0)
				return p;
			free(p);
		}
	}
	return xstrdup("assay-coll");
}

static bool is_assay_coll(const char *binary)
{
	const char *base = strrchr(binary, '/');
	return !strcmp(base ? base + 1 : binary, "assay-coll");
}

/* A size: a number of bytes, or a string as nccl-tests' -b/-e take it. */
static int size_value(struct assay_cfg *c, const json_t *obj, const char *key, long long *out)
{
	char path[64];
	assay_json_path_key(path, sizeof(path), "$.sizes", key);
	const json_t *v = json_object_get(obj, key);
	if (!v)
		return assay_cfg_fail(c, "$.sizes", "missing key \"%s\"", key);
	if (json_is_integer(v) && json_integer_value(v) > 0) {
		*out = (long long)json_integer_value(v);
		return 0;
	}
	if (json_is_string(v) && assay_coll_size_parse(json_string_value(v), out) && *out > 0)
		return 0;
	return assay_cfg_expected(c, path, "a size in bytes > 0 (8, \"1M\", \"8G\")", v);
}

static int parse_sizes(struct assay_cfg *c, const json_t *doc, struct assay_suite_coll *k)
{
	json_t *sz;
	if (assay_cfg_member(c, doc, "$", "sizes", ASSAY_CFG_REQUIRED, JSON_OBJECT, &sz) < 0 ||
	    assay_cfg_object(c, sz, "$.sizes", size_keys) < 0 ||
	    size_value(c, sz, "min", &k->min_bytes) < 0 ||
	    size_value(c, sz, "max", &k->max_bytes) < 0)
		return -1;
	k->factor = 2;
	if (assay_cfg_int(c, sz, "$.sizes", "factor", ASSAY_CFG_OPTIONAL, 2, 1 << 20, &k->factor) <
	    0)
		return -1;
	if (k->max_bytes < k->min_bytes)
		return assay_cfg_fail(c, "$.sizes.max", "expected at least min (%lld), got %lld",
				      k->min_bytes, k->max_bytes);
	return 0;
}

/* Every template (binary, args, env) fills for this case. */
static int check_templates(struct assay_cfg *c, const struct assay_suite *s, const json_t *vars)
{
	json_t *all = json_deep_copy(vars);
	for (size_t b = 0; assay_template_builtins[b]; b++)
		json_object_set_new(all, assay_template_builtins[b], json_string("x"));
	struct sbuf sb = SBUF_INIT;
	char *missing = NULL;
	char path[256] = "";
	if (assay_template_expand(s->coll->binary, all, &sb, &missing) < 0)
		snprintf(path, sizeof(path), "$.binary");
	for (size_t i = 0; !missing && i < s->coll->args.n; i++) {
		sbuf_reset(&sb);
		if (assay_template_expand(s->coll->args.v[i], all, &sb, &missing) < 0)
			assay_json_path_index(path, sizeof(path), "$.args", i);
	}
	for (size_t i = 0; !missing && i < s->env.n; i++) {
		sbuf_reset(&sb);
		const char *eq = strchr(s->env.v[i], '=');
		if (assay_template_expand(eq + 1, all, &sb, &missing) < 0) {
			char *name = xstrndup(s->env.v[i], (size_t)(eq - s->env.v[i]));
			assay_json_path_key(path, sizeof(path), "$.env", name);
			free(name);
		}
	}
	sbuf_release(&sb);
	json_decref(all);
	if (!missing)
		return 0;
	assay_cfg_fail(c, path,
		       "placeholder {%s} has no value (a collective case has {OP}, {DTYPE}, "
		       "{RANKS}, {NODES} and assay's own)",
		       missing);
	free(missing);
	return -1;
}

static int parse_settings(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	struct assay_suite_coll *k = s->coll;
	const char *str;
	int rc;
	if ((rc = assay_cfg_string(c, doc, "$", "binary", ASSAY_CFG_OPTIONAL, &str)) < 0)
		return -1;
	k->binary = rc ? xstrdup(str) : default_binary();
	k->assay_coll = is_assay_coll(k->binary);
	if ((rc = assay_cfg_enum(c, doc, "$", "backend", ASSAY_CFG_OPTIONAL, backends, &str)) < 0)
		return -1;
	if (rc && !k->assay_coll)
		return assay_cfg_fail(c, "$.backend",
				      "is assay-coll's: the binary %s takes no backend", k->binary);
	k->backend = xstrdup(rc ? str : "mpi");
	if (!k->assay_coll) {
		free(k->backend);
		k->backend = NULL;
	}
	k->iters = 20;
	k->warmups = 5;
	k->check = true;
	if (assay_cfg_int(c, doc, "$", "iterations", ASSAY_CFG_OPTIONAL, 1, 1 << 24, &k->iters) <
		0 ||
	    assay_cfg_int(c, doc, "$", "warmups", ASSAY_CFG_OPTIONAL, 0, 1 << 24, &k->warmups) <
		0 ||
	    assay_cfg_bool(c, doc, "$", "check", ASSAY_CFG_OPTIONAL, &k->check) < 0 ||
	    parse_sizes(c, doc, k) < 0)
		return -1;
	const json_t *args = json_object_get(doc, "args");
	if (args) {
		if (!json_is_array(args))
			return assay_cfg_expected(c, "$.args", "an array of strings", args);
		for (size_t i = 0; i < json_array_size(args); i++) {
			const json_t *a = json_array_get(args, i);
			char p[64];
			assay_json_path_index(p, sizeof(p), "$.args", i);
			if (!json_is_string(a))
				return assay_cfg_expected(c, p, "a string", a);
			strlist_push(&k->args, json_string_value(a));
		}
	}
	return 0;
}

/* The lists whose product is the suite's cases. */
struct axes {
	struct strlist ops, types;
	long long *ranks, *nodes;
	size_t n_ranks, n_nodes;
};

/* "operations", "ranks", "dtypes" (default float), "nodes" (default 1). */
static int parse_axes(struct assay_cfg *c, const json_t *doc, struct axes *a)
{
	if (assay_cfg_string_list(c, doc, "$", "operations", ASSAY_CFG_REQUIRED, operations,
				  &a->ops) < 0 ||
	    assay_cfg_int_list(c, doc, "$", "ranks", ASSAY_CFG_REQUIRED, 1, 1 << 20, &a->ranks,
			       &a->n_ranks) < 0)
		return -1;
	if (json_object_get(doc, "dtypes")) {
		if (assay_cfg_string_list(c, doc, "$", "dtypes", ASSAY_CFG_REQUIRED, dtypes,
					  &a->types) < 0)
			return -1;
	} else {
		strlist_push(&a->types, "float");
	}
	if (json_object_get(doc, "nodes")) {
		if (assay_cfg_int_list(c, doc, "$", "nodes", ASSAY_CFG_REQUIRED, 1, 1 << 20,
				       &a->nodes, &a->n_nodes) < 0)
			return -1;
	} else {
		a->nodes = xcalloc(1, sizeof(*a->nodes));
		a->nodes[0] = a->n_nodes = 1;
	}
	return 0;
}

/* Append the case of operation o, dtype t, nodes nd and ranks r (indexes
 * into a) to s->cases (room for it is there). */
static int add_case(struct assay_cfg *c, struct assay_suite *s, const struct axes *a, size_t o,
		    size_t t, size_t nd, size_t r)
{
	long long ranks = a->ranks[r], nodes = a->nodes[nd];
	if (ranks % nodes)
		return assay_cfg_fail(
		    c, "$.ranks", "%lld ranks do not divide evenly over %lld nodes", ranks, nodes);
	struct assay_suite_case *k = &s->cases[s->n_cases++];
	k->nodes = nodes;
	k->ranks_per_node = ranks / nodes;
	k->id =
	    xasprintf("%s-%s-%lldx%lld", a->ops.v[o], a->types.v[t], k->nodes, k->ranks_per_node);
	k->runnable = true;
	k->ab_baseline = -1;
	assay_train_opts_init(&k->train);
	k->vars = json_pack("{s:s, s:s, s:I, s:I}", "OP", a->ops.v[o], "DTYPE", a->types.v[t],
			    "RANKS", (json_int_t)ranks, "NODES", (json_int_t)nodes);
	k->factors =
	    json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I}", "operation", a->ops.v[o], "dtype",
		      a->types.v[t], "ranks", (json_int_t)ranks, "nodes", (json_int_t)nodes,
		      "min_bytes", (json_int_t)s->coll->min_bytes, "max_bytes",
		      (json_int_t)s->coll->max_bytes, "factor", (json_int_t)s->coll->factor);
	return check_templates(c, s, k->vars);
}

int suite_parse_collective(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	struct axes a = {STRLIST_INIT, STRLIST_INIT, NULL, NULL, 0, 0};
	int rc = -1;
	s->coll = xcalloc(1, sizeof(*s->coll));
	if (parse_settings(c, doc, s) < 0 || parse_axes(c, doc, &a) < 0)
		goto out;
	/* One program per operation: a fixed binary runs one. */
	if (a.ops.n > 1 && !s->coll->assay_coll && !strstr(s->coll->binary, "{OP}")) {
		assay_cfg_fail(c, "$.binary",
			       "runs one operation, and operations lists %zu; name the program "
			       "with {OP} (e.g. \"/opt/nccl-tests/build/{OP}_perf\")",
			       a.ops.n);
		goto out;
	}
	if (!s->name)
		suite_default_name(s);
	s->cases = xcalloc(a.ops.n * a.types.n * a.n_nodes * a.n_ranks + 1, sizeof(*s->cases));
	for (size_t o = 0; o < a.ops.n; o++)
		for (size_t t = 0; t < a.types.n; t++)
			for (size_t nd = 0; nd < a.n_nodes; nd++)
				for (size_t r = 0; r < a.n_ranks; r++)
					if (add_case(c, s, &a, o, t, nd, r) < 0)
						goto out;
	rc = 0;
out:
	strlist_clear(&a.ops);
	strlist_clear(&a.types);
	free(a.ranks);
	free(a.nodes);
	return rc;
}

void suite_coll_release(struct assay_suite_coll *k)
{
	if (!k)
		return;
	free(k->binary);
	free(k->backend);
	strlist_clear(&k->args);
	free(k);
}

size_t assay_suite_coll_sizes(const struct assay_suite *s, long long **out)
{
	const struct assay_suite_coll *k = s->coll;
	size_t n = 0;
	*out = NULL;
	if (!k)
		return 0;
	/* nccl-tests: size = minBytes; size <= maxBytes; size *= stepFactor */
	for (long long b = k->min_bytes; b <= k->max_bytes; b *= k->factor) {
		*out = xrealloc(*out, (n + 1) * sizeof(**out));
		(*out)[n++] = b;
		if (b > k->max_bytes / k->factor)
			break;
	}
	return n;
}

static void push_int(struct strlist *l, const char *flag, long long v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%lld", v);
	strlist_push(l, flag);
	strlist_push(l, buf);
}

assay_err suite_plan_collective(const struct assay_suite *s, const struct assay_suite_case *c,
				const json_t *vars, struct assay_case_plan *p,
				struct assay_error *e)
{
	const struct assay_suite_coll *k = s->coll;
	const char *op = json_string_value(json_object_get(c->factors, "operation"));
	const char *dtype = json_string_value(json_object_get(c->factors, "dtype"));
	long long ranks = json_integer_value(json_object_get(c->factors, "ranks"));
	struct sbuf sb = SBUF_INIT;
	if (suite_expand(k->binary, vars, s->file, "$.binary", &sb, e) != ASSAY_OK) {
		sbuf_release(&sb);
		return ASSAY_USAGE;
	}
	struct strlist *a = &p->argv;
	strlist_push(a, sbuf_str(&sb));
	if (k->assay_coll) {
		strlist_push(a, "-O");
		strlist_push(a, op);
		strlist_push(a, "--backend");
		strlist_push(a, k->backend);
	}
	push_int(a, "-b", k->min_bytes);
	push_int(a, "-e", k->max_bytes);
	push_int(a, "-f", k->factor);
	push_int(a, "-g", 1);
	push_int(a, "-n", k->iters);
	push_int(a, "-w", k->warmups);
	push_int(a, "-c", k->check ? 1 : 0);
	strlist_push(a, "-d");
	strlist_push(a, dtype);
	for (size_t i = 0; i < k->args.n; i++) {
		char path[64];
		assay_json_path_index(path, sizeof(path), "$.args", i);
		sbuf_reset(&sb);
		if (suite_expand(k->args.v[i], vars, s->file, path, &sb, e) != ASSAY_OK) {
			sbuf_release(&sb);
			return ASSAY_USAGE;
		}
		strlist_push(a, sbuf_str(&sb));
	}
	sbuf_release(&sb);
	p->mpi_ranks = ranks;
	const char *case_dir = json_string_value(json_object_get(vars, "CASE_DIR"));
	char *out = xasprintf("%s/stdout.log", case_dir);
	strlist_push(&p->results, out);
	free(out);
	p->parser = "nccl-tests-text";
	/* Fields the table may not give (the scale when it names no hosts, the
	 * collective when it names no program); the table's own win. */
	char host[256], scale[64];
	suite_short_hostname(host, sizeof(host));
	snprintf(scale, sizeof(scale), "%lldx%lld", c->nodes, c->ranks_per_node);
	p->context = json_pack("{s:s, s:s, s:s, s:s}", "suite", s->name, "cluster",
			       s->cluster ? s->cluster : host, "scale", scale, "collective", op);
	if (k->backend)
		json_object_set_new(p->context, "backend", json_string(k->backend));
	return ASSAY_OK;
}

static bool executable(const char *prog)
{
	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	const char *path = getenv("PATH");
	bool found = false;
	while (path && *path && !found) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);
		char *p = xasprintf("%.*s/%s", (int)n, path, prog);
		found = access(p, X_OK) == 0;
		free(p);
		path += n + (colon ? 1 : 0);
	}
	return found;
}

assay_err assay_suite_coll_check(const struct assay_suite *s, struct assay_error *e)
{
	/* On Slurm or in a container the program is the nodes' or the image's. */
	if (!s->coll || s->container.on || strcmp(s->launcher_name, "local"))
		return ASSAY_OK;
	struct sbuf sb = SBUF_INIT;
	assay_err rc = ASSAY_OK;
	for (size_t i = 0; i < s->n_cases && rc == ASSAY_OK; i++) {
		json_t *vars = suite_builtin_vars(s, &s->cases[i], "RUN", "CASE_DIR");
		sbuf_reset(&sb);
		if (suite_expand(s->coll->binary, vars, s->file, "$.binary", &sb, e) != ASSAY_OK)
			rc = ASSAY_USAGE;
		else if (!executable(sbuf_str(&sb)))
			rc = s->coll->assay_coll && !strchr(s->coll->binary + 1, '/')
				 ? assay_error_set(e, ASSAY_INFRA,
						   "assay-coll not found (%s): build it with `make "
						   "build`, or name the benchmark with \"binary\"",
						   sbuf_str(&sb))
				 : assay_error_at(e, ASSAY_INFRA, s->file, "$.binary", 0,
						  "%s (case %s) is not an executable program",
						  sbuf_str(&sb), s->cases[i].id);
		json_decref(vars);
	}
	sbuf_release(&sb);
	return rc;
}

/* The gates block's thresholds for a collective suite: a per-size file. */
int suite_parse_coll_thresholds(struct assay_cfg *c, const json_t *g, struct assay_suite *s)
{
	const char *file;
	if (assay_cfg_string(c, g, "$.gates", "thresholds", ASSAY_CFG_REQUIRED, &file) < 0)
		return -1;
	if (assay_coll_thresholds_load(file, &s->gates.coll_thresholds, c->err) != ASSAY_OK)
		return -1;
	s->gates.coll_thresholds_on = true;
	json_t *doc = assay_json_load_file(file, c->err);
	if (!doc)
		return -1;
	assay_json_sha256(doc, s->gates.thresholds_sha256);
	json_decref(doc);
	/* A file with nothing for any operation of the suite judges nothing. */
	for (size_t i = 0; i < s->n_cases; i++) {
		const char *op =
		    json_string_value(json_object_get(s->cases[i].factors, "operation"));
		if (assay_coll_thresholds_has(&s->gates.coll_thresholds, op))
			return 0;
	}
	return assay_cfg_fail(c, "$.gates.thresholds",
			      "%s has no threshold for any operation of the suite", file);
}
