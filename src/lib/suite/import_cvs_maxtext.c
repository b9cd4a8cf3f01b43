/* `assay import cvs` for ROCm/cvs JAX/MaxText training configurations
 * (schema 1, framework "jaxmaxtext"; cvs/lib/training/jaxmaxtext at ROCm/cvs
 * dddd914): a command suite with one case per enabled sweep; its command
 * writes the env script and the MaxText YAML CVS writes for the sweep, picks
 * the first of train_script_paths the image ships (as CVS does) and runs it
 * as CVS's launcher does, its log where CVS keeps it, parsed by the maxtext
 * parser. A distributed config needs the CVS cluster file (--cluster): the
 * same command on each node through the ssh launcher, with the node's rank
 * and the JAX coordinator as CVS's per-node launcher scripts export them. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "assay/cfg.h"
#include "assay/import.h"
#include "assay/json.h"
#include "assay/launch.h"
#include "suite_int.h"

struct mt {
	struct assay_cfg c;
	const struct assay_import_opts *o;
	struct assay_import *im;
	const json_t *tr;      /* $.training */
	json_t *map;           /* user-id and paths.KEY -> text (CVS's substitution) */
	json_t *combos, *yaml; /* combo vars; YAML lines, NULL where a combo var */
	char *log_dir, *models_dir, *model_id;
	long long gpus, steps;
	bool dist;     /* training.distributed: one launcher per cluster node */
	size_t nodes;  /* the cluster file's nodes (CVS's len(orch.hosts)) */
	char *jd[4];   /* coordinator ip (resolved), port, the two timeouts */
	char *nccl[4]; /* the NCCL/GLOO values CVS exports, as mt_nccl names */
};

/* The nccl keys CVS exports for distributed runs (_write_env_script). */
static const char *const mt_nccl[4][2] = {{"ib_hca", "NCCL_IB_HCA"},
					  {"ib_hca_list", "NCCL_IB_HCA_LIST"},
					  {"socket_ifname", "NCCL_SOCKET_IFNAME"},
					  {"gloo_socket_ifname", "GLOO_SOCKET_IFNAME"}};

/* CVS's placeholder pass: {NAME} (letters, digits, _ . -) replaced where map
 * has NAME, left as written where it has not. */
static char *msub(const char *s, const json_t *map)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, "");
	while (*s) {
		const char *end = *s == '{' ? strchr(s, '}') : NULL;
		size_t n = end ? (size_t)(end - s - 1) : 0;
		if (n && strspn(s + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				       "0123456789_.-") == n) {
			char *name = xstrndup(s + 1, n);
			const char *v = json_string_value(json_object_get(map, name));
			free(name);
			if (v) {
				sbuf_adds(&sb, v);
				s = end + 1;
				continue;
			}
		}
		sbuf_addch(&sb, *s++);
	}
	return sbuf_detach(&sb, NULL);
}

/* $.paths: {user-id}, then paths referring to each other, as CVS resolves
 * them; x->map gets user-id and paths.KEY for the rest of the file. */
static int mt_paths(struct mt *x, const json_t *root)
{
	const json_t *paths = json_object_get(root, "paths"), *v;
	const char *key;
	if (!json_is_object(paths))
		return assay_cfg_expected(&x->c, "$.paths", "an object", paths);
	json_t *user = json_pack("{s:s}", "user-id", x->o->user), *p = json_object();
	json_object_foreach((json_t *)paths, key, v)
	{
		if (json_is_string(v)) {
			char *sv = msub(json_string_value(v), user);
			json_object_set_new(p, key, json_string(sv));
			free(sv);
		}
	}
	json_decref(user);
	for (size_t pass = 0; pass <= json_object_size(p); pass++) {
		bool changed = false;
		json_object_foreach(p, key, v)
		{
			char *s = msub(json_string_value(v), p);
			changed = changed || strcmp(s, json_string_value(v));
			json_object_set_new(p, key, json_string(s));
			free(s);
		}
		if (!changed)
			break;
	}
	x->map = json_pack("{s:s}", "user-id", x->o->user);
	json_object_foreach(p, key, v)
	{
		char *k = xasprintf("paths.%s", key);
		json_object_set(x->map, k, (json_t *)v);
		free(k);
	}
	json_decref(p);
	const char *ld = json_string_value(json_object_get(x->map, "paths.log_dir"));
	const char *md = json_string_value(json_object_get(x->map, "paths.models_dir"));
	if (!ld || !md)
		return assay_cfg_fail(&x->c, !ld ? "$.paths.log_dir" : "$.paths.models_dir",
				      "required (a string)");
	x->log_dir = msub(ld, x->map);
	x->models_dir = msub(md, x->map);
	if (json_object_get(paths, "hf_token_file"))
		cvs_note(
		    x->im, "$.paths.hf_token_file",
		    "assay reads no token files: set HF_TOKEN in assay's environment (the suite "
		    "names it in $.secrets); the env script the command writes leaves out CVS's "
		    "`export HF_TOKEN=` line");
	return 0;
}

