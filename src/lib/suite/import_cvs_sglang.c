/* `assay import cvs` for ROCm/cvs single-node SGLang configurations
 * (cvs/input/config_file/inference/sglang/NAME_single.json at dddd914: top-level
 * "config" and "benchmark_params", read as cvs/lib/inference/sglang/
 * sglang_config_loader.py reads them): an inference suite (docs/inference.md)
 * whose server is `python3 -m sglang.launch_server` as sglang_single_lib.py
 * builds it and whose client is `python3 -m sglang.bench_serving` with CVS's
 * flags, once per ISL=…,OSL=…,TP=…,PP=…,CONC=… cell of the variant's
 * threshold file (CVS parametrizes its benchmark test by those cells);
 * rows from the client's result block (format sglang), gated by that file.
 * docs/import.md. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/cfg.h"
#include "assay/import.h"
#include "assay/json.h"
#include "assay/launch.h"
#include "import_cvs_sglang.h"
#include "suite_int.h"

/* t with {user-id} replaced, as CVS's loader does. */
static char *user_subst(const struct sg *x, const char *t)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, "");
	for (const char *s = t; *s;) {
		if (!strncmp(s, "{user-id}", 9)) {
			sbuf_adds(&sb, x->o->user);
			s += 9;
		} else
			sbuf_addch(&sb, *s++);
	}
	return sbuf_detach(&sb, NULL);
}

/* A setting as CVS formats it (a string, or a number as written), with
 * {user-id} replaced; *out NULL when absent and def is NULL. -1 (with the
 * error) when it is neither or still "<changeme>". */
int sg_text(struct sg *x, const json_t *obj, const char *parent, const char *key, const char *def,
	    char **out)
{
	char path[384];
	const json_t *v = json_object_get(obj, key);
	assay_json_path_key(path, sizeof(path), parent, key);
	*out = NULL;
	if (!v) {
		*out = def ? xstrdup(def) : NULL;
		return 0;
	}
	if (!json_is_string(v) && !json_is_integer(v) && !json_is_real(v))
		return assay_cfg_expected(&x->c, path, "a string or a number", v);
	char *t =
	    json_is_string(v) ? xstrdup(json_string_value(v)) : json_dumps(v, JSON_ENCODE_ANY);
	if (strstr(t, "<changeme>")) {
		free(t);
		return assay_cfg_fail(
		    &x->c, path, "unfilled placeholder \"<changeme>\": the suite needs this value");
	}
	*out = user_subst(x, t);
	free(t);
	return 0;
}

void sg_lit(json_t *argv, const char *s)
{
	char *l = cvs_literal(s);
	json_array_append_new(argv, json_string(l));
	free(l);
}

/* The benchmark_params variant: active_benchmark, else the only one. */
int sg_pick_variant(struct sg *x, const json_t *root)
{
	const json_t *bps = json_object_get(root, "benchmark_params");
	const json_t *active = json_object_get(root, "active_benchmark");
	if (!json_is_object(bps) || !json_object_size(bps))
		return assay_cfg_expected(&x->c, "$.benchmark_params", "a non-empty object", bps);
	const char *key = NULL;
	if (active) {
		if (!json_is_string(active))
			return assay_cfg_expected(&x->c, "$.active_benchmark", "a string", active);
		key = json_string_value(active);
		if (!json_object_get(bps, key))
			return assay_cfg_fail(&x->c, "$.active_benchmark",
					      "names no benchmark_params entry \"%s\"", key);
	} else if (json_object_size(bps) == 1) {
		key = json_object_iter_key(json_object_iter((json_t *)bps));
	} else {
		return assay_cfg_fail(&x->c, "$.benchmark_params",
				      "%zu variants and no active_benchmark naming one",
				      json_object_size(bps));
	}
	assay_json_path_key(x->bp_path, sizeof(x->bp_path), "$.benchmark_params", key);
	assay_json_path_key(x->th_path, sizeof(x->th_path), x->bp_path, "threshold_file");
	x->bp = json_object_get(bps, key);
	if (!json_is_object(x->bp))
		return assay_cfg_expected(&x->c, x->bp_path, "an object", x->bp);
	char tests[300];
	snprintf(tests, sizeof(tests), "%s.inference_tests", x->bp_path);
	assay_json_path_key(x->bench_path, sizeof(x->bench_path), tests, "bench_serv_random");
	x->bench = json_object_get(json_object_get(x->bp, "inference_tests"), "bench_serv_random");
	if (!json_is_object(x->bench))
		return assay_cfg_expected(&x->c, x->bench_path,
					  "an object (CVS's benchmark test runs it)", x->bench);
	return 0;
}

/* "ISL=a,OSL=b,TP=c,PP=d,CONC=e" (CVS's _PERF_CELL_RE) into v[5]. */
static bool perf_cell(const char *key, long long v[5])
{
	static const char *const names[] = {"ISL=", ",OSL=", ",TP=", ",PP=", ",CONC="};
	const char *s = key;
	for (size_t i = 0; i < 5; i++) {
		size_t n = strlen(names[i]);
		if (strncmp(s, names[i], n) || !(s[n] >= '0' && s[n] <= '9'))
			return false;
		s += n;
		v[i] = 0;
		for (; *s >= '0' && *s <= '9'; s++)
			v[i] = v[i] * 10 + (*s - '0');
	}
	return *s == '\0';
}

