/* Container rules (docs/containers.md): a suite's `container` block with a
 * runtime assay does not know, a value (not a name) in its env, devices of
 * another vendor than the platforms it runs on, a mount whose host
 * side does not exist here, and -d/--detach in podman's or docker's
 * options. The loader refuses the first two as well; lint
 * reports them with what to write instead. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assay/config.h"
#include "assay/container.h"
#include "lint_int.h"

static const struct assay_lint_rule rules[] = {
    {"container-runtime", "container", ASSAY_LINT_ERROR, true, KIND(SUITE),
     "a container runtime other than podman, docker, pyxis, enroot or apptainer"},
    {"container-env-value", "container", ASSAY_LINT_ERROR, true, KIND(SUITE),
     "a NAME=value in a container's env, which takes names only (a secret's value in the file)"},
    {"container-devices-vendor", "container", ASSAY_LINT_ERROR, true, KIND(SUITE),
     "container devices of another GPU vendor than the suite's platforms"},
    {"container-mount-source", "container", ASSAY_LINT_WARNING, true, KIND(SUITE),
     "a container mount whose host path does not exist where lint runs"},
    {"container-detach", "container", ASSAY_LINT_ERROR, true, KIND(SUITE),
     "-d/--detach in a podman or docker container's options: run returns at once, the "
     "workload runs unwatched"},
};
#define R_RUNTIME (&rules[0])
#define R_ENV     (&rules[1])
#define R_DEVICES (&rules[2])
#define R_MOUNT   (&rules[3])
#define R_DETACH  (&rules[4])

/* What users write for the runtimes assay names differently. */
static const char *const aliases[][2] = {
    {"singularity", "apptainer"}, {"sarus", "pyxis"},     {"slurm", "pyxis"},
    {"nvidia-docker", "docker"},  {"crun", "podman"},     {"runc", "podman"},
    {"enroot-pyxis", "pyxis"},    {"charliecloud", NULL},
};

static void check_runtime(struct lint_ctx *c, const json_t *ctr)
{
	const json_t *v = json_object_get(ctr, "runtime");
	if (!json_is_string(v))
		return;
	const char *rt = json_string_value(v);
	for (size_t i = 0; assay_ctr_runtime_names[i]; i++)
		if (!strcmp(rt, assay_ctr_runtime_names[i]))
			return;
	const char *hint = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcasecmp(rt, aliases[i][0]))
			hint = aliases[i][1];
	char b[64];
	if (hint)
		lint_report(c, R_RUNTIME, "$.container.runtime",
			    "unknown runtime %s; assay runs it as \"%s\"",
			    lint_brief(rt, b, sizeof(b)), hint);
	else
		lint_report(c, R_RUNTIME, "$.container.runtime",
			    "unknown runtime %s (podman, docker, pyxis, enroot or apptainer)",
			    lint_brief(rt, b, sizeof(b)));
}

static void check_env(struct lint_ctx *c, const json_t *ctr)
{
	const json_t *env = json_object_get(ctr, "env");
	size_t i;
	const json_t *v;
	json_array_foreach(env, i, v)
	{
		if (!json_is_string(v))
			continue;
		const char *s = json_string_value(v);
		const char *eq = strchr(s, '=');
		if (!eq)
			continue;
		char *name = xstrndup(s, (size_t)(eq - s));
		char *p = lint_path_index("$.container.env", i);
		/* The value is never quoted: it may be a secret. */
		if (lint_key_is_secret(name))
			lint_report(
			    c, R_ENV, p,
			    "%s is given a value here and looks like a secret: remove the "
			    "value from the file, list \"%s\" in env and in secrets, and set it "
			    "in assay's environment",
			    name, name);
		else
			lint_report(
			    c, R_ENV, p,
			    "\"%s=...\": env takes names only; write \"%s\" here and give the "
			    "value in the suite's env or assay's environment",
			    name, name);
		free(p);
		free(name);
	}
}

/* The GPU vendor of an arch name: "amd", "nvidia", or NULL when unknown. */
static const char *arch_vendor(const char *arch)
{
	static const char *const amd[] = {"gfx", "cdna", "rdna", "mi", NULL};
	static const char *const nvidia[] = {"sm_",   "hopper", "blackwell", "ampere", "ada",
					     "volta", "turing", "grace",     "rubin",  NULL};
	for (size_t i = 0; amd[i]; i++)
		if (!strncasecmp(arch, amd[i], strlen(amd[i])))
			return "amd";
	for (size_t i = 0; nvidia[i]; i++)
		if (!strncasecmp(arch, nvidia[i], strlen(nvidia[i])))
			return "nvidia";
	return NULL;
}