/* A string at path, substituted; -1 on another type or "<changeme>". */
static int mstr(struct mt *x, const json_t *v, const char *path, char **out)
{
	*out = NULL;
	if (!json_is_string(v))
		return assay_cfg_expected(&x->c, path, "a string", v);
	if (strstr(json_string_value(v), "<changeme>"))
		return assay_cfg_fail(&x->c, path,
				      "\"<changeme>\" left in the file: fill it in (CVS refuses "
				      "the config too)");
	*out = msub(json_string_value(v), x->map);
	return 0;
}

/* A number as Python's str() writes it: the shortest text that reads back. */
static void py_float(struct sbuf *sb, double d)
{
	char buf[64];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	sbuf_adds(sb, buf);
	if (isfinite(d) && !strpbrk(buf, ".e"))
		sbuf_adds(sb, ".0");
}

/* One value as CVS's _write_maxtext_yaml writes it (f"{k}: {v}"). */
static int yaml_value(struct mt *x, const json_t *v, const char *path, bool in_list,
		      struct sbuf *sb)
{
	size_t i;
	const json_t *e;
	char *s;
	if (json_is_boolean(v))
		sbuf_adds(sb, json_is_true(v) ? (in_list ? "True" : "true")
					      : (in_list ? "False" : "false"));
	else if (json_is_integer(v))
		sbuf_addf(sb, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		py_float(sb, json_real_value(v));
	else if (json_is_null(v))
		sbuf_adds(sb, "None");
	else if (json_is_string(v)) {
		if (mstr(x, v, path, &s) < 0)
			return -1;
		if (in_list && strpbrk(s, "'\\"))
			return free(s), assay_cfg_fail(&x->c, path,
						       "a quote or backslash in a list item: "
						       "not imported");
		sbuf_addf(sb, in_list ? "'%s'" : "%s", !in_list && !*s ? "\"\"" : s);
		free(s);
	} else if (json_is_array(v) && !in_list) {
		sbuf_addch(sb, '[');
		json_array_foreach(v, i, e)
		{
			if (i)
				sbuf_adds(sb, ", ");
			if (yaml_value(x, e, path, true, sb) < 0)
				return -1;
		}
		sbuf_addch(sb, ']');
	} else
		return assay_cfg_expected(&x->c, path, "a string, number, boolean or list", v);
	return 0;
}

/* A sweep's tag: non-alphanumeric runs to "_" (CVS's _sanitize). */
static char *mt_tag(const char *name)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, "");
	for (const char *p = name; *p; p++) {
		bool alnum = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			     (*p >= '0' && *p <= '9');
		if (alnum)
			sbuf_addch(&sb, *p);
		else if (sb.len && sbuf_str(&sb)[sb.len - 1] != '_')
			sbuf_addch(&sb, '_');
	}
	while (sb.len && sbuf_str(&sb)[sb.len - 1] == '_')
		sb.len--, sb.buf[sb.len] = '\0';
	if (!sb.len)
		sbuf_adds(&sb, "default");
	return sbuf_detach(&sb, NULL);
}

/* Adds key: the file's value at tr.key, else def. */
static void set_or(json_t *m, const json_t *tr, const char *key, json_t *def)
{
	const json_t *v = json_object_get(tr, key);
	json_object_set_new(m, key, v ? json_incref((json_t *)v) : def);
	if (v)
		json_decref(def);
}

/* The YAML CVS writes for one sweep: base maxtext_config, the sweep's
 * overrides, then run_name, steps, enable_checkpointing,
 * base_output_directory and tokenizer_path; into vals, key -> value text
 * (run_name and base_output_directory "": the command writes them). */
static int sweep_yaml(struct mt *x, const json_t *sweep, json_t *vals)
{
	const json_t *mc = json_object_get(x->tr, "maxtext_config"), *v;
	const json_t *ov = json_object_get(sweep, "maxtext_overrides");
	json_t *m = json_is_object(mc) ? json_deep_copy(mc) : json_object();
	if (json_is_object(ov))
		json_object_update(m, (json_t *)ov);
	json_object_set_new(m, "run_name", json_string(""));
	set_or(m, x->tr, "steps", json_integer(30));
	set_or(m, x->tr, "enable_checkpointing", json_false());
	json_object_set_new(m, "base_output_directory", json_string(""));
	json_object_set(m, "tokenizer_path",
			json_object_get(json_object_get(x->tr, "tokenizer"), "tokenizer_path"));
	const char *key;
	json_object_foreach(m, key, v)
	{
		char path[256];
		struct sbuf val = SBUF_INIT;
		assay_json_path_key(path, sizeof(path),
				    json_object_get(ov, key)
					? "$.training.sweeps.*.maxtext_overrides"
					: "$.training.maxtext_config",
				    key);
		int rc = yaml_value(x, v, path, false, &val);
		if (!rc)
			json_object_set_new(vals, key, json_string(sbuf_str(&val)));
		sbuf_release(&val);
		if (rc) {
			json_decref(m);
			return -1;
		}
	}
	json_decref(m);
	return 0;
}

/* The sweeps CVS runs (enabled_sweeps): enabled_sweep_list's names in order,
 * else every sweep, else one implicit "default". */
