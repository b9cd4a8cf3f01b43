/* Unit tests for containers (src/lib/launch/container.c): the block's
 * parsing and refusals (file and JSON path), container names, and the exact
 * argv each runtime gets: names of variables and secrets only, never a
 * value; enroot mounts as colon-separated fstab entries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "assay/container.h"
#include "assay/json.h"

static int parse(const char *text, struct assay_container *ctr, struct assay_error *e)
{
	json_t *v = json_loads(text, 0, NULL);
	assert_non_null(v);
	struct assay_cfg c = {"suite.json", e};
	int rc = assay_container_parse(&c, v, "$.container", ctr);
	json_decref(v);
	return rc;
}

static char *joined(const struct strlist *l)
{
	return strlist_join(l, " ");
}

static void test_parse_defaults(void **state)
{
	(void)state;
	struct assay_container ctr;
	struct assay_error e;
	assert_int_equal(parse("{\"image\": \"img:1\"}", &ctr, &e), 0);
	assert_true(ctr.on);
	assert_int_equal(ctr.runtime, ASSAY_CTR_PODMAN);
	assert_int_equal(ctr.pull, ASSAY_CTR_PULL_MISSING);
	assert_int_equal(ctr.devices, ASSAY_CTR_DEV_NONE);
	assert_true(assay_container_is_local(&ctr));
	assay_container_release(&ctr);
	struct assay_container none;
	struct assay_cfg c = {"suite.json", &e};
	assert_int_equal(assay_container_parse(&c, NULL, "$.container", &none), 0);
	assert_false(none.on);
	assert_false(assay_container_is_local(&none));
}

static void test_parse_errors(void **state)
{
	(void)state;
	static const struct {
		const char *text, *path, *msg;
	} bad[] = {
	    {"{}", "$.container.image", "missing"},
	    {"{\"image\": \"i\", \"runtime\": \"singularity\"}", "$.container.runtime",
	     "expected one of"},
	    {"{\"image\": \"i\", \"env\": [\"TOKEN=hunter2\"]}", "$.container.env[0]",
	     "expected a variable name, got \"NAME=value\""},
	    {"{\"image\": \"i\", \"env\": [\"1X\"]}", "$.container.env[0]", "variable name"},
	    {"{\"image\": \"i\", \"mounts\": [\"/data\"]}", "$.container.mounts[0]",
	     "host:container[:ro]"},
	    {"{\"image\": \"i\", \"mounts\": [\"/a:/b:rx\"]}", "$.container.mounts[0]",
	     "host:container[:ro]"},
	    {"{\"image\": \"i\", \"pull\": \"sometimes\"}", "$.container.pull", "expected one of"},
	    {"{\"image\": \"i\", \"devices\": \"intel\"}", "$.container.devices",
	     "expected one of"},
	    {"{\"image\": \"i\", \"volumes\": []}", "$.container.volumes", "unknown key"},
	    {"[\"i\"]", "$.container", "expected a container object"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct assay_container ctr;
		struct assay_error e;
		assay_error_clear(&e);
		assert_int_equal(parse(bad[i].text, &ctr, &e), -1);
		assert_string_equal(e.path, bad[i].path);
		if (!strstr(e.message, bad[i].msg))
			fail_msg("%s: \"%s\" lacks \"%s\"", bad[i].text, e.message, bad[i].msg);
		/* The value of a NAME=value is never echoed. */
		assert_null(strstr(e.message, "hunter2"));
		assert_false(ctr.on);
	}
}

static void test_name(void **state)
{
	(void)state;
	struct sbuf sb = SBUF_INIT;
	assay_container_name("20261202T000000Z-abc123", "h100/ep=8 bf16", 2, &sb);
	assert_string_equal(sbuf_str(&sb), "assay-20261202T000000Z-abc123-h100-ep-8-bf16-a2");
	sbuf_reset(&sb);
	assay_container_name("r", "c", 0, &sb);
	assert_string_equal(sbuf_str(&sb), "assay-r-c-a1");
	sbuf_release(&sb);
}

