/* assay manifest: write the madengine build_manifest.json of one platform
 * and one combo of a command suite (the library builds it; docs/manifest.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/manifest.h"
#include "cli.h"
#include "opt.h"

struct manifest_args {
	struct assay_manifest_request rq;
	const char *out;
};

static const struct cli_opt manifest_opts[] = {
    CLI_OPT_STRING("platforms", "FILE", struct manifest_args, rq.platforms,
		   "the platform registry (docs/config.md); required"),
    CLI_OPT_STRING("platform", "SKU", struct manifest_args, rq.platform,
		   "the platform of the registry to run on; required when it has\nseveral"),
    CLI_OPT_STRING("suite", "FILE", struct manifest_args, rq.suite,
		   "a command suite with a madengine block (docs/suite.md); required"),
    CLI_OPT_STRING("combo", "NAME", struct manifest_args, rq.combo,
		   "the suite's combo to write the manifest for; required"),
    {.type = CLI_STRING,
     .name = "out",
     .arg = "FILE",
     .off = offsetof(struct manifest_args, out),
     .help = "write the manifest to FILE (atomically)",
     .def = "standard output"},
    CLI_OPT_END,
};

const struct cli_spec cmd_manifest_spec = {
    .name = "manifest",
    .usage = "assay manifest --platforms FILE [--platform SKU] --suite FILE --combo NAME\n"
	     "               [--out FILE]",
    .about = "Write the madengine build_manifest.json that runs one combo of a command suite\n"
	     "on one platform: built_images and built_models from the suite's madengine\n"
	     "block, context.docker_env_vars from the platform's network settings and the\n"
	     "suite's env, deployment_config.slurm and .distributed from the combo's nodes\n"
	     "and GPUs and the platform's placement. No secret's value is written; the\n"
	     "manifest lints clean under `assay lint --strict` or nothing is written.\n",
    .opts = manifest_opts,
    .examples = "assay manifest --platforms configs/examples/mi355x-platforms.json \\\n"
		"    --suite configs/examples/primus-2node.json --combo bf16-2node \\\n"
		"    --out build_manifest.json",
    .exits = "Exit codes: 0 written, 2 bad arguments or inputs (nothing written), 5 the file\n"
	     "could not be written. See docs/manifest.md.\n",
    .min_args = 0,
    .max_args = 0,
};

static int required(const struct manifest_args *a)
{
	const char *missing = !a->rq.platforms ? "--platforms FILE"
			      : !a->rq.suite   ? "--suite FILE"
			      : !a->rq.combo   ? "--combo NAME"
					       : NULL;
	return missing ? cli_usage_error("manifest", "%s is required", missing) : 0;
}

int cmd_manifest(int argc, char **argv)
{
	struct manifest_args a = {0};
	int first, rc = cli_parse(&cmd_manifest_spec, argc, argv, &a, &first);
	if (!rc)
		rc = required(&a);
	if (rc)
		return rc < 0 ? ASSAY_OK : rc;
	struct assay_error err;
	json_t *doc;
	if (assay_manifest_build(&a.rq, &doc, &err) != ASSAY_OK)
		return cli_report(&err);
	json_t *slurm = json_object_get(json_object_get(doc, "deployment_config"), "slurm");
	long long nodes = json_integer_value(json_object_get(slurm, "nodes"));
	long long gpus = json_integer_value(json_object_get(slurm, "gpus_per_node"));
	char *text = assay_json_dumps(doc, ASSAY_JSON_PRETTY);
	json_decref(doc);
	struct sbuf sb = SBUF_INIT;
	sbuf_addf(&sb, "%s\n", text);
	free(text);
	rc = ASSAY_OK;
	if (!a.out)
		fputs(sbuf_str(&sb), stdout);
	else if (assay_write_file_atomic(a.out, sbuf_str(&sb), sb.len, &err) != ASSAY_OK)
		rc = cli_report(&err);
	else
		printf("wrote %s: combo %s, %lld node%s x %lld GPUs\n", a.out, a.rq.combo, nodes,
		       nodes == 1 ? "" : "s", gpus);
	sbuf_release(&sb);
	return rc;
}
