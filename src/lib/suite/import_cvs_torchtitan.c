/* `assay import cvs` for ROCm/cvs TorchTitan training configurations
 * (schema 1, framework "torchtitan_single", or "torchtitan_distributed" with
 * a CVS cluster file: one torchrun per node through the ssh launcher;
 * cvs/lib/training/torchtitan at ROCm/cvs dddd914): a command suite that
 * writes the TOML CVS generates for each combination and starts torchrun as
 * CVS does, each node's log where CVS keeps it, parsed by the torchtitan
 * parser and gated by CVS's threshold file. Canned TOMLs (use_generated_config "False")
 * are refused: see docs/import.md (JAX/MaxText: import_cvs_maxtext.c). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "assay/cfg.h"
#include "assay/import.h"
#include "assay/json.h"
#include "assay/launch.h"
#include "suite_int.h"

/* CVS's model registry (model_registry.py): module, flavor, HF repository,
 * folder under ./assets/hf. */
static const struct tt_model {
	const char *name, *module, *size, *repo, *subdir;
} tt_models[] = {
    {"llama3_1_8b", "llama3", "8B", "meta-llama/Llama-3.1-8B", "llama3"},
    {"llama3_1_70b", "llama3", "70B", "meta-llama/Llama-3.1-70B", "llama3"},
    {"llama3_1_405b", "llama3", "405B", "meta-llama/Llama-3.1-405B", "llama3"},
    {"llama3_3_70b", "llama3", "70B", "meta-llama/Llama-3.3-70B-Instruct", "llama3"},
    {"deepseek_v2_lite", "deepseek", "lite", "deepseek-ai/DeepSeek-V2-Lite", "deepseek"},
    {"deepseek_v3_16b", "deepseek_v3", "16b", "deepseek-ai/DeepSeek-V3", "deepseek"},
    {"qwen3_32b", "qwen3", "32B", "Qwen/Qwen2.5-32B", "qwen"},
    {"mixtral_8x22b", "mixtral", "8x22B", "mistralai/Mixtral-8x22B-v0.1", "mixtral"},
};

/* model_params keys CVS's library reads, with its defaults. */
static const char *const tt_params[][2] = {
    {"sequence_length", "8192"},
    {"dataset", "c4"},
    {"lr", "3e-4"},
    {"warmup_steps", "200"},
    {"activation_checkpointing", "selective"},
    {"compile", "false"},
    {"data_parallel_shard_degree", "8"},
    {"tensor_parallel_degree", "1"},
    {"pipeline_parallel_degree", "1"},
    {"context_parallel_degree", "1"},
    {"expert_parallel_degree", "1"},
    {"enable_async_tensor_parallel", "false"},
    {"precompute_float8_dynamic_scale_for_fsdp", "false"},
    {"hf_assets_path", NULL},
};
#define TT_NPARAMS (sizeof(tt_params) / sizeof(tt_params[0]))

struct tt {
	struct assay_cfg c;
	const struct assay_import_opts *o;
	struct assay_import *im;
	const struct tt_model *m;
	char *iters, *log_dir, *scripts, *root, *master;
	char *p[TT_NPARAMS];
	bool dist;       /* torchtitan_distributed, run by the ssh launcher */
	long long nodes; /* config.nnodes */
	char *net[5];    /* the NCCL/GLOO variables CVS exports for it */
};

/* What CVS exports for distributed runs (build_training_job_cmd): the
 * variable, the config key, CVS's default. */
static const char *const tt_net[5][3] = {
    {"NCCL_IB_HCA", "nccl_ib_hca_list", ""},
    {"NCCL_SOCKET_IFNAME", "nccl_socket_ifname", ""},
    {"GLOO_SOCKET_IFNAME", "gloo_socket_ifname", ""},
    {"NCCL_DEBUG", "nccl_debug", "ERROR"},
    {"NCCL_IB_GID_INDEX", "nccl_ib_gid_index", "3"},
};