struct cell {
	long long v[5];
	size_t i;
};

static int cell_cmp(const void *a, const void *b)
{
	const struct cell *p = a, *q = b;
	static const int order[] = {0, 1, 4};
	for (size_t k = 0; k < 3; k++)
		if (p->v[order[k]] != q->v[order[k]])
			return p->v[order[k]] < q->v[order[k]] ? -1 : 1;
	return p->i < q->i ? -1 : p->i > q->i;
}

/* The threshold file's perf cells as combos "isl<I>-osl<O>-c<C>" (CVS's
 * test ids), in CVS's order (ISL, OSL, CONC). */
static int cells_to_combos(struct sg *x, const json_t *th, const char *file, long long tp,
			   json_t *suite)
{
	struct cell *cells = xcalloc(json_object_size(th) + 1, sizeof(*cells));
	size_t n = 0;
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)th, key, v)
	{
		if (perf_cell(key, cells[n].v)) {
			cells[n].i = n;
			n++;
		} else if (key[0] != '_')
			cvs_note(x->im, x->th_path,
				 "%s: cell \"%s\" is not a benchmark cell (CVS runs lm-eval and "
				 "long-context accuracy for those; assay does not)",
				 file, key);
	}
	if (!n) {
		free(cells);
		char p[384];
		snprintf(p, sizeof(p), "%s.threshold_file", x->bp_path);
		return assay_cfg_fail(&x->c, p,
				      "%s has no ISL=…,OSL=…,TP=…,PP=…,CONC=… cell: CVS runs one "
				      "benchmark per cell",
				      file);
	}
	qsort(cells, n, sizeof(*cells), cell_cmp);
	json_t *combos = json_object(), *runs = json_array();
	for (size_t i = 0; i < n; i++) {
		const long long *c = cells[i].v;
		char *id = xasprintf("isl%lld-osl%lld-c%lld", c[0], c[1], c[4]);
		if (json_object_get(combos, id)) {
			free(id);
			id = xasprintf("isl%lld-osl%lld-c%lld-tp%lld-pp%lld", c[0], c[1], c[4],
				       c[2], c[3]);
		}
		if (x->dist && c[3] != x->pp)
			cvs_note(x->im, x->th_path,
				 "a cell's PP differs from pipeline_parallelism (%lld), which the "
				 "server runs with: each cell is gated with its own thresholds, as "
				 "CVS's benchmark test does, and its rows carry pp %lld",
				 x->pp, x->pp);
		if (c[2] != tp)
			cvs_note(
			    x->im, x->th_path,
			    "a cell's TP differs from tensor_parallelism (%lld): the server runs "
			    "with tensor_parallelism, as CVS's does",
			    tp);
		json_object_set_new(combos, id,
				    json_pack("{s:I, s:I, s:I, s:I, s:I}", "ISL", (json_int_t)c[0],
					      "OSL", (json_int_t)c[1], "TP", (json_int_t)c[2], "PP",
					      (json_int_t)c[3], "CONC", (json_int_t)c[4]));
		json_array_append_new(runs, json_string(id));
		free(id);
	}
	free(cells);
	json_object_set_new(suite, "combos", combos);
	json_object_set_new(suite, "runs", runs);
	return 0;
}

/* threshold_file: as given when absolute; else from the working directory,
 * else next to the config (CVS's _resolve_threshold_path); else, assay's
 * addition, its file name next to the config (the repository-relative paths
 * CVS ships). */
static char *threshold_path(struct sg *x, const char *name)
{
	if (name[0] == '/' || !access(name, R_OK))
		return xstrdup(name);
	char *p = *x->dir ? xasprintf("%s/%s", x->dir, name) : xstrdup(name);
	if (!access(p, R_OK))
		return p;
	free(p);
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	p = *x->dir ? xasprintf("%s/%s", x->dir, base) : xstrdup(base);
	if (!access(p, R_OK)) {
		char np[384];
		snprintf(np, sizeof(np), "%s.threshold_file", x->bp_path);
		cvs_note(x->im, np,
			 "%s is not there (CVS reads it from its working directory): the suite "
			 "names %s, next to the config",
			 name, p);
		return p;
	}
	free(p);
	return xstrdup(name);
}

int sg_import_gates(struct sg *x, long long tp, json_t *suite)
{
	char *name = NULL;
	char p[384];
	snprintf(p, sizeof(p), "%s.threshold_file", x->bp_path);
	if (sg_text(x, x->bp, x->bp_path, "threshold_file", NULL, &name) < 0)
		return -1;
	if (!name)
		return assay_cfg_fail(
		    &x->c, x->bp_path,
		    "missing key \"threshold_file\" (CVS takes its cells from it)");
	char *path = threshold_path(x, name);
	json_error_t je;
	json_t *th = json_load_file(path, 0, &je);
	int rc = 0;
	if (!th)
		rc = assay_cfg_fail(&x->c, p, "%s cannot be read as JSON: %s", path, je.text);
	else if (!json_is_object(th))
		rc = assay_cfg_fail(&x->c, p, "%s is not a JSON object", path);
	else
		rc = cells_to_combos(x, th, path, tp, suite);
	if (!rc) {
		char *l = cvs_literal(path);
		json_object_set_new(suite, "gates", json_pack("{s:s}", "thresholds", l));
		free(l);
	}
	json_decref(th);
	free(path);
	free(name);
	return rc;
}

