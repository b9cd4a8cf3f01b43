/* `assay import cvs`: a ROCm/cvs Megatron training configuration
 * (cvs/input/config_file/training/megatron/NAME.json) turned into a command suite
 * that runs what CVS runs (Megatron-LM's example script with CVS's
 * environment), with its combos, runs, threshold file and loss-curve gate.
 * Every key that has no place in the suite becomes a note. docs/migrating.md. */
#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/cfg.h"
#include "assay/import.h"
#include "assay/json.h"
#include "suite_int.h"

/* What CVS's Megatron library derives from the tokenizer's model family
 * (cvs/lib/training/megatron/utils/model_registry.py and megatron_lib.py):
 * the script under megatron_root, the variables of the batch sizes, and the
 * variables each precision sets. First match wins, in CVS's order. */
static const struct {
	const char *family, *script;
} cvs_scripts[] = {
    {"llama-3", "examples/llama/train_llama3.sh"},
    {"llama-2", "examples/llama/train_llama2.sh"},
    {"deepseek", "examples/deepseek_v2/train_deepseekv2.sh"},
    {"mixtral", "examples/mixtral/train_mixtral_moe.sh"},
    {"qwen3", "examples/qwen3/train_qwen3.sh"},
    {"qwen2", "examples/qwen2/train_qwen2.sh"},
};

static const struct cvs_flags {
	const char *family, *mbs, *gbs;
	const char *precision[4][2]; /* name, variables */
} cvs_flags[] = {
    {"llama",
     "MBS",
     "BS",
     {{"FP8", "TE_FP8=1"},
      {"BF16", "TE_FP8=0 TE_FP4=0"},
      {"MXFP4", "TE_FP4=1 TE_FP4_RECIPE=mxfp4"},
      {"MXFP8", "TE_FP8=1 TE_FP8_RECIPE=mxfp8"}}},
    {"deepseek", "MBS", "GBS", {{"FP8", "PR=fp8"}, {"FP16", "PR=fp16"}, {"BF16", "PR=bf16"}}},
    {"qwen3",
     "MICRO_BATCH_SIZE",
     "GLOBAL_BATCH_SIZE",
     {{"FP8", "PR=fp8"}, {"BF16", "PR=bf16"}, {"MXFP8", "PR=fp8 FP8_RECIPE=mxfp8"}}},
    {"qwen2", "MBS", "BS", {{"FP8", "TE_FP8=1"}, {"BF16", "TE_FP8=0"}}},
    {"mixtral", "MBS", "GBS", {{"FP8", "PR=fp8"}, {"FP16", "PR=fp16"}, {"BF16", "PR=bf16"}}},
};
#define CVS_DEFAULT_PRECISION_ENV "TE_FP8=1"

/* config.* keys CVS exports for distributed runs only, and their variables. */
static const char *const cvs_network[][2] = {
    {"nccl_ib_hca_list", "NCCL_IB_HCA_LIST"},
    {"nccl_ib_hca", "NCCL_IB_HCA"},
    {"nccl_socket_ifname", "NCCL_SOCKET_IFNAME"},
    {"gloo_socket_ifname", "GLOO_SOCKET_IFNAME"},
    {"nccl_debug", "NCCL_DEBUG"},
    {"nccl_ib_gid_index", "NCCL_IB_GID_INDEX"},
    {"master_address", "MASTER_ADDR"},
};

/* config.* keys the suite has no place for, and why. */
static const char *const cvs_config_dropped[][2] = {
    {"scripts_dir", "assay starts the command itself; there are no wrapper scripts"},
    {"rocm_dir", "CVS adds <rocm>/lib to LD_LIBRARY_PATH; set it in $.env if the image needs it"},
    {"nic_type", "CVS's NIC setup (RDMA library copy) runs outside the training command"},
    {"hca_id_pattern", "CVS's ibv_devinfo check runs outside the training command"},
    {"verify_network_errors",
     "CVS's RDMA/ethtool error-counter comparison runs outside the training command"},
};

struct cvs {
	struct assay_cfg c;
	const struct assay_import_opts *o;
	struct assay_import *im;
	const char *dir; /* the config's folder, "" for the working directory */
	bool distributed;
	char *tokenizer; /* model_params.tokenizer_model, or CVS's default */
	json_t *env;
};

void cvs_note(struct assay_import *im, const char *path, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	sbuf_addf(&sb, "%s: not carried over: %s", path, msg ? msg : "?");
	free(msg);
	if (!strlist_has(&im->notes, sbuf_str(&sb)))
		strlist_push(&im->notes, sbuf_str(&sb));
	sbuf_release(&sb);
}