/* obj[key] as text, {user-id} replaced; def when absent (may be NULL).
 * -1: another type, or "<changeme>" left in. */
static int tget(struct tt *x, const json_t *obj, const char *parent, const char *key,
		const char *def, char **out)
{
	char path[256];
	const json_t *v = json_object_get(obj, key);
	assay_json_path_key(path, sizeof(path), parent, key);
	*out = NULL;
	if (!v) {
		*out = def ? xstrdup(def) : NULL;
		return 0;
	}
	if (json_is_integer(v)) {
		*out = xasprintf("%lld", (long long)json_integer_value(v));
		return 0;
	}
	if (!json_is_string(v))
		return assay_cfg_expected(&x->c, path, "a string or a number", v);
	const char *s = json_string_value(v), *p;
	if (strstr(s, "<changeme>"))
		return assay_cfg_fail(&x->c, path,
				      "\"<changeme>\" left in the file: fill it in (CVS refuses "
				      "the config too)");
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, "");
	while ((p = strstr(s, "{user-id}"))) {
		sbuf_add(&sb, s, (size_t)(p - s));
		sbuf_adds(&sb, x->o->user);
		s = p + strlen("{user-id}");
	}
	sbuf_adds(&sb, s);
	*out = sbuf_detach(&sb, NULL);
	return 0;
}

/* One $.config key: read, or a note on what becomes of it. */
static int tt_config_key(struct tt *x, const json_t *cfg, const char *key)
{
	static const char *const network[] = {
	    "nccl_ib_hca_list", "nccl_ib_hca",       "nccl_socket_ifname", "gloo_socket_ifname",
	    "nccl_debug",       "nccl_ib_gid_index", "nic_type",           "hca_id_pattern"};
	char path[256];
	assay_json_path_key(path, sizeof(path), "$.config", key);
	char **dst = !strcmp(key, "training_iterations") ? &x->iters
		     : !strcmp(key, "log_dir")           ? &x->log_dir
		     : !strcmp(key, "scripts_dir")       ? &x->scripts
		     : !strcmp(key, "torchtitan_root")   ? &x->root
		     : !strcmp(key, "master_address")    ? &x->master
							 : NULL;
	if (x->dist && !strcmp(key, "master_address")) {
		cvs_note(
		    x->im, path,
		    "the ssh launcher's MASTER_ADDR (the first node's vpc_ip) is the rendezvous "
		    "host, as CVS's default (the first host) is");
		return 0;
	}
	if (dst) {
		free(*dst);
		return tget(x, cfg, "$.config", key, NULL, dst);
	}
	for (size_t i = 0; x->dist && i < ARRAY_SIZE(tt_net); i++)
		if (!strcmp(key, tt_net[i][1]))
			return 0;
	if (x->dist && !strcmp(key, "nccl_ib_hca")) {
		cvs_note(x->im, path, "CVS reads it but exports NCCL_IB_HCA from nccl_ib_hca_list");
		return 0;
	}
	if (x->dist && (!strcmp(key, "nic_type") || !strcmp(key, "hca_id_pattern"))) {
		cvs_note(x->im, path,
			 "CVS's TorchTitan distributed test never runs its NIC setup "
			 "(exec_nic_setup_scripts)");
		return 0;
	}
	for (size_t i = 0; !x->dist && i < ARRAY_SIZE(network); i++)
		if (!strcmp(key, network[i])) {
			cvs_note(x->im, path, "CVS uses it for torchtitan_distributed runs only");
			return 0;
		}
	if (!strcmp(key, "hf_token_file"))
		cvs_note(
		    x->im, path,
		    "assay reads no token files: set HF_TOKEN in assay's environment (the suite "
		    "names it in $.secrets)");
	else if (!strcmp(key, "data_cache_dir"))
		cvs_note(x->im, path, "CVS's TorchTitan library does not use it");
	else if (!strcmp(key, "rocm_dir"))
		cvs_note(x->im, path,
			 "CVS only logs the ROCm path; set $.env if the image needs it");
	else if (!strcmp(key, "verify_network_errors"))
		cvs_note(x->im, path,
			 x->dist ? "CVS's RDMA/ethtool error-counter comparison runs outside the "
				   "training command"
				 : "CVS compares NIC error counters for distributed runs only");
	else if (strcmp(key, "nnodes") && strcmp(key, "use_generated_config") && key[0] != '_')
		cvs_note(x->im, path, "not a key CVS's TorchTitan library reads");
	return 0;
}