/* A number as CVS writes it ("70000000000"), as a JSON number. */
static json_t *number(const char *s)
{
	char *end;
	long long i = strtoll(s, &end, 10);
	if (*s && !*end)
		return json_integer((json_int_t)i);
	double d = strtod(s, &end);
	return *s && !*end ? json_real(d) : json_string(s);
}

/* CVS's env script (setup_server_container_env), the config's NCCL and
 * gloo settings and container_config.env_dict (_legacy_server_env), then
 * add_export_env: into env, literal. */
int sg_import_env(struct sg *x, const char *model, const char *tp, const char *pp, json_t *env)
{
	/* The variable, the key, and sglang_distributed_lib.py's default (its
	 * _apply_inf_defaults; it sets GLOO_TCP_IFNAME from
	 * gloo_socket_ifname). sglang_single sets only what the config has. */
	static const char *const net[][4] = {
	    {"NCCL_IB_HCA", "nccl_ib_hca", "nccl_ib_hca",
	     "rdma0,rdma1,rdma2,rdma3,rdma4,rdma5,rdma6,rdma7"},
	    {"NCCL_IB_GID_INDEX", "nccl_ib_gid_index", "nccl_ib_gid_index", "1"},
	    {"NCCL_SOCKET_IFNAME", "nccl_socket_ifname", "nccl_socket_ifname", "eno0"},
	    {"GLOO_SOCKET_IFNAME", "gloo_socket_ifname", "gloo_socket_ifname", "eno0"},
	    {"GLOO_TCP_IFNAME", "gloo_tcp_ifname", "gloo_socket_ifname", "eno0"}};
	char *t = NULL;
	if (sg_text(x, x->cfg, "$.config", "nccl_debug", "ERROR", &t) < 0)
		return -1;
	cvs_env_set(env, "NCCL_DEBUG", t);
	free(t);
	cvs_env_set(env, "HSA_FORCE_FINE_GRAIN_PCIE", "1");
	cvs_env_set(env, "MODEL", model);
	cvs_env_set(env, "TP", tp);
	if (x->dist)
		cvs_env_set(env, "PP", pp);
	for (size_t i = 0; i < ARRAY_SIZE(net); i++) {
		if (sg_text(x, x->cfg, "$.config", net[i][x->dist ? 2 : 1],
			    x->dist ? net[i][3] : NULL, &t) < 0)
			return -1;
		if (t && *t)
			cvs_env_set(env, net[i][0], t);
		free(t);
	}
	const char *key;
	const json_t *v;
	const json_t *ed = json_object_get(json_object_get(x->cfg, "container_config"), "env_dict");
	json_object_foreach((json_t *)ed, key, v)
	{
		if (sg_text(x, ed, "$.config.container_config.env_dict", key, NULL, &t) < 0)
			return -1;
		cvs_env_set(env, key, t ? t : "");
		free(t);
	}
	const json_t *ae = json_object_get(x->bp, "add_export_env");
	char ap[320];
	snprintf(ap, sizeof(ap), "%s.add_export_env", x->bp_path);
	if (json_is_object(ae)) {
		json_object_foreach((json_t *)ae, key, v)
		{
			if (sg_text(x, ae, ap, key, NULL, &t) < 0)
				return -1;
			cvs_env_set(env, key, t ? t : "");
			free(t);
		}
		return 0;
	}
	if (ae && !json_is_array(ae))
		return assay_cfg_expected(&x->c, ap, "a list of KEY=VALUE or an object", ae);
	for (size_t i = 0; i < json_array_size(ae); i++) {
		char ip[340];
		assay_json_path_index(ip, sizeof(ip), ap, i);
		const json_t *e = json_array_get(ae, i);
		const char *s = json_string_value(e);
		if (!s)
			return assay_cfg_expected(&x->c, ip, "a string KEY=VALUE", e);
		while (*s == ' ')
			s++;
		if (!strncmp(s, "export ", 7))
			s += 7;
		const char *eq = strchr(s, '=');
		if (!eq || eq == s)
			return assay_cfg_fail(&x->c, ip, "expected KEY=VALUE, got \"%s\"", s);
		char *k = xasprintf("%.*s", (int)(eq - s), s);
		cvs_env_set(env, k, eq + 1);
		free(k);
	}
	return 0;
}

/* add_flags: each entry's words as arguments (CVS writes them into a shell
 * script, so only plain words are taken). */
