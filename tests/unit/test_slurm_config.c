/* Unit tests for the Slurm launcher's settings and node-count checks: the
 * launcher block (every error verbatim), registry operator defaults, EP and
 * command shapes against the platform registry, hostlist expressions, and
 * fitting a case into an existing allocation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/json.h"
#include "assay/slurm.h"

static char msg[2048];

/* Parse a launcher block; "ok" or the formatted error. */
static const char *options(const char *text, struct assay_slurm_options *o)
{
	struct assay_error e;
	struct assay_cfg c = {"suite.json", &e};
	json_t *v = assay_json_loadb(text, strlen(text), "suite.json", &e);
	assert_non_null(v);
	assay_slurm_options_init(o);
	int rc = assay_slurm_options_parse(&c, v, "$.launcher", o);
	json_decref(v);
	if (rc < 0) {
		assert_int_equal(e.code, ASSAY_USAGE);
		assay_slurm_options_release(o);
		return assay_error_format(&e, msg, sizeof(msg));
	}
	return "ok";
}

static const char *bad(const char *text)
{
	struct assay_slurm_options o;
	return options(text, &o);
}

static void test_options_ok(void **state)
{
	(void)state;
	struct assay_slurm_options o;
	assert_string_equal(
	    options("{\"type\": \"slurm\", \"partition\": \"gpu\", \"account\": "
		    "\"perf\", \"qos\": \"high\", \"reservation\": \"bench\", "
		    "\"time\": \"1-00:00\", \"exclusive\": true, \"nodelist\": "
		    "\"gpu[001-002]\", \"exclude\": \"gpu009\", \"constraint\": "
		    "\"h100&ib\", \"gpu_gres\": false, \"gpus_per_node\": 8, \"mpi\": "
		    "\"pmi2\", \"mpi_launcher\": [\"mpirun\", \"-x\", \"A\", \"-x\", "
		    "\"B\"], \"srun_args\": [\"--cpu-bind=none\"], \"sbatch_args\": "
		    "[\"--mem=0\", \"--signal=B:USR1@60\"], \"poll_interval_s\": 2.5, "
		    "\"master_port\": 30000, \"job_per\": \"case\", \"ntasks_per_node\": 4}",
		    &o),
	    "ok");
	assert_string_equal(o.partition, "gpu");
	assert_string_equal(o.time, "1-00:00");
	assert_int_equal(o.exclusive, 1);
	assert_int_equal(o.gpu_gres, 0);
	assert_int_equal(o.gpus_per_node, 8);
	assert_string_equal(o.mpi, "pmi2");
	assert_int_equal(o.mpi_launcher.n, 5);
	assert_int_equal(o.sbatch_args.n, 2);
	assert_true(o.poll_interval_s == 2.5);
	assert_int_equal(o.master_port, 30000);
	assert_int_equal(o.job_per, ASSAY_SLURM_PER_CASE);
	assert_int_equal(o.ntasks_per_node, 4);
	/* A copy is deep and equal. */
	struct assay_slurm_options c;
	assay_slurm_options_copy(&c, &o);
	assay_slurm_options_release(&o);
	assert_string_equal(c.partition, "gpu");
	assert_string_equal(c.nodelist, "gpu[001-002]");
	assert_string_equal(c.mpi, "pmi2");
	assert_string_equal(c.mpi_launcher.v[4], "B");
	assert_string_equal(c.sbatch_args.v[1], "--signal=B:USR1@60");
	assert_int_equal(c.exclusive, 1);
	assert_int_equal(c.ntasks_per_node, 4);
	assert_int_equal(c.job_per, ASSAY_SLURM_PER_CASE);
	assay_slurm_options_release(&c);

	/* Nothing set: every field says so; the registry fills the gaps. */
	assert_string_equal(options("{}", &o), "ok");
	assert_null(o.partition);
	assert_int_equal(o.exclusive, -1);
	assert_int_equal(o.gpu_gres, -1);
	assert_int_equal(o.job_per, ASSAY_SLURM_PER_SHARD);
	json_t *op = json_pack("{s:s,s:s,s:b,s:b}", "partition", "batch", "account", "ops",
			       "exclusive", 1, "gpu_gres", 0);
	assay_slurm_options_apply_operator(&o, op);
	assert_string_equal(o.partition, "batch");
	assert_string_equal(o.account, "ops");
	assert_int_equal(o.exclusive, 1);
	assert_int_equal(o.gpu_gres, 0);
	assay_slurm_options_release(&o);
	/* The suite wins over the registry. */
	assert_string_equal(options("{\"partition\": \"gpu\", \"exclusive\": false}", &o), "ok");
	assay_slurm_options_apply_operator(&o, op);
	assay_slurm_options_apply_operator(&o, NULL);
	assert_string_equal(o.partition, "gpu");
	assert_string_equal(o.account, "ops");
	assert_int_equal(o.exclusive, 0);
	assay_slurm_options_release(&o);
	json_decref(op);
}

