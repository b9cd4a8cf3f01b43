/* `assay import cvs` for ROCm/cvs vLLM configurations (framework "vllm",
 * cvs/input/config_file/inference/vllm*\/NAME.json at dddd914, read as
 * cvs/lib/inference/utils/vllm_config_loader.py reads them): an inference
 * suite (docs/inference.md) whose server is `vllm serve` as CVS's
 * vllm_job.py builds it, waited for at its /health, and whose client is
 * `vllm bench serve` with CVS's flags, once per sweep run (a sequence
 * combination at a concurrency); rows from the saved result (format
 * vllm-bench), judged by the config's threshold file per
 * ISL/OSL/TP[/PP]/CONC cell. docs/import.md. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import_cvs_vllm.h"
#include "suite_int.h"

/* s with {user-id} and {shared_fs} replaced, as CVS's loader does. */
static char *subst(const struct vl *x, const char *s)
{
	static const char *const names[] = {"{user-id}", "{shared_fs}"};
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, "");
	while (*s) {
		size_t k = 0;
		while (k < 2 && strncmp(s, names[k], strlen(names[k])))
			k++;
		if (k == 2) {
			sbuf_addch(&sb, *s++);
			continue;
		}
		sbuf_adds(&sb, k == 0 ? x->o->user : (x->shared_fs ? x->shared_fs : ""));
		s += strlen(names[k]);
	}
	return sbuf_detach(&sb, NULL);
}

/* A string setting (CVS's params are strings). */
const char *vl_str(struct vl *x, const json_t *obj, const char *parent, const char *key,
		   const char *def)
{
	char path[256];
	const json_t *v = json_object_get(obj, key);
	assay_json_path_key(path, sizeof(path), parent, key);
	if (!v)
		return def;
	if (!json_is_string(v)) {
		assay_cfg_expected(&x->c, path, "a string", v);
		return NULL;
	}
	if (strstr(json_string_value(v), "<changeme>")) {
		assay_cfg_fail(&x->c, path,
			       "unfilled placeholder \"<changeme>\": the suite needs this value");
		return NULL;
	}
	return json_string_value(v);
}

static const char *param(struct vl *x, const char *key, const char *def)
{
	return vl_str(x, x->params, "$.params", key, def);
}

/* A literal argument: braces doubled, so no template reads it. */
void vl_lit(json_t *argv, const char *s)
{
	char *l = cvs_literal(s);
	json_array_append_new(argv, json_string(l));
	free(l);
}

/* CVS's serve_args map as flags (_flatten_serve_args): true a bare flag,
 * false none, a list the flag per element. */
static void serve_flags(const json_t *args, json_t *argv)
{
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)args, key, v)
	{
		char *flag = xasprintf("--%s", key);
		size_t n = json_is_array(v) ? json_array_size(v) : 1;
		for (size_t i = 0; i < n && !json_is_false(v); i++) {
			const json_t *e = json_is_array(v) ? json_array_get(v, i) : v;
			vl_lit(argv, flag);
			if (json_is_true(e))
				continue;
			char *t = json_is_string(e) ? xstrdup(json_string_value(e))
						    : json_dumps(e, JSON_ENCODE_ANY);
			vl_lit(argv, t ? t : "");
			free(t);
		}
		free(flag);
	}
}

/* The server block: `env` with the server's variables, then `vllm serve`
 * (vllm_job.py, _server_argv); its health URL and CVS's wait. The server
 * is the run's: TP is the config's, --max-model-len the largest a cell
 * needs (CVS restarts the server per sequence combination). */