void cvs_note_unknown(struct assay_import *im, const json_t *root, const char *const *used,
		      const char *who, const char *scaling)
{
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)root, key, v)
	{
		bool known = key[0] == '_';
		for (size_t i = 0; used[i]; i++)
			known = known || !strcmp(used[i], key);
		char path[256];
		assay_json_path_key(path, sizeof(path), "$", key);
		if (scaling && !strcmp(key, "scaling_baseline"))
			cvs_note(im, path, "%s", scaling);
		else if (!known)
			cvs_note(im, path, "not a key CVS's %s loader reads", who);
	}
}

/* s with every {user-id} replaced, as CVS's loader does. */
static char *subst_user(const struct cvs *x, const char *s)
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

/* Text with assay's placeholder braces doubled, so it is taken literally. */
char *cvs_literal(const char *s)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, "");
	for (; *s; s++) {
		if (*s == '{' || *s == '}')
			sbuf_addch(&sb, *s);
		sbuf_addch(&sb, *s);
	}
	return sbuf_detach(&sb, NULL);
}

/* obj[key] as text (a string or a number, as CVS formats it into its
 * command), {user-id} replaced, into *out (caller frees). 1 read, 0 absent,
 * -1 error: another type, or a <changeme> that was never filled in. */
static int text(struct cvs *x, const json_t *obj, const char *parent, const char *key, char **out)
{
	char path[256];
	const json_t *v = json_object_get(obj, key);
	*out = NULL;
	if (!v)
		return 0;
	assay_json_path_key(path, sizeof(path), parent, key);
	if (json_is_string(v)) {
		if (strstr(json_string_value(v), "<changeme>"))
			return assay_cfg_fail(&x->c, path,
					      "\"<changeme>\" left in the file: fill it in (CVS "
					      "refuses the config too)");
		*out = subst_user(x, json_string_value(v));
	} else if (json_is_integer(v)) {
		*out = xasprintf("%lld", (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		*out = xasprintf("%.17g", json_real_value(v));
	} else {
		return assay_cfg_expected(&x->c, path, "a string or a number", v);
	}
	return 1;
}

/* The same, with a default for an absent key. */
static int text_or(struct cvs *x, const json_t *obj, const char *parent, const char *key,
		   const char *def, char **out)
{
	int rc = text(x, obj, parent, key, out);
	if (rc == 0)
		*out = xstrdup(def);
	return rc < 0 ? -1 : 0;
}

/* env[name] = value, as CVS's shell line would leave it (cvs_literal). */
void cvs_env_set(json_t *env, const char *name, const char *value)
{
	char *v = cvs_literal(value);
	json_object_set_new(env, name, json_string(v));
	free(v);
}

static void env_set(struct cvs *x, const char *name, const char *value)
{
	cvs_env_set(x->env, name, value);
}

/* A positive whole number written as text ("1", 8), as CVS's int() reads it. */
int cvs_count(struct assay_cfg *c, const char *path, const char *s, long long *out)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	if (!*s || *end || v < 1)
		return assay_cfg_fail(c, path, "expected a positive whole number, got \"%s\"", s);
	*out = v;
	return 0;
}

static const struct cvs_flags *family_flags(const char *tokenizer)
{
	for (size_t i = 0; i < ARRAY_SIZE(cvs_flags); i++)
		if (strcasestr(tokenizer, cvs_flags[i].family))
			return &cvs_flags[i];
	return NULL;
}

static const char *precision_env(const struct cvs_flags *f, const char *precision)
{
	for (size_t i = 0; f && i < ARRAY_SIZE(f->precision) && f->precision[i][0]; i++)
		if (!strcmp(f->precision[i][0], precision))
			return f->precision[i][1];
	return NULL;
}

/* Single-quote s for sh when it is not plain. */
void cvs_sh_word(struct sbuf *sb, const char *s)
{
	if (*s &&
	    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=@%+,-") ==
		strlen(s)) {
		sbuf_adds(sb, s);
		return;
	}
	sbuf_addch(sb, '\'');
	for (; *s; s++)
		if (*s == '\'')
			sbuf_adds(sb, "'\\''");
		else
			sbuf_addch(sb, *s);
	sbuf_addch(sb, '\'');
}

/* $.config: nodes, the environment CVS exports, and notes for the rest. */
static int import_config(struct cvs *x, const json_t *root, json_t *suite, long long *iters_out)
{
	const json_t *cfg = json_object_get(root, "config");
	if (!json_is_object(cfg))
		return assay_cfg_expected(&x->c, "$.config", "an object", cfg);
	char *s = NULL;
	long long nodes = 1;
	int rc = 0;
	if (text(x, cfg, "$.config", "nnodes", &s) < 0 ||
	    (s && cvs_count(&x->c, "$.config.nnodes", s, &nodes) < 0))
		rc = -1;
	free(s);
	if (rc)
		return -1;
	json_object_set_new(suite, "nodes", json_integer(nodes));
	json_object_set_new(suite, "gpus_per_node", json_integer(x->o->gpus_per_node));
	if (x->distributed) {
		char *n = xasprintf("%lld", nodes);
		env_set(x, "NNODES", n);
		free(n);
		json_object_set_new(x->env, "NODE_RANK", json_string("{NODE}"));
	}

	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)cfg, key, v)
	{
		char path[256];
		assay_json_path_key(path, sizeof(path), "$.config", key);
		if (key[0] == '_' || !strcmp(key, "nnodes") || !strcmp(key, "megatron_root"))
			continue;
		if (!strcmp(key, "training_iterations")) {
			if (text(x, cfg, "$.config", key, &s) < 0 ||
			    cvs_count(&x->c, path, s, iters_out) < 0) {
				free(s);
				return -1;
			}
			free(s);
			continue;
		}
		if (!strcmp(key, "hf_token_file")) {
			cvs_note(
			    x->im, path,
			    "assay reads no token files: set HF_TOKEN in assay's environment (the "
			    "suite names it in $.secrets)");
			continue;
		}
		if (!strcmp(key, "log_dir") || !strcmp(key, "data_cache_dir")) {
			if (text(x, cfg, "$.config", key, &s) < 0)
				return -1;
			env_set(x, !strcmp(key, "log_dir") ? "LOG_DIR" : "DATA_CACHE_PATH", s);
			free(s);
			continue;
		}
		bool done = false;
		for (size_t i = 0; !done && i < ARRAY_SIZE(cvs_network); i++) {
			if (strcmp(key, cvs_network[i][0]))
				continue;
			done = true;
			if (!x->distributed) {
				cvs_note(x->im, path,
					 "CVS sets %s for megatron_distributed runs only",
					 cvs_network[i][1]);
				break;
			}
			if (text(x, cfg, "$.config", key, &s) < 0)
				return -1;
			env_set(x, cvs_network[i][1], s);
			free(s);
		}
		for (size_t i = 0; !done && i < ARRAY_SIZE(cvs_config_dropped); i++)
			if (!strcmp(key, cvs_config_dropped[i][0])) {
				cvs_note(x->im, path, "%s", cvs_config_dropped[i][1]);
				done = true;
			}
		if (!done)
			cvs_note(x->im, path, "not a key CVS's Megatron library reads");
	}
	return 0;
}