static void test_options_errors(void **state)
{
	(void)state;
	assert_string_equal(bad("{\"type\": \"local\"}"),
			    "suite.json: $.launcher.type: expected \"slurm\", got \"local\"");
	assert_string_equal(
	    bad("{\"partiton\": \"gpu\"}"),
	    "suite.json: $.launcher.partiton: unknown key (expected one of: type, "
	    "partition, account, qos, reservation, time, exclusive, nodelist, "
	    "exclude, constraint, gpu_gres, gpus_per_node, mpi, mpi_launcher, "
	    "srun_args, sbatch_args, poll_interval_s, master_port, job_per, ntasks_per_node)");
	assert_string_equal(
	    bad("{\"time\": \"1h\"}"),
	    "suite.json: $.launcher.time: expected a Slurm time limit (\"M\", "
	    "\"M:S\", \"H:M:S\", \"D-H\", \"D-H:M\", \"D-H:M:S\" or \"UNLIMITED\"), "
	    "got \"1h\"");
	assert_string_equal(
	    bad("{\"time\": \"0\"}"),
	    "suite.json: $.launcher.time: expected a Slurm time limit (\"M\", "
	    "\"M:S\", \"H:M:S\", \"D-H\", \"D-H:M\", \"D-H:M:S\" or \"UNLIMITED\"), "
	    "got \"0\"");
	assert_string_equal(
	    bad("{\"nodelist\": \"gpu[4-1]\"}"),
	    "suite.json: $.launcher.nodelist: hostlist \"gpu[4-1]\": reversed range "
	    "\"4-1\"");
	assert_string_equal(bad("{\"exclude\": \"gpu[1-2\"}"),
			    "suite.json: $.launcher.exclude: hostlist \"gpu[1-2\": unmatched '['");
	assert_string_equal(
	    bad("{\"partition\": \"gpu\\\"x\"}"),
	    "suite.json: $.launcher.partition: contains a control character, '\"' or "
	    "'\\', which an #SBATCH line cannot carry");
	assert_string_equal(
	    bad("{\"exclusive\": \"yes\"}"),
	    "suite.json: $.launcher.exclusive: expected true or false, got \"yes\"");
	assert_string_equal(bad("{\"gpus_per_node\": 0}"),
			    "suite.json: $.launcher.gpus_per_node: expected an integer from 1 to "
			    "4096, got 0");
	assert_string_equal(
	    bad("{\"mpi\": \"--mpi=pmix\"}"),
	    "suite.json: $.launcher.mpi: expected an srun --mpi plugin name such as "
	    "\"pmix\", \"pmi2\" or \"none\", got \"--mpi=pmix\"");
	assert_string_equal(bad("{\"mpi_launcher\": []}"),
			    "suite.json: $.launcher.mpi_launcher: expected a non-empty array of "
			    "strings, got []");
	assert_string_equal(bad("{\"mpi_launcher\": [\"mpirun\", 4]}"),
			    "suite.json: $.launcher.mpi_launcher[1]: expected a non-empty string, "
			    "got 4");
	assert_string_equal(bad("{\"srun_args\": [\"hostname\"]}"),
			    "suite.json: $.launcher.srun_args[0]: \"hostname\": expected an srun "
			    "option starting with '-'");
	assert_string_equal(
	    bad("{\"sbatch_args\": [\"-N2\"]}"),
	    "suite.json: $.launcher.sbatch_args[0]: \"-N2\": expected a long sbatch "
	    "option such as \"--mem=0\"");
	assert_string_equal(bad("{\"sbatch_args\": [\"--partition=x\"]}"),
			    "suite.json: $.launcher.sbatch_args[0]: \"--partition=x\": --partition "
			    "has its own key: use \"partition\"");
	assert_string_equal(bad("{\"sbatch_args\": [\"--output=/x\"]}"),
			    "suite.json: $.launcher.sbatch_args[0]: \"--output=/x\": assay sets "
			    "--output itself");
	assert_string_equal(bad("{\"poll_interval_s\": 0}"),
			    "suite.json: $.launcher.poll_interval_s: expected a number from 0.1 to "
			    "3600, got 0");
	assert_string_equal(
	    bad("{\"job_per\": \"node\"}"),
	    "suite.json: $.launcher.job_per: expected one of \"shard\", \"case\", got "
	    "\"node\"");
}