static int server_block(struct vl *x, const char *model, long long tp, long long mml,
			const json_t *env, json_t *suite)
{
	const char *port = param(x, "port_no", "8888"),
		   *base = param(x, "base_url", "http://0.0.0.0");
	if (!port || !base)
		return -1;
	json_t *argv = json_array();
	const char *key;
	const json_t *v;
	if (x->nodes > 1)
		vl_dist_prefix(argv);
	if (json_object_size(env))
		json_array_append_new(argv, json_string("env"));
	json_object_foreach((json_t *)env, key, v)
	{
		char *kv = xasprintf("%s=%s", key, json_string_value(v));
		json_array_append_new(argv, json_string(kv)); /* already literal */
		free(kv);
	}
	vl_lit(argv, "vllm");
	vl_lit(argv, "serve");
	vl_lit(argv, model);
	char *n = xasprintf("%lld", tp);
	vl_lit(argv, "--tensor-parallel-size");
	vl_lit(argv, n);
	free(n);
	vl_lit(argv, "--port");
	vl_lit(argv, port);
	const json_t *args = json_object_get(x->server, "serve_args");
	if (!json_object_get(args, "max-model-len")) {
		n = xasprintf("%lld", mml);
		vl_lit(argv, "--max-model-len");
		vl_lit(argv, n);
		free(n);
	}
	if (x->nodes > 1)
		vl_dist_flags(x, argv);
	serve_flags(args, argv);
	char *url = x->nodes > 1 ? xasprintf("http://%s:%s/health", x->head, port)
				 : xasprintf("%s:%s/health", base, port);
	char *l = cvs_literal(url);
	/* CVS waits 30 + 330 s, then polls 60 times every 60 s: 3960 s. */
	json_t *sv =
	    json_pack("{s:o, s:s, s:i}", "argv", argv, "health", l, "health_timeout_s", 3960);
	if (x->nodes > 1)
		json_object_set_new(sv, "nodes", json_integer(x->nodes));
	free(l);
	free(url);
	if (strncmp(base, "http://", 7)) {
		json_decref(sv);
		return assay_cfg_fail(&x->c, "$.params.base_url",
				      "expected an http:// URL (the server's health is asked "
				      "there), got \"%s\"",
				      base);
	}
	json_object_set_new(suite, "server", sv);
	return 0;
}

/* `vllm bench serve` with CVS's flags (vllm_job.py, run_client). */
static int client_argv(struct vl *x, const char *model, bool goodput, json_t *suite)
{
	static const char *const flags[][3] = {
	    {"--backend", "backend", "vllm"},
	    {"--dataset-name", "dataset_name", "random"},
	    {"--num-prompts", "num_prompts", "3200"},
	    {"--request-rate", "request_rate", "inf"},
	    {"--burstiness", "burstiness", "1.0"},
	    {"--tokenizer-mode", "tokenizer_mode", "auto"},
	    {"--seed", "seed", "0"},
	    {"--random-range-ratio", "random_range_ratio", "0.8"},
	    {"--random-prefix-len", "random_prefix_len", "0"},
	    {"--percentile-metrics", "percentile_metrics", "ttft,tpot,itl,e2el"},
	    {"--metric-percentiles", "metric_percentiles", "50,90,95,99"},
	};
	static const char *const tail[] = {
	    "--random-input-len", "{ISL}",      "--random-output-len", "{OSL}",
	    "--max-concurrency",  "{CONC}",     "--ignore-eos",        "--save-result",
	    "--result-dir",       "{CASE_DIR}", "--result-filename",   "results"};
	const char *port = param(x, "port_no", "8888"),
		   *base = param(x, "base_url", "http://0.0.0.0");
	if (!port || !base)
		return -1;
	json_t *argv = json_array();
	vl_lit(argv, "vllm");
	vl_lit(argv, "bench");
	vl_lit(argv, "serve");
	vl_lit(argv, "--model");
	vl_lit(argv, model);
	char *url = xasprintf("%s:%s", base, port);
	vl_lit(argv, "--base-url");
	vl_lit(argv, url);
	free(url);
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++) {
		const char *v = param(x, flags[i][1], flags[i][2]);
		if (!v) {
			json_decref(argv);
			return -1;
		}
		vl_lit(argv, flags[i][0]);
		vl_lit(argv, v);
	}
	for (size_t i = 0; i < ARRAY_SIZE(tail); i++)
		json_array_append_new(argv, json_string(tail[i]));
	if (json_is_true(
		json_object_get(json_object_get(x->server, "serve_args"), "trust-remote-code")))
		vl_lit(argv, "--trust-remote-code");
	if (goodput) {
		json_array_append_new(argv, json_string("--goodput"));
		json_array_append_new(argv, json_string("ttft:{GOODPUT_TTFT}"));
		json_array_append_new(argv, json_string("tpot:{GOODPUT_TPOT}"));
		json_array_append_new(argv, json_string("e2el:{GOODPUT_E2EL}"));
	}
	json_object_set_new(suite, "argv", argv);
	return 0;
}

