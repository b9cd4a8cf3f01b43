/* assay-coll: nccl-tests' collective benchmarks (all_reduce_perf ...) over
 * MPI: nccl-tests' command line, table and -J JSON, every point checked,
 * with the mpi and shm backends on host memory and the nccl and rccl
 * backends on GPUs (docs/collectives.md). Here
 * the run (MPI, the backend, the sweep); args.c reads the command line,
 * timing.c times the calls and table.c prints. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "coll.h"
#include "opt.h"

const struct coll_backend *const coll_backends[] = {&coll_backend_mpi, &coll_backend_nccl,
						    &coll_backend_rccl, &coll_backend_shm, NULL};

/* The largest send and receive buffers of the sweep, in bytes: those of
 * maxbytes (the warm-ups double up to it), as nccl-tests allocates. */
static void buffer_bytes(const struct coll_opts *o, int nranks, size_t *sb, size_t *rb)
{
	*sb = *rb = 0;
	for (int t = 0; coll_types[t].name; t++) {
		size_t elt = coll_type_size(t);
		if (!elt || (o->type >= 0 && o->type != t))
			continue;
		struct coll_shape sh;
		coll_shape_of((enum coll_op)o->op, o->maxb, elt, nranks, &sh);
		/* -u: both buffers start unalign elements in (nccl-tests pads). */
		size_t pad = (size_t)o->unalign * elt;
		size_t send = sh.send_count * elt + pad, recv = sh.recv_count * elt + pad;
		*sb = send > *sb ? send : *sb;
		*rb = recv > *rb ? recv : *rb;
		*rb = send > *rb ? send : *rb; /* in place the input is here */
	}
}

/* What needs the rank count: -r within the ranks, every type's largest
 * count an MPI count. ASSAY_USAGE (said on rank 0) or 0. */
static int check_ranks(const struct coll_opts *o, const struct coll_run *run, size_t rb)
{
	if (o->root >= run->size) {
		if (run->rank == 0)
			coll_usage("-r %lld: there are %d ranks (0 to %d)", o->root, run->size,
				   run->size - 1);
		return ASSAY_USAGE;
	}
	for (int ty = 0; coll_types[ty].name; ty++) {
		size_t elt = coll_type_size(ty);
		if (elt && (o->type < 0 || o->type == ty) && rb / elt > INT_MAX) {
			if (run->rank == 0)
				coll_usage("-e %zu: %zu elements of %s do not fit an MPI count (at "
					   "most %d)",
					   o->maxb, rb / elt, coll_types[ty].name, INT_MAX);
			return ASSAY_USAGE;
		}
	}
	return 0;
}

/* The memory this node can give, in bytes: MemAvailable, or less where
 * ASSAY_COLL_MEMORY says so (a share of a node; K, M, G binary); 0: not
 * known (no check). */
static size_t node_memory(void)
{
	size_t avail = 0, lim;
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long kb;
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			avail = (size_t)kb * 1024;
	}
	if (f)
		fclose(f);
	const char *env = getenv("ASSAY_COLL_MEMORY");
	if (env && coll_parse_size(env, &lim) && lim && (!avail || lim < avail))
		avail = lim;
	return avail;
}

/* Every rank of a node holds its buffers (and the shm backend's staging
 * copy for in-place alltoall and sendrecv) at once: refused with exit 2
 * before anything is allocated when the node has not that much memory,
 * where the allocation would abort. */
static int check_memory(const struct coll_opts *o, const struct coll_run *run, size_t sb, size_t rb)
{
	bool stage = coll_backends[o->backend] == &coll_backend_shm &&
		     (o->op == COLL_ALLTOALL || o->op == COLL_SENDRECV);
	stage = stage || o->op == COLL_ALLTOALLV; /* both backends stage it in place */
	/* mulsum on the mpi backend: an odd rank's doubled input (backend_mpi.c). */
	bool premul = coll_backends[o->backend] == &coll_backend_mpi &&
		      (o->redop < 0 || o->redop == CR_MULSUM) && o->op != COLL_SENDRECV &&
		      coll_op_has_redop((enum coll_op)o->op);
	double need =
	    (double)sb + (double)rb + (stage ? (double)rb : 0) + (premul ? (double)sb : 0);
	MPI_Comm node;
	int local = 1;
	MPI_CHECK(
	    MPI_Comm_split_type(run->comm, MPI_COMM_TYPE_SHARED, run->rank, MPI_INFO_NULL, &node));
	MPI_CHECK(MPI_Comm_size(node, &local));
	MPI_CHECK(MPI_Comm_free(&node));
	size_t avail = node_memory();
	int bad = avail && need * local > (double)avail, any = 0;
	MPI_CHECK(MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_LOR, run->comm));
	if (!any)
		return 0;
	if (run->rank == 0)
		coll_usage("-e %zu: the buffers need %.0f bytes on a node (%d ranks x %.0f), more "
			   "than the %zu bytes of memory available there (MemAvailable%s); give a "
			   "smaller -e",
			   o->maxb, need * local, local, need, avail,
			   getenv("ASSAY_COLL_MEMORY") ? " or ASSAY_COLL_MEMORY" : "");
	return ASSAY_USAGE;
}