static int mt_selected(struct mt *x, json_t *sel)
{
	const json_t *sw = json_object_get(x->tr, "sweeps"), *en, *v;
	size_t i;
	if (sw && !json_is_array(sw))
		return assay_cfg_expected(&x->c, "$.training.sweeps", "an array", sw);
	json_array_foreach(sw, i, v)
	{
		char path[256];
		assay_json_path_index(path, sizeof(path), "$.training.sweeps", i);
		if (!json_is_object(v) || !json_is_string(json_object_get(v, "name")))
			return assay_cfg_expected(&x->c, path, "an object with a string name", v);
	}
	if (!json_array_size(sw)) {
		json_array_append_new(sel, json_pack("{s:s}", "name", "default"));
		return 0;
	}
	en = json_object_get(x->tr, "enabled_sweep_list");
	if (!json_array_size(en)) {
		json_array_extend(sel, (json_t *)sw);
		return 0;
	}
	json_array_foreach(en, i, v)
	{
		char path[256];
		const json_t *found = NULL, *s;
		size_t j;
		assay_json_path_index(path, sizeof(path), "$.training.enabled_sweep_list", i);
		json_array_foreach(sw, j, s)
		{
			if (!found && json_equal(json_object_get(s, "name"), (json_t *)v))
				found = s;
		}
		if (found)
			json_array_append(sel, (json_t *)found);
		else
			cvs_note(x->im, path, "names no sweep: CVS warns and skips it");
	}
	if (!json_array_size(sel))
		return assay_cfg_fail(&x->c, "$.training.enabled_sweep_list",
				      "names no entry of $.training.sweeps: nothing would run");
	return 0;
}

