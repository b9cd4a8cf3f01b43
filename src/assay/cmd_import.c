/* assay import: another tool's configuration written as an assay suite
 * (docs/import.md). One row per source format in `importers`; the conversion
 * lives in the library (include/assay/import.h), this file prints. */
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/import.h"
#include "assay/json.h"
#include "cli.h"
#include "opt.h"

struct import_args {
	const char *out;
	const char *user;
	long long gpus_per_node;
	const char *cluster;
	const char *gpu;
};

static const struct cli_opt import_opts[] = {
    CLI_OPT_STRING("out", "SUITE.json", struct import_args, out,
		   "write the suite to this file (default: stdout); nothing is written\n"
		   "when the configuration is refused"),
    {.type = CLI_STRING,
     .name = "user",
     .arg = "NAME",
     .off = offsetof(struct import_args, user),
     .help = "cvs: the user name that replaces {user-id} in paths",
     .def = "the login name, as CVS takes it"},
    {.type = CLI_INT,
     .name = "gpus-per-node",
     .arg = "N",
     .off = offsetof(struct import_args, gpus_per_node),
     .help = "cvs: GPUs of one node, for the suite's gpus_per_node",
     .def = "8",
     .min = 1},
    {.type = CLI_STRING,
     .name = "cluster",
     .arg = "FILE",
     .off = offsetof(struct import_args, cluster),
     .help = "cvs: a CVS cluster file: the suite runs on its nodes with the ssh\n"
	     "launcher (docs/ssh.md)"},
    {.type = CLI_STRING,
     .name = "gpu",
     .arg = "TYPE",
     .off = offsetof(struct import_args, gpu),
     .help = "cvs, an older config: the GPU type whose settings to take (mi300x,\n"
	     "mi325, mi350, mi355: what CVS reads from rocm-smi)",
     .def = "the only type the config has"},
    CLI_OPT_END,
};

const struct cli_spec cmd_import_spec = {
    .name = "import",
    .usage = "assay import cvs [--out SUITE.json] [--user NAME] [--gpus-per-node N] "
	     "[--cluster FILE] [--gpu TYPE] CONFIG.json",
    .about = "Write an assay suite from another tool's configuration. Formats:\n"
	     "\n"
	     "  cvs  a ROCm/cvs configuration (cvs/input/config_file/...), told apart by\n"
	     "       its framework key:\n"
	     "       - Megatron training (training/megatron): a command suite that runs\n"
	     "         Megatron-LM's training script with the variables CVS sets, its\n"
	     "         sweep's combinations and runs, nodes and GPUs, its threshold file\n"
	     "         (found next to the config, as CVS finds it) and its loss-curve gate;\n"
	     "       - TorchTitan and JAX/MaxText training (training/torchtitan,\n"
	     "         training/jaxmaxtext): command suites that write CVS's TOML or YAML\n"
	     "         and run the trainer, checked for CVS's completion step;\n"
	     "       - vLLM and SGLang inference (inference/vllm*, inference/sglang):\n"
	     "         inference suites that start the server, wait for its health URL\n"
	     "         and run the benchmark client per cell.\n"
	     "       A multi-node config needs --cluster (its nodes, the ssh launcher).\n"
	     "       CVS's older configs (no schema_version; config and model_params) are\n"
	     "       read too: --gpu picks the GPU type's settings, and each result_dict\n"
	     "       value becomes a minimum in SUITE_threshold.json, written beside --out,\n"
	     "       that every match in the log's last 15 lines must reach, as CVS's older\n"
	     "       library checks it (kind min_every_match). docs/import.md has each.\n"
	     "\n"
	     "Every key that has no place in the suite is named on stderr, one line each\n"
	     "(`CONFIG: $.path: not carried over: why`); the container image is written\n"
	     "into the suite's description. Paths in the suite are relative to the\n"
	     "directory import runs in, which is where `assay run` should start.\n",
    .opts = import_opts,
    .examples = "assay import cvs --out llama.json mi325x_megatron_llama-3.1-8b_single.json\n"
		"assay lint llama.json && assay run --dry-run llama.json",
    .exits = "Exit codes: 0 written, 2 bad arguments or a configuration that cannot be\n"
	     "imported (nothing written), 5 the suite could not be written.\n",
    .min_args = 2,
    .max_args = 2,
    .args_what = "argument",
};

