/* Containers (include/assay/container.h): the suite's `container` block,
 * and one case's argv turned into the runtime's (podman/docker run, pyxis
 * srun options, enroot/apptainer wrappers), plus the few runtime calls the
 * local launcher and the run need (list by label, stop, remove, digest).
 * Values of variables never go on a command line: only names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "assay/container.h"
#include "assay/json.h"
#include "assay/proc.h"

const char *const assay_ctr_runtime_names[] = {"podman", "docker",    "pyxis",
					       "enroot", "apptainer", NULL};
const char *const assay_ctr_device_names[] = {"none", "amd", "nvidia", NULL};
const char *const assay_ctr_pull_names[] = {"missing", "always", "never", NULL};

static const char *const keys[] = {"image",   "runtime", "mounts",  "workdir", "env",
				   "options", "pull",    "devices", "init",    NULL};

static int index_of(const char *const *names, const char *s)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], s))
			return i;
	return 0;
}

/* An optional array of strings (may be empty) at path.key into out. */
static int strings(struct assay_cfg *c, const json_t *v, const char *path, const char *key,
		   bool names, struct strlist *out)
{
	json_t *a = json_object_get(v, key);
	char p[256];
	assay_json_path_key(p, sizeof(p), path, key);
	if (!a)
		return 0;
	if (!json_is_array(a))
		return assay_cfg_expected(
		    c, p, names ? "an array of environment variable names" : "an array of strings",
		    a);
	for (size_t i = 0; i < json_array_size(a); i++) {
		json_t *s = json_array_get(a, i);
		char ip[256];
		assay_json_path_index(ip, sizeof(ip), p, i);
		if (names && json_is_string(s) && strchr(json_string_value(s), '='))
			return assay_cfg_fail(c, ip,
					      "expected a variable name, got \"NAME=value\": env "
					      "passes names only, values come from assay's "
					      "environment");
		if (!json_is_string(s) || !json_string_length(s) ||
		    (names && !assay_env_name_valid(json_string_value(s))))
			return assay_cfg_expected(
			    c, ip, names ? "an environment variable name" : "a non-empty string",
			    s);
		strlist_push(out, json_string_value(s));
	}
	return 0;
}

int assay_container_parse(struct assay_cfg *c, const json_t *v, const char *path,
			  struct assay_container *out)
{
	memset(out, 0, sizeof(*out));
	if (!v)
		return 0;
	const char *str;
	if (!json_is_object(v))
		return assay_cfg_expected(c, path, "a container object", v);
	if (assay_cfg_object(c, v, path, keys) < 0)
		return -1;
	out->on = true;
	if (assay_cfg_string(c, v, path, "image", ASSAY_CFG_REQUIRED, &str) < 0)
		goto fail;
	out->image = xstrdup(str);
	int rc = assay_cfg_enum(c, v, path, "runtime", ASSAY_CFG_OPTIONAL, assay_ctr_runtime_names,
				&str);
	if (rc < 0)
		goto fail;
	out->runtime =
	    rc ? (enum assay_ctr_runtime)index_of(assay_ctr_runtime_names, str) : ASSAY_CTR_PODMAN;
	if ((rc = assay_cfg_enum(c, v, path, "pull", ASSAY_CFG_OPTIONAL, assay_ctr_pull_names,
				 &str)) < 0)
		goto fail;
	out->pull =
	    rc ? (enum assay_ctr_pull)index_of(assay_ctr_pull_names, str) : ASSAY_CTR_PULL_MISSING;
	if ((rc = assay_cfg_enum(c, v, path, "devices", ASSAY_CFG_OPTIONAL, assay_ctr_device_names,
				 &str)) < 0)
		goto fail;
	out->devices =
	    rc ? (enum assay_ctr_devices)index_of(assay_ctr_device_names, str) : ASSAY_CTR_DEV_NONE;
	bool init = true;
	if (assay_cfg_bool(c, v, path, "init", ASSAY_CFG_OPTIONAL, &init) < 0)
		goto fail;
	out->no_init = !init;
	if ((rc = assay_cfg_string(c, v, path, "workdir", ASSAY_CFG_OPTIONAL, &str)) < 0)
		goto fail;
	if (rc)
		out->workdir = xstrdup(str);
	if (strings(c, v, path, "mounts", false, &out->mounts) < 0 ||
	    strings(c, v, path, "env", true, &out->env) < 0 ||
	    strings(c, v, path, "options", false, &out->options) < 0)
		goto fail;
	for (size_t i = 0; i < out->mounts.n; i++) {
		const char *m = out->mounts.v[i];
		const char *colon = strchr(m, ':');
		const char *mode = colon ? strchr(colon + 1, ':') : NULL;
		if (!colon || colon == m || colon[1] == '\0' || colon[1] == ':' ||
		    (mode && strcmp(mode, ":ro") && strcmp(mode, ":rw"))) {
			char p[256], ip[256];
			assay_json_path_key(p, sizeof(p), path, "mounts");
			assay_json_path_index(ip, sizeof(ip), p, i);
			assay_cfg_fail(c, ip, "expected \"host:container[:ro]\", got \"%s\"", m);
			goto fail;
		}
	}
	return 0;
fail:
	assay_container_release(out);
	return -1;
}