/* $.config: CVS's defaults, then the file's values; one node, generated TOML. */
static int tt_config(struct tt *x, const json_t *root)
{
	const json_t *cfg = json_object_get(root, "config");
	if (!json_is_object(cfg))
		return assay_cfg_expected(&x->c, "$.config", "an object", cfg);
	x->iters = xstrdup("30");
	x->log_dir = xstrdup("/tmp/logs");
	x->scripts = xstrdup("/tmp/scripts");
	x->root = xstrdup("/workspace/Primus/third_party/torchtitan");
	x->master = xstrdup("localhost");
	char *gen = NULL, *nodes = NULL;
	long long n = 1;
	int rc = tget(x, cfg, "$.config", "use_generated_config", "True", &gen);
	if (!rc && strcmp(gen, "True"))
		rc = assay_cfg_fail(
		    &x->c, "$.config.use_generated_config",
		    "\"%s\": CVS then runs TorchTitan's canned TOML and ignores the "
		    "combinations' batch sizes and precision; assay imports generated "
		    "configs only (\"True\")",
		    gen);
	if (!rc)
		rc = tget(x, cfg, "$.config", "nnodes", "1", &nodes);
	if (!rc && (rc = cvs_count(&x->c, "$.config.nnodes", nodes, &n)) == 0 && n != 1 && !x->dist)
		rc = assay_cfg_fail(&x->c, "$.config.nnodes",
				    "%lld nodes in a torchtitan_single config: CVS runs it on one",
				    n);
	x->nodes = n;
	free(gen);
	free(nodes);
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)cfg, key, v)
	{
		if (!rc)
			rc = tt_config_key(x, cfg, key);
	}
	for (size_t i = 0; !rc && x->dist && i < ARRAY_SIZE(tt_net); i++)
		rc = tget(x, cfg, "$.config", tt_net[i][1], tt_net[i][2], &x->net[i]);
	long long it;
	if (!rc)
		rc = cvs_count(&x->c, "$.config.training_iterations", x->iters, &it);
	return rc;
}

/* $.model_params: the model from CVS's registry, its training keys. */
static int tt_model_params(struct tt *x, const json_t *root)
{
	const json_t *mp = json_object_get(root, "model_params");
	if (!json_is_object(mp))
		return assay_cfg_expected(&x->c, "$.model_params", "an object", mp);
	char *name = NULL;
	if (tget(x, mp, "$.model_params", "model_name", "llama3_3_70b", &name) < 0)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(tt_models) && !x->m; i++)
		if (!strcmp(name, tt_models[i].name))
			x->m = &tt_models[i];
	if (!x->m) {
		struct sbuf sb = SBUF_INIT;
		for (size_t i = 0; i < ARRAY_SIZE(tt_models); i++)
			sbuf_addf(&sb, "%s%s", i ? ", " : "", tt_models[i].name);
		assay_cfg_fail(&x->c, "$.model_params.model_name",
			       "\"%s\" is not in CVS's TorchTitan model registry (%s)", name,
			       sbuf_str(&sb));
		sbuf_release(&sb);
		free(name);
		return -1;
	}
	free(name);
	for (size_t i = 0; i < TT_NPARAMS; i++)
		if (tget(x, mp, "$.model_params", tt_params[i][0], tt_params[i][1], &x->p[i]) < 0)
			return -1;
	if (!x->p[TT_NPARAMS - 1])
		x->p[TT_NPARAMS - 1] =
		    xasprintf("./assets/hf/%s/%s", x->m->subdir, strrchr(x->m->repo, '/') + 1);
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)mp, key, v)
	{
		bool known = key[0] == '_' || !strcmp(key, "model_name");
		for (size_t i = 0; i < TT_NPARAMS; i++)
			known = known || !strcmp(key, tt_params[i][0]);
		char path[256];
		assay_json_path_key(path, sizeof(path), "$.model_params", key);
		if (!known)
			cvs_note(x->im, path, "not a key CVS's TorchTitan library reads");
	}
	return 0;
}

