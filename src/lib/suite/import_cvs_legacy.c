/* `assay import cvs` for ROCm/cvs's older non-schema Megatron configs
 * (mi3xx_megatron_llama_single.json, mi3xx_megatron_llama_distributed.json,
 * mi35x_megatron_llama_single.json at ROCm/cvs dddd914): top-level `config`
 * and `model_params`. The rules are those of CVS's
 * cvs/lib/megatron_training_lib.py (MegatronLlamaTrainingJob) as its test
 * modules under cvs/tests/training/megatron/ drive it: the settings of
 * model_params[single_node|multi_node][model][gpu type], the variables of
 * build_training_job_cmd, and every result_dict value a minimum
 * (verify_training_results), written as a CVS threshold file (docs/import.md). */
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "assay/cfg.h"
#include "assay/gate.h"
#include "assay/import.h"
#include "assay/json.h"
#include "suite_int.h"

struct legacy {
	struct assay_cfg c;
	const struct assay_import_opts *o;
	struct assay_import *im;
	bool distributed;
	const char *section; /* "$.model_params.single_node" or "...multi_node" */
	const char *gpu;
	char *gpu_own;
	json_t *env, *combos, *thresholds, *scripts; /* scripts: config.training_scripts */
};

/* The metrics CVS's _parse_training_results reads; only these are checked. */
static const char *const legacy_metrics[][2] = {
    {"throughput_per_gpu", "training.throughput_per_gpu"},
    {"tokens_per_gpu", "training.tokens_per_gpu"},
    {"mem_usage", "training.mem_usage"},
    {"elapsed_time_per_iteration", "training.elapsed_time_per_iteration"},
};

/* model_params keys: CVS's default (setdefault) and the variable it sets. */
static const char *const legacy_params[][3] = {
    {"tokenizer_model", "meta-llama/Llama-3.1-70B", "TOKENIZER_MODEL"},
    {"model_size", "70", "MODEL_SIZE"},
    {"sequence_length", "8192", "SEQ_LENGTH"},
    {"batch_size", "128", "GBS"},
    {"micro_batch_size", "2", "MBS"},
    {"fsdp", "0", "FSDP"},
    {"tensor_parallelism", "1", "TP"},
    {"pipeline_parallelism", "1", "PP"},
    {"recompute", "0", "RECOMPUTE"},
    {"precision", "TE_FP8", "PRECISION"},
};

/* config keys the suite has no place for, and why. */
static const char *const legacy_dropped[][2] = {
    {"container_name", "assay runs one container per case, named after the run and the case"},
    {"shm_size", "CVS's test modules start the container with --shm-size 128G whatever this "
		 "says, and so does the suite"},
    {"hf_token_file", "assay reads no token files: set HF_TOKEN in assay's environment (the "
		      "suite names it in $.secrets)"},
    {"scripts_dir", "assay starts the command itself; there are no wrapper scripts"},
    {"rocm_dir", "CVS adds <rocm>/lib to LD_LIBRARY_PATH; set it in $.env if needed"},
    {"mock_data", "CVS exports MOCK_DATA=1 whatever this says, and so does the suite"},
    {"dataset_source", "CVS's Megatron library does not read it"},
    {"distributed_training", "CVS's test module decides, from the model_params section"},
    {"nic_type", "CVS's NIC setup (RDMA library copy, gid index 3 for Broadcom) runs "
		 "outside the training command"},
    {"hca_id_pattern", "CVS's ibv_devinfo check runs outside the training command"},
    {"verify_network_errors", "CVS's RDMA/ethtool counter comparison runs outside the "
			      "training command"},
};