/* Notes for the keys of $.model_params the suite has no place for. */
static void model_notes(struct cvs *x, const json_t *mp)
{
	static const char *const known[] = {"model_name",         "tokenizer_model",
					    "model_size",         "sequence_length",
					    "recompute",          "fsdp",
					    "tensor_parallelism", "pipeline_parallelism",
					    "precision",          "micro_batch_size",
					    "global_batch_size",  NULL};
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)mp, key, v)
	{
		char path[256];
		assay_json_path_key(path, sizeof(path), "$.model_params", key);
		bool found = false;
		for (size_t i = 0; known[i]; i++)
			found = found || !strcmp(known[i], key);
		if (key[0] == '_')
			continue;
		if (!found)
			cvs_note(x->im, path, "not a key CVS's Megatron library reads");
		else if (!strcmp(key, "micro_batch_size") || !strcmp(key, "global_batch_size"))
			cvs_note(x->im, path, "every combination sets its own");
	}
}

/* $.model_params: the training script's variables (CVS's defaults where
 * absent); *script is the script under megatron_root. */
static int import_model(struct cvs *x, const json_t *root, json_t *suite, long long iters,
			const char **script, char **precision, long long *seq_len)
{
	const json_t *mp = json_object_get(root, "model_params");
	if (!json_is_object(mp))
		return assay_cfg_expected(&x->c, "$.model_params", "an object", mp);
	model_notes(x, mp);
	char *name = NULL, *tok = NULL, *size = NULL, *seq = NULL, *rec = NULL, *fsdp = NULL,
	     *tp = NULL, *pp = NULL;
	int rc = -1;
	if (text_or(x, mp, "$.model_params", "model_name", "", &name) < 0 ||
	    text_or(x, mp, "$.model_params", "tokenizer_model", "meta-llama/Llama-3.1-70B", &tok) <
		0 ||
	    text_or(x, mp, "$.model_params", "model_size", "70", &size) < 0 ||
	    text_or(x, mp, "$.model_params", "sequence_length", "8192", &seq) < 0 ||
	    text_or(x, mp, "$.model_params", "recompute", "0", &rec) < 0 ||
	    text_or(x, mp, "$.model_params", "fsdp", "0", &fsdp) < 0 ||
	    text_or(x, mp, "$.model_params", "tensor_parallelism", "1", &tp) < 0 ||
	    text_or(x, mp, "$.model_params", "pipeline_parallelism", "1", &pp) < 0 ||
	    text_or(x, mp, "$.model_params", "precision", "TE_FP8", precision) < 0 ||
	    cvs_count(&x->c, "$.model_params.sequence_length", seq, seq_len) < 0)
		goto out;
	*script = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(cvs_scripts) && !*script; i++)
		if (strcasestr(tok, cvs_scripts[i].family))
			*script = cvs_scripts[i].script;
	if (!*script) {
		struct sbuf sb = SBUF_INIT;
		for (size_t i = 0; i < ARRAY_SIZE(cvs_scripts); i++)
			sbuf_addf(&sb, "%s%s", i ? ", " : "", cvs_scripts[i].family);
		assay_cfg_fail(&x->c, "$.model_params.tokenizer_model",
			       "\"%s\": no Megatron-LM training script for this model family (CVS "
			       "knows %s)",
			       tok, sbuf_str(&sb));
		sbuf_release(&sb);
		goto out;
	}
	bool mixtral = strcasestr(tok, "mixtral");
	bool train_iters = mixtral || strcasestr(tok, "deepseek") || strcasestr(tok, "qwen3");
	const struct cvs_flags *f = family_flags(tok);
	char *n = xasprintf("%lld", iters);
	env_set(x, "TOKENIZER_MODEL", tok);
	env_set(x, "RECOMPUTE", rec);
	env_set(x, mixtral ? "SEQLEN" : "SEQ_LENGTH", seq);
	json_object_set_new(x->env, f ? f->mbs : "MBS", json_string("{MBS}"));
	json_object_set_new(x->env, f ? f->gbs : "GBS", json_string("{GBS}"));
	env_set(x, mixtral ? "TP_SIZE" : "TP", tp);
	env_set(x, mixtral ? "PP_SIZE" : "PP", pp);
	env_set(x, "FSDP", fsdp);
	env_set(x, "MODEL_SIZE", size);
	env_set(x, train_iters ? "TRAIN_ITERS" : "TOTAL_ITERS", n);
	free(n);
	x->tokenizer = xstrdup(tok);
	json_t *ctx = json_object();
	if (*name) {
		char *w = cvs_literal(name);
		json_object_set_new(ctx, "workload", json_string(w));
		free(w);
	}
	json_object_set_new(suite, "context", ctx);
	rc = 0;