static const char *tp(const struct tt *x, const char *key)
{
	for (size_t i = 0; i < TT_NPARAMS; i++)
		if (!strcmp(tt_params[i][0], key))
			return x->p[i];
	return "";
}

/* The TOML CVS generates for a combination (_build_toml_config), one
 * printf argument a line, {MBS}, {GBS} and {FLOAT8} left to the combos. */
static void tt_toml(const struct tt *x, struct sbuf *sb)
{
	char *lines[] = {
	    xstrdup("[model]"),
	    xasprintf("name = \"%s\"", x->m->module),
	    xasprintf("flavor = \"%s\"", x->m->size),
	    xasprintf("hf_assets_path = \"%s\"", tp(x, "hf_assets_path")),
	    xstrdup("[training]"),
	    xasprintf("dataset = \"%s\"", tp(x, "dataset")),
	    xstrdup("local_batch_size = {MBS}"),
	    xstrdup("global_batch_size = {GBS}"),
	    xasprintf("seq_len = %s", tp(x, "sequence_length")),
	    xasprintf("steps = %s", x->iters),
	    xstrdup("dtype = \"bfloat16\""),
	    xstrdup("[optimizer]"),
	    xasprintf("lr = %s", tp(x, "lr")),
	    xstrdup("[lr_scheduler]"),
	    xasprintf("warmup_steps = %s", tp(x, "warmup_steps")),
	    xstrdup("[parallelism]"),
	    xasprintf("data_parallel_shard_degree = %s", tp(x, "data_parallel_shard_degree")),
	    xasprintf("tensor_parallel_degree = %s", tp(x, "tensor_parallel_degree")),
	    xasprintf("pipeline_parallel_degree = %s", tp(x, "pipeline_parallel_degree")),
	    xasprintf("context_parallel_degree = %s", tp(x, "context_parallel_degree")),
	    xasprintf("expert_parallel_degree = %s", tp(x, "expert_parallel_degree")),
	    xasprintf("enable_async_tensor_parallel = %s", tp(x, "enable_async_tensor_parallel")),
	    xstrdup("[activation_checkpoint]"),
	    xasprintf("mode = \"%s\"", tp(x, "activation_checkpointing")),
	    xstrdup("[compile]"),
	    xasprintf("enable = %s", tp(x, "compile")),
	    xstrdup("[quantize.linear.float8]"),
	    xstrdup("enable_fsdp_float8_all_gather = {FLOAT8}"),
	    xasprintf("precompute_float8_dynamic_scale_for_fsdp = %s",
		      tp(x, "precompute_float8_dynamic_scale_for_fsdp")),
	    xstrdup("filter_fqns = [\"output\"]"),
	    xstrdup("[comm]"),
	    xstrdup("init_timeout_seconds = 3600"),
	};
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		bool placeholder = strstr(lines[i], "{MBS}") || strstr(lines[i], "{GBS}") ||
				   strstr(lines[i], "{FLOAT8}");
		char *l = placeholder ? xstrdup(lines[i]) : cvs_literal(lines[i]);
		sbuf_addch(sb, ' ');
		cvs_sh_word(sb, l);
		free(l);
		free(lines[i]);
	}
}