int sg_add_flags(struct sg *x, json_t *argv)
{
	const json_t *f = json_object_get(x->bp, "add_flags");
	char fp[320];
	snprintf(fp, sizeof(fp), "%s.add_flags", x->bp_path);
	if (f && !json_is_array(f) && !json_is_string(f))
		return assay_cfg_expected(&x->c, fp, "a list of flags or a string", f);
	size_t n = json_is_array(f) ? json_array_size(f) : (f ? 1 : 0);
	for (size_t i = 0; i < n; i++) {
		const json_t *e = json_is_array(f) ? json_array_get(f, i) : f;
		char ip[340];
		if (json_is_array(f))
			assay_json_path_index(ip, sizeof(ip), fp, i);
		else
			snprintf(ip, sizeof(ip), "%s", fp);
		const char *s = json_string_value(e);
		if (!s)
			return assay_cfg_expected(&x->c, ip, "a string", e);
		if (strpbrk(s, "'\"\\$`;|&<>(){}*?~#"))
			return assay_cfg_fail(&x->c, ip,
					      "\"%s\" is shell text (CVS's launch script runs "
					      "it through bash); the server's argv takes plain "
					      "words: write what it stands for",
					      s);
		char *copy = xstrdup(s), *save = NULL;
		for (char *w = strtok_r(copy, " \t\n", &save); w;
		     w = strtok_r(NULL, " \t\n", &save))
			sg_lit(argv, w);
		free(copy);
	}
	return 0;
}

struct parts {
	char *model, *tp, *pp, *nnodes, *port, *host, *prompts;
};

static void parts_release(struct parts *p)
{
	free(p->model);
	free(p->tp);
	free(p->pp);
	free(p->nnodes);
	free(p->port);
	free(p->host);
	free(p->prompts);
}

/* sglang_distributed: each node's shell adds its rank (the ssh launcher's
 * NODE_RANK) and, unless the config names it, the head's address as the
 * other nodes reach it (MASTER_ADDR) at dist_init_port, then runs the
 * rest: launch_server as CVS's launch_server writes it per node. */
void sg_dist_prefix(const struct sg *x, json_t *argv)
{
	char *script = x->dist_init[0] == ':'
			   ? xasprintf("exec \"$@\" --node-rank \"$NODE_RANK\" --dist-init-addr "
				       "\"$MASTER_ADDR%s\"",
				       x->dist_init)
			   : xstrdup("exec \"$@\" --node-rank \"$NODE_RANK\"");
	sg_lit(argv, "bash");
	sg_lit(argv, "-c");
	sg_lit(argv, script);
	sg_lit(argv, "sglang-node");
	free(script);
}

/* The server: `env` with the server's variables, then CVS's launch_server
 * (sglang_single_lib.py, launch_server; dtype and kv-cache dtype "auto" as
 * CVS's tests pass them; sglang_distributed_lib.py adds --pp-size,
 * --nnodes, --node-rank and --dist-init-addr); health on the client's host
 * and port (distributed: the head's, from assay's host); CVS's wait: 120 s,
 * then 15 polls 120 s apart. */
static int server_block(struct sg *x, const struct parts *p, const json_t *env, json_t *suite)
{
	char *mem = NULL, *level = NULL;
	if (sg_text(x, x->bp, x->bp_path, "memory_fraction", "0.85", &mem) < 0 ||
	    sg_text(x, x->cfg, "$.config", "log_level", "info", &level) < 0) {
		free(mem);
		return -1;
	}
	json_t *argv = json_array();
	const char *key;
	const json_t *v;
	if (x->dist)
		sg_dist_prefix(x, argv);
	json_array_append_new(argv, json_string("env"));
	json_object_foreach((json_t *)env, key, v)
	{
		char *kv = xasprintf("%s=%s", key, json_string_value(v));
		json_array_append_new(argv, json_string(kv)); /* already literal */
		free(kv);
	}
	const char *const head[] = {"python3",
				    "-m",
				    "sglang.launch_server",
				    "--model",
				    p->model,
				    "--host",
				    "0.0.0.0",
				    "--port",
				    p->port,
				    "--dtype",
				    "auto",
				    "--kv-cache-dtype",
				    "auto",
				    "--trust-remote-code",
				    "--tp-size",
				    p->tp};
	for (size_t i = 0; i < ARRAY_SIZE(head); i++)
		sg_lit(argv, head[i]);
	if (x->dist) {
		const char *const d[] = {"--pp-size", p->pp, "--nnodes", p->nnodes};
		for (size_t i = 0; i < ARRAY_SIZE(d); i++)
			sg_lit(argv, d[i]);
		if (x->dist_init[0] != ':') {
			sg_lit(argv, "--dist-init-addr");
			sg_lit(argv, x->dist_init);
		}
	}
	const char *const tail[] = {"--disable-radix-cache", "--disable-cuda-graph",
				    "--mem-fraction-static", mem};
	for (size_t i = 0; i < ARRAY_SIZE(tail); i++)
		sg_lit(argv, tail[i]);
	int rc = sg_add_flags(x, argv);
	sg_lit(argv, "--log-level");
	sg_lit(argv, level);
	char *url = xasprintf("http://%s:%s/health", x->dist ? x->head : p->host, p->port);
	char *l = cvs_literal(url);
	json_t *sv = json_pack("{s:o, s:s, s:i}", "argv", argv, "health", l, "health_timeout_s",
			       120 + 15 * 120);
	if (x->dist)
		json_object_set_new(sv, "nodes", json_integer(x->nodes));
	json_object_set_new(suite, "server", sv);
	free(l);
	free(url);
	free(mem);
	free(level);
	return rc;
}