static void copy_list(struct strlist *dst, const struct strlist *src)
{
	for (size_t i = 0; i < src->n; i++)
		strlist_push(dst, src->v[i]);
}

void assay_container_copy(struct assay_container *dst, const struct assay_container *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->on = src->on;
	dst->runtime = src->runtime;
	dst->pull = src->pull;
	dst->devices = src->devices;
	dst->no_init = src->no_init;
	dst->image = src->image ? xstrdup(src->image) : NULL;
	dst->workdir = src->workdir ? xstrdup(src->workdir) : NULL;
	copy_list(&dst->mounts, &src->mounts);
	copy_list(&dst->env, &src->env);
	copy_list(&dst->options, &src->options);
}

void assay_container_release(struct assay_container *ctr)
{
	free(ctr->image);
	free(ctr->workdir);
	strlist_clear(&ctr->mounts);
	strlist_clear(&ctr->env);
	strlist_clear(&ctr->options);
	memset(ctr, 0, sizeof(*ctr));
}

bool assay_container_is_local(const struct assay_container *ctr)
{
	return ctr && ctr->on &&
	       (ctr->runtime == ASSAY_CTR_PODMAN || ctr->runtime == ASSAY_CTR_DOCKER);
}

void assay_container_name(const char *run_id, const char *case_id, int attempt, struct sbuf *out)
{
	size_t at = out->len;
	sbuf_addf(out, "assay-%s-%s-a%d", run_id, case_id, attempt > 1 ? attempt : 1);
	for (size_t i = at; i < out->len; i++) {
		char ch = out->buf[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == '-'))
			out->buf[i] = '-';
	}
}

/* Push a followed by b (a prefix such as "--container-image=" and a value). */
static void push2(struct strlist *out, const char *a, const char *b)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, a);
	sbuf_adds(&sb, b);
	strlist_push(out, sbuf_str(&sb));
	sbuf_release(&sb);
}

/* "src:dst" with src == dst. */
static void push_same(struct strlist *out, const char *path)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_addf(&sb, "%s:%s", path, path);
	strlist_push(out, sbuf_str(&sb));
	sbuf_release(&sb);
}

/* Every name once: the block's env, then the suite's variables and secrets. */
static void all_names(const struct assay_container *ctr, const struct strlist *env_names,
		      struct strlist *out)
{
	for (size_t i = 0; i < ctr->env.n; i++)
		if (!strlist_has(out, ctr->env.v[i]))
			strlist_push(out, ctr->env.v[i]);
	for (size_t i = 0; env_names && i < env_names->n; i++)
		if (!strlist_has(out, env_names->v[i]))
			strlist_push(out, env_names->v[i]);
}