/* The log folder of a node: node 0, or the launcher's NODE_RANK. */
static void tt_logdir(const struct tt *x, const char *lg, struct sbuf *sb)
{
	char *d = xasprintf("%s/torchtitan-logs/out-node%s", lg, x->dist ? "" : "0");
	cvs_sh_word(sb, d);
	if (x->dist)
		sbuf_adds(sb, "\"$NODE_RANK\"");
	free(d);
}

/* argv and env: CVS's build_training_job_cmd for one node (each node's
 * wrapper script, for torchtitan_distributed). */
static void tt_command(const struct tt *x, json_t *suite)
{
	char *lg = cvs_literal(x->log_dir), *sd = cvs_literal(x->scripts),
	     *rt = cvs_literal(x->root), *ma = cvs_literal(x->master);
	char *toml = xasprintf("%s/run_config.toml", sd);
	char *ep = xasprintf("%s:29500", ma);
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, "mkdir -p ");
	tt_logdir(x, lg, &sb);
	sbuf_addch(&sb, ' ');
	cvs_sh_word(&sb, sd);
	sbuf_adds(&sb, " && printf '%s\\n'");
	tt_toml(x, &sb);
	sbuf_adds(&sb, " > ");
	cvs_sh_word(&sb, toml);
	sbuf_adds(&sb, " && cd ");
	cvs_sh_word(&sb, rt);
	sbuf_adds(&sb, " && export PYTHONPATH=");
	cvs_sh_word(&sb, rt);
	if (x->dist) {
		sbuf_adds(&sb, ":\"$PYTHONPATH\" && exec torchrun --nnodes \"$NNODES\" "
			       "--node_rank=\"$NODE_RANK\" --nproc_per_node 8 --rdzv_id 101 "
			       "--rdzv_backend c10d --rdzv_endpoint \"$MASTER_ADDR:$MASTER_PORT\"");
	} else {
		sbuf_adds(&sb,
			  ":\"$PYTHONPATH\" && exec torchrun --nnodes 1 --node_rank=0 "
			  "--nproc_per_node 8 --rdzv_id 101 --rdzv_backend c10d --rdzv_endpoint ");
		cvs_sh_word(&sb, ep);
	}
	sbuf_adds(&sb, " --role rank --tee 3 --module torchtitan.train --job.config_file ");
	cvs_sh_word(&sb, toml);
	sbuf_adds(&sb, " > ");
	tt_logdir(x, lg, &sb);
	sbuf_adds(&sb, "/training.log 2>&1");
	json_object_set_new(suite, "argv", json_pack("[s, s, s]", "sh", "-c", sbuf_str(&sb)));
	json_t *env = json_pack("{s:s, s:s}", "HSA_FORCE_FINE_GRAIN_PCIE", "1",
				"PYTORCH_HIP_ALLOC_CONF", "expandable_segments:True");
	for (size_t i = 0; x->dist && i < ARRAY_SIZE(tt_net); i++) {
		char *v = cvs_literal(x->net[i]);
		json_object_set_new(env, tt_net[i][0], json_string(v));
		free(v);
	}
	json_object_set_new(suite, "env", env);
	json_object_set_new(suite, "secrets", json_pack("[s]", "HF_TOKEN"));
	json_object_set_new(suite, "parser", json_string("torchtitan"));
	json_object_set_new(suite, "nodes", json_integer(x->nodes));
	json_object_set_new(suite, "gpus_per_node", json_integer(8));
	/* CVS's completion (_is_training_complete): step: N for N iterations. */
	json_object_set_new(
	    suite, "training",
	    json_pack("{s:I}", "final_step", (json_int_t)strtoll(x->iters, NULL, 10)));
	sbuf_release(&sb);
	free(lg), free(sd), free(rt), free(ma), free(toml), free(ep);
}