/* The client: CVS's bench_serving line (benchserv_test_random). */
int sg_client_argv(struct sg *x, const char *host, const char *port, const char *prompts,
		   json_t *suite)
{
	char *backend = NULL, *ratio = NULL, *bdef = NULL;
	char rp[384];
	if (sg_text(x, x->bp, x->bp_path, "backend", "sglang", &bdef) < 0 ||
	    sg_text(x, x->bench, x->bench_path, "backend", bdef, &backend) < 0 ||
	    sg_text(x, x->bench, x->bench_path, "random_range_ratio", NULL, &ratio) < 0) {
		free(bdef);
		free(backend);
		return -1;
	}
	free(bdef);
	if (!ratio) {
		free(backend);
		snprintf(rp, sizeof(rp), "%s", x->bench_path);
		return assay_cfg_fail(&x->c, rp,
				      "missing key \"random_range_ratio\" (CVS's client needs it)");
	}
	json_t *argv = json_array();
	const char *const a[] = {
	    "python3",        "-m",     "sglang.bench_serving", "--backend", backend,
	    "--dataset-name", "random", "--num-prompts",        prompts};
	for (size_t i = 0; i < ARRAY_SIZE(a); i++)
		sg_lit(argv, a[i]);
	const char *const t[] = {"--max-concurrency", "{CONC}", "--random-input", "{ISL}",
				 "--random-output",   "{OSL}"};
	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		json_array_append_new(argv, json_string(t[i]));
	const char *const b[] = {"--random-range-ratio", ratio, "--host", host, "--port", port};
	for (size_t i = 0; i < ARRAY_SIZE(b); i++)
		sg_lit(argv, b[i]);
	json_object_set_new(suite, "argv", argv);
	free(backend);
	free(ratio);
	return 0;
}

/* The container CVS starts: container_image (CVS's default
 * lmsysorg/sglang:dev), AMD devices, volume_dict as mounts, shm_size and
 * device_list beyond /dev/dri and /dev/kfd as options. It holds the client;
 * the server runs on the host assay runs on (docs/inference.md). */
int sg_import_container(struct sg *x, json_t *suite)
{
	char *image = NULL, *shm = NULL;
	const json_t *cc = json_object_get(x->cfg, "container_config");
	if (sg_text(x, x->cfg, "$.config", "container_image", "lmsysorg/sglang:dev", &image) < 0 ||
	    sg_text(x, x->cfg, "$.config", "shm_size", NULL, &shm) < 0) {
		free(image);
		return -1;
	}
	json_t *mounts = json_array(), *opts = json_array();
	const char *key;
	const json_t *v;
	const json_t *vd = json_object_get(cc, "volume_dict");
	json_object_foreach((json_t *)vd, key, v)
	{
		char *to = NULL;
		if (sg_text(x, vd, "$.config.container_config.volume_dict", key, NULL, &to) < 0)
			break;
		char *from = user_subst(x, key);
		char *m = xasprintf("%s:%s", from, to ? to : "");
		sg_lit(mounts, m);
		free(m);
		free(from);
		free(to);
	}
	if (shm) {
		char *s = xasprintf("--shm-size=%s", shm);
		sg_lit(opts, s);
		free(s);
	}
	const json_t *dl = json_object_get(cc, "device_list");
	for (size_t i = 0; i < json_array_size(dl); i++) {
		const char *d = json_string_value(json_array_get(dl, i));
		if (d && strcmp(d, "/dev/dri") && strcmp(d, "/dev/kfd")) {
			char *s = xasprintf("--device=%s", d);
			sg_lit(opts, s);
			free(s);
		}
	}
	char *li = cvs_literal(image);
	json_t *ct =
	    json_pack("{s:s, s:s, s:s}", "runtime", "docker", "image", li, "devices", "amd");
	free(li);
	if (json_array_size(mounts))
		json_object_set(ct, "mounts", mounts);
	if (json_array_size(opts))
		json_object_set(ct, "options", opts);
	json_object_set_new(suite, "container", ct);
	json_decref(mounts);
	json_decref(opts);
	free(image);
	free(shm);
	return x->c.err->code ? -1 : 0;
}

const char *const sg_cfg_keys[] = {"container_image",
				   "container_name",
				   "nnodes",
				   "hf_token_file",
				   "shm_size",
				   "log_dir",
				   "log_level",
				   "nccl_debug",
				   "benchmark_serv_node",
				   "proxy_router_serv_port",
				   "container_config",
				   "client_host",
				   "data_cache_dir",
				   "nccl_ib_hca",
				   "nccl_ib_gid_index",
				   "nccl_socket_ifname",
				   "gloo_socket_ifname",
				   "gloo_tcp_ifname",
				   NULL};
const char *const sg_bp_keys[] = {"backend",
				  "threshold_file",
				  "max_concurrency",
				  "model",
				  "tensor_parallelism",
				  "pipeline_parallelism",
				  "memory_fraction",
				  "tokenizer_mode",
				  "inference_poll_iterations",
				  "add_export_env",
				  "add_flags",
				  "inference_tests",
				  NULL};

bool sg_listed(const char *const *keys, const char *key)
{
	for (size_t i = 0; keys[i]; i++)
		if (!strcmp(keys[i], key))
			return true;
	return key[0] == '_';
}