out:
	free(name);
	free(tok);
	free(size);
	free(seq);
	free(rec);
	free(fsdp);
	free(tp);
	free(pp);
	return rc;
}

/* One entry of $.sweep.combinations as a combo: MBS, GBS, PRECISION and the
 * precision's variables; notes for its other keys (once for all entries). */
static int import_combo(struct cvs *x, const char *key, const json_t *v, const struct cvs_flags *f,
			const char *def_precision, json_t *combos)
{
	char path[256], kpath[300];
	assay_json_path_key(path, sizeof(path), "$.sweep.combinations", key);
	if (!json_is_object(v))
		return assay_cfg_expected(&x->c, path, "an object", v);
	char *mbs = NULL, *gbs = NULL, *prec = NULL;
	int rc = 0;
	if (text(x, v, path, "micro_batch_size", &mbs) < 0 ||
	    text(x, v, path, "global_batch_size", &gbs) < 0 ||
	    text(x, v, path, "precision", &prec) < 0)
		rc = -1;
	else if (!mbs || !gbs)
		rc = assay_cfg_fail(&x->c, path, "%s is required",
				    !mbs ? "micro_batch_size" : "global_batch_size");
	if (rc == 0) {
		if (!prec || !*prec) {
			free(prec);
			prec = xstrdup(def_precision);
		}
		const char *penv = precision_env(f, prec);
		if (!penv) {
			snprintf(kpath, sizeof(kpath), "%s.precision", path);
			cvs_note(
			    x->im, kpath,
			    "\"%s\" has no variables for this model family; CVS then sets %s, and "
			    "so does the suite",
			    prec, CVS_DEFAULT_PRECISION_ENV);
			penv = CVS_DEFAULT_PRECISION_ENV;
		}
		char *lm = cvs_literal(mbs), *lg = cvs_literal(gbs), *lp = cvs_literal(prec);
		json_object_set_new(combos, key,
				    json_pack("{s:s, s:s, s:s, s:s}", "MBS", lm, "GBS", lg,
					      "PRECISION", lp, "PRECISION_ENV", penv));
		free(lm);
		free(lg);
		free(lp);
	}
	free(mbs);
	free(gbs);
	free(prec);
	const char *k;
	const json_t *kv;
	json_object_foreach((json_t *)v, k, kv)
	{
		if (rc || k[0] == '_' || !strcmp(k, "micro_batch_size") ||
		    !strcmp(k, "global_batch_size") || !strcmp(k, "precision"))
			continue;
		snprintf(kpath, sizeof(kpath), "$.sweep.combinations.*.%s", k);
		if (!strcmp(k, "name"))
			cvs_note(x->im, kpath, "a combination's case id is its key");
		else if (!strcmp(k, "result_dict"))
			cvs_note(
			    x->im, kpath,
			    "limits come from the threshold file (CVS's loader refuses this key)");
		else
			cvs_note(x->im, kpath, "CVS's loader refuses this key");
	}
	return rc;
}