/* results: each node's log, CVS's out-node{i}, for the suite's nodes. */
static void tt_results(const struct tt *x, json_t *suite)
{
	char *lg = cvs_literal(x->log_dir);
	json_t *r = json_array();
	long long n = x->dist ? json_integer_value(json_object_get(suite, "nodes")) : 1;
	for (long long i = 0; i < n; i++) {
		char *f = xasprintf("%s/torchtitan-logs/out-node%lld/training.log", lg, i);
		json_array_append_new(r, json_string(f));
		free(f);
	}
	json_object_set_new(suite, "results", r);
	free(lg);
}

/* One combination: MBS, GBS, PRECISION as CVS keys its cells, FLOAT8 as
 * its PRECISION_FLAGS set enable_fsdp_float8_all_gather. */
static int tt_combo(struct tt *x, const char *key, const json_t *v, json_t *combos)
{
	char path[256], kpath[300];
	assay_json_path_key(path, sizeof(path), "$.sweep.combinations", key);
	if (!json_is_object(v))
		return assay_cfg_expected(&x->c, path, "an object", v);
	char *mbs = NULL, *gbs = NULL, *prec = NULL;
	int rc = 0;
	if (tget(x, v, path, "micro_batch_size", NULL, &mbs) < 0 ||
	    tget(x, v, path, "global_batch_size", NULL, &gbs) < 0 ||
	    tget(x, v, path, "precision", "bf16", &prec) < 0)
		rc = -1;
	else if (!mbs || !gbs)
		rc = assay_cfg_fail(&x->c, path, "%s is required",
				    !mbs ? "micro_batch_size" : "global_batch_size");
	if (!rc) {
		bool fp8 = !strcmp(prec, "fp8") || !strcmp(prec, "FP8");
		if (!fp8 && strcmp(prec, "bf16") && strcmp(prec, "BF16")) {
			snprintf(kpath, sizeof(kpath), "%s.precision", path);
			cvs_note(x->im, kpath,
				 "\"%s\": CVS knows bf16 and fp8 and runs others as bf16", prec);
		}
		char *lm = cvs_literal(mbs), *lg = cvs_literal(gbs), *lp = cvs_literal(prec);
		json_object_set_new(combos, key,
				    json_pack("{s:s, s:s, s:s, s:s}", "MBS", lm, "GBS", lg,
					      "PRECISION", lp, "FLOAT8", fp8 ? "true" : "false"));
		free(lm), free(lg), free(lp);
	}
	free(mbs), free(gbs), free(prec);
	const char *k;
	const json_t *kv;
	json_object_foreach((json_t *)v, k, kv)
	{
		snprintf(kpath, sizeof(kpath), "$.sweep.combinations.*.%s", k);
		if (!rc && !strcmp(k, "name"))
			cvs_note(x->im, kpath, "a combination's case id is its key");
		else if (!rc && k[0] != '_' && strcmp(k, "micro_batch_size") &&
			 strcmp(k, "global_batch_size") && strcmp(k, "precision"))
			cvs_note(x->im, kpath, "not a key CVS's TorchTitan library reads");
	}
	return rc;
}

/* $.sweep: combos, and runs (all combinations when absent). */
static int tt_sweep(struct tt *x, const json_t *root, json_t *suite)
{
	const json_t *sw = json_object_get(root, "sweep");
	const json_t *combos = json_object_get(sw, "combinations"), *v;
	if (!json_is_object(sw))
		return assay_cfg_expected(&x->c, "$.sweep", "an object", sw);
	if (!json_is_object(combos) || !json_object_size(combos))
		return assay_cfg_expected(&x->c, "$.sweep.combinations", "a non-empty object",
					  combos);
	json_t *out = json_object();
	json_object_set_new(suite, "combos", out);
	const char *key;
	json_object_foreach((json_t *)combos, key, v)
	{
		if (tt_combo(x, key, v, out) < 0)
			return -1;
	}
	return cvs_import_runs(&x->c, sw, combos, suite);
}