/* sglang_distributed's own settings, as the suite carries them. */
static const char *const dist_keys[] = {"server_node_list",
					"dist_init_port",
					"dist_init_addr",
					"nic_type",
					"hca_id_prefix",
					"mount_vol",
					NULL};

/* What sglang_distributed does that the suite does otherwise. */
static void dist_notes(struct sg *x)
{
	if (json_object_get(x->cfg, "server_node_list"))
		cvs_note(x->im, "$.config.server_node_list",
			 "the server runs on the first %lld node(s) of %s, in its order (rank 0 "
			 "on %s), as the ssh launcher takes them",
			 x->nodes, x->o->cluster_file, x->head);
	if (json_object_get(x->cfg, "benchmark_serv_node"))
		cvs_note(x->im, "$.config.benchmark_serv_node",
			 "the client runs on %s, the server's rank 0, against 127.0.0.1 (CVS's "
			 "client host when benchmark_serv_node is rank 0); assay asks "
			 "http://%s:PORT/health from its own host",
			 x->head, x->head);
	static const char *const nic[] = {"nic_type", "hca_id_prefix", "mount_vol"};
	for (size_t i = 0; i < ARRAY_SIZE(nic); i++)
		if (json_object_get(x->cfg, nic[i])) {
			char p[128];
			assay_json_path_key(p, sizeof(p), "$.config", nic[i]);
			cvs_note(
			    x->im, p,
			    "CVS's NIC setup scripts and ibv device checks read it; assay runs "
			    "neither");
		}
	cvs_note(x->im, "$.config.container_image",
		 "each node's server runs on the node, outside the container (the client runs "
		 "in it on %s): sglang.launch_server must be installed on every node; CVS's "
		 "container also sets LD_LIBRARY_PATH and PYTHONPATH for its image, and its env "
		 "script LD_LIBRARY_PATH for Mooncake",
		 x->head);
	cvs_note(x->im, "$.config.nnodes",
		 "CVS starts ranks above 0 with --host set to their node's name; here every "
		 "rank gets --host 0.0.0.0 (only rank 0 serves HTTP)");
}

/* What CVS does that the suite leaves to the user, one note each: the
 * config keys every SGLang test reads alike, but those in skip. */
void sg_why_notes(struct sg *x, const char *const *skip)
{
	static const char *const why[][2] = {
	    {"container_name",
	     "assay runs one container per case, named after the run and the case"},
	    {"hf_token_file",
	     "assay reads no token files: set HF_TOKEN in assay's environment (the "
	     "suite names it in $.secrets)"},
	    {"log_dir",
	     "the run folder holds server/server.log and each case's client output (CVS's "
	     "benchmark_node/benchmark_results.log is the case's stdout)"},
	    {"benchmark_serv_node", "the server runs on the host assay runs on"},
	    {"data_cache_dir", "CVS sets it as a default and passes it to no command"}};
	for (size_t i = 0; i < ARRAY_SIZE(why); i++)
		if (json_object_get(x->cfg, why[i][0]) && !(skip && sg_listed(skip, why[i][0]))) {
			char p[256];
			assay_json_path_key(p, sizeof(p), "$.config", why[i][0]);
			cvs_note(x->im, p, "%s", why[i][1]);
		}
}

/* The variant's notes, then every key no SGLang test reads (nor more). */
void sg_tail_notes(struct sg *x, const char *const *more)
{
	cvs_note(
	    x->im, x->bp_path,
	    "CVS also runs an RMSNorm kernel test, probes the OpenAI endpoints and checks dmesg "
	    "around the benchmark; readiness is SGLang's /health, not CVS's grep of the server "
	    "log");
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)json_object_get(x->bp, "inference_tests"), key, v)
	{
		char tp[300], p[384];
		snprintf(tp, sizeof(tp), "%s.inference_tests", x->bp_path);
		assay_json_path_key(p, sizeof(p), tp, key);
		if (strcmp(key, "bench_serv_random"))
			cvs_note(x->im, p, "CVS runs this test too; assay does not");
	}
	static const char *const bp_why[][2] = {
	    {"max_concurrency", "each cell's CONC replaces it, as in CVS's benchmark test"},
	    {"tokenizer_mode", "CVS passes it to no command"},
	    {"inference_poll_iterations",
	     "CVS's readiness wait does not read it (120 s, then 15 "
	     "polls 120 s apart): the suite waits 1920 s for /health"}};
	for (size_t i = 0; i < ARRAY_SIZE(bp_why); i++)
		if (json_object_get(x->bp, bp_why[i][0])) {
			char p[384];
			assay_json_path_key(p, sizeof(p), x->bp_path, bp_why[i][0]);
			cvs_note(x->im, p, "%s", bp_why[i][1]);
		}
	json_object_foreach((json_t *)x->cfg, key, v)
	{
		char p[256];
		assay_json_path_key(p, sizeof(p), "$.config", key);
		if (!sg_listed(sg_cfg_keys, key) && !(more && sg_listed(more, key)))
			cvs_note(x->im, p, "not a key CVS's SGLang loader reads");
	}
	json_object_foreach((json_t *)x->bp, key, v)
	{
		char p[384];
		assay_json_path_key(p, sizeof(p), x->bp_path, key);
		if (!sg_listed(sg_bp_keys, key))
			cvs_note(x->im, p, "not a key CVS's SGLang loader reads");
	}
}