/* config keys CVS exports for distributed runs (NCCL_IB_HCA takes the list). */
static const char *const legacy_network[][3] = {
    {"nccl_ib_hca_list", "NCCL_IB_HCA_LIST",
     "bnxt_re0,bnxt_re1,bnxt_re2,bnxt_re3,bnxt_re4,bnxt_re5,bnxt_re6,bnxt_re7"},
    {"nccl_ib_hca_list", "NCCL_IB_HCA",
     "bnxt_re0,bnxt_re1,bnxt_re2,bnxt_re3,bnxt_re4,bnxt_re5,bnxt_re6,bnxt_re7"},
    {"nccl_socket_ifname", "NCCL_SOCKET_IFNAME", "ensf1np1"},
    {"gloo_socket_ifname", "GLOO_SOCKET_IFNAME", "ensf1np1"},
    {"nccl_debug", "NCCL_DEBUG", "ERROR"},
    {"nccl_ib_gid_index", "NCCL_IB_GID_INDEX", "3"},
    {"master_address", "MASTER_ADDR", "127.0.0.1"},
};

/* s with every {user-id} replaced, as CVS's loader does (caller frees). */
static char *luser(const struct legacy *x, const char *s)
{
	struct sbuf sb = SBUF_INIT;
	const char *p;
	sbuf_adds(&sb, "");
	while ((p = strstr(s, "{user-id}"))) {
		sbuf_add(&sb, s, (size_t)(p - s));
		sbuf_adds(&sb, x->o->user);
		s = p + strlen("{user-id}");
	}
	sbuf_adds(&sb, s);
	return sbuf_detach(&sb, NULL);
}

/* obj[key] as text ({user-id} replaced), else def (NULL: absent is 0).
 * 1 read, 0 absent, -1 error (another type, a <changeme> left in). */
static int ltext(struct legacy *x, const json_t *obj, const char *parent, const char *key,
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
		return 1;
	}
	if (json_is_real(v)) {
		*out = xasprintf("%.17g", json_real_value(v));
		return 1;
	}
	if (!json_is_string(v))
		return assay_cfg_expected(&x->c, path, "a string or a number", v);
	const char *s = json_string_value(v);
	if (strstr(s, "<changeme>"))
		return assay_cfg_fail(&x->c, path,
				      "\"<changeme>\" left in the file: fill it in (CVS refuses "
				      "the config too)");
	*out = luser(x, s);
	return 1;
}

static void lenv(struct legacy *x, const char *name, const char *value)
{
	cvs_env_set(x->env, name, value);
}

/* model_params: the section CVS's test module reads (single_node for the
 * *_single.py modules, multi_node for *_distributed.py) and the GPU type
 * (CVS reads it from rocm-smi on the first node: --gpu, or the only one). */
static int legacy_section(struct legacy *x, const json_t *root, const json_t **sec)
{
	const json_t *mp = json_object_get(root, "model_params");
	if (!json_is_object(mp))
		return assay_cfg_expected(&x->c, "$.model_params", "an object", mp);
	const json_t *one = json_object_get(mp, "single_node"),
		     *multi = json_object_get(mp, "multi_node");
	if (!one == !multi)
		return assay_cfg_fail(&x->c, "$.model_params",
				      "expected single_node or multi_node (CVS's single or "
				      "distributed test modules read one of them)");
	x->distributed = multi != NULL;
	x->section = multi ? "$.model_params.multi_node" : "$.model_params.single_node";
	*sec = multi ? multi : one;
	if (!json_is_object(*sec) || !json_object_size(*sec))
		return assay_cfg_expected(&x->c, x->section, "an object of models", *sec);
	struct strlist gpus = STRLIST_INIT;
	const char *model, *gpu;
	const json_t *m, *g;
	json_object_foreach((json_t *)*sec, model, m)
	{
		char path[256];
		if (model[0] == '_')
			continue; /* a comment; CVS looks up its models by name */
		assay_json_path_key(path, sizeof(path), x->section, model);
		if (!json_is_object(m)) {
			strlist_clear(&gpus);
			return assay_cfg_expected(&x->c, path, "an object of GPU types", m);
		}
		json_object_foreach((json_t *)m, gpu, g)
		{
			if (gpu[0] != '_' && !strlist_has(&gpus, gpu))
				strlist_push(&gpus, gpu);
		}
	}
	int rc = 0;
	if (x->o->gpu_type) {
		x->gpu = x->o->gpu_type;
	} else if (gpus.n == 1) {
		x->gpu = x->gpu_own = xstrdup(gpus.v[0]);
	} else {
		struct sbuf sb = SBUF_INIT;
		for (size_t i = 0; i < gpus.n; i++)
			sbuf_addf(&sb, "%s%s", i ? ", " : "", gpus.v[i]);
		rc = assay_cfg_fail(&x->c, x->section,
				    "settings for GPU types %s: CVS takes the type from rocm-smi "
				    "on the node; give --gpu TYPE",
				    sbuf_str(&sb));
		sbuf_release(&sb);
	}
	strlist_clear(&gpus);
	return rc;
}