/* $.sweep.runs: the combinations run, in order (absent: all of them);
 * the Megatron and TorchTitan importers' (suite_int.h). */
int cvs_import_runs(struct assay_cfg *c, const json_t *sw, const json_t *combos, json_t *suite)
{
	const json_t *runs = json_object_get(sw, "runs"), *v;
	const char *key;
	json_t *rl = json_array();
	json_object_set_new(suite, "runs", rl);
	if (!runs) {
		json_object_foreach((json_t *)combos, key, v)
		    json_array_append_new(rl, json_string(key));
		return 0;
	}
	if (!json_is_array(runs) || !json_array_size(runs))
		return assay_cfg_expected(c, "$.sweep.runs",
					  "a non-empty array of combination names", runs);
	size_t i;
	json_array_foreach(runs, i, v)
	{
		char path[256];
		assay_json_path_index(path, sizeof(path), "$.sweep.runs", i);
		if (!json_is_string(v))
			return assay_cfg_expected(c, path, "a combination name", v);
		const char *r = json_string_value(v);
		if (!json_object_get(combos, r))
			return assay_cfg_fail(c, path,
					      "\"%s\" names no entry of $.sweep.combinations", r);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(json_string_value(json_array_get(runs, j)), r))
				return assay_cfg_fail(c, path, "\"%s\" is listed twice", r);
		json_array_append_new(rl, json_string(r));
	}
	return 0;
}

/* $.sweep: combos and runs. */
static int import_sweep(struct cvs *x, const json_t *root, const char *def_precision, json_t *suite)
{
	const json_t *sw = json_object_get(root, "sweep");
	const json_t *combos = json_object_get(sw, "combinations");
	if (!json_is_object(sw))
		return assay_cfg_expected(&x->c, "$.sweep", "an object", sw);
	if (!json_is_object(combos) || !json_object_size(combos))
		return assay_cfg_expected(&x->c, "$.sweep.combinations", "a non-empty object",
					  combos);
	const struct cvs_flags *f = family_flags(x->tokenizer);
	json_t *out = json_object();
	json_object_set_new(suite, "combos", out);
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)combos, key, v)
	{
		if (import_combo(x, key, v, f, def_precision, out) < 0)
			return -1;
	}
	return cvs_import_runs(&x->c, sw, combos, suite);
}

/* The threshold file: threshold_json next to the config, or the one
 * *threshold.json there (CVS's substitute_config). *out NULL: none. */
static int threshold_path(struct cvs *x, const json_t *root, char **out)
{
	char *t = NULL;
	*out = NULL;
	if (text(x, root, "$", "threshold_json", &t) < 0)
		return -1;
	if (t && *t) {
		*out = (t[0] == '/' || !*x->dir) ? xstrdup(t) : xasprintf("%s/%s", x->dir, t);
		free(t);
		if (access(*out, R_OK))
			return assay_cfg_fail(
			    &x->c, "$.threshold_json",
			    "%s cannot be read (CVS resolves it next to the config)", *out);
		return 0;
	}
	free(t);
	DIR *d = opendir(*x->dir ? x->dir : ".");
	struct dirent *de;
	int n = 0;
	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name), sl = strlen("threshold.json");
		if (len < sl || strcmp(de->d_name + len - sl, "threshold.json"))
			continue;
		if (n++) {
			free(*out);
			*out = NULL;
			continue;
		}
		*out = *x->dir ? xasprintf("%s/%s", x->dir, de->d_name) : xstrdup(de->d_name);
	}
	if (d)
		closedir(d);
	if (n > 1)
		return assay_cfg_fail(
		    &x->c, "$.threshold_json",
		    "not set, and %d *threshold.json files lie next to the config: "
		    "name one",
		    n);
	return 0;
}

int cvs_threshold_file(const json_t *root, const char *config_path,
		       const struct assay_import_opts *o, struct assay_error *e, char **out)
{
	char *dir = xstrdup(config_path), *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	else
		dir[0] = '\0';
	struct cvs x = {.c = {config_path, e}, .o = o, .dir = dir};
	int rc = threshold_path(&x, root, out);
	free(dir);
	return rc;
}

static int import_loss_curve(struct cvs *x, const json_t *root, json_t *gates)
{
	const json_t *lc = json_object_get(root, "loss_curve");
	if (lc && !json_is_object(lc))
		return assay_cfg_expected(&x->c, "$.loss_curve", "an object", lc);
	/* CVS's LossCurveConfig defaults (training_config_loader.py): its loss
	 * curve is judged when the config has none too. */
	json_t *g = json_pack("{s:i, s:[i, i, i, i], s:f}", "sample_every", 10, "milestones", 100,
			      500, 1000, 5000, "max_slope", 0.0);
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)lc, key, v)
	{
		char path[256];
		assay_json_path_key(path, sizeof(path), "$.loss_curve", key);
		if (key[0] == '_')
			continue;
		if (!strcmp(key, "sample_every") || !strcmp(key, "max_slope") ||
		    !strcmp(key, "enforce"))
			json_object_set(g, key, v);
		else if (!strcmp(key, "milestone_steps"))
			json_object_set(g, "milestones", v);
		else
			cvs_note(x->im, path, "not a key of CVS's loss-curve settings");
	}
	json_object_set_new(gates, "loss_curve", g);
	return 0;
}