static void test_run_argv(void **state)
{
	(void)state;
	struct assay_container ctr;
	struct assay_error e;
	assert_int_equal(parse("{\"image\": \"img@sha256:ab\", \"runtime\": \"docker\", "
			       "\"devices\": \"nvidia\", \"mounts\": [\"/d:/d:ro\"], "
			       "\"workdir\": \"/w\", \"env\": [\"HF_HOME\", \"TOKEN\"], "
			       "\"options\": [\"--shm-size=1g\"], \"pull\": \"always\"}",
			       &ctr, &e),
			 0);
	struct strlist names = STRLIST_INIT, argv = STRLIST_INIT, out = STRLIST_INIT;
	strlist_push(&names, "TOKEN"); /* a secret named twice passes once */
	strlist_push(&names, "RUN");
	strlist_push(&argv, "python3");
	strlist_push(&argv, "x.py");
	assay_container_run_argv(&ctr, "n1", "r1", "c1", "/out/r1/c1", &names, &argv, &out);
	char *s = joined(&out);
	/* Issue 35: an init as PID 1 (a stop's SIGTERM reaches the workload)
	 * and no log kept by the runtime. */
	assert_string_equal(s, "docker run --rm --init --log-driver none --name n1 --label "
			       "assay.run=r1 --label "
			       "assay.case=c1 --pull=always --gpus all --ipc=host --network=host "
			       "-v /out/r1/c1:/out/r1/c1 -v /d:/d:ro --workdir /w --env HF_HOME "
			       "--env TOKEN --env RUN --shm-size=1g img@sha256:ab python3 x.py");
	free(s);
	/* "init": false leaves the image's own PID 1 (its init). */
	struct assay_container own;
	assert_int_equal(parse("{\"image\": \"i\", \"init\": false}", &own, &e), 0);
	strlist_clear(&out);
	assay_container_run_argv(&own, "n1", "r1", "c1", NULL, NULL, &argv, &out);
	s = joined(&out);
	assert_string_equal(s, "podman run --rm --log-driver none --name n1 --label assay.run=r1 "
			       "--label assay.case=c1 --pull=missing i python3 x.py");
	free(s);
	assay_container_release(&own);
	/* podman takes NVIDIA GPUs through CDI. */
	strlist_clear(&out);
	ctr.runtime = ASSAY_CTR_PODMAN;
	assay_container_run_argv(&ctr, "n1", "r1", "c1", NULL, NULL, &argv, &out);
	s = joined(&out);
	assert_non_null(strstr(s, " --device nvidia.com/gpu=all "));
	free(s);
	/* AMD: the device nodes, groups, IPC and security options. */
	strlist_clear(&out);
	ctr.devices = ASSAY_CTR_DEV_AMD;
	assay_container_run_argv(&ctr, "n1", "r1", "c1", NULL, NULL, &argv, &out);
	s = joined(&out);
	assert_non_null(strstr(s,
			       " --device=/dev/kfd --device=/dev/dri --group-add video "
			       "--cap-add=SYS_PTRACE --cap-add=SYS_ADMIN --security-opt "
			       "seccomp=unconfined --security-opt apparmor=unconfined --ipc=host "
			       "--network=host "));
	free(s);
	strlist_clear(&out);
	strlist_clear(&argv);
	strlist_clear(&names);
	assay_container_release(&ctr);
}