/* config.nnodes and training_iterations (CVS's defaults 2 and 10). */
static int legacy_counts(struct legacy *x, const json_t *cfg, json_t *suite)
{
	char *s = NULL;
	long long nodes, iters;
	int rc = ltext(x, cfg, "$.config", "nnodes", "2", &s) < 0 ||
		 cvs_count(&x->c, "$.config.nnodes", s, &nodes) < 0;
	free(s);
	s = NULL;
	if (!rc)
		rc = ltext(x, cfg, "$.config", "training_iterations", "10", &s) < 0 ||
		     cvs_count(&x->c, "$.config.training_iterations", s, &iters) < 0;
	if (rc) {
		free(s);
		return -1;
	}
	lenv(x, "TOTAL_ITERS", s);
	free(s);
	json_object_set_new(suite, "nodes", json_integer(x->distributed ? nodes : 1));
	json_object_set_new(suite, "gpus_per_node", json_integer(x->o->gpus_per_node));
	if (x->distributed) {
		char *n = xasprintf("%lld", nodes);
		lenv(x, "NNODES", n);
		free(n);
		json_object_set_new(x->env, "NODE_RANK", json_string("{NODE}"));
		cvs_note(x->im, "$.model_params.multi_node",
			 "the suite starts one command on this host (the local launcher); give it "
			 "a Slurm launcher for %lld nodes (docs/slurm.md)",
			 nodes);
	} else if (nodes > 1) {
		cvs_note(x->im, "$.config.nnodes",
			 "CVS starts the same single-node run on each of %lld nodes and judges the "
			 "last node's log; the suite is one single-node run",
			 nodes);
	}
	return 0;
}

/* The variables CVS exports for distributed runs, or notes for single ones. */
static int legacy_net_env(struct legacy *x, const json_t *cfg)
{
	for (size_t i = 0; i < ARRAY_SIZE(legacy_network); i++) {
		char path[256], *s = NULL;
		const char *key = legacy_network[i][0];
		assay_json_path_key(path, sizeof(path), "$.config", key);
		if (!x->distributed) {
			if (json_object_get(cfg, key))
				cvs_note(x->im, path, "CVS sets %s for distributed runs only",
					 legacy_network[i][1]);
			continue;
		}
		if (ltext(x, cfg, "$.config", key, legacy_network[i][2], &s) < 0)
			return -1;
		lenv(x, legacy_network[i][1], s);
		free(s);
	}
	return 0;
}

static bool legacy_known(const char *key)
{
	static const char *const used[] = {
	    "nnodes",        "training_iterations", "data_cache_dir",  "log_dir",
	    "megatron_root", "training_scripts",    "container_image", "container_config"};
	for (size_t i = 0; i < ARRAY_SIZE(used); i++)
		if (!strcmp(key, used[i]))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(legacy_network); i++)
		if (!strcmp(key, legacy_network[i][0]))
			return true;
	return key[0] == '_';
}

/* The container CVS's test modules start (docker_lib.launch_docker_container:
 * --privileged, --cap-add=IPC_LOCK, --shm-size 128G, the device list, the
 * volume dict), as the suite's container block; none under --cluster. */