/* A combination's goodput SLOs as GOODPUT_TTFT, _TPOT, _E2EL (0: none). */
static int goodput(struct vl *x, const json_t *combo, const char *path, json_t *vars)
{
	static const char *const keys[][2] = {
	    {"GOODPUT_TTFT", "ttft_ms"}, {"GOODPUT_TPOT", "tpot_ms"}, {"GOODPUT_E2EL", "e2el_ms"}};
	const json_t *slo = json_object_get(combo, "goodput_slo");
	for (size_t i = 0; json_is_object(slo) && i < ARRAY_SIZE(keys); i++) {
		double v;
		char p[256];
		assay_json_path_key(p, sizeof(p), path, "goodput_slo");
		if (assay_cfg_number(&x->c, slo, p, keys[i][1], ASSAY_CFG_REQUIRED, 0, INFINITY,
				     &v) < 0)
			return -1;
		char *t = xasprintf("%.17g", v);
		json_object_set_new(vars, keys[i][0], json_string(t));
		free(t);
	}
	return 0;
}

/* One sweep run's combo values: ISL, OSL, TP, PP (when > 1), CONC and the
 * goodput SLOs; *mml the --max-model-len it needs (vllm_job.py,
 * _derive_max_model_len). */
static json_t *combo_vars(struct vl *x, const json_t *combo, const char *path, long long tp,
			  long long pp, long long conc, long long *mml)
{
	const char *isl_s = vl_str(x, combo, path, "isl", ""), *osl_s = NULL;
	const char *ratio = param(x, "random_range_ratio", "0.8");
	const char *prefix = param(x, "random_prefix_len", "0");
	char ip[256], op[256];
	long long isl, osl;
	assay_json_path_key(ip, sizeof(ip), path, "isl");
	assay_json_path_key(op, sizeof(op), path, "osl");
	/* An absent isl or osl reads "", which cvs_count refuses. */
	if (!isl_s || !ratio || !prefix || !(osl_s = vl_str(x, combo, path, "osl", "")) ||
	    cvs_count(&x->c, ip, isl_s, &isl) < 0 || cvs_count(&x->c, op, osl_s, &osl) < 0)
		return NULL;
	*mml = (long long)(ceil((double)(isl + osl) * (1.0 + strtod(ratio, NULL))) +
			   (double)strtoll(prefix, NULL, 10) + 8);
	json_t *v = json_pack("{s:I, s:I, s:I}", "ISL", (json_int_t)isl, "OSL", (json_int_t)osl,
			      "TP", (json_int_t)tp);
	if (pp > 1)
		json_object_set_new(v, "PP", json_integer(pp));
	json_object_set_new(v, "CONC", json_integer(conc));
	if (goodput(x, combo, path, v) < 0) {
		json_decref(v);
		return NULL;
	}
	return v;
}

/* The combination a run names; NULL (with the error) when none. */
static const json_t *run_combo(struct vl *x, const json_t *combos, const char *name,
			       const char *path, char *cpath, size_t size)
{
	size_t i;
	const json_t *c;
	json_array_foreach(combos, i, c)
	{
		if (json_is_string(json_object_get(c, "name")) &&
		    !strcmp(json_string_value(json_object_get(c, "name")), name)) {
			assay_json_path_index(cpath, size, "$.sweep.sequence_combinations", i);
			return c;
		}
	}
	assay_cfg_fail(&x->c, path, "names no sequence_combination \"%s\"", name);
	return NULL;
}