/* The top-level keys and what becomes of them. */
static int import_top(struct cvs *x, const json_t *root, const char **image)
{
	static const char *const used[] = {
	    "schema_version", "framework",  "gpu_arch", "enforce_thresholds",
	    "threshold_json", "loss_curve", "config",   "model_params",
	    "container",      "sweep",      NULL};
	cvs_note_unknown(x->im, root, used, "Megatron",
			 "assay's scaling gate compares with a baseline combination of the same "
			 "run ($.gates.scaling, docs/suite.md)");
	const json_t *ct = json_object_get(root, "container");
	*image = NULL;
	if (ct) {
		const json_t *im = json_object_get(ct, "image");
		if (!json_is_object(ct))
			return assay_cfg_expected(&x->c, "$.container", "an object", ct);
		if (!json_is_string(im))
			return assay_cfg_expected(&x->c, "$.container.image", "a string", im);
		*image = json_string_value(im);
		if (strstr(*image, "<changeme>"))
			cvs_note(
			    x->im, "$.container",
			    "the image was never filled in (\"<changeme>\"); fill it in and import "
			    "again to get the suite's container block");
	}
	return 0;
}

/* CVS's docker arguments as the suite's container block (docs/containers.md):
 * volumes become mounts, network/ipc/privileged become options, the ROCm
 * device nodes the "amd" preset. What has no counterpart is noted. */
static void import_container(struct cvs *x, const json_t *ct, const char *image, json_t *suite)
{
	if (!image || strstr(image, "<changeme>"))
		return;
	json_t *c = json_object(), *mounts = json_array(), *options = json_array();
	const json_t *rt = json_object_get(ct, "runtime");
	const char *name = json_string_value(json_object_get(rt, "name"));
	json_object_set_new(c, "runtime",
			    json_string(name && !strcmp(name, "podman") ? "podman" : "docker"));
	if (name && strcmp(name, "docker") && strcmp(name, "podman"))
		cvs_note(x->im, "$.container.runtime.name", "runtime %s: the suite uses docker",
			 name);
	json_object_set_new(c, "image", json_string(image));
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)json_object_get(rt, "args"), key, v)
	{
		char path[256];
		assay_json_path_key(path, sizeof(path), "$.container.runtime.args", key);
		if ((!strcmp(key, "network") || !strcmp(key, "ipc")) && json_is_string(v)) {
			if (!strcmp(json_string_value(v), "host"))
				continue; /* the "amd" preset passes --network=host --ipc=host */
			char *o = xasprintf("--%s=%s", key, json_string_value(v));
			json_array_append_new(options, json_string(o));
			free(o);
		} else if (!strcmp(key, "privileged") && json_is_true(v)) {
			json_array_append_new(options, json_string("--privileged"));
		} else if (!strcmp(key, "volumes") && json_is_array(v)) {
			for (size_t i = 0; i < json_array_size(v); i++) {
				const char *m = json_string_value(json_array_get(v, i));
				char *u = m && strchr(m, ':') ? subst_user(x, m) : NULL;
				if (u)
					json_array_append_new(mounts, json_string(u));
				else
					cvs_note(x->im, path,
						 "a volume that is not host:container");
				free(u);
			}
		} else if (!strcmp(key, "devices")) {
			/* The ROCm device nodes: the "amd" preset passes them with the
			 * groups and options ROCm containers need. */
		} else {
			cvs_note(x->im, path,
				 "no counterpart in the container block; add it to "
				 "$.container.options if it matters");
		}
	}
	json_object_set_new(c, "devices", json_string("amd"));
	if (json_array_size(mounts))
		json_object_set(c, "mounts", mounts);
	if (json_array_size(options))
		json_object_set(c, "options", options);
	json_decref(mounts);
	json_decref(options);
	if (json_object_get(ct, "name") || json_object_get(ct, "lifetime"))
		cvs_note(
		    x->im, "$.container",
		    "name and lifetime: assay runs one container per case, named after the run "
		    "and the case");
	json_object_set_new(suite, "container", c);
}

void cvs_import_container(const json_t *ct, const char *config_path,
			  const struct assay_import_opts *o, struct assay_import *im, json_t *suite)
{
	struct cvs x = {.c = {config_path, NULL}, .o = o, .im = im, .dir = ""};
	if (json_is_object(ct))
		import_container(&x, ct, json_string_value(json_object_get(ct, "image")), suite);
}