static int legacy_container(struct legacy *x, const json_t *cfg, json_t *suite)
{
	char *image = NULL;
	if (ltext(x, cfg, "$.config", "container_image", "rocm/megatron-lm:v25.5_py312", &image) <
	    0)
		return -1;
	if (x->o->cluster_file) {
		cvs_note(x->im, "$.config.container_image",
			 "a container per host under the ssh launcher is not supported yet "
			 "(docs/ssh.md): the suite runs on the hosts themselves");
		free(image);
		return 0;
	}
	const json_t *cc = json_object_get(cfg, "container_config");
	json_t *opts =
	    json_pack("[s, s, s]", "--privileged", "--cap-add=IPC_LOCK", "--shm-size=128G");
	json_t *mounts = json_array();
	const json_t *dev = json_object_get(cc, "device_list"), *v;
	size_t i;
	json_array_foreach(dev, i, v)
	{
		const char *d = json_string_value(v);
		if (d && strcmp(d, "/dev/dri") && strcmp(d, "/dev/kfd")) {
			char *o = xasprintf("--device=%s", d);
			json_array_append_new(opts, json_string(o));
			free(o);
		}
	}
	const char *src;
	const json_t *vols = json_object_get(cc, "volume_dict");
	json_object_foreach((json_t *)vols, src, v)
	{
		char *c = NULL;
		if (ltext(x, vols, "$.config.container_config.volume_dict", src, NULL, &c) < 0) {
			json_decref(opts);
			json_decref(mounts);
			free(image);
			return -1;
		}
		char *h = luser(x, src), *m = xasprintf("%s:%s", h, c ? c : ""),
		     *l = cvs_literal(m);
		json_array_append_new(mounts, json_string(l));
		free(l);
		free(m);
		free(h);
		free(c);
	}
	char *li = cvs_literal(image);
	json_object_set_new(suite, "container",
			    json_pack("{s:s, s:s, s:s, s:o, s:o}", "runtime", "docker", "image", li,
				      "devices", "amd", "mounts", mounts, "options", opts));
	free(li);
	free(image);
	return 0;
}

/* $.config: counts, paths, the network, notes for the rest. */
static int legacy_config(struct legacy *x, const json_t *root, json_t *suite)
{
	const json_t *cfg = json_object_get(root, "config");
	if (!json_is_object(cfg))
		return assay_cfg_expected(&x->c, "$.config", "an object", cfg);
	if (legacy_counts(x, cfg, suite) < 0 || legacy_net_env(x, cfg) < 0 ||
	    legacy_container(x, cfg, suite) < 0)
		return -1;
	static const char *const paths[][2] = {{"log_dir", "LOG_DIR"},
					       {"data_cache_dir", "DATA_CACHE_PATH"}};
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		char *s = NULL;
		int rc = ltext(x, cfg, "$.config", paths[i][0], NULL, &s);
		if (rc < 0)
			return -1;
		if (rc)
			lenv(x, paths[i][1], s);
		free(s);
	}
	x->scripts = json_object_get(cfg, "training_scripts");
	if (x->scripts && !json_is_object(x->scripts))
		return assay_cfg_expected(&x->c, "$.config.training_scripts",
					  "an object of family -> script", x->scripts);
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)cfg, key, v)
	{
		char path[256];
		bool done = legacy_known(key);
		assay_json_path_key(path, sizeof(path), "$.config", key);
		for (size_t i = 0; !done && i < ARRAY_SIZE(legacy_dropped); i++)
			if (!strcmp(key, legacy_dropped[i][0])) {
				cvs_note(x->im, path, "%s", legacy_dropped[i][1]);
				done = true;
			}
		if (!done)
			cvs_note(x->im, path, "not a key CVS's Megatron library reads");
	}
	return 0;
}

/* The variables CVS's build_training_job_cmd sets for a precision. */
static const char *legacy_precision_env(const char *precision)
{
	if (!strcmp(precision, "TE_BF16"))
		return "TE_FP8=0 TE_BF16=1";
	if (!strcmp(precision, "TE_F16"))
		return "TE_FP8=0 TE_F16=1";
	return "TE_FP8=1";
}