static void test_slurm_forms(void **state)
{
	(void)state;
	struct assay_container ctr;
	struct assay_error e;
	assert_int_equal(parse("{\"image\": \"nvcr.io#nvidia/pytorch:24.01\", \"runtime\": "
			       "\"pyxis\", \"mounts\": [\"/d:/d:ro\", \"/s:/s\"], \"workdir\": "
			       "\"/w\", \"env\": [\"HF_HOME\"]}",
			       &ctr, &e),
			 0);
	struct strlist names = STRLIST_INIT, argv = STRLIST_INIT, out = STRLIST_INIT;
	strlist_push(&names, "TOKEN");
	strlist_push(&argv, "prog");
	assay_container_srun_opts(&ctr, "assay-r-g", "/out/c", &names, &out);
	char *s = joined(&out);
	assert_string_equal(s, "--container-image=nvcr.io#nvidia/pytorch:24.01 "
			       "--container-mounts=/out/c:/out/c,/d:/d:ro,/s:/s "
			       "--container-workdir=/w --container-env=HF_HOME,TOKEN "
			       "--container-name=assay-r-g-a82755a86394");
	free(s);
	/* Issue 35, item 5: another image, another named container (the
	 * first 12 hex digits of the image reference's SHA-256). */
	struct assay_container other;
	assay_container_copy(&other, &ctr);
	free(other.image);
	other.image = xstrdup("nvcr.io#nvidia/pytorch:24.02");
	strlist_clear(&out);
	assay_container_srun_opts(&other, "assay-r-g", NULL, NULL, &out);
	s = joined(&out);
	assert_null(strstr(s, "--container-name=assay-r-g-a82755a86394"));
	assert_non_null(strstr(s, "--container-name=assay-r-g-"));
	free(s);
	/* Relative host paths are made absolute from the current directory
	 * for enroot, apptainer and pyxis; enroot's read-only mount keeps
	 * x-create=auto, as its mounts without options have. */
	char cwd[4096];
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	strlist_clear(&other.mounts);
	strlist_push(&other.mounts, "data:/data:ro");
	strlist_push(&other.mounts, "./ckpt:/ckpt");
	strlist_push(&other.mounts, ".:/src");
	free(other.workdir);
	other.workdir = NULL;
	strlist_clear(&other.env);
	other.runtime = ASSAY_CTR_ENROOT;
	strlist_clear(&out);
	assay_container_wrap_argv(&other, NULL, NULL, &argv, &out);
	s = joined(&out);
	char *want = xasprintf("enroot start --mount %s/data:/data:none:x-create=auto,rbind,ro "
			       "--mount %s/ckpt:/ckpt --mount %s:/src "
			       "nvcr.io#nvidia/pytorch:24.02 prog",
			       cwd, cwd, cwd);
	assert_string_equal(s, want);
	free(want);
	free(s);
	other.runtime = ASSAY_CTR_APPTAINER;
	strlist_clear(&out);
	assay_container_wrap_argv(&other, NULL, NULL, &argv, &out);
	s = joined(&out);
	want = xasprintf("apptainer exec --bind %s/data:/data:ro --bind %s/ckpt:/ckpt --bind "
			 "%s:/src nvcr.io#nvidia/pytorch:24.02 prog",
			 cwd, cwd, cwd);
	assert_string_equal(s, want);
	free(want);
	free(s);
	assay_container_release(&other);
	strlist_clear(&out);
	ctr.runtime = ASSAY_CTR_ENROOT;
	assay_container_wrap_argv(&ctr, "/out/c", &names, &argv, &out);
	s = joined(&out);
	assert_string_equal(
	    s, "enroot start --mount /out/c:/out/c --mount /d:/d:none:x-create=auto,rbind,ro "
	       "--mount /s:/s --env HF_HOME --env TOKEN "
	       "nvcr.io#nvidia/pytorch:24.01 sh -c cd \"$0\" && exec \"$@\" /w prog");
	free(s);
	strlist_clear(&out);
	ctr.runtime = ASSAY_CTR_APPTAINER;
	ctr.devices = ASSAY_CTR_DEV_AMD;
	assay_container_wrap_argv(&ctr, NULL, &names, &argv, &out);
	s = joined(&out);
	assert_string_equal(s, "apptainer exec --rocm --bind /d:/d:ro --bind /s:/s --pwd /w "
			       "nvcr.io#nvidia/pytorch:24.01 prog");
	free(s);
	strlist_clear(&out);
	strlist_clear(&argv);
	strlist_clear(&names);
	assay_container_release(&ctr);
}

/* The digest of a runtime-resolved image is the reference for pyxis,
 * enroot and apptainer (the node resolves it). */