static void platform(struct assay_platform *p, const char *sku, long long gpus)
{
	memset(p, 0, sizeof(*p));
	p->sku = (char *)sku;
	p->gpus_per_node = gpus;
}

static void test_shapes(void **state)
{
	(void)state;
	struct assay_platform h100, local;
	platform(&h100, "h100", 8);
	platform(&local, "local-cpu", 4);
	struct assay_slurm_options o;
	struct assay_slurm_shape sh;
	struct assay_error e;
	assay_slurm_options_init(&o);

	assert_int_equal(assay_slurm_shape_ep(&h100, "platforms.json", &o, "suite.json: $.launcher",
					      16, &sh, &e),
			 ASSAY_OK);
	assert_int_equal(sh.nodes, 2);
	assert_int_equal(sh.ntasks_per_node, 8);
	assert_int_equal(sh.gpus_per_node, 8);
	assert_int_equal(assay_slurm_shape_ep(&h100, "platforms.json", &o, "x", 4, &sh, &e),
			 ASSAY_OK);
	assert_int_equal(sh.nodes, 1);
	assert_int_equal(sh.ntasks_per_node, 4);
	assert_int_equal(sh.gpus_per_node, 4);
	o.gpu_gres = 0;
	assert_int_equal(assay_slurm_shape_ep(&local, "platforms.json", &o, "x", 2, &sh, &e),
			 ASSAY_OK);
	assert_int_equal(sh.gpus_per_node, 0);
	o.gpu_gres = -1;

	assert_int_equal(assay_slurm_shape_ep(&h100, "platforms.json", &o, "suite.json: $.launcher",
					      12, &sh, &e),
			 ASSAY_USAGE);
	assert_string_equal(e.message, "suite.json: $.launcher: EP 12 spans 2 nodes of platform "
				       "h100 but is not a multiple of its gpus_per_node (8): every "
				       "node must run the same number of ranks");
	o.gpus_per_node = 4;
	assert_int_equal(assay_slurm_shape_ep(&h100, "configs/platforms.json", &o,
					      "suite.json: $.launcher", 16, &sh, &e),
			 ASSAY_USAGE);
	assert_string_equal(e.message, "suite.json: $.launcher: gpus_per_node 4 disagrees with the "
				       "platform registry (configs/platforms.json: "
				       "$.platforms.h100.gpus_per_node is 8)");
	o.gpus_per_node = 8;
	o.nodelist = xstrdup("gpu[001-016]");
	assert_int_equal(assay_slurm_shape_ep(&h100, "platforms.json", &o, "suite.json: $.launcher",
					      16, &sh, &e),
			 ASSAY_USAGE);
	assert_string_equal(
	    e.message, "suite.json: $.launcher: nodelist \"gpu[001-016]\" names 16 hosts but the "
		       "job needs 2 node(s); Slurm would put every listed host into the job "
		       "(name a pool with a reservation or constraint instead)");
	free(o.nodelist);
	o.nodelist = xstrdup("gpu[001-002]");
	o.exclude = xstrdup("gpu[002-003]");
	assert_int_equal(assay_slurm_shape_ep(&h100, "platforms.json", &o, "w", 16, &sh, &e),
			 ASSAY_USAGE);
	assert_string_equal(e.message, "w: host gpu002 is both in nodelist \"gpu[001-002]\" and in "
				       "exclude \"gpu[002-003]\"");
	free(o.exclude);
	o.exclude = NULL;
	assert_int_equal(assay_slurm_shape_ep(&h100, "platforms.json", &o, "w", 16, &sh, &e),
			 ASSAY_OK);
	assert_int_equal(assay_slurm_shape_ep(&h100, "platforms.json", &o, "w", 0, &sh, &e),
			 ASSAY_USAGE);
	assert_string_equal(e.message, "w: EP size 0: expected a positive integer");

	/* Command workloads: the suite's node count, GPUs from the registry. */
	assert_int_equal(assay_slurm_shape_nodes(&h100, "platforms.json", &o, "w", 2, 1, &sh, &e),
			 ASSAY_OK);
	assert_int_equal(sh.nodes, 2);
	assert_int_equal(sh.ntasks_per_node, 1);
	assert_int_equal(sh.gpus_per_node, 8);
	assert_int_equal(assay_slurm_shape_nodes(&h100, "platforms.json", &o, "w", 1, 1, &sh, &e),
			 ASSAY_USAGE);
	assert_string_equal(e.message,
			    "w: nodelist \"gpu[001-002]\" names 2 hosts but the job "
			    "needs 1 node(s); Slurm would put every listed host into the "
			    "job (name a pool with a reservation or constraint instead)");
	assert_int_equal(assay_slurm_shape_nodes(NULL, NULL, &o, "w", 0, 1, &sh, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "w: 0 node(s) x 1 task(s): expected positive counts");
	free(o.nodelist);
	o.nodelist = NULL;
	o.gpus_per_node = 0;
	assert_int_equal(assay_slurm_shape_nodes(NULL, NULL, &o, "w", 3, 2, &sh, &e), ASSAY_OK);
	assert_int_equal(sh.gpus_per_node, 0);
	assay_slurm_options_release(&o);

	assert_int_equal(assay_slurm_check_hosts(2, "a,,b[", NULL, "w", &e), ASSAY_USAGE);
	assert_string_equal(e.message, "w: nodelist: hostlist \"a,,b[\": unmatched '['");
}

static char *expand(const char *expr)
{
	struct strlist l = STRLIST_INIT;
	struct assay_error e;
	if (assay_hostlist_expand(expr, &l, &e) != ASSAY_OK) {
		assert_int_equal(l.n, 0);
		strlist_clear(&l);
		snprintf(msg, sizeof(msg), "error: %s", e.message);
		return xstrdup(msg);
	}
	char *s = strlist_join(&l, " ");
	strlist_clear(&l);
	return s;
}

static void test_hostlist(void **state)
{
	(void)state;
	const struct {
		const char *expr, *want;
	} cases[] = {
	    {"node1", "node1"},
	    {"node[01-04,07]", "node01 node02 node03 node04 node07"},
	    {"a1,b[2-3]-ib", "a1 b2-ib b3-ib"},
	    {"r[1-2]n[1-2]", "r1n1 r1n2 r2n1 r2n2"},
	    {"gpu[8-11]", "gpu8 gpu9 gpu10 gpu11"},
	    {"gpu[098-101]", "gpu098 gpu099 gpu100 gpu101"},
	    {"x[5]", "x5"},
	    {" a , b ", "a b"},
	    {"n[1-2],m", "n1 n2 m"},
	    {"gpu[4-1]", "error: hostlist \"gpu[4-1]\": reversed range \"4-1\""},
	    {"gpu[1-2", "error: hostlist \"gpu[1-2\": unmatched '['"},
	    {"gpu1-2]", "error: hostlist \"gpu1-2]\": unmatched ']'"},
	    {"gpu[]", "error: hostlist \"gpu[]\": empty range \"[]\""},
	    {"gpu[1,]", "error: hostlist \"gpu[1,]\": empty range item"},
	    {"gpu[a-b]", "error: hostlist \"gpu[a-b]\": bad range \"a-b\" (expected N or N-M)"},
	    {"gpu[1-2-3]", "error: hostlist \"gpu[1-2-3]\": bad range \"1-2-3\" (expected N or "
			   "N-M)"},
	    {"gpu[[1]]", "error: hostlist \"gpu[[1]]\": unmatched '['"},
	    {"[1-2]", "error: hostlist \"[1-2]\": a name cannot start with '['"},
	    {"", "error: hostlist \"\": no hosts"},
	    {",", "error: hostlist \",\": no hosts"},
	    {"n[0-99999]", "error: hostlist \"n[0-99999]\": more than 65536 hosts"},
	    {"a[0-999]b[0-999]", "error: hostlist \"a[0-999]b[0-999]\": more than 65536 hosts"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *got = expand(cases[i].expr);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
	struct assay_error e;
	assert_int_equal(assay_hostlist_count("gpu[001-016],login1", &e), 17);
	assert_int_equal(assay_hostlist_count("gpu[", &e), -1);
}

static void test_alloc(void **state)
{
	(void)state;
	struct assay_slurm_alloc a;
	struct assay_error e;
	char why[512];
	struct strlist use = STRLIST_INIT;

	char *none[] = {"HOME=/root", NULL};
	assert_int_equal(assay_slurm_alloc_detect(none, &a, &e), ASSAY_OK);
	assert_false(a.inside);
	assert_false(assay_slurm_alloc_fits(&a, 1, NULL, NULL, NULL, why, sizeof(why)));
	assert_string_equal(why, "not inside a Slurm allocation (SLURM_JOB_ID is not set)");
	assay_slurm_alloc_release(&a);

	char *salloc[] = {"SLURM_JOB_ID=4242",
			  "SLURM_JOB_NUM_NODES=4",
			  "SLURM_JOB_NODELIST=gpu[001-003,009]",
			  "SLURM_NNODES=4",
			  "SLURM_JOB_CPUS_PER_NODE=96(x3),48",
			  NULL};
	assert_int_equal(assay_slurm_alloc_detect(salloc, &a, &e), ASSAY_OK);
	assert_true(a.inside);
	assert_int_equal(a.cpus_per_node, 48);
	assert_false(a.in_step);
	assert_string_equal(a.job_id, "4242");
	assert_int_equal(a.nodes, 4);
	assert_true(assay_slurm_alloc_fits(&a, 2, NULL, NULL, &use, why, sizeof(why)));
	char *s = strlist_join(&use, ",");
	assert_string_equal(s, "gpu001,gpu002");
	free(s);
	strlist_clear(&use);
	assert_true(assay_slurm_alloc_fits(&a, 2, "gpu009", "gpu001", &use, why, sizeof(why)));
	s = strlist_join(&use, ",");
	assert_string_equal(s, "gpu009,gpu002");
	free(s);
	strlist_clear(&use);
	assert_false(assay_slurm_alloc_fits(&a, 8, NULL, NULL, &use, why, sizeof(why)));
	assert_string_equal(why, "the case needs 8 node(s); allocation 4242 has 4 usable "
				 "(gpu[001-003,009])");
	assert_int_equal(use.n, 0);
	assert_false(assay_slurm_alloc_fits(&a, 4, NULL, "gpu003", NULL, why, sizeof(why)));
	assert_string_equal(why, "the case needs 4 node(s); allocation 4242 has 3 usable "
				 "(gpu[001-003,009] minus excluded hosts)");
	assert_false(assay_slurm_alloc_fits(&a, 2, "gpu[004-005]", NULL, NULL, why, sizeof(why)));
	assert_string_equal(why, "host gpu004 of the nodelist is not in allocation 4242 "
				 "(gpu[001-003,009])");
	assert_false(assay_slurm_alloc_fits(&a, 2, "gpu001", "gpu001", NULL, why, sizeof(why)));
	assert_string_equal(why, "host gpu001 is both in the nodelist and excluded");
	assert_false(assay_slurm_alloc_fits(&a, 1, "gpu[001-002]", NULL, NULL, why, sizeof(why)));
	assert_string_equal(why, "the nodelist names 2 hosts but the case needs 1");
	assay_slurm_alloc_release(&a);

	/* Older variable names; assay itself under srun. */
	char *step[] = {"SLURM_JOBID=7", "SLURM_NODELIST=vm", "SLURM_NNODES=1", "SLURM_STEP_ID=0",
			NULL};
	assert_int_equal(assay_slurm_alloc_detect(step, &a, &e), ASSAY_OK);
	assert_true(a.in_step);
	assert_int_equal(a.cpus_per_node, -1);
	assert_false(assay_slurm_alloc_fits(&a, 1, NULL, NULL, NULL, why, sizeof(why)));
	assert_string_equal(why, "assay runs inside a job step of job 7 (under srun); steps "
				 "cannot be started from a step");
	assay_slurm_alloc_release(&a);

	char *odd_cpus[] = {"SLURM_JOB_ID=8", "SLURM_JOB_NODELIST=vm",
			    "SLURM_JOB_CPUS_PER_NODE=2(x", NULL};
	assert_int_equal(assay_slurm_alloc_detect(odd_cpus, &a, &e), ASSAY_OK);
	assert_int_equal(a.cpus_per_node, -1);
	assay_slurm_alloc_release(&a);

	char *bad_id[] = {"SLURM_JOB_ID=12x", NULL};
	assert_int_equal(assay_slurm_alloc_detect(bad_id, &a, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "SLURM_JOB_ID=\"12x\": expected a job id (digits)");
	char *no_list[] = {"SLURM_JOB_ID=12", NULL};
	assert_int_equal(assay_slurm_alloc_detect(no_list, &a, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "SLURM_JOB_ID is set but SLURM_JOB_NODELIST is not: cannot "
				       "tell the allocation's nodes");
	char *mismatch[] = {"SLURM_JOB_ID=12", "SLURM_JOB_NODELIST=n[1-2]", "SLURM_JOB_NUM_NODES=3",
			    NULL};
	assert_int_equal(assay_slurm_alloc_detect(mismatch, &a, &e), ASSAY_USAGE);
	assert_string_equal(e.message,
			    "SLURM_JOB_NUM_NODES=\"3\" but SLURM_JOB_NODELIST=\"n[1-2]\" "
			    "names 2 host(s)");
	char *bad_list[] = {"SLURM_JOB_ID=12", "SLURM_JOB_NODELIST=n[2-1]", NULL};
	assert_int_equal(assay_slurm_alloc_detect(bad_list, &a, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "SLURM_JOB_NODELIST: hostlist \"n[2-1]\": reversed range "
				       "\"2-1\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_options_ok), cmocka_unit_test(test_options_errors),
	    cmocka_unit_test(test_shapes),     cmocka_unit_test(test_hostlist),
	    cmocka_unit_test(test_alloc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