/* CVS's re.search(family, tokenizer, re.I), as a POSIX extended regex. */
static bool family_matches(const char *family, const char *tokenizer)
{
	regex_t re;
	if (regcomp(&re, family, REG_EXTENDED | REG_ICASE | REG_NOSUB))
		return false;
	bool hit = regexec(&re, tokenizer, 0, NULL, 0) == 0;
	regfree(&re);
	return hit;
}

/* The script of the first training_scripts family found in the tokenizer's
 * name (case-insensitive, CVS's order), else CVS's two defaults. */
static const char *legacy_script(const struct legacy *x, const char *tokenizer)
{
	static const char *const defaults[][2] = {{"llama-3", "examples/llama/train_llama3.sh"},
						  {"llama-2", "examples/llama/train_llama2.sh"}};
	const char *family;
	const json_t *v;
	if (x->scripts) {
		json_object_foreach((json_t *)x->scripts, family, v)
		{
			if (json_is_string(v) && family_matches(family, tokenizer))
				return json_string_value(v);
		}
		return NULL;
	}
	for (size_t i = 0; i < ARRAY_SIZE(defaults); i++)
		if (strcasestr(tokenizer, defaults[i][0]))
			return defaults[i][1];
	return NULL;
}

/* result_dict: each metric CVS reads, a minimum (its own values too). */
static int legacy_minimums(struct legacy *x, const json_t *rd, const char *parent, json_t *cell)
{
	const char *key;
	const json_t *v;
	if (!json_is_object(rd))
		return assay_cfg_expected(&x->c, parent, "an object of metric -> minimum", rd);
	json_object_foreach((json_t *)rd, key, v)
	{
		char path[256], *s = NULL, *end;
		size_t k = 0;
		if (key[0] == '_')
			continue;
		assay_json_path_key(path, sizeof(path), parent, key);
		while (k < ARRAY_SIZE(legacy_metrics) && strcmp(key, legacy_metrics[k][0]))
			k++;
		if (ltext(x, rd, parent, key, NULL, &s) < 0)
			return -1;
		double min = strtod(s, &end);
		bool bad = !*s || *end;
		free(s);
		if (bad)
			return assay_cfg_fail(&x->c, path, "expected a number (CVS's float())");
		if (k == ARRAY_SIZE(legacy_metrics)) {
			cvs_note(x->im, path,
				 "CVS reads no such metric from the log, so never checks it");
			continue;
		}
		json_object_set_new(
		    cell, legacy_metrics[k][1],
		    json_pack("{s:s, s:f}", "kind", "min_every_match", "value", min));
		if (!strcmp(key, "elapsed_time_per_iteration"))
			cvs_note(
			    x->im, path,
			    "its meaning as a time limit: CVS applies it as a minimum (an "
			    "iteration faster than this fails), and so does the thresholds file");
	}
	return 0;
}

/* The thresholds cell of a combo (its MBS, GBS, PRECISION, as the suite's
 * gate finds it); two models in one cell must ask the same. */
static int legacy_cell(struct legacy *x, const char *parent, const json_t *vars, json_t *cell)
{
	char *key =
	    xasprintf("MBS=%s,GBS=%s,PRECISION=%s", json_string_value(json_object_get(vars, "MBS")),
		      json_string_value(json_object_get(vars, "GBS")),
		      json_string_value(json_object_get(vars, "PRECISION")));
	char canon[256];
	struct assay_error e2;
	int rc = 0;
	const json_t *had = NULL;
	if (!assay_combo_canonical(key, canon, sizeof(canon), &e2))
		rc = assay_cfg_fail(&x->c, parent, "%s", e2.message);
	else if ((had = json_object_get(x->thresholds, key)) && !json_equal(had, cell))
		rc = assay_cfg_fail(&x->c, parent,
				    "another model has the same %s with other minimums: a "
				    "thresholds cell cannot tell them apart",
				    key);
	else
		json_object_set(x->thresholds, key, cell);
	free(key);
	return rc;
}