/* The sweep's runs as combos "<combination>-conc<N>" (CVS's test ids). */
static int import_sweep(struct vl *x, const json_t *root, long long tp, long long pp, json_t *suite,
			long long *mml, bool *goodput)
{
	size_t with_slo = 0;
	*mml = 0;
	const json_t *sw = json_object_get(root, "sweep");
	const json_t *combos = json_object_get(sw, "sequence_combinations");
	const json_t *runs = json_object_get(sw, "runs");
	if (!json_is_array(combos))
		return assay_cfg_expected(&x->c, "$.sweep.sequence_combinations", "an array",
					  combos);
	if (!json_is_array(runs) || !json_array_size(runs))
		return assay_cfg_expected(&x->c, "$.sweep.runs", "a non-empty array", runs);
	json_t *out = json_object(), *order = json_array();
	size_t i;
	const json_t *run;
	int rc = 0;
	json_array_foreach(runs, i, run)
	{
		char path[256], np[288], cpath[256];
		const char *name;
		long long conc;
		assay_json_path_index(path, sizeof(path), "$.sweep.runs", i);
		snprintf(np, sizeof(np), "%s.combo", path);
		const json_t *combo = NULL;
		if (assay_cfg_string(&x->c, run, path, "combo", ASSAY_CFG_REQUIRED, &name) < 0 ||
		    assay_cfg_int(&x->c, run, path, "concurrency", ASSAY_CFG_REQUIRED, 1,
				  1000000000, &conc) < 0 ||
		    !(combo = run_combo(x, combos, name, np, cpath, sizeof(cpath)))) {
			rc = -1;
			break;
		}
		char *id = xasprintf("%s-conc%lld", name, conc);
		long long m = 0;
		json_t *vars =
		    json_object_get(out, id) ? NULL : combo_vars(x, combo, cpath, tp, pp, conc, &m);
		if (json_object_get(out, id))
			cvs_note(x->im, path, "the same cell as an earlier run: one case");
		else if (!vars)
			rc = -1;
		else {
			with_slo += json_object_get(vars, "GOODPUT_TTFT") != NULL;
			*mml = m > *mml ? m : *mml;
			json_object_set_new(out, id, vars);
			json_array_append_new(order, json_string(id));
		}
		free(id);
		if (rc)
			break;
	}
	*goodput = !rc && with_slo == json_array_size(order);
	if (!rc && with_slo && !*goodput) {
		cvs_note(x->im, "$.sweep.sequence_combinations",
			 "goodput_slo: the client passes --goodput only when every cell has one");
		const char *k;
		json_t *v;
		json_object_foreach(out, k, v)
		{
			json_object_del(v, "GOODPUT_TTFT");
			json_object_del(v, "GOODPUT_TPOT");
			json_object_del(v, "GOODPUT_E2EL");
		}
	}
	if (!rc) {
		json_object_set(suite, "combos", out);
		json_object_set(suite, "runs", order);
	}
	json_decref(out);
	json_decref(order);
	return rc;
}