/* What CVS does around the command that the suite leaves to the user. */
static void tt_prepare_notes(struct tt *x)
{
	cvs_note(x->im, "$.model_params.model_name",
		 "CVS first runs `python scripts/download_hf_assets.py --repo_id %s --local_dir "
		 "./assets/hf/%s --all` in %s; run it once in the image (with HF_TOKEN set) before "
		 "the suite",
		 x->m->repo, x->m->subdir, x->root);
	cvs_note(x->im, "$.model_params.dataset",
		 "TorchTitan fetches \"%s\" itself when it starts; have it in the image or the "
		 "HF cache",
		 tp(x, "dataset"));
	cvs_note(x->im, "$.config.use_generated_config",
		 "CVS writes each combination's TOML to scripts_dir/run_config.toml; the suite's "
		 "command writes the same keys there (without CVS's blank lines) before torchrun");
	if (!x->dist)
		return;
	cvs_note(
	    x->im, "$.framework",
	    "CVS stops ufw on every node before a distributed run (the rendezvous port must be "
	    "reachable); do that on the nodes before the suite");
	cvs_note(x->im, "$.config.log_dir",
		 "assay reads every node's out-node{i}/training.log where it runs: keep log_dir on "
		 "a file system the nodes share, as CVS's shipped paths under /home are");
}

static int tt_head(struct tt *x, const json_t *root, const char *config_path, json_t *suite,
		   bool *enforce, char **thresholds)
{
	static const char *const used[] = {
	    "schema_version", "framework", "gpu_arch",     "enforce_thresholds",
	    "threshold_json", "config",    "model_params", "container",
	    "sweep",          NULL};
	*enforce = true;
	if (assay_cfg_bool(&x->c, root, "$", "enforce_thresholds", ASSAY_CFG_OPTIONAL, enforce) <
		0 ||
	    cvs_threshold_file(root, config_path, x->o, x->c.err, thresholds) < 0)
		return -1;
	cvs_note_unknown(x->im, root, used, "TorchTitan",
			 "CVS's loader accepts it; no TorchTitan test of CVS reads it");
	(void)suite;
	return 0;
}

static void tt_gates(struct tt *x, const json_t *root, const char *base, bool enforce,
		     const char *thresholds, json_t *suite)
{
	const char *arch = json_string_value(json_object_get(root, "gpu_arch"));
	char *d = xasprintf("ROCm/cvs %s (%s, %s) as an assay suite, written by "
			    "`assay import cvs`.",
			    base, x->dist ? "torchtitan_distributed" : "torchtitan_single",
			    arch ? arch : "gpu_arch not set");
	char *ld = cvs_literal(d);
	json_object_set_new(suite, "description", json_string(ld));
	free(d), free(ld);
	if (thresholds && enforce) {
		char *t = cvs_literal(thresholds);
		json_object_set_new(suite, "gates", json_pack("{s:s}", "thresholds", t));
		free(t);
	} else if (thresholds) {
		cvs_note(
		    x->im, "$.enforce_thresholds",
		    "false (record only): the suite names no thresholds file; judge a run with "
		    "assay gate --thresholds %s",
		    thresholds);
	}
}

static void tt_container(struct tt *x, const json_t *root, const char *config_path, json_t *suite)
{
	const json_t *ct = json_object_get(root, "container");
	const char *image = json_string_value(json_object_get(ct, "image"));
	if (image && strstr(image, "<changeme>"))
		cvs_note(
		    x->im, "$.container",
		    "the image was never filled in (\"<changeme>\"); fill it in and import again "
		    "to get the suite's container block");
	else
		cvs_import_container(ct, config_path, x->o, x->im, suite);
}

/* torchtitan_distributed on the cluster file's nodes: CVS starts node i's
 * torchrun on the file's i-th host, for i below config.nnodes, so the
 * suite runs on the first nnodes hosts (the ssh launcher takes them in
 * order) and a file with fewer is refused. */