/* Beside SUITE.json: SUITE_threshold.json (caller frees), or NULL. */
static char *thresholds_beside(const char *out)
{
	if (!out)
		return NULL;
	size_t n = strlen(out);
	if (n > 5 && !strcmp(out + n - 5, ".json"))
		n -= 5;
	return xasprintf("%.*s_threshold.json", (int)n, out);
}

static int import_cvs(const struct import_args *a, const char *config, json_t **suite,
		      json_t **thresholds, char **thresholds_file)
{
	*thresholds_file = thresholds_beside(a->out);
	struct assay_import_opts o = {.user = a->user,
				      .gpus_per_node = a->gpus_per_node,
				      .cluster_file = a->cluster,
				      .gpu_type = a->gpu,
				      .thresholds_file = *thresholds_file};
	struct passwd *pw;
	if (!o.user)
		o.user = getenv("LOGNAME");
	if (!o.user || !*o.user)
		o.user = getenv("USER");
	if ((!o.user || !*o.user) && (pw = getpwuid(getuid())))
		o.user = pw->pw_name;
	if (!o.user || !*o.user)
		return cli_usage_error("import", "no user name for {user-id}: give --user NAME");

	struct assay_import im;
	struct assay_error e;
	if (assay_import_cvs(config, &o, &im, &e) != ASSAY_OK)
		return cli_report(&e);
	for (size_t i = 0; i < im.notes.n; i++)
		fprintf(stderr, "%s: %s\n", config, im.notes.v[i]);
	*suite = json_incref(im.suite);
	*thresholds = json_incref(im.thresholds);
	assay_import_release(&im);
	return ASSAY_OK;
}

static const struct {
	const char *name;
	int (*run)(const struct import_args *a, const char *config, json_t **suite,
		   json_t **thresholds, char **thresholds_file);
} importers[] = {
    {"cvs", import_cvs},
};

/* doc as pretty JSON to path (stdout when NULL); 0, or the exit code. */
static int write_json(const char *path, json_t *doc)
{
	char *text = assay_json_dumps(doc, ASSAY_JSON_PRETTY);
	size_t len = strlen(text);
	int rc = ASSAY_OK;
	text = xrealloc(text, len + 2);
	text[len++] = '\n';
	text[len] = '\0';
	if (path) {
		struct assay_error e;
		assay_error_clear(&e);
		if (assay_write_file_atomic(path, text, len, &e) != ASSAY_OK)
			rc = cli_report(&e);
		else
			printf("wrote %s\n", path);
	} else {
		fputs(text, stdout);
	}
	free(text);
	return rc;
}

int cmd_import(int argc, char **argv)
{
	struct import_args a = {.gpus_per_node = 8};
	int first, rc = cli_parse(&cmd_import_spec, argc, argv, &a, &first);
	if (rc)
		return rc < 0 ? ASSAY_OK : rc;
	const char *format = argv[first], *config = argv[first + 1];
	size_t k = 0;
	while (k < ARRAY_SIZE(importers) && strcmp(importers[k].name, format))
		k++;
	if (k == ARRAY_SIZE(importers))
		return cli_usage_error("import", "unknown format '%s' (known: cvs)", format);

	char *rc_path = realpath(config, NULL), *ro_path = a.out ? realpath(a.out, NULL) : NULL;
	bool same = rc_path && ro_path && !strcmp(rc_path, ro_path);
	free(rc_path);
	free(ro_path);
	if (same)
		return cli_usage_error("import", "--out %s is the configuration itself", a.out);
	json_t *suite = NULL, *thresholds = NULL;
	char *tfile = NULL;
	rc = importers[k].run(&a, config, &suite, &thresholds, &tfile);
	/* The thresholds file first: the suite names it. */
	if (rc == ASSAY_OK && thresholds)
		rc = write_json(tfile, thresholds);
	if (rc == ASSAY_OK)
		rc = write_json(a.out, suite);
	json_decref(suite);
	json_decref(thresholds);
	free(tfile);
	return rc;
}