/* What CVS does around each cell that the suite's script does not. */
static void lifecycle_notes(struct vl *x, const json_t *root, long long nnodes)
{
	cvs_note(x->im, "$.framework",
		 "CVS also probes the OpenAI endpoints once, polls amd-smi (gpu.*) and scrapes "
		 "/metrics (prom.*) around each cell: those rows are not measured (their specs "
		 "are SKIPPED); readiness is vLLM's /health, not CVS's grep of the server log");
	cvs_note(x->im, "$.sweep.runs",
		 "CVS starts a server per sequence combination; the suite starts one for the "
		 "run, with the largest --max-model-len a cell needs");
	if (nnodes > 1)
		vl_dist_notes(x);
	if (json_array_size(json_object_get(json_object_get(root, "accuracy"), "tasks")))
		cvs_note(x->im, "$.accuracy.tasks",
			 "CVS runs lm-eval against the server; assay does not (the threshold "
			 "file's accuracy block is not judged)");
	if (json_object_get(x->params, "client_poll_count"))
		cvs_note(x->im, "$.params.client_poll_count",
			 "the client runs to its end; the case's timeout bounds it");
	static const char *const ib[] = {"ib_hca_devices", "ib_netdev"};
	for (size_t i = 0; i < ARRAY_SIZE(ib) && nnodes == 1; i++)
		if (json_object_get(x->server, ib[i])) {
			char p[256];
			assay_json_path_key(p, sizeof(p), "$.roles.server", ib[i]);
			cvs_note(
			    x->im, p,
			    "CVS sets NCCL_IB_HCA / NCCL_SOCKET_IFNAME for multinode runs: set "
			    "them in $.env");
		}
}

/* $.paths: HF_HUB_CACHE from models_dir; notes for what CVS prepares. */
static int import_paths(struct vl *x, const json_t *root, json_t *env)
{
	const json_t *paths = json_object_get(root, "paths");
	const char *fs = vl_str(x, paths, "$.paths", "shared_fs", "");
	const char *models = fs ? vl_str(x, paths, "$.paths", "models_dir", NULL) : NULL;
	if (!fs || (!models && json_object_get(paths, "models_dir")))
		return -1;
	x->shared_fs = subst(x, fs);
	if (models) {
		char *m = subst(x, models);
		cvs_env_set(env, "HF_HUB_CACHE", m);
		free(m);
		cvs_note(
		    x->im, "$.paths.models_dir",
		    "CVS's test_model_fetch checks the weights there before the sweep; the suite "
		    "sets HF_HUB_CACHE to it and leaves the weights to you");
	}
	if (json_object_get(paths, "hf_token_file"))
		cvs_note(
		    x->im, "$.paths.hf_token_file",
		    "assay reads no token files: set HF_TOKEN in assay's environment (the suite "
		    "names it in $.secrets)");
	if (json_object_get(paths, "log_dir"))
		cvs_note(x->im, "$.paths.log_dir",
			 "the case folder holds server.log, the client's output and results");
	return 0;
}

/* CVS's env script (vllm_job.py, build_server_cmd), then roles.server.env. */
static void import_env(struct vl *x, json_t *env)
{
	cvs_env_set(env, "VLLM_USE_AITER_UNIFIED_ATTENTION", "1");
	cvs_env_set(env, "VLLM_ROCM_USE_AITER_MHA", "0");
	cvs_env_set(env, "VLLM_ROCM_USE_AITER_FUSED_MOE_A16W4", "1");
	if (x->nodes > 1)
		vl_dist_env(x, env);
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)json_object_get(x->server, "env"), key, v)
	{
		char *t = json_is_string(v) ? subst(x, json_string_value(v))
					    : json_dumps(v, JSON_ENCODE_ANY);
		cvs_env_set(env, key, t ? t : "");
		free(t);
	}
}

/* The threshold file (threshold_json, next to the config), when enforced. */
static int import_gates(struct vl *x, const json_t *root, bool enforce, json_t *suite)
{
	const json_t *t = json_object_get(root, "threshold_json");
	if (!json_is_string(t) || strstr(json_string_value(t), "<changeme>")) {
		cvs_note(x->im, "$.threshold_json",
			 "no threshold file named: every row is recorded");
		return 0;
	}
	const char *name = json_string_value(t);
	char *path = name[0] == '/' || !*x->dir ? xstrdup(name) : xasprintf("%s/%s", x->dir, name);
	int rc = 0;
	if (access(path, R_OK))
		rc = assay_cfg_fail(&x->c, "$.threshold_json",
				    "%s cannot be read (CVS resolves it next to the config)", path);
	else if (enforce) {
		char *l = cvs_literal(path);
		json_object_set_new(suite, "gates", json_pack("{s:s}", "thresholds", l));
		free(l);
	} else {
		cvs_note(
		    x->im, "$.enforce_thresholds",
		    "false (record only): the suite names no thresholds file; judge a run with "
		    "assay gate --thresholds %s",
		    path);
	}
	free(path);
	return rc;
}