void assay_container_run_argv(const struct assay_container *ctr, const char *name,
			      const char *run_id, const char *case_id, const char *case_dir,
			      const struct strlist *env_names, const struct strlist *argv,
			      struct strlist *out)
{
	strlist_push(out, assay_ctr_runtime_names[ctr->runtime]);
	strlist_push(out, "run");
	strlist_push(out, "--rm");
	if (!ctr->no_init)
		strlist_push(out, "--init");
	strlist_push(out, "--log-driver");
	strlist_push(out, "none");
	strlist_push(out, "--name");
	strlist_push(out, name);
	strlist_push(out, "--label");
	push2(out, "assay.run=", run_id);
	strlist_push(out, "--label");
	push2(out, "assay.case=", case_id);
	push2(out, "--pull=", assay_ctr_pull_names[ctr->pull]);
	if (ctr->devices == ASSAY_CTR_DEV_AMD) {
		/* What ROCm containers need, as madengine's container runner
		 * passes them (docs/containers.md). */
		static const char *const amd[] = {"--device=/dev/kfd",
						  "--device=/dev/dri",
						  "--group-add",
						  "video",
						  "--cap-add=SYS_PTRACE",
						  "--cap-add=SYS_ADMIN",
						  "--security-opt",
						  "seccomp=unconfined",
						  "--security-opt",
						  "apparmor=unconfined",
						  "--ipc=host",
						  "--network=host",
						  NULL};
		for (size_t i = 0; amd[i]; i++)
			strlist_push(out, amd[i]);
	} else if (ctr->devices == ASSAY_CTR_DEV_NVIDIA) {
		if (ctr->runtime == ASSAY_CTR_DOCKER) {
			strlist_push(out, "--gpus");
			strlist_push(out, "all");
		} else {
			strlist_push(out, "--device");
			strlist_push(out, "nvidia.com/gpu=all");
		}
		strlist_push(out, "--ipc=host");
		strlist_push(out, "--network=host");
	}
	if (case_dir) {
		strlist_push(out, "-v");
		push_same(out, case_dir);
	}
	for (size_t i = 0; i < ctr->mounts.n; i++) {
		strlist_push(out, "-v");
		strlist_push(out, ctr->mounts.v[i]);
	}
	if (ctr->workdir) {
		strlist_push(out, "--workdir");
		strlist_push(out, ctr->workdir);
	}
	struct strlist names = STRLIST_INIT;
	all_names(ctr, env_names, &names);
	for (size_t i = 0; i < names.n; i++) {
		strlist_push(out, "--env");
		strlist_push(out, names.v[i]);
	}
	strlist_clear(&names);
	copy_list(out, &ctr->options);
	strlist_push(out, ctr->image);
	copy_list(out, argv);
}

/* "host:container[:mode]" with a relative host path made absolute from the
 * current directory: a Slurm step's runtime resolves it elsewhere (the
 * step's directory), or not at all. */