/* A combo variable's name for a maxtext key: upper case, others to "_". */
static char *var_name(const char *key)
{
	char *n =
	    xasprintf("%s%s", !strcmp(key, "tag") || !strcmp(key, "precision") ? "MT_" : "", key);
	for (char *p = n; *p; p++)
		*p = (*p >= 'a' && *p <= 'z')                                 ? (char)(*p - 32)
		     : ((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')) ? *p
									      : '_';
	return n;
}

/* Do the sweeps' YAML values for key differ? */
static bool differs(const json_t *vals, const char *key)
{
	const json_t *a = json_object_get(json_array_get(vals, 0), key);
	for (size_t j = 1; j < json_array_size(vals); j++)
		if (!json_equal(json_object_get(json_array_get(vals, j), key), (json_t *)a))
			return true;
	return false;
}

/* The combos: TAG (CVS's folder and run name suffix), PRECISION from the
 * sweep's name (the rows' precision), and the YAML values that differ. */
static int mt_combos(struct mt *x, const json_t *sel, const json_t *vals, json_t *suite)
{
	json_t *runs = json_array(), *v;
	size_t i;
	json_object_set_new(suite, "combos", x->combos);
	json_object_set_new(suite, "runs", runs);
	x->combos = NULL;
	json_array_foreach(sel, i, v)
	{
		const char *name = json_string_value(json_object_get(v, "name")), *key, *p;
		json_t *c = json_object(), *fv;
		char *tag = mt_tag(name), *ln = xstrdup(name);
		json_object_set_new(c, "TAG", json_string(tag));
		p = strstr(name, "PRECISION=");
		if (p && (p == name || p[-1] == ',')) {
			char *pr = xstrndup(p + 10, strcspn(p + 10, ","));
			json_object_set_new(c, "PRECISION", json_string(pr));
			free(pr);
		}
		json_object_foreach(json_array_get(vals, 0), key, fv)
		{
			if (!differs(vals, key))
				continue;
			char *n = var_name(key);
			json_object_set(c, n, json_object_get(json_array_get(vals, i), key));
			free(n);
		}
		bool dup = json_object_get(json_object_get(suite, "combos"), ln) != NULL;
		json_object_set_new(json_object_get(suite, "combos"), ln, c);
		if (!dup)
			json_array_append_new(runs, json_string(ln));
		free(tag), free(ln);
		if (dup)
			return assay_cfg_fail(&x->c, "$.training.enabled_sweep_list",
					      "\"%s\" is listed twice", name);
	}
	return 0;
}

/* Do two sweeps' YAML values have the same keys? */
static bool same_keys(const json_t *a, const json_t *b)
{
	const char *key;
	const json_t *v;
	if (json_object_size(a) != json_object_size(b))
		return false;
	json_object_foreach((json_t *)a, key, v)
	{
		if (!json_object_get(b, key))
			return false;
	}
	return true;
}

/* One combo per selected sweep, keyed by its name (CVS's cell); the YAML
 * lines, with {VAR} where the sweeps' values differ. */
static int mt_sweeps(struct mt *x, json_t *suite)
{
	json_t *sel = json_array(), *vals = json_array(), *v;
	size_t i;
	int rc = mt_selected(x, sel);
	json_array_foreach(sel, i, v)
	{
		json_t *one = json_object();
		json_array_append_new(vals, one);
		if (!rc)
			rc = sweep_yaml(x, v, one);
		if (!rc && !same_keys(one, json_array_get(vals, 0)))
			rc = assay_cfg_fail(
			    &x->c, "$.training.sweeps",
			    "sweep \"%s\" sets maxtext keys the others do not: the "
			    "suite writes one YAML with the same keys for every sweep",
			    json_string_value(json_object_get(v, "name")));
	}
	x->combos = json_object();
	const char *key;
	if (rc)
		json_array_clear(vals);
	const json_t *first = json_array_get(vals, 0), *fv;
	json_object_foreach((json_t *)first, key, fv)
	{
		bool same = !differs(vals, key);
		char *lk = cvs_literal(key), *n = var_name(key),
		     *lv = cvs_literal(json_string_value(fv));
		char *ld = cvs_literal(x->log_dir), *li = cvs_literal(x->model_id), *line;
		if (!strcmp(key, "run_name"))
			line = xasprintf("%s: jaxmaxtext_%s_{TAG}", lk, li);
		else if (!strcmp(key, "base_output_directory"))
			line = xasprintf("%s: %s/jaxmaxtext/{TAG}", lk, ld);
		else
			line = same ? xasprintf("%s: %s", lk, lv) : xasprintf("%s: {%s}", lk, n);
		json_array_append_new(x->yaml, json_string(line));
		for (size_t j = 0; !same && j < json_array_size(vals); j++) {
			const char *t =
			    json_string_value(json_object_get(json_array_get(vals, j), key));
			if (!rc && strchr(t, '\''))
				rc = assay_cfg_fail(
				    &x->c, "$.training.sweeps",
				    "%s differs between sweeps and holds a quote: not "
				    "imported",
				    key);
		}
		free(lk), free(n), free(lv), free(ld), free(li), free(line);
	}
	if (!rc)
		rc = mt_combos(x, sel, vals, suite);
	json_decref(sel);
	json_decref(vals);
	return rc;
}

/* The env script CVS writes (_write_env_script), less its HF_TOKEN line:
 * one printf argument a line. */
static int mt_env(struct mt *x, struct sbuf *sb)
{
	const json_t *env = json_object_get(x->tr, "env_vars"), *xla, *v;
	const char *key;
	struct sbuf l = SBUF_INIT;
	sbuf_adds(&l, "export HF_HOME=");
	cvs_sh_word(&l, x->models_dir);
	sbuf_adds(&l, "\nexport LD_LIBRARY_PATH=/opt/rocm/lib:$LD_LIBRARY_PATH");
	if (env && !json_is_object(env))
		return sbuf_release(&l),
		       assay_cfg_expected(&x->c, "$.training.env_vars", "an object", env);
	json_object_foreach((json_t *)env, key, v)
	{
		char path[256], *s;
		assay_json_path_key(path, sizeof(path), "$.training.env_vars", key);
		if (!*key ||
		    strspn(key,
			   "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") !=
			strlen(key) ||
		    (*key >= '0' && *key <= '9'))
			return sbuf_release(&l), assay_cfg_fail(&x->c, path, "not a variable name");
		if (mstr(x, v, path, &s) < 0)
			return sbuf_release(&l), -1;
		sbuf_addf(&l, "\nexport %s=", key);
		cvs_sh_word(&l, s);
		free(s);
	}
	xla = json_object_get(x->tr, "xla_flags");
	if (json_object_size(xla)) {
		bool first = true;
		sbuf_adds(&l, "\nexport XLA_FLAGS=\"");
		json_object_foreach((json_t *)xla, key, v)
		{
			char path[256], *s;
			assay_json_path_key(path, sizeof(path), "$.training.xla_flags", key);
			if (mstr(x, v, path, &s) < 0)
				return sbuf_release(&l), -1;
			sbuf_addf(&l, "%s--%s=%s", first ? "" : " ", key, s);
			first = false;
			free(s);
		}
		sbuf_addch(&l, '"');
	}
	for (size_t i = 0; x->dist && i < ARRAY_SIZE(mt_nccl); i++)
		if (*x->nccl[i]) {
			sbuf_addf(&l, "\nexport %s=", mt_nccl[i][1]);
			cvs_sh_word(&l, x->nccl[i]);
		}
	if (!x->dist)
		sbuf_adds(&l, "\nexport NCCL_IB_DISABLE=1\nexport NCCL_SHM_DISABLE=0\nexport "
			      "NCCL_P2P_DISABLE=0");
	char *lit = cvs_literal(sbuf_str(&l)), *save = NULL;
	for (char *line = strtok_r(lit, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		sbuf_addch(sb, ' ');
		cvs_sh_word(sb, line);
	}
	free(lit);
	sbuf_release(&l);
	return 0;
}

/* Text taken literally (placeholder braces doubled). */
static void lit(struct sbuf *sb, const char *s)
{
	char *l = cvs_literal(s);
	sbuf_adds(sb, l);
	free(l);
}

/* The train script CVS resolves (_resolve_train_script): train_script_paths
 * (CVS's two by default), then train_script when not among them; the
 * command runs the first the image ships. */
static int mt_scripts(struct mt *x, struct sbuf *sb)
{
	static const char *const defs[] = {
	    "/workspace/maxtext/src/maxtext/trainers/pre_train/train.py",
	    "/workspace/maxtext/src/MaxText/train.py"};
	const json_t *tp = json_object_get(x->tr, "train_script_paths"), *v;
	json_t *c = json_array();
	size_t i;
	if (tp && !json_is_array(tp))
		return json_decref(c),
		       assay_cfg_expected(&x->c, "$.training.train_script_paths", "an array", tp);
	if (!tp)
		for (i = 0; i < ARRAY_SIZE(defs); i++)
			json_array_append_new(c, json_string(defs[i]));
	json_array_foreach(tp, i, v)
	{
		char path[256], *s;
		assay_json_path_index(path, sizeof(path), "$.training.train_script_paths", i);
		if (mstr(x, v, path, &s) < 0)
			return json_decref(c), -1;
		json_array_append_new(c, json_string(s));
		free(s);
	}
	const json_t *one = json_object_get(x->tr, "train_script");
	char *single = NULL;
	if (one && mstr(x, one, "$.training.train_script", &single) < 0)
		return json_decref(c), -1;
	json_t *js = json_string(single ? single : defs[1]);
	bool have = false;
	json_array_foreach(c, i, v) have = have || json_equal(v, js);
	if (!have)
		json_array_append(c, js);
	json_decref(js), free(single);
	struct sbuf names = SBUF_INIT;
	sbuf_adds(sb, "t= && for s in");
	json_array_foreach(c, i, v)
	{
		char *l = cvs_literal(json_string_value(v));
		sbuf_addch(sb, ' ');
		cvs_sh_word(sb, l);
		sbuf_addf(&names, "%s%s", i ? " " : "", l);
		free(l);
	}
	sbuf_adds(
	    sb,
	    "; do if [ -f \"$s\" ]; then t=$s; break; fi; done && if [ -z \"$t\" ]; then echo ");
	char *msg = xasprintf("none of train_script_paths is in the image: %s", sbuf_str(&names));
	cvs_sh_word(sb, msg);
	sbuf_adds(sb, " >&2; exit 2; fi");
	free(msg), sbuf_release(&names), json_decref(c);
	return 0;
}

/* The JAX variables CVS's launcher script exports: its single-node ones,
 * or (distributed) the coordinator, the node count and the node's rank. */
static void mt_jax(const struct mt *x, struct sbuf *sb)
{
	static const char *const names[] = {"JAX_COORDINATOR_IP", "JAX_COORDINATOR_PORT",
					    "JAX_DISTRIBUTED_INITIALIZATION_TIMEOUT_SECONDS",
					    "JAX_DISTRIBUTED_HEARTBEAT_TIMEOUT_SECONDS"};
	if (!x->dist) {
		sbuf_adds(sb, " && export JAX_COORDINATOR_IP=localhost JAX_COORDINATOR_PORT=12346 "
			      "NNODES=1 NODE_RANK=0 JAX_PROCESS_INDEX=0");
		return;
	}
	sbuf_adds(sb, " && export");
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *l = cvs_literal(x->jd[i]);
		sbuf_addf(sb, " %s=", names[i]);
		cvs_sh_word(sb, l);
		free(l);
		if (i == 1)
			sbuf_addf(sb, " NNODES=%zu NODE_RANK=\"$r\" JAX_PROCESS_INDEX=\"$r\"",
				  x->nodes);
	}
}

/* argv, secrets, results: what CVS's launcher script does, in one sh -c
 * (distributed: on each node, its rank r the ssh launcher's NODE_RANK). */
static int mt_command(struct mt *x, json_t *suite)
{
	struct sbuf sb = SBUF_INIT, o = SBUF_INIT;
	const char *node = x->dist ? "$r" : "0";
	lit(&sb, x->dist ? "r=$NODE_RANK; " : "");
	lit(&sb, "u=$(id -un 2>/dev/null); d=/tmp/${u:-cvs}/jax; o=");
	lit(&o, x->log_dir);
	sbuf_adds(&o, "/jaxmaxtext/{TAG}");
	cvs_sh_word(&sb, sbuf_str(&o));
	sbuf_addf(&sb, "; mkdir -p \"$d\" \"$o/out-node%s\" && printf '%%s\\n'", node);
	int rc = mt_env(x, &sb);
	sbuf_adds(&sb, " > \"$d/maxtext_env.sh\" && printf '%s\\n'");
	size_t i;
	const json_t *v;
	json_array_foreach(x->yaml, i, v)
	{
		sbuf_addch(&sb, ' ');
		cvs_sh_word(&sb, json_string_value(v));
	}
	sbuf_adds(&sb, " > \"$d/maxtext_config.yml\" && ");
	if (!rc)
		rc = mt_scripts(x, &sb);
	sbuf_adds(&sb, " && . \"$d/maxtext_env.sh\"");
	mt_jax(x, &sb);
	sbuf_addf(&sb,
		  " && export PYTHONPATH=$PYTHONPATH:/workspace/maxtext/ && cd /workspace/maxtext "
		  "&& (python \"$t\" \"$d/maxtext_config.yml\" 2>&1; echo $? > \"$d/exit\") | "
		  "tee \"$o/out-node%s/training.log\"; exit \"$(cat \"$d/exit\")\"",
		  node);
	sbuf_adds(&o, "/out-node0/training.log");
	json_object_set_new(suite, "argv", json_pack("[s, s, s]", "sh", "-c", sbuf_str(&sb)));
	json_object_set_new(suite, "secrets", json_pack("[s]", "HF_TOKEN"));
	json_object_set_new(suite, "parser", json_string("maxtext"));
	const json_t *ep = json_object_get(x->tr, "error_patterns");
	if (json_object_size(ep)) {
		json_t *errs = json_object();
		const char *key;
		const json_t *pv;
		json_object_foreach((json_t *)ep, key, pv)
		{
			char *lv = cvs_literal(json_string_value(pv) ? json_string_value(pv) : "");
			char *name = xasprintf("cvs-%s", key);
			json_object_set_new(errs, name, json_string(lv));
			free(lv), free(name);
		}
		json_object_set_new(suite, "signatures", json_pack("{s:o}", "errors", errs));
		cvs_note(x->im, "$.training.error_patterns",
			 "watched as the suite's signatures, named cvs-NAME (case-sensitive; "
			 "CVS matches them ignoring case), besides assay's built-ins");
	}
	json_object_set_new(suite, "results", json_pack("[s]", sbuf_str(&o)));
	json_object_set_new(suite, "nodes", json_integer(x->dist ? (json_int_t)x->nodes : 1));
	json_object_set_new(suite, "gpus_per_node", json_integer(x->gpus));
	/* CVS's completion (is_complete): completed step: steps-1. */
	json_object_set_new(suite, "training",
			    json_pack("{s:I}", "final_step", (json_int_t)(x->steps - 1)));
	sbuf_release(&sb), sbuf_release(&o);
	return rc;
}

/* A string at obj.key (def when absent), substituted, into *out. */
static int mt_key(struct mt *x, const json_t *obj, const char *parent, const char *key,
		  const char *def, char **out)
{
	char path[256];
	const json_t *v = json_object_get(obj, key);
	assay_json_path_key(path, sizeof(path), parent, key);
	if (!v) {
		*out = xstrdup(def);
		return 0;
	}
	return mstr(x, v, path, out);
}

/* Distributed: the cluster file's nodes, $.training.jax_distributed (the
 * coordinator "auto" or empty: the file's first node, as CVS's hosts[0])
 * and the $.training.nccl values CVS exports (its "<changeme>" refused, as
 * CVS's loader refuses it). */
static int mt_dist(struct mt *x)
{
	static const char *const jd[4][2] = {{"coordinator_ip", "auto"},
					     {"coordinator_port", "12346"},
					     {"initialization_timeout_seconds", "1800"},
					     {"heartbeat_timeout_seconds", "900"}};
	const json_t *j = json_object_get(x->tr, "jax_distributed"),
		     *n = json_object_get(x->tr, "nccl");
	if (j && !json_is_object(j))
		return assay_cfg_expected(&x->c, "$.training.jax_distributed", "an object", j);
	if (n && !json_is_object(n))
		return assay_cfg_expected(&x->c, "$.training.nccl", "an object", n);
	static const size_t order[] = {1, 0, 2, 3}; /* CVS's field order */
	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		if (mt_key(x, n, "$.training.nccl", mt_nccl[order[i]][0], "", &x->nccl[order[i]]) <
		    0)
			return -1;
	for (size_t i = 0; i < ARRAY_SIZE(jd); i++)
		if (mt_key(x, j, "$.training.jax_distributed", jd[i][0], jd[i][1], &x->jd[i]) < 0)
			return -1;
	struct strlist hosts = STRLIST_INIT;
	if (assay_ssh_cluster_hosts(x->o->cluster_file, &hosts, x->c.err) != ASSAY_OK)
		return -1;
	x->nodes = hosts.n;
	char *ip = x->jd[0], *end = ip + strlen(ip); /* CVS's .strip() */
	while (end > ip && strchr(" \t\r\n\f\v", end[-1]))
		*--end = '\0';
	memmove(ip, ip + strspn(ip, " \t\r\n\f\v"), strlen(ip + strspn(ip, " \t\r\n\f\v")) + 1);
	if (!hosts.n) {
		strlist_clear(&hosts);
		return assay_cfg_fail(&x->c, "$.training.distributed", "%s lists no node",
				      x->o->cluster_file);
	}
	if (!*ip || !strcasecmp(ip, "auto")) {
		cvs_note(x->im, "$.training.jax_distributed.coordinator_ip",
			 "\"%s\": the first node of %s, %s, as CVS takes it", ip,
			 x->o->cluster_file, hosts.v[0]);
		free(x->jd[0]);
		x->jd[0] = xstrdup(hosts.v[0]);
	}
	strlist_clear(&hosts);
	return 0;
}

/* $.training: single node, the keys the command needs, notes for the rest. */
static int mt_training(struct mt *x, const json_t *root)
{
	x->tr = json_object_get(root, "training");
	if (!json_is_object(x->tr))
		return assay_cfg_expected(&x->c, "$.training", "an object", x->tr);
	bool dist = true;
	if (assay_cfg_bool(&x->c, x->tr, "$.training", "distributed", ASSAY_CFG_OPTIONAL, &dist) <
	    0)
		return -1;
	if (dist && !x->o->cluster_file)
		return assay_cfg_fail(
		    &x->c, "$.training.distributed",
		    "true: give the CVS cluster file it runs on (--cluster FILE): CVS starts "
		    "one launcher per node of it, with the node's rank and the JAX coordinator "
		    "on the first node (docs/import.md)");
	x->dist = dist;
	if (dist && mt_dist(x) < 0)
		return -1;
	x->gpus = 8;
	x->steps = 30;
	if (assay_cfg_int(&x->c, x->tr, "$.training", "gpus_per_node", ASSAY_CFG_OPTIONAL, 1, 1024,
			  &x->gpus) < 0 ||
	    assay_cfg_int(&x->c, x->tr, "$.training", "steps", ASSAY_CFG_OPTIONAL, 1, 1LL << 40,
			  &x->steps) < 0)
		return -1;
	const json_t *mc = json_object_get(x->tr, "maxtext_config"),
		     *tok = json_object_get(x->tr, "tokenizer");
	if (mc && !json_is_object(mc))
		return assay_cfg_expected(&x->c, "$.training.maxtext_config", "an object", mc);
	if (!json_is_object(tok))
		return assay_cfg_expected(&x->c, "$.training.tokenizer", "an object", tok);
	char *id = NULL, *path = NULL;
	if (mstr(x, json_object_get(tok, "hf_model_id"), "$.training.tokenizer.hf_model_id", &id) <
		0 ||
	    mstr(x, json_object_get(tok, "tokenizer_path"), "$.training.tokenizer.tokenizer_path",
		 &path) < 0)
		return free(id), free(path), -1;
	if (*id)
		cvs_note(
		    x->im, "$.training.tokenizer",
		    "CVS first downloads the tokenizer (`huggingface-cli download %s --local-dir "
		    "%s`, "
		    "HF_HOME=%s, with HF_TOKEN); run it once before the suite",
		    id, path, x->models_dir);
	free(id), free(path);
	return 0;
}

/* Distributed: what CVS does on the nodes that the suite leaves to the user. */
static void mt_dist_notes(struct mt *x)
{
	const json_t *tr = x->tr, *rdma = json_object_get(tr, "rdma_lib");
	const char *nic = json_string_value(json_object_get(tr, "nic_type"));
	const char *from = json_string_value(json_object_get(rdma, "container_mount_file"));
	const char *to = json_string_value(json_object_get(rdma, "container_dest_file"));
	if (!json_object_get(tr, "nic_type"))
		nic = "thor2"; /* CVS's default */
	if (nic && strcasestr(nic, "thor") && from && *from && to && *to)
		cvs_note(x->im, "$.training.rdma_lib",
			 "CVS first copies the RDMA library into the container on every node "
			 "(`sudo cp %s %s`, nic_type %s) and checks that `ibv_devinfo` lists a "
			 "bnxt_, rocep or rdma device; do that in the image before the suite",
			 from, to, nic);
	const json_t *nc = json_object_get(tr, "nccl");
	if (json_object_get(nc, "ib_tc") || json_object_get(nc, "ib_sl") ||
	    json_object_get(nc, "ib_gid_index"))
		cvs_note(
		    x->im, "$.training.nccl",
		    "CVS exports ib_hca, ib_hca_list, socket_ifname and gloo_socket_ifname (the "
		    "env script has them) and reads none of ib_tc, ib_sl, ib_gid_index");
	if (json_object_get(tr, "scaling_baseline"))
		cvs_note(x->im, "$.training.scaling_baseline",
			 "CVS's scaling efficiency against tokens_per_sec_total is not computed");
	cvs_note(x->im, "$.paths.log_dir",
		 "every node writes its out-node{i}/training.log; assay reads node 0's (the "
		 "coordinator's, which CVS parses) where it runs: keep log_dir on a file "
		 "system the nodes share, as CVS's shipped paths under /home are");
}

/* What CVS does around the sweeps that the suite leaves to the user. */
static void mt_notes(struct mt *x, const json_t *root)
{
	static const char *const dist[] = {"nic_type", "rdma_lib", "nccl", "jax_distributed",
					   "scaling_baseline"};
	const json_t *tr = x->tr;
	cvs_note(x->im, "$.training.steps",
		 "CVS first runs a smoke training of a few steps; the suite runs the sweeps only");
	if (!json_is_false(json_object_get(tr, "verify_dmesg")))
		cvs_note(x->im, "$.training.verify_dmesg",
			 "CVS scans each host's dmesg for GPU and kernel faults over the run; the "
			 "suite does not");
	if (x->dist)
		mt_dist_notes(x);
	for (size_t i = 0; !x->dist && i < ARRAY_SIZE(dist); i++) {
		char path[256];
		assay_json_path_key(path, sizeof(path), "$.training", dist[i]);
		if (json_object_get(tr, dist[i]))
			cvs_note(x->im, path, "CVS uses it for distributed runs only");
	}
	if (json_object_get(tr, "loss_curve") || json_object_get(tr, "convergence"))
		cvs_note(x->im,
			 json_object_get(tr, "loss_curve") ? "$.training.loss_curve"
							   : "$.training.convergence",
			 "CVS's loss-curve and convergence checks are assay gate's (--spec, "
			 "docs/gate.md); the suite records the losses");
	if (json_is_true(json_object_get(json_object_get(tr, "checkpoint_resume"), "enabled")))
		cvs_note(x->im, "$.training.checkpoint_resume.enabled",
			 "CVS's checkpoint save and resume test is not imported");
	const json_t *vols = json_object_get(
			 json_object_get(
			     json_object_get(json_object_get(root, "container"), "runtime"),
			     "args"),
			 "volumes"),
		     *v;
	size_t i;
	json_array_foreach(vols, i, v)
	{
		const char *s = json_string_value(v);
		if (s && !strncmp(s, "/tmp/", 5)) {
			cvs_note(
			    x->im, "$.container.runtime.args.volumes",
			    "CVS creates the host folders of its /tmp bind mounts before it starts "
			    "the container; create them first");
			break;
		}
	}
}

/* No gates: assay run judges MBS/GBS/PRECISION cells, CVS's MaxText cells
 * are sweep names; the note says how to judge a case's log instead. */
static void mt_gates(struct mt *x, const char *config_path, bool enforce, const char *thresholds)
{
	char *ep = json_object_get(x->tr, "error_patterns")
		       ? xasprintf(" --error-patterns %s", config_path)
		       : xstrdup("");
	if (thresholds)
		cvs_note(
		    x->im, enforce ? "$.threshold_json" : "$.enforce_thresholds",
		    "%sthe suite's cells are CVS's sweep names, which assay run does not gate: "
		    "judge each case's log with assay gate --thresholds %s --combo COMBO%s LOG "
		    "(docs/gate.md)",
		    enforce ? "" : "false (record only); ", thresholds, ep);
	free(ep);
}

static int mt_head(struct mt *x, const json_t *root, const char *config_path, bool *enforce,
		   char **thresholds)
{
	static const char *const used[] = {
	    "schema_version", "framework", "gpu_arch",  "enforce_thresholds", "threshold_json",
	    "paths",          "model",     "container", "training",           NULL};
	long long version;
	*enforce = true;
	if (assay_cfg_int(&x->c, root, "$", "schema_version", ASSAY_CFG_REQUIRED, 1, 1, &version) <
		0 ||
	    assay_cfg_bool(&x->c, root, "$", "enforce_thresholds", ASSAY_CFG_OPTIONAL, enforce) <
		0 ||
	    cvs_threshold_file(root, config_path, x->o, x->c.err, thresholds) < 0)
		return -1;
	const json_t *model = json_object_get(root, "model");
	if (!json_is_object(model))
		return assay_cfg_expected(&x->c, "$.model", "an object", model);
	if (mstr(x, json_object_get(model, "id"), "$.model.id", &x->model_id) < 0)
		return -1;
	if (json_integer_value(json_object_get(model, "remote")) == 1)
		return assay_cfg_fail(&x->c, "$.model.remote",
				      "1: CVS does not implement remote models either");
	cvs_note_unknown(x->im, root, used, "MaxText", NULL);
	return 0;
}

assay_err cvs_import_maxtext(const json_t *root, const char *config_path,
			     const struct assay_import_opts *o, struct assay_import *out,
			     struct assay_error *e)
{
	const char *base = strrchr(config_path, '/') ? strrchr(config_path, '/') + 1 : config_path;
	struct mt x = {.c = {config_path, e}, .o = o, .im = out, .yaml = json_array()};
	json_t *suite = json_object();
	char *thresholds = NULL;
	bool enforce;
	cvs_suite_name(suite, base);
	int rc = mt_paths(&x, root);
	if (!rc)
		rc = mt_head(&x, root, config_path, &enforce, &thresholds);
	if (!rc)
		rc = mt_training(&x, root);
	if (!rc)
		rc = mt_sweeps(&x, suite);
	if (!rc) {
		const char *arch = json_string_value(json_object_get(root, "gpu_arch"));
		char *d = xasprintf("ROCm/cvs %s (jaxmaxtext, %s) as an assay suite, written by "
				    "`assay import cvs`.",
				    base, arch ? arch : "gpu_arch not set");
		char *ld = cvs_literal(d);
		json_object_set_new(suite, "description", json_string(ld));
		free(d), free(ld);
		cvs_import_container(json_object_get(root, "container"), config_path, o, out,
				     suite);
		mt_notes(&x, root);
		rc = mt_command(&x, suite);
	}
	if (!rc) {
		mt_gates(&x, config_path, enforce, thresholds);
		if (o->cluster_file)
			rc = cvs_import_cluster(o->cluster_file, suite, out, e);
	}
	if (!rc) {
		out->suite = cvs_ordered(suite);
		if (json_object_get(suite, "signatures")) /* not in cvs_ordered's list */
			json_object_set(out->suite, "signatures",
					json_object_get(suite, "signatures"));
	} else
		strlist_clear(&out->notes);
	json_decref(x.map), json_decref(x.combos), json_decref(x.yaml);
	free(x.log_dir), free(x.models_dir), free(x.model_id), free(thresholds);
	for (size_t i = 0; i < ARRAY_SIZE(x.jd); i++)
		free(x.jd[i]);
	for (size_t i = 0; i < ARRAY_SIZE(x.nccl); i++)
		free(x.nccl[i]);
	json_decref(suite);
	return rc ? (e->code ? e->code : ASSAY_USAGE) : ASSAY_OK;
}