static void describe(json_t *suite, const char *base, const char *framework, const char *arch,
		     const char *image)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_addf(&sb, "ROCm/cvs %s (%s, %s) as an assay suite, written by `assay import cvs`.",
		  base, framework, arch ? arch : "gpu_arch not set");
	if (image && strstr(image, "<changeme>"))
		sbuf_adds(&sb, " CVS runs it in a container whose image the config leaves unset "
			       "(container.image): fill it in and import again, or run the suite "
			       "inside that image.");
	char *d = cvs_literal(sbuf_str(&sb));
	json_object_set_new(suite, "description", json_string(d));
	free(d);
	sbuf_release(&sb);
}

void assay_import_init(struct assay_import *im)
{
	im->suite = NULL;
	im->thresholds = NULL;
	im->notes = (struct strlist)STRLIST_INIT;
}

void assay_import_release(struct assay_import *im)
{
	json_decref(im->suite);
	json_decref(im->thresholds);
	strlist_clear(&im->notes);
	assay_import_init(im);
}

static int import_head(struct cvs *x, const json_t *root, const char **framework, bool *enforce)
{
	static const char *const frameworks[] = {"megatron_single", "megatron_distributed", NULL};
	long long version;
	*enforce = true;
	if (!json_is_object(root))
		return assay_cfg_expected(&x->c, "$", "a CVS training configuration (an object)",
					  root);
	if (!json_object_get(root, "schema_version"))
		return assay_cfg_fail(
		    &x->c, "$",
		    "no schema_version: not a CVS training configuration with a "
		    "sweep (schema 1, as in cvs/input/config_file/training/megatron)");
	if (assay_cfg_int(&x->c, root, "$", "schema_version", ASSAY_CFG_REQUIRED, 1, 1, &version) <
		0 ||
	    assay_cfg_enum(&x->c, root, "$", "framework", ASSAY_CFG_REQUIRED, frameworks,
			   framework) < 0 ||
	    assay_cfg_bool(&x->c, root, "$", "enforce_thresholds", ASSAY_CFG_OPTIONAL, enforce) < 0)
		return -1;
	x->distributed = !strcmp(*framework, "megatron_distributed");
	return 0;
}

assay_err assay_import_cvs(const char *config_path, const struct assay_import_opts *o,
			   struct assay_import *out, struct assay_error *e)
{
	assay_error_clear(e);
	assay_import_init(out);
	json_t *root = assay_json_load_file(config_path, e);
	if (!root)
		return e->code;
	assay_err rc = assay_import_cvs_json(root, config_path, o, out, e);
	json_decref(root);
	return rc;
}

/* What the parts above gathered, for the command and the gates. */
struct cvs_parts {
	const char *framework, *image, *script, *arch;
	char *precision, *root_dir, *thresholds;
	long long iters, seq_len;
	bool enforce;
};

/* CVS's job command: cd megatron_root, the precision's variables, the
 * script; the rest of its variables are $.env. */
static void import_command(struct cvs *x, const struct cvs_parts *p, json_t *suite)
{
	struct sbuf cmd = SBUF_INIT;
	char *rd = cvs_literal(p->root_dir);
	sbuf_adds(&cmd, "cd ");
	cvs_sh_word(&cmd, rd);
	sbuf_adds(&cmd, " && exec env {PRECISION_ENV} bash ");
	cvs_sh_word(&cmd, p->script);
	free(rd);
	json_object_set_new(suite, "argv", json_pack("[s, s, s]", "sh", "-c", sbuf_str(&cmd)));
	sbuf_release(&cmd);
	json_object_set_new(x->env, "MOCK_DATA", json_string("1"));
	json_object_set_new(x->env, "EXP_NAME", json_string("megatron_training"));
	json_object_set_new(x->env, "TORCH_NCCL_ASYNC_ERROR_HANDLING", json_string("0"));
	json_object_set(suite, "env", x->env);
	json_object_set_new(suite, "secrets", json_pack("[s]", "HF_TOKEN"));
	json_object_set_new(suite, "parser", json_string("megatron"));
	/* CVS drops the first iteration from its means (skip_warmup). */
	json_object_set_new(
	    suite, "training",
	    json_pack("{s:I, s:s}", "seq_len", (json_int_t)p->seq_len, "warmup", "1"));
	if (x->distributed && !x->o->cluster_file)
		cvs_note(
		    x->im, "$.framework",
		    "megatron_distributed: the suite starts one command on this host (the local "
		    "launcher); give it a Slurm launcher for %lld nodes (docs/slurm.md)",
		    (long long)json_integer_value(json_object_get(suite, "nodes")));
}