static char *absolute_mount(const char *m)
{
	char cwd[4096];
	if (m[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return xstrdup(m);
	const char *colon = strchr(m, ':'); /* the parser checked there is one */
	if (colon == m + 1 && m[0] == '.')
		return xasprintf("%s%s", cwd, colon);
	return xasprintf("%s/%s", cwd, m[0] == '.' && m[1] == '/' ? m + 2 : m);
}

void assay_container_srun_opts(const struct assay_container *ctr, const char *name,
			       const char *case_dir, const struct strlist *env_names,
			       struct strlist *out)
{
	push2(out, "--container-image=", ctr->image);
	struct sbuf m = SBUF_INIT;
	if (case_dir)
		sbuf_addf(&m, "%s:%s", case_dir, case_dir);
	for (size_t i = 0; i < ctr->mounts.n; i++) {
		char *abs = absolute_mount(ctr->mounts.v[i]);
		sbuf_addf(&m, "%s%s", m.len ? "," : "", abs);
		free(abs);
	}
	if (m.len)
		push2(out, "--container-mounts=", sbuf_str(&m));
	sbuf_release(&m);
	if (ctr->workdir)
		push2(out, "--container-workdir=", ctr->workdir);
	struct strlist names = STRLIST_INIT;
	all_names(ctr, env_names, &names);
	if (names.n) {
		char *joined = strlist_join(&names, ",");
		push2(out, "--container-env=", joined);
		free(joined);
	}
	strlist_clear(&names);
	if (name) {
		/* Steps of one job reuse the named container; one name per image,
		 * or a variant with another image would run in the first's. */
		char hex[65];
		assay_sha256_hex(ctr->image, strlen(ctr->image), hex);
		struct sbuf sb = SBUF_INIT;
		sbuf_addf(&sb, "--container-name=%s-%.12s", name, hex);
		strlist_push(out, sbuf_str(&sb));
		sbuf_release(&sb);
	}
	copy_list(out, &ctr->options);
}

void assay_container_wrap_argv(const struct assay_container *ctr, const char *case_dir,
			       const struct strlist *env_names, const struct strlist *argv,
			       struct strlist *out)
{
	struct strlist names = STRLIST_INIT;
	all_names(ctr, env_names, &names);
	if (ctr->runtime == ASSAY_CTR_ENROOT) {
		strlist_push(out, "enroot");
		strlist_push(out, "start");
		if (case_dir) {
			strlist_push(out, "--mount");
			push_same(out, case_dir);
		}
		for (size_t i = 0; i < ctr->mounts.n; i++) {
			/* enroot's --mount is an fstab entry with colon-separated
			 * fields (SRC:DST:TYPE:OPTIONS; doc/cmd/start.md of
			 * NVIDIA/enroot): a mode becomes "none:bind,MODE". */
			char *m = absolute_mount(ctr->mounts.v[i]);
			const char *mode = strchr(strchr(m, ':') + 1, ':');
			strlist_push(out, "--mount");
			if (!mode) {
				strlist_push(out, m);
			} else {
				/* The options enroot gives a mount without any
				 * (x-create=auto: the target is made when the image
				 * lacks it, as pyxis's add_mount() does too), plus
				 * the mode. */
				struct sbuf sb = SBUF_INIT;
				sbuf_add(&sb, m, (size_t)(mode - m));
				sbuf_addf(&sb, ":none:x-create=auto,rbind,%s", mode + 1);
				strlist_push(out, sbuf_str(&sb));
				sbuf_release(&sb);
			}
			free(m);
		}
		/* enroot start --env NAME passes the host's value of NAME. */
		for (size_t i = 0; i < names.n; i++) {
			strlist_push(out, "--env");
			strlist_push(out, names.v[i]);
		}
		copy_list(out, &ctr->options);
		strlist_push(out, ctr->image);
		if (ctr->workdir) {
			/* enroot has no workdir option: change directory inside. */
			strlist_push(out, "sh");
			strlist_push(out, "-c");
			strlist_push(out, "cd \"$0\" && exec \"$@\"");
			strlist_push(out, ctr->workdir);
		}
	} else {
		strlist_push(out, "apptainer");
		strlist_push(out, "exec");
		if (ctr->devices == ASSAY_CTR_DEV_AMD)
			strlist_push(out, "--rocm");
		else if (ctr->devices == ASSAY_CTR_DEV_NVIDIA)
			strlist_push(out, "--nv");
		if (case_dir) {
			strlist_push(out, "--bind");
			push_same(out, case_dir);
		}
		for (size_t i = 0; i < ctr->mounts.n; i++) {
			char *m = absolute_mount(ctr->mounts.v[i]);
			strlist_push(out, "--bind");
			strlist_push(out, m);
			free(m);
		}
		if (ctr->workdir) {
			strlist_push(out, "--pwd");
			strlist_push(out, ctr->workdir);
		}
		/* apptainer passes the host environment in by default: names
		 * need no flag, and no value is written here. */
		copy_list(out, &ctr->options);
		strlist_push(out, ctr->image);
	}
	strlist_clear(&names);
	copy_list(out, argv);
}

static bool quiet(const char *const argv[], struct sbuf *out)
{
	struct sbuf sink = SBUF_INIT;
	struct assay_error e;
	int code = 127;
	assay_err rc = assay_proc_capture(argv, NULL, out ? out : &sink, &code, &e);
	sbuf_release(&sink);
	return rc == ASSAY_OK && code == 0;
}

assay_err assay_container_list(enum assay_ctr_runtime rt, const char *run_id, struct strlist *out,
			       struct assay_error *e)
{
	struct sbuf filter = SBUF_INIT, text = SBUF_INIT;
	sbuf_addf(&filter, "label=assay.run=%s", run_id);
	const char *argv[] = {assay_ctr_runtime_names[rt], "ps",       "-a",         "--filter",
			      sbuf_str(&filter),           "--format", "{{.Names}}", NULL};
	assay_err rc = ASSAY_OK;
	if (!quiet(argv, &text)) {
		rc = assay_error_set(e, ASSAY_INFRA, "%s ps: cannot list the run's containers",
				     argv[0]);
	} else {
		char *p = (char *)sbuf_str(&text);
		for (char *nl; *p; p = nl + 1) {
			nl = strchr(p, '\n');
			if (nl)
				*nl = '\0';
			if (*p)
				strlist_push(out, p);
			if (!nl)
				break;
		}
	}
	sbuf_release(&filter);
	sbuf_release(&text);
	return rc;
}

bool assay_container_signal(enum assay_ctr_runtime rt, const char *name, const char *signal)
{
	struct sbuf sig = SBUF_INIT;
	sbuf_addf(&sig, "--signal=%s", signal);
	const char *argv[] = {assay_ctr_runtime_names[rt], "kill", sbuf_str(&sig), name, NULL};
	bool ok = quiet(argv, NULL);
	sbuf_release(&sig);
	return ok;
}

bool assay_container_remove(enum assay_ctr_runtime rt, const char *name)
{
	const char *argv[] = {assay_ctr_runtime_names[rt], "rm", "-f", name, NULL};
	return quiet(argv, NULL);
}

bool assay_container_exists(enum assay_ctr_runtime rt, const char *name)
{
	const char *argv[] = {
	    assay_ctr_runtime_names[rt], "container", "inspect", "--format", "{{.Id}}", name, NULL};
	return quiet(argv, NULL);
}

bool assay_container_remove_wait(enum assay_ctr_runtime rt, const char *name, double wait_s)
{
	double end = assay_monotonic() + wait_s, pause = 0.2;
	for (;;) {
		assay_container_signal(rt, name, "KILL");
		if (assay_container_remove(rt, name) || !assay_container_exists(rt, name))
			return true;
		if (assay_monotonic() + pause > end)
			return false;
		struct timespec ts = {(time_t)pause, (long)((pause - (time_t)pause) * 1e9)};
		nanosleep(&ts, NULL);
		pause = pause * 2 > 2.0 ? 2.0 : pause * 2;
	}
}

assay_err assay_container_digest(const struct assay_container *ctr, struct sbuf *out,
				 struct assay_error *e)
{
	if (!assay_container_is_local(ctr)) {
		sbuf_adds(out, ctr->image);
		return ASSAY_OK;
	}
	const char *rt = assay_ctr_runtime_names[ctr->runtime];
	const char *argv[] = {rt,
			      "image",
			      "inspect",
			      "--format",
			      "{{if .RepoDigests}}{{index .RepoDigests 0}}{{else}}{{.Id}}{{end}}",
			      ctr->image,
			      NULL};
	struct sbuf text = SBUF_INIT;
	if (!quiet(argv, &text)) {
		sbuf_release(&text);
		return assay_error_set(e, ASSAY_INFRA, "%s image inspect %s failed", rt,
				       ctr->image);
	}
	char *s = (char *)sbuf_str(&text);
	char *nl = strchr(s, '\n');
	if (nl)
		*nl = '\0';
	/* "name@sha256:..." (a repo digest) or an image id ("sha256:..." or bare hex). */
	const char *at = strchr(s, '@');
	const char *d = at ? at + 1 : s;
	if (strncmp(d, "sha256:", 7))
		sbuf_adds(out, "sha256:");
	sbuf_adds(out, d);
	sbuf_release(&text);
	return ASSAY_OK;
}

static bool has_prefix(const char *line, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	return n >= k && !memcmp(line, lit, k);
}

/* Formats: podman and docker print their own failures as "Error: ..." and
 * "docker: ..." (125: the runtime, 126/127: the OCI runtime could not start
 * the command); enroot's common::err() prints "[ERROR] %s" and exits 1
 * (NVIDIA/enroot src/common.sh, runtime.sh); apptainer's sylog prints
 * "FATAL:   " and exits 255; pyxis logs through slurmstepd
 * ("slurmstepd: error: pyxis: couldn't start container"). */
bool assay_container_error_line(enum assay_ctr_runtime rt, const char *line, size_t n)
{
	switch (rt) {
	case ASSAY_CTR_PODMAN: return has_prefix(line, n, "Error: ");
	case ASSAY_CTR_DOCKER: return has_prefix(line, n, "docker: ");
	case ASSAY_CTR_ENROOT:
		return has_prefix(line, n, "[ERROR] No such file or directory: ") ||
		       has_prefix(line, n, "[ERROR] Invalid image format: ") ||
		       has_prefix(line, n, "[ERROR] Invalid argument");
	case ASSAY_CTR_APPTAINER: return has_prefix(line, n, "FATAL:   ");
	case ASSAY_CTR_PYXIS:
		return memmem(line, n, "error: pyxis: ", 14) ||
		       memmem(line, n, "error: spank: required plugin spank_pyxis.so", 44);
	}
	return false;
}

bool assay_container_runtime_failed(enum assay_ctr_runtime rt, int exit_code, const char *line)
{
	if (!line || !*line || !exit_code)
		return false;
	switch (rt) {
	case ASSAY_CTR_PODMAN:
	case ASSAY_CTR_DOCKER:
		return exit_code == 125 ||
		       ((exit_code == 126 || exit_code == 127) && strstr(line, "OCI "));
	case ASSAY_CTR_ENROOT: return exit_code == 1;
	case ASSAY_CTR_APPTAINER: return exit_code == 255;
	case ASSAY_CTR_PYXIS: return true;
	}
	return false;
}