static int tt_cluster(struct tt *x, json_t *suite)
{
	struct strlist hosts = STRLIST_INIT;
	if (assay_ssh_cluster_hosts(x->o->cluster_file, &hosts, x->c.err) != ASSAY_OK)
		return -1;
	size_t n = hosts.n;
	strlist_clear(&hosts);
	if ((long long)n < x->nodes)
		return assay_cfg_fail(&x->c, "$.config.nnodes",
				      "%lld nodes, but %s lists %zu: CVS starts node i's torchrun "
				      "on the file's i-th node and has none for the rest",
				      x->nodes, x->o->cluster_file, n);
	if ((long long)n > x->nodes)
		cvs_note(x->im, "$.config.nnodes",
			 "%lld of the %zu nodes %s lists: the suite runs on the first %lld, as CVS "
			 "does",
			 x->nodes, n, x->o->cluster_file, x->nodes);
	json_object_set_new(suite, "nodes", json_integer((json_int_t)n));
	if (cvs_import_cluster(x->o->cluster_file, suite, x->im, x->c.err) < 0)
		return -1;
	json_object_set_new(suite, "nodes", json_integer(x->nodes));
	return 0;
}

assay_err cvs_import_torchtitan(const json_t *root, const char *config_path,
				const struct assay_import_opts *o, struct assay_import *out,
				struct assay_error *e)
{
	const char *fw = json_string_value(json_object_get(root, "framework"));
	const char *base = strrchr(config_path, '/') ? strrchr(config_path, '/') + 1 : config_path;
	struct tt x = {.c = {config_path, e}, .o = o, .im = out};
	json_t *suite = json_object();
	char *thresholds = NULL;
	bool enforce;
	long long version;
	cvs_suite_name(suite, base);
	int rc =
	    assay_cfg_int(&x.c, root, "$", "schema_version", ASSAY_CFG_REQUIRED, 1, 1, &version) < 0
		? -1
		: 0;
	if (!rc && !strcmp(fw, "torchtitan_distributed") && !o->cluster_file)
		rc =
		    assay_cfg_fail(&x.c, "$.framework",
				   "\"torchtitan_distributed\": give the CVS cluster file it runs "
				   "on (--cluster FILE): each node's torchrun takes its node rank "
				   "and the master address from the ssh launcher (docs/import.md)");
	else if (!rc && strcmp(fw, "torchtitan_single") && strcmp(fw, "torchtitan_distributed"))
		rc = assay_cfg_fail(&x.c, "$.framework",
				    "\"%s\": not a framework CVS's TorchTitan loader knows "
				    "(torchtitan_single, torchtitan_distributed)",
				    fw);
	x.dist = !rc && !strcmp(fw, "torchtitan_distributed");
	if (!rc)
		rc = tt_head(&x, root, config_path, suite, &enforce, &thresholds);
	if (!rc)
		rc = tt_config(&x, root);
	if (!rc)
		rc = tt_model_params(&x, root);
	if (!rc)
		rc = tt_sweep(&x, root, suite);
	if (!rc) {
		tt_container(&x, root, config_path, suite);
		tt_prepare_notes(&x);
		tt_command(&x, suite);
		tt_gates(&x, root, base, enforce, thresholds, suite);
		rc = x.dist            ? tt_cluster(&x, suite)
		     : o->cluster_file ? cvs_import_cluster(o->cluster_file, suite, out, e)
				       : 0;
		tt_results(&x, suite);
	}
	if (!rc)
		out->suite = cvs_ordered(suite);
	else
		strlist_clear(&out->notes);
	free(x.iters), free(x.log_dir), free(x.scripts), free(x.root), free(x.master);
	for (size_t i = 0; i < ARRAY_SIZE(x.net); i++)
		free(x.net[i]);
	for (size_t i = 0; i < TT_NPARAMS; i++)
		free(x.p[i]);
	free(thresholds);
	json_decref(suite);
	return rc ? (e->code ? e->code : ASSAY_USAGE) : ASSAY_OK;
}