static void test_digest_reference(void **state)
{
	(void)state;
	struct assay_container ctr;
	struct assay_error e;
	assert_int_equal(parse("{\"image\": \"/img/x.sif\", \"runtime\": \"apptainer\"}", &ctr, &e),
			 0);
	struct sbuf d = SBUF_INIT;
	assert_int_equal(assay_container_digest(&ctr, &d, &e), ASSAY_OK);
	assert_string_equal(sbuf_str(&d), "/img/x.sif");
	sbuf_release(&d);
	assay_container_release(&ctr);
}

/* Issue 35, item 4: the runtime's own failure lines and exit codes, from
 * podman 4.3 and docker 28.2 as run here ("Error: IMAGE: image not known",
 * "docker: Cannot connect to the Docker daemon at ..."), NVIDIA/enroot
 * src/common.sh (common::err: "[ERROR] %s", exit 1) and src/runtime.sh
 * messages, apptainer's sylog FATAL prefix (exit 255) and NVIDIA/pyxis
 * pyxis_slurmstepd.c (slurm_error("pyxis: failed to import docker image"),
 * as slurmstepd prints it). */
static void test_runtime_failed(void **state)
{
	(void)state;
	static const struct {
		enum assay_ctr_runtime rt;
		const char *line;
		int code;
		bool infra;
	} cases[] = {
	    {ASSAY_CTR_PODMAN, "Error: localhost/x:missing: image not known", 125, true},
	    {ASSAY_CTR_PODMAN,
	     "Error: runc: runc create failed: unable to start container process: exec: "
	     "\"/bin/nope\": stat /bin/nope: no such file or directory: OCI runtime attempted to "
	     "invoke a command that was not found",
	     127, true},
	    {ASSAY_CTR_PODMAN, "Error: mine", 127, false}, /* a workload's 127 */
	    {ASSAY_CTR_PODMAN, "Error: localhost/x:missing: image not known", 0, false},
	    {ASSAY_CTR_DOCKER,
	     "docker: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the "
	     "docker daemon running?",
	     125, true},
	    {ASSAY_CTR_DOCKER, "docker: Error response from daemon: No such image: x:y", 125, true},
	    {ASSAY_CTR_ENROOT, "[ERROR] No such file or directory: /images/x.sqsh", 1, true},
	    {ASSAY_CTR_ENROOT, "[ERROR] No such file or directory: /images/x.sqsh", 2, false},
	    {ASSAY_CTR_APPTAINER,
	     "FATAL:   could not open image /images/x.sif: failed to retrieve path for "
	     "/images/x.sif: lstat /images/x.sif: no such file or directory",
	     255, true},
	    {ASSAY_CTR_PYXIS, "slurmstepd: error: pyxis: failed to import docker image", 1, true},
	    {ASSAY_CTR_PYXIS, "slurmstepd: error: pyxis: couldn't start container", 1, true},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *l = cases[i].line;
		assert_true(assay_container_error_line(cases[i].rt, l, strlen(l)));
		if (assay_container_runtime_failed(cases[i].rt, cases[i].code, l) != cases[i].infra)
			fail_msg("case %zu: %s exit %d", i, l, cases[i].code);
	}
	/* The workload's own lines are not the runtime's. */
	static const char *const own[] = {
	    "ERROR: loss is nan", "Traceback (most recent call last):", "[ERROR] rank 3 failed",
	    "error: pyxis"};
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		for (int rt = ASSAY_CTR_PODMAN; rt <= ASSAY_CTR_APPTAINER; rt++)
			assert_false(assay_container_error_line((enum assay_ctr_runtime)rt, own[i],
								strlen(own[i])));
	assert_false(assay_container_runtime_failed(ASSAY_CTR_PODMAN, 125, ""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_defaults), cmocka_unit_test(test_parse_errors),
	    cmocka_unit_test(test_name),           cmocka_unit_test(test_run_argv),
	    cmocka_unit_test(test_slurm_forms),    cmocka_unit_test(test_digest_reference),
	    cmocka_unit_test(test_runtime_failed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