/* An ep suite's platforms registry: each platform's arch names its vendor. */
static void check_devices(struct lint_ctx *c, const json_t *ctr)
{
	const json_t *d = json_object_get(ctr, "devices");
	const json_t *plat = json_object_get(c->doc, "platforms");
	if (!json_is_string(d) || !strcmp(json_string_value(d), "none") || !json_is_string(plat) ||
	    !c->on_disk)
		return;
	/* A regular file only: a path such as /dev/zero would never end. */
	struct stat st;
	if (stat(json_string_value(plat), &st) != 0 || !S_ISREG(st.st_mode))
		return;
	const char *want = json_string_value(d);
	struct assay_registry reg;
	struct assay_error e;
	if (assay_registry_load(json_string_value(plat), &reg, &e) != ASSAY_OK)
		return; /* assay-config reports it */
	for (size_t i = 0; i < reg.n; i++) {
		const char *v = reg.v[i].arch ? arch_vendor(reg.v[i].arch) : NULL;
		if (!v || !strcmp(v, want))
			continue;
		lint_report(c, R_DEVICES, "$.container.devices",
			    "devices \"%s\", but platform %s in %s has arch %s (%s): use "
			    "\"devices\": \"%s\"",
			    want, reg.v[i].sku, json_string_value(plat), reg.v[i].arch, v, v);
		break;
	}
	assay_registry_release(&reg);
}

static void check_mounts(struct lint_ctx *c, const json_t *ctr)
{
	const json_t *m = json_object_get(ctr, "mounts");
	size_t i;
	const json_t *v;
	json_array_foreach(m, i, v)
	{
		if (!json_is_string(v))
			continue;
		const char *s = json_string_value(v);
		const char *colon = strchr(s, ':');
		if (!colon || colon == s || strchr(s, '{'))
			continue; /* malformed (assay-config) or filled at run time */
		char *host = xstrndup(s, (size_t)(colon - s));
		struct stat st;
		if (stat(host, &st) != 0) {
			char *p = lint_path_index("$.container.mounts", i);
			lint_report(c, R_MOUNT, p,
				    "host path %s does not exist here; the runtime refuses the "
				    "mount on a machine without it",
				    host);
			free(p);
		}
		free(host);
	}
}

/* "-d", "--detach", "--detach=true", or short flags bundled with d ("-itd"). */
static bool detaches(const char *o)
{
	if (!strcmp(o, "--detach") || !strcmp(o, "--detach=true"))
		return true;
	if (o[0] != '-' || o[1] == '-' || !o[1] || strchr(o, '='))
		return false;
	for (const char *p = o + 1; *p; p++)
		if (!strchr("dit", *p))
			return false; /* another flag, perhaps with a value: not a bundle */
	return strchr(o + 1, 'd') != NULL;
}

static void check_detach(struct lint_ctx *c, const json_t *ctr)
{
	const json_t *rt = json_object_get(ctr, "runtime");
	if (json_is_string(rt) && strcmp(json_string_value(rt), "podman") &&
	    strcmp(json_string_value(rt), "docker"))
		return;
	size_t i;
	const json_t *v;
	json_array_foreach(json_object_get(ctr, "options"), i, v)
	{
		if (!json_is_string(v) || !detaches(json_string_value(v)))
			continue;
		char *p = lint_path_index("$.container.options", i);
		lint_report(c, R_DETACH, p,
			    "%s makes `run` return while the container runs on: assay would "
			    "take the case as ended, watch nothing and leave the container; "
			    "remove it",
			    json_string_value(v));
		free(p);
	}
}

static void check(struct lint_ctx *c)
{
	if (c->kind != ASSAY_LINT_SUITE || !json_is_object(c->doc))
		return;
	const json_t *ctr = json_object_get(c->doc, "container");
	if (!json_is_object(ctr))
		return;
	if (lint_on(c, R_RUNTIME))
		check_runtime(c, ctr);
	if (lint_on(c, R_ENV))
		check_env(c, ctr);
	if (lint_on(c, R_DEVICES))
		check_devices(c, ctr);
	if (lint_on(c, R_MOUNT))
		check_mounts(c, ctr);
	if (lint_on(c, R_DETACH))
		check_detach(c, ctr);
}

const struct lint_family lint_family_container = {"container", rules, ARRAY_SIZE(rules), check};
