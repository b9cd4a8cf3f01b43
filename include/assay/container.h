/* Containers: a suite's `container` block (docs/containers.md) and how a
 * case's argv becomes the runtime's: `podman|docker run ...` for the local
 * launcher, srun's pyxis options, or an `enroot start` / `apptainer exec`
 * wrapper for a Slurm step. Secrets and `env` cross by name only; no value
 * is ever put on a command line. */
#ifndef ASSAY_CONTAINER_H
#define ASSAY_CONTAINER_H

#include <jansson.h>
#include <stdbool.h>

#include "assay/cfg.h"
#include "assay/error.h"
#include "assay/util.h"

enum assay_ctr_runtime {
	ASSAY_CTR_PODMAN = 0,
	ASSAY_CTR_DOCKER,
	ASSAY_CTR_PYXIS,
	ASSAY_CTR_ENROOT,
	ASSAY_CTR_APPTAINER,
};
enum assay_ctr_devices { ASSAY_CTR_DEV_NONE = 0, ASSAY_CTR_DEV_AMD, ASSAY_CTR_DEV_NVIDIA };
enum assay_ctr_pull { ASSAY_CTR_PULL_MISSING = 0, ASSAY_CTR_PULL_ALWAYS, ASSAY_CTR_PULL_NEVER };

/* The block as written (strings may hold {NAME} placeholders), or one
 * case's copy with every placeholder filled. */
struct assay_container {
	bool on; /* a block was given */
	enum assay_ctr_runtime runtime;
	char *image;
	struct strlist mounts;  /* host:container[:ro] */
	char *workdir;          /* or NULL */
	struct strlist env;     /* names passed through from assay's environment */
	struct strlist options; /* extra runtime flags, verbatim */
	enum assay_ctr_pull pull;
	enum assay_ctr_devices devices;
	bool no_init; /* "init": false: podman/docker run without --init */
};

extern const char *const assay_ctr_runtime_names[]; /* NULL-terminated, enum order */
extern const char *const assay_ctr_device_names[];
extern const char *const assay_ctr_pull_names[];

/* Parse the block at path (v may be NULL: no container). -1 on error. */
int assay_container_parse(struct assay_cfg *c, const json_t *v, const char *path,
			  struct assay_container *out);
void assay_container_copy(struct assay_container *dst, const struct assay_container *src);
void assay_container_release(struct assay_container *ctr);
/* podman or docker: the local launcher runs these itself. */
bool assay_container_is_local(const struct assay_container *ctr);

/* The name of a case's container: assay-<run>-<case>-a<attempt>, with
 * characters a runtime refuses turned into '-'. */
void assay_container_name(const char *run_id, const char *case_id, int attempt, struct sbuf *out);

/* podman/docker: `RUNTIME run --rm [--init] --log-driver none --name NAME
 * --label assay.run=RUN --label assay.case=CASE --pull=P [devices] -v
 * CASE_DIR:CASE_DIR -v MOUNTS --workdir W --env NAME... OPTIONS IMAGE
 * argv...`. env_names are the suite's variables and secrets (names only).
 * --init: an init as PID 1 passes a stop's SIGTERM on to the workload;
 * --log-driver none: the runtime keeps no copy of the (unredacted) output. */
void assay_container_run_argv(const struct assay_container *ctr, const char *name,
			      const char *run_id, const char *case_id, const char *case_dir,
			      const struct strlist *env_names, const struct strlist *argv,
			      struct strlist *out);
/* pyxis: srun's options (--container-image=..., --container-mounts=...,
 * --container-workdir=..., --container-env=NAMES, --container-name=...). */
void assay_container_srun_opts(const struct assay_container *ctr, const char *name,
			       const char *case_dir, const struct strlist *env_names,
			       struct strlist *out);
/* enroot or apptainer: the step's argv wrapped (prefix + argv). */
void assay_container_wrap_argv(const struct assay_container *ctr, const char *case_dir,
			       const struct strlist *env_names, const struct strlist *argv,
			       struct strlist *out);

/* The runtime's `ps` for containers labelled assay.run=run_id: their names
 * into out. ASSAY_INFRA when the runtime cannot be asked. */
assay_err assay_container_list(enum assay_ctr_runtime rt, const char *run_id, struct strlist *out,
			       struct assay_error *e);
/* Stop a container: signal (SIGTERM with grace > 0, SIGKILL with 0), or
 * with remove, `rm -f` it. Output discarded; true when the runtime said ok. */
bool assay_container_signal(enum assay_ctr_runtime rt, const char *name, const char *signal);
bool assay_container_remove(enum assay_ctr_runtime rt, const char *name);
/* Whether the runtime knows a container of that name (any state). */
bool assay_container_exists(enum assay_ctr_runtime rt, const char *name);
/* Kill and remove, again until it is gone or wait_s passed (podman's
 * `rm -f` can fail while the container's conmon is being ended: "timed out
 * waiting for file /run/libpod/exits/..."). True once it is gone. */
bool assay_container_remove_wait(enum assay_ctr_runtime rt, const char *name, double wait_s);
/* Infrastructure or workload? A line the runtime itself prints when it
 * fails, as distinct from the workload's own output: podman "Error: ...",
 * docker "docker: ...", enroot's own checks "[ERROR] No such file or
 * directory: ..." (and "Invalid image format", "Invalid argument"),
 * apptainer "FATAL:   ...", pyxis "...error: pyxis: ..." (through
 * slurmstepd). n: the line's length, without its line end. */
bool assay_container_error_line(enum assay_ctr_runtime rt, const char *line, size_t n);
/* Does exit_code, with line (the first such line of the case's stderr),
 * say that the runtime failed to pull, start or reach its daemon? podman
 * and docker: 125, or 126/127 with an OCI runtime error; enroot 1;
 * apptainer 255; pyxis any non-zero code. */
bool assay_container_runtime_failed(enum assay_ctr_runtime rt, int exit_code, const char *line);

/* The image's digest (`image inspect`: the repo digest when it has one, else
 * the image id), into out; ASSAY_INFRA when it cannot be inspected. For
 * pyxis, enroot and apptainer: the reference as given. */
assay_err assay_container_digest(const struct assay_container *ctr, struct sbuf *out,
				 struct assay_error *e);

#endif