/* One model's settings for the GPU type: a combo and its thresholds cell. */
static int legacy_model(struct legacy *x, const char *model, const json_t *p, const char *parent)
{
	json_t *vars = json_object(), *cell = json_object();
	int rc = 0;
	for (size_t i = 0; i < ARRAY_SIZE(legacy_params) && !rc; i++) {
		char *s = NULL;
		rc = ltext(x, p, parent, legacy_params[i][0], legacy_params[i][1], &s) < 0;
		char *l = rc ? NULL : cvs_literal(s);
		if (!rc)
			json_object_set_new(vars, legacy_params[i][2], json_string(l));
		free(l);
		free(s);
	}
	const char *tok = json_string_value(json_object_get(vars, "TOKENIZER_MODEL"));
	const char *prec = json_string_value(json_object_get(vars, "PRECISION"));
	const char *script = rc ? NULL : legacy_script(x, tok);
	if (!rc && !script)
		rc = assay_cfg_fail(&x->c, parent,
				    "no $.config.training_scripts family matches tokenizer_model "
				    "\"%s\" (CVS would start no script)",
				    tok);
	char path[256];
	assay_json_path_key(path, sizeof(path), parent, "result_dict");
	if (!rc)
		rc = legacy_minimums(x, json_object_get(p, "result_dict"), path, cell) < 0;
	if (!rc && !strcmp(prec, "TE_FP16"))
		cvs_note(x->im, parent,
			 "precision TE_FP16: CVS's code tests TE_BF16 and TE_F16 only, so it sets "
			 "TE_FP8=1, and so does the suite");
	if (!rc) {
		json_object_set_new(vars, "PRECISION_ENV", json_string(legacy_precision_env(prec)));
		char *ls = cvs_literal(script);
		json_object_set_new(vars, "SCRIPT", json_string(ls));
		free(ls);
		rc = legacy_cell(x, parent, vars, cell);
	}
	if (!rc)
		json_object_set(x->combos, model, vars);
	json_decref(vars);
	json_decref(cell);
	return rc ? -1 : 0;
}

/* Notes for a model's keys CVS does not read. */
static void legacy_param_notes(struct legacy *x, const json_t *p, const char *parent)
{
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)p, key, v)
	{
		bool known = key[0] == '_' || !strcmp(key, "result_dict");
		for (size_t i = 0; !known && i < ARRAY_SIZE(legacy_params); i++)
			known = !strcmp(key, legacy_params[i][0]);
		char path[256];
		assay_json_path_key(path, sizeof(path), parent, key);
		if (!known)
			cvs_note(x->im, path, "not a key CVS's Megatron library reads");
	}
}

/* Every model of the section with settings for the GPU type. */
static int legacy_models(struct legacy *x, const json_t *sec, json_t *suite)
{
	const char *model;
	const json_t *m;
	json_t *runs = json_array();
	int rc = 0;
	json_object_foreach((json_t *)sec, model, m)
	{
		char mpath[256], path[256];
		if (model[0] == '_')
			continue;
		assay_json_path_key(mpath, sizeof(mpath), x->section, model);
		assay_json_path_key(path, sizeof(path), mpath, x->gpu);
		const json_t *p = json_object_get(m, x->gpu);
		if (!p) {
			cvs_note(x->im, mpath, "no settings for GPU type %s", x->gpu);
			continue;
		}
		if (!json_is_object(p)) {
			rc = assay_cfg_expected(&x->c, path, "an object of settings", p);
			break;
		}
		if ((rc = legacy_model(x, model, p, path)) < 0)
			break;
		legacy_param_notes(x, p, path);
		char *l = cvs_literal(model);
		json_array_append_new(runs, json_string(l));
		free(l);
	}
	if (!rc && !json_array_size(runs))
		rc = assay_cfg_fail(&x->c, x->section, "no model has settings for GPU type %s",
				    x->gpu);
	if (!rc)
		json_object_set(suite, "runs", runs);
	json_decref(runs);
	return rc;
}