static void lifecycle_notes(struct sg *x)
{
	static const char *const dist_skip[] = {"benchmark_serv_node", NULL};
	sg_why_notes(x, x->dist ? dist_skip : NULL);
	if (x->dist)
		dist_notes(x);
	else
		cvs_note(x->im, "$.config.container_image",
			 "the inference server runs on this host, outside the container (the "
			 "client runs in it): start sglang.launch_server where it is installed; "
			 "CVS's container also sets LD_LIBRARY_PATH and PYTHONPATH for its image");
	sg_tail_notes(x, x->dist ? dist_keys : NULL);
}

/* The series identity and what the sglang parser's derived metrics need
 * (CVS's MFU takes tensor_parallelism GPUs; its defaults 70e9 parameters
 * and 1300 TFLOP/s). */
int sg_import_context(struct sg *x, const char *model, const char *tp, const char *prompts,
		      json_t *suite)
{
	char *params = NULL, *peak = NULL;
	if (sg_text(x, x->bench, x->bench_path, "model_num_params", "70000000000", &params) < 0 ||
	    sg_text(x, x->bench, x->bench_path, "peak_gpu_tflops", "1300", &peak) < 0) {
		free(params);
		return -1;
	}
	char *lm = cvs_literal(model);
	json_t *ctx = json_pack(
	    "{s:s, s:o, s:o, s:s, s:s, s:s, s:o, s:o, s:o}", "model", lm, "tp", number(tp), "pp",
	    x->dist ? json_integer(x->pp) : json_string("{PP}"), "isl", "{ISL}", "osl", "{OSL}",
	    "concurrency", "{CONC}", "num_prompts", number(prompts), "model_num_params",
	    number(params), "peak_gpu_tflops", number(peak));
	json_object_set_new(suite, "context", ctx);
	free(lm);
	free(params);
	free(peak);
	return 0;
}

/* CVS's nnodes when the config has none: server_node_list's length, else 1. */
static const char *nodes_default(const struct sg *x, char buf[24])
{
	const json_t *l = json_object_get(x->cfg, "server_node_list");
	snprintf(buf, 24, "%zu", json_is_array(l) ? json_array_size(l) : (size_t)1);
	return buf;
}

/* The settings every part needs, checked. */
static int import_head(struct sg *x, const json_t *root, struct parts *p)
{
	long long tp, nn, np;
	char def[24];
	char tpp[384], npp[384], ppp[384];
	x->cfg = json_object_get(root, "config");
	if (!json_is_object(x->cfg))
		return assay_cfg_expected(&x->c, "$.config", "an object", x->cfg);
	if (sg_pick_variant(x, root) < 0 ||
	    sg_text(x, x->bp, x->bp_path, "model", "openai/gpt-oss-120b", &p->model) < 0 ||
	    sg_text(x, x->bp, x->bp_path, "tensor_parallelism", "8", &p->tp) < 0 ||
	    sg_text(x, x->bp, x->bp_path, "pipeline_parallelism", "1", &p->pp) < 0 ||
	    sg_text(x, x->cfg, "$.config", "nnodes", nodes_default(x, def), &p->nnodes) < 0 ||
	    sg_text(x, x->cfg, "$.config", "proxy_router_serv_port", "8000", &p->port) < 0 ||
	    sg_text(x, x->cfg, "$.config", "client_host", "127.0.0.1", &p->host) < 0 ||
	    sg_text(x, x->bench, x->bench_path, "num_prompts", NULL, &p->prompts) < 0)
		return -1;
	assay_json_path_key(tpp, sizeof(tpp), x->bp_path, "tensor_parallelism");
	assay_json_path_key(npp, sizeof(npp), x->bench_path, "num_prompts");
	if (!p->prompts)
		return assay_cfg_fail(&x->c, x->bench_path,
				      "missing key \"num_prompts\" (CVS's client needs it)");
	assay_json_path_key(ppp, sizeof(ppp), x->bp_path, "pipeline_parallelism");
	if (cvs_count(&x->c, tpp, p->tp, &tp) < 0 || cvs_count(&x->c, npp, p->prompts, &np) < 0 ||
	    cvs_count(&x->c, ppp, p->pp, &x->pp) < 0 ||
	    cvs_count(&x->c, "$.config.nnodes", p->nnodes, &nn) < 0)
		return -1;
	x->nodes = nn;
	x->dist = nn > 1;
	return 0;
}

/* Which of CVS's SGLang tests runs the config: sglang_distributed when it
 * lists server_node_list (or more than one node; it needs the cluster
 * file), sglang_single otherwise (none). */
static int pick_test(struct sg *x)
{
	if (x->dist && !x->o->cluster_file)
		return assay_cfg_fail(&x->c, "$.config.nnodes",
				      "%lld nodes (sglang_distributed): give the CVS cluster file "
				      "it runs on (--cluster FILE): each node's "
				      "sglang.launch_server takes its node rank and the head's "
				      "address from the ssh launcher (docs/import.md)",
				      x->nodes);
	if (!x->dist && x->o->cluster_file)
		return assay_cfg_fail(&x->c, "$",
				      "--cluster %s: a single-node SGLang config starts its "
				      "server on the host assay runs on; run the suite there, "
				      "without --cluster",
				      x->o->cluster_file);
	return 0;
}