/* Every type, operator and root the options select, one TimeTest each;
 * hypercube only on a power-of-two rank count (nccl-tests says so and
 * prints no row). */
static void sweep(struct coll_table *t)
{
	const struct coll_opts *o = t->o;
	int n = t->run.size;
	if (o->op == COLL_HYPERCUBE && (n & (n - 1))) {
		if (t->run.rank == 0)
			printf("nRanks %d is not a power of 2, skipping\n", n);
		return;
	}
	bool redops = coll_op_has_redop((enum coll_op)o->op);
	for (int ty = 0; coll_types[ty].name; ty++) {
		if (!coll_type_size(ty) || (o->type >= 0 && o->type != ty))
			continue;
		for (int r = 0; r < CR_NREDOPS; r++) {
			if (redops ? (o->redop >= 0 && o->redop != r) : r != 0)
				continue;
			int r0 = 0, r1 = 0;
			if (coll_op_has_root((enum coll_op)o->op)) {
				r0 = o->root < 0 ? 0 : (int)o->root;
				r1 = o->root < 0 ? t->run.size - 1 : (int)o->root;
			}
			for (int root = r0; root <= r1; root++)
				coll_time_test(t, ty, redops ? (enum coll_redop)r : CR_SUM, root);
		}
	}
}

/* The backend on every rank: ASSAY_OK, or ASSAY_NO_METRICS (on every rank)
 * after saying why. */
static int setup(struct coll_run *run, size_t sb, size_t rb)
{
	char reason[512] = "";
	assay_err st = run->be->setup(run, sb, rb, reason, sizeof(reason));
	int ok = st == ASSAY_OK, all_ok = 0;
	MPI_CHECK(MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, run->comm));
	if (all_ok)
		return ASSAY_OK;
	if (reason[0])
		fprintf(stderr, "assay-coll: unsupported: %s\n", reason);
	if (run->be_state)
		run->be->teardown(run);
	return ASSAY_NO_METRICS;
}

int main(int argc, char **argv)
{
	ep_prog = "assay-coll";
	if (argc > 1 && !strcmp(argv[1], "--generate"))
		return cli_generate(&coll_program, argc - 1, argv + 1);
	coll_quiet = !ep_env_rank0();
	struct coll_opts o;
	double min_bw = -1;
	int rc = coll_parse_args(argc, argv, &o);
	if (rc < 0)
		return 0;
	if (!rc)
		rc = coll_min_bw(&min_bw);
	if (rc)
		return ep_usage_done(rc);
	MPI_CHECK(MPI_Init(&argc, &argv));
	struct coll_table t = {.o = &o};
	struct coll_run *run = &t.run;
	run->comm = MPI_COMM_WORLD;
	MPI_CHECK(MPI_Comm_rank(run->comm, &run->rank));
	MPI_CHECK(MPI_Comm_size(run->comm, &run->size));
	run->be = coll_backends[o.backend];
	setvbuf(stdout, NULL, _IOLBF, 0);
	size_t sb, rb;
	buffer_bytes(&o, run->size, &sb, &rb);
	if (check_ranks(&o, run, rb) || check_memory(&o, run, sb, rb)) {
		MPI_Finalize();
		return ASSAY_USAGE;
	}
	char prog[64];
	snprintf(prog, sizeof(prog), "%s_perf", coll_op_names[o.op]);
	FILE *jf = NULL;
	json_t *doc = NULL;
	if (o.json && run->rank == 0)
		jf = coll_json_open(&t, argc, argv, &doc);
	json_t *devs = coll_device_report(&t, prog);
	if (setup(run, sb, rb) != ASSAY_OK) {
		json_decref(devs);
		json_decref(doc);
		json_decref(t.results);
		if (jf)
			fclose(jf);
		MPI_Finalize();
		return ASSAY_NO_METRICS;
	}
	if (run->rank == 0)
		coll_table_header(&o);
	coll_watch_start(o.timeout);
	sweep(&t);
	int errors = 0;
	MPI_CHECK(MPI_Allreduce(&t.errors, &errors, 1, MPI_INT, MPI_SUM, run->comm));
	double avg = t.bw_sum / t.bw_count;
	if (run->rank == 0)
		coll_table_footer(errors, avg, min_bw, prog);
	rc = errors ? ASSAY_WORKLOAD_FAILED : avg < min_bw * 0.9 ? COLL_EXIT_MIN_BW : 0;
	/* The JSON is complete before MPI_Finalize: a rank that exits non-zero
	 * (#wrong > 0) makes mpirun end the job, which may kill rank 0 during
	 * or after its finalize. */
	if (doc) {
		rc = coll_json_finish(jf, doc, &t, devs, errors, avg, min_bw, rc);
		devs = NULL; /* the JSON's now */
	}
	json_decref(devs);
	run->be->teardown(run);
	MPI_CHECK(MPI_Barrier(run->comm));
	MPI_Finalize();
	return rc;
}