/* The command CVS writes into its wrapper script, and the fixed parts. */
static int legacy_command(struct legacy *x, const json_t *root, const char *base, json_t *suite)
{
	char *rootdir = NULL;
	if (ltext(x, json_object_get(root, "config"), "$.config", "megatron_root",
		  "/workspace/Megatron-LM", &rootdir) < 0)
		return -1;
	struct sbuf sb = SBUF_INIT;
	char *rd = cvs_literal(rootdir);
	sbuf_adds(&sb, "cd ");
	cvs_sh_word(&sb, rd);
	sbuf_adds(&sb, " && exec env {PRECISION_ENV} bash {SCRIPT}");
	json_object_set_new(suite, "argv", json_pack("[s, s, s]", "sh", "-c", sbuf_str(&sb)));
	sbuf_reset(&sb);
	free(rd);
	free(rootdir);
	static const char *const per_combo[] = {
	    "TOKENIZER_MODEL", "RECOMPUTE", "SEQ_LENGTH", "MODEL_SIZE", "TP", "PP", "FSDP"};
	for (size_t i = 0; i < ARRAY_SIZE(per_combo); i++) {
		char *ref = xasprintf("{%s}", per_combo[i]);
		json_object_set_new(x->env, per_combo[i], json_string(ref));
		free(ref);
	}
	json_object_set_new(x->env, "MBS", json_string("{MBS}"));
	json_object_set_new(x->env, "BS", json_string("{GBS}"));
	json_object_set_new(x->env, "MOCK_DATA", json_string("1"));
	json_object_set_new(x->env, "EXP_NAME", json_string("megatron_training"));
	json_object_set(suite, "env", x->env);
	json_object_set_new(suite, "secrets", json_pack("[s]", "HF_TOKEN"));
	json_object_set_new(suite, "parser", json_string("megatron"));
	json_object_set_new(suite, "training", json_pack("{s:s}", "warmup", "1"));
	sbuf_addf(&sb,
		  "ROCm/cvs %s (an older config without schema_version: %s, GPU type %s) as an "
		  "assay suite, written by `assay import cvs`; each result_dict value is a "
		  "minimum in the thresholds file.",
		  base, x->distributed ? "multi_node" : "single_node", x->gpu);
	char *d = cvs_literal(sbuf_str(&sb));
	json_object_set_new(suite, "description", json_string(d));
	free(d);
	sbuf_release(&sb);
	char *t = cvs_literal(x->o->thresholds_file);
	json_object_set_new(suite, "gates", json_pack("{s:s}", "thresholds", t));
	free(t);
	return 0;
}

assay_err cvs_import_legacy(const json_t *root, const char *config_path,
			    const struct assay_import_opts *o, struct assay_import *out,
			    struct assay_error *e)
{
	struct legacy x = {.c = {config_path, e},
			   .o = o,
			   .im = out,
			   .env = json_object(),
			   .combos = json_object(),
			   .thresholds = json_object()};
	const char *base = strrchr(config_path, '/') ? strrchr(config_path, '/') + 1 : config_path;
	json_t *suite = json_object();
	const json_t *sec = NULL;
	cvs_suite_name(suite, base);
	int rc = legacy_section(&x, root, &sec);
	if (!rc && !o->thresholds_file)
		rc = assay_cfg_fail(&x.c, x.section,
				    "an older config's result_dict minimums go into a thresholds "
				    "file beside the suite: give --out");
	if (!rc)
		rc = legacy_config(&x, root, suite);
	if (!rc)
		rc = legacy_models(&x, sec, suite);
	if (!rc)
		rc = legacy_command(&x, root, base, suite);
	if (!rc && o->cluster_file)
		rc = cvs_import_cluster(o->cluster_file, suite, out, e);
	if (!rc) {
		json_object_set(suite, "combos", x.combos);
		out->suite = cvs_ordered(suite);
		out->thresholds = json_incref(x.thresholds);
	} else {
		strlist_clear(&out->notes);
	}
	json_decref(suite);
	json_decref(x.env);
	json_decref(x.combos);
	json_decref(x.thresholds);
	free(x.gpu_own);
	return rc ? (e->code ? e->code : ASSAY_USAGE) : ASSAY_OK;
}