static const char *const top_keys[] = {"schema_version",
				       "framework",
				       "gpu_arch",
				       "enforce_thresholds",
				       "threshold_json",
				       "paths",
				       "model",
				       "container",
				       "roles",
				       "params",
				       "sweep",
				       "accuracy",
				       NULL};

/* The head: schema 1, enforce_thresholds, the model; notes for other keys. */
static int import_head(struct vl *x, const json_t *root, bool *enforce, const char **model)
{
	long long version;
	*enforce = true;
	*model = NULL;
	if (assay_cfg_int(&x->c, root, "$", "schema_version", ASSAY_CFG_REQUIRED, 1, 1, &version) <
		0 ||
	    assay_cfg_bool(&x->c, root, "$", "enforce_thresholds", ASSAY_CFG_OPTIONAL, enforce) <
		0 ||
	    !(*model = vl_str(x, json_object_get(root, "model"), "$.model", "id", NULL)))
		return *model || x->c.err->message[0]
			   ? -1
			   : assay_cfg_fail(&x->c, "$.model", "missing key \"id\"");
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)root, key, v)
	{
		bool known = key[0] == '_';
		for (size_t i = 0; top_keys[i] && !known; i++)
			known = !strcmp(top_keys[i], key);
		if (!known) {
			char p[256];
			assay_json_path_key(p, sizeof(p), "$", key);
			cvs_note(x->im, p, "not a key CVS's vLLM loader reads");
		}
	}
	return 0;
}

/* TP, PP and nodes (params), and the suite's scale. */
static int import_scale(struct vl *x, json_t *suite, long long *tp, long long *pp,
			long long *nnodes)
{
	const char *t = param(x, "tensor_parallelism", "8");
	const char *p = t ? param(x, "pipeline_parallel_size", "1") : NULL;
	const char *n = p ? param(x, "nnodes", "1") : NULL;
	if (!n || cvs_count(&x->c, "$.params.tensor_parallelism", t, tp) < 0 ||
	    cvs_count(&x->c, "$.params.pipeline_parallel_size", p, pp) < 0 ||
	    cvs_count(&x->c, "$.params.nnodes", n, nnodes) < 0)
		return -1;
	long long gpus = *tp * *pp;
	json_object_set_new(suite, "nodes", json_integer(*nnodes));
	json_object_set_new(suite, "gpus_per_node",
			    json_integer(gpus % *nnodes ? x->o->gpus_per_node : gpus / *nnodes));
	json_t *ctx = json_pack("{s:s, s:s, s:s}", "tp", "{TP}", "isl", "{ISL}", "osl", "{OSL}");
	if (*pp > 1)
		json_object_set_new(ctx, "pp", json_string("{PP}"));
	json_object_set_new(suite, "context", ctx);
	return 0;
}

static void describe(json_t *suite, const char *base, const json_t *root, bool dist)
{
	const char *arch = json_string_value(json_object_get(root, "gpu_arch"));
	char *d =
	    xasprintf("ROCm/cvs %s (vllm, %s) as an assay suite, written by `assay import "
		      "cvs`: assay starts vllm serve%s, waits for /health and runs vllm bench "
		      "serve against it once per cell.",
		      base, arch ? arch : "gpu_arch not set", dist ? " on every node" : "");
	char *l = cvs_literal(d);
	json_object_set_new(suite, "description", json_string(l));
	free(l);
	free(d);
}