/* $.gates: the threshold file (when enforced), then the loss curve. */
static void import_gates(struct cvs *x, const struct cvs_parts *p, json_t *loss_curve,
			 json_t *suite)
{
	json_t *gates = json_object();
	if (p->thresholds && p->enforce) {
		char *t = cvs_literal(p->thresholds);
		json_object_set_new(gates, "thresholds", json_string(t));
		free(t);
	} else if (p->thresholds) {
		cvs_note(
		    x->im, "$.enforce_thresholds",
		    "false (record only): the suite names no thresholds file, and every row is "
		    "stored unjudged");
	}
	if (json_object_size(loss_curve))
		json_object_set(gates, "loss_curve", json_object_get(loss_curve, "loss_curve"));
	if (json_object_size(gates))
		json_object_set(suite, "gates", gates);
	json_decref(gates);
}

/* The suite with its keys in the order a suite is written by hand. */
json_t *cvs_ordered(const json_t *suite)
{
	static const char *const order[] = {
	    "kind",  "name",          "description", "combos", "runs",     "container",
	    "argv",  "env",           "secrets",     "parser", "results",  "context",
	    "nodes", "gpus_per_node", "training",    "gates",  "launcher", NULL};
	json_t *out = json_object();
	for (size_t i = 0; order[i]; i++)
		if (json_object_get(suite, order[i]))
			json_object_set(out, order[i], json_object_get(suite, order[i]));
	return out;
}

/* A command suite named for the config's file name without ".json". */
void cvs_suite_name(json_t *suite, const char *base)
{
	char *name = xstrdup(base);
	size_t n = strlen(name);
	if (n > 5 && !strcmp(name + n - 5, ".json"))
		name[n - 5] = '\0';
	char *lname = cvs_literal(name);
	json_object_set_new(suite, "kind", json_string("command"));
	json_object_set_new(suite, "name", json_string(lname));
	free(lname);
	free(name);
}

assay_err assay_import_cvs_json(const json_t *root, const char *config_path,
				const struct assay_import_opts *o, struct assay_import *out,
				struct assay_error *e)
{
	assay_error_clear(e);
	assay_import_init(out);
	if (json_is_object(root) && !json_object_get(root, "schema_version") &&
	    json_object_get(root, "model_params"))
		return cvs_import_legacy(root, config_path, o, out, e);
	const char *fw = json_string_value(json_object_get(root, "framework"));
	if (json_is_object(root) && fw && !strcmp(fw, "vllm")) /* import_cvs_vllm.c */
		return cvs_import_vllm(root, config_path, o, out, e);
	if (json_is_object(root) && !json_object_get(root, "schema_version") &&
	    json_object_get(root, "benchmark_params")) /* import_cvs_sglang.c */
		return cvs_import_sglang(root, config_path, o, out, e);
	if (json_is_object(root) && fw && !strcmp(fw, "jaxmaxtext")) /* import_cvs_maxtext.c */
		return cvs_import_maxtext(root, config_path, o, out, e);
	if (json_is_object(root) && fw && !strncmp(fw, "torchtitan_", 11))
		return cvs_import_torchtitan(root, config_path, o, out, e); /* *_torchtitan.c */
	char *dir = xstrdup(config_path), *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	else
		dir[0] = '\0';
	const char *base = strrchr(config_path, '/') ? strrchr(config_path, '/') + 1 : config_path;
	struct cvs x = {.c = {config_path, e}, .o = o, .im = out, .dir = dir, .env = json_object()};
	struct cvs_parts p = {.iters = 10};
	json_t *suite = json_object(), *lc = json_object();
	cvs_suite_name(suite, base);
	int rc = import_head(&x, root, &p.framework, &p.enforce);
	if (!rc && json_is_string(json_object_get(root, "gpu_arch")))
		p.arch = json_string_value(json_object_get(root, "gpu_arch"));
	if (!rc)
		rc = import_top(&x, root, &p.image);
	if (!rc)
		rc = import_config(&x, root, suite, &p.iters);
	if (!rc)
		rc = text_or(&x, json_object_get(root, "config"), "$.config", "megatron_root",
			     "/workspace/Megatron-LM", &p.root_dir);
	if (!rc)
		rc = import_model(&x, root, suite, p.iters, &p.script, &p.precision, &p.seq_len);
	if (!rc)
		rc = import_sweep(&x, root, p.precision, suite);
	if (!rc)
		rc = threshold_path(&x, root, &p.thresholds);
	if (!rc)
		rc = import_loss_curve(&x, root, lc);
	if (!rc) {
		describe(suite, base, p.framework, p.arch, p.image);
		import_container(&x, json_object_get(root, "container"), p.image, suite);
		import_command(&x, &p, suite);
		import_gates(&x, &p, lc, suite);
		if (o->cluster_file)
			rc = cvs_import_cluster(o->cluster_file, suite, out, e);
	}
	if (!rc) {
		out->suite = cvs_ordered(suite);
	} else {
		strlist_clear(&out->notes);
	}
	free(p.precision);
	free(p.root_dir);
	free(p.thresholds);
	free(dir);
	json_decref(lc);
	json_decref(x.env);
	free(x.tokenizer);
	json_decref(suite);
	return rc ? (e->code ? e->code : ASSAY_USAGE) : ASSAY_OK;
}