/* sglang_distributed on the cluster file's nodes: CVS starts rank i on
 * server_node_list[i]; the suite's server runs on the file's first nnodes
 * hosts (the ssh launcher takes them in order, rank 0 first), so a file
 * with fewer is refused. Its ranks meet at dist_init_addr, else rank 0's
 * address, on dist_init_port. */
static int dist_setup(struct sg *x, json_t *suite)
{
	struct strlist hosts = STRLIST_INIT;
	if (assay_ssh_cluster_hosts(x->o->cluster_file, &hosts, x->c.err) != ASSAY_OK)
		return -1;
	size_t n = hosts.n;
	x->head = n ? xstrdup(hosts.v[0]) : NULL;
	strlist_clear(&hosts);
	if ((long long)n < x->nodes)
		return assay_cfg_fail(&x->c, "$.config.nnodes",
				      "%lld nodes, but %s lists %zu: CVS starts one server rank "
				      "per node and has none for the rest",
				      x->nodes, x->o->cluster_file, n);
	char *addr = NULL, *port = NULL;
	long long pn;
	int rc = sg_text(x, x->cfg, "$.config", "dist_init_addr", NULL, &addr) < 0 ||
			 sg_text(x, x->cfg, "$.config", "dist_init_port", "40001", &port) < 0 ||
			 cvs_count(&x->c, "$.config.dist_init_port", port, &pn) < 0
		     ? -1
		     : 0;
	if (!rc)
		x->dist_init = xasprintf("%s:%s", addr && *addr ? addr : "", port);
	free(addr);
	free(port);
	if (!rc)
		json_object_set_new(
		    suite, "launcher",
		    json_pack("{s:s, s:s}", "type", "ssh", "cluster_file", x->o->cluster_file));
	return rc;
}

static void describe(json_t *suite, const char *base, const struct sg *x)
{
	char *d =
	    xasprintf("ROCm/cvs %s (%s, %s) as an assay suite, written by `assay import "
		      "cvs`: assay starts sglang.launch_server%s, waits for /health and "
		      "runs sglang.bench_serving against it once per threshold cell.",
		      base, x->dist ? "sglang_distributed" : "sglang_single",
		      x->bp_path + strlen("$.benchmark_params."), x->dist ? " on every node" : "");
	char *l = cvs_literal(d);
	json_object_set_new(suite, "description", json_string(l));
	free(l);
	free(d);
}

static int import_all(struct sg *x, const json_t *root, const char *base, json_t *suite,
		      json_t *env)
{
	struct parts p = {0};
	int rc = import_head(x, root, &p);
	if (!rc)
		rc = pick_test(x);
	if (!rc && x->dist)
		rc = dist_setup(x, suite);
	long long tp = rc ? 0 : strtoll(p.tp, NULL, 10);
	if (!rc)
		rc = sg_import_gates(x, tp, suite);
	if (!rc)
		rc = sg_import_env(x, p.model, p.tp, p.pp, env);
	if (!rc)
		rc = server_block(x, &p, env, suite);
	if (!rc)
		rc = sg_client_argv(x, p.host, p.port, p.prompts, suite);
	if (!rc)
		rc = sg_import_context(x, p.model, p.tp, p.prompts, suite);
	if (!rc)
		rc = sg_import_container(x, suite);
	if (!rc) {
		describe(suite, base, x);
		json_object_set(suite, "env", env);
		json_object_set_new(suite, "secrets", json_pack("[s]", "HF_TOKEN"));
		json_object_set_new(suite, "parser", json_string("sglang"));
		json_object_set_new(suite, "gpus_per_node", json_integer(tp));
		lifecycle_notes(x);
	}
	parts_release(&p);
	return rc;
}

assay_err cvs_import_sglang(const json_t *root, const char *config_path,
			    const struct assay_import_opts *o, struct assay_import *out,
			    struct assay_error *e)
{
	const json_t *cfg = json_object_get(root, "config");
	if (json_is_object(cfg) && !json_object_get(cfg, "server_node_list") &&
	    (json_object_get(cfg, "prefill_node_list") ||
	     json_object_get(cfg, "decode_node_list") || json_object_get(cfg, "proxy_router_node")))
		return cvs_import_sglang_disagg(root, config_path, o, out, e);
	char *dir = cvs_config_dir(config_path);
	const char *base = strrchr(config_path, '/') ? strrchr(config_path, '/') + 1 : config_path;
	struct sg x = {.c = {config_path, e}, .o = o, .im = out, .dir = dir};
	json_t *suite = json_object(), *env = json_object();
	cvs_suite_name(suite, base);
	json_object_set_new(suite, "kind", json_string("inference"));
	assay_err err = cvs_inference_done(import_all(&x, root, base, suite, env), suite, out, e);
	json_decref(suite);
	json_decref(env);
	free(dir);
	free(x.head);
	free(x.dist_init);
	return err;
}