/* The suite's keys in hand-written order. */
/* An inference importer's folder of the config ("" for the working one)
 * and its suite once built: the keys in the order docs/import.md shows, or,
 * on an error (rc), no suite and no notes. */
char *cvs_config_dir(const char *config_path)
{
	char *dir = xstrdup(config_path), *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	else
		dir[0] = '\0';
	return dir;
}

assay_err cvs_inference_done(int rc, const json_t *suite, struct assay_import *out,
			     struct assay_error *e)
{
	static const char *const order[] = {
	    "kind",    "name",      "description",   "server", "servers",  "combos",
	    "runs",    "container", "argv",          "env",    "secrets",  "parser",
	    "results", "context",   "gpus_per_node", "gates",  "launcher", NULL};
	if (rc) {
		strlist_clear(&out->notes);
		return e->code ? e->code : ASSAY_USAGE;
	}
	out->suite = json_object();
	for (size_t i = 0; order[i]; i++)
		if (json_object_get(suite, order[i]))
			json_object_set(out->suite, order[i], json_object_get(suite, order[i]));
	return ASSAY_OK;
}

/* The pieces in order; -1 on the first error. */
static int import_all(struct vl *x, const json_t *root, const char *base, json_t *suite,
		      json_t *env)
{
	bool enforce, gp = false;
	const char *model;
	long long tp, pp, nnodes, mml = 0;
	int rc = import_head(x, root, &enforce, &model);
	if (!rc)
		rc = import_paths(x, root, env);
	if (!rc)
		rc = import_scale(x, suite, &tp, &pp, &nnodes);
	if (!rc)
		rc = vl_dist_check(x, nnodes, pp, suite);
	if (!rc)
		rc = import_sweep(x, root, tp, pp, suite, &mml, &gp);
	if (!rc) {
		import_env(x, env);
		rc = server_block(x, model, tp, mml, env, suite);
	}
	if (!rc)
		rc = client_argv(x, model, gp, suite);
	if (!rc)
		rc = import_gates(x, root, enforce, suite);
	if (!rc) {
		describe(suite, base, root, nnodes > 1);
		cvs_import_container(json_object_get(root, "container"), x->c.file, x->o, x->im,
				     suite);
		if (json_object_get(suite, "container") && nnodes > 1)
			cvs_note(x->im, "$.container",
				 "each node's vllm serve runs on the node, outside the container "
				 "(the client runs in it on %s): vllm must be installed on every "
				 "node",
				 x->head);
		else if (json_object_get(suite, "container"))
			cvs_note(
			    x->im, "$.container",
			    "the inference server runs on this host, outside the container (the "
			    "client runs in it): start vllm serve where it is installed");
		json_object_set(suite, "env", env);
		json_object_set_new(suite, "secrets", json_pack("[s]", "HF_TOKEN"));
		json_object_set_new(suite, "parser", json_string("vllm-bench"));
		json_object_set_new(suite, "results", json_pack("[s]", "{CASE_DIR}/results"));
		lifecycle_notes(x, root, nnodes);
	}
	return rc;
}

assay_err cvs_import_vllm(const json_t *root, const char *config_path,
			  const struct assay_import_opts *o, struct assay_import *out,
			  struct assay_error *e)
{
	char *dir = cvs_config_dir(config_path);
	const char *base = strrchr(config_path, '/') ? strrchr(config_path, '/') + 1 : config_path;
	struct vl x = {.c = {config_path, e}, .o = o, .im = out, .dir = dir};
	x.params = json_object_get(root, "params");
	x.server = json_object_get(json_object_get(root, "roles"), "server");
	json_t *suite = json_object(), *env = json_object();
	cvs_suite_name(suite, base);
	json_object_set_new(suite, "kind", json_string("inference"));
	assay_err err = cvs_inference_done(import_all(&x, root, base, suite, env), suite, out, e);
	json_decref(suite);
	json_decref(env);
	free(x.shared_fs);
	free(x.head);
	free(dir);
	return err;
}
