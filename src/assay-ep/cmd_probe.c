/* `assay-ep probe`: this node's copy bandwidth per rank. --shape measures a
 * ladder point's own dispatch copy pattern (the ceiling assay-ep run records
 * per point); --stream (the default) copies one large buffer into the next
 * rank's MPI-3 shared window, with memcpy and with non-temporal stores. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/util.h"
#include "bench.h"

struct probe_args {
	bool shape, stream;
	long long tokens, bytes, reps;
	struct ep_shape_opts sh;
	const char *precision, *out;
};

#define A struct probe_args
static const struct cli_opt probe_opts[] = {
    CLI_OPT_FLAG("shape", A, shape, "measure the copy ceiling of one ladder point"),
    CLI_OPT_FLAG("stream", A, stream, "measure one large copy per rank (the default)"),
    {.type = CLI_INT,
     .name = "tokens",
     .arg = "T",
     .off = offsetof(A, tokens),
     .min = 1,
     .max = 1ll << 31,
     .help = "--shape: tokens per rank"},
    CLI_OPT_TABLE(ep_shape_cli, A, sh),
    {.type = CLI_CHOICE,
     .name = "precision",
     .arg = "bf16|fp8",
     .off = offsetof(A, precision),
     .help = "--shape: the dispatch payload",
     .def = "bf16",
     .choices = assay_known_precisions},
    {.type = CLI_INT,
     .name = "bytes",
     .arg = "N",
     .off = offsetof(A, bytes),
     .min = 4096,
     .max = 1ll << 34,
     .help = "--stream: bytes each rank copies",
     .def = "67108864"},
    {.type = CLI_INT,
     .name = "reps",
     .arg = "N",
     .off = offsetof(A, reps),
     .min = 1,
     .max = 100000,
     .help = "rounds per routine",
     .def = "10"},
    {.type = CLI_STRING,
     .name = "out",
     .arg = "FILE",
     .off = offsetof(A, out),
     .help = "also write the result as JSON (schema assay.ep.probe/1)"},
    CLI_OPT_END,
};
#undef A

const struct cli_spec ep_probe_spec = {
    .name = "probe",
    .usage = "mpirun -np EP assay-ep probe --shape --tokens T [--hidden N] [--experts N]\n"
	     "    [--topk N] [--seed N] [--routing SPEC] [--precision bf16|fp8] [--reps N]\n"
	     "    [--out FILE]\n"
	     "mpirun -np EP assay-ep probe [--stream] [--bytes N] [--reps N] [--out FILE]",
    .about = "--shape: the copy ceiling of one ladder point (T tokens per rank, EP = the\n"
	     "number of ranks, the workload of assay-ep run): every rank copies each of\n"
	     "its token records to every destination rank, itself included, at the\n"
	     "offsets dispatch uses, into an MPI-3 shared window; no count exchange and\n"
	     "no barrier inside the timed copies. --reps rounds per routine, memcpy and\n"
	     "non-temporal stores alternating; each round the slowest rank counts. Prints\n"
	     "the p50 and the fastest round per routine in us and in GB/s per rank\n"
	     "(dispatch bytes, as assay-ep run counts them).\n"
	     "\n"
	     "--stream: every rank copies --bytes from private memory into the next rank's\n"
	     "MPI-3 shared window, all ranks at once, --reps times with memcpy and with\n"
	     "non-temporal stores. Per repetition the slowest rank's time counts; the\n"
	     "median is printed in GB/s per rank (1e9 bytes), the unit of assay-ep run's\n"
	     "gbps_per_rank. copy_gbps_per_rank is the better of the two.\n",
    .opts = probe_opts,
    .examples = "mpirun -np 2 assay-ep probe",
    .exits = "exit: 0 measured, 2 bad arguments, 4 the ranks do not share one node,\n"
	     "5 MPI failure or --out cannot be written.\n",
};

/* Write the probe's JSON document to out (and release it): 0, or
 * ASSAY_INFRA after saying why. */
static int write_doc(const char *out, json_t *doc)
{
	struct assay_error e;
	int code = ASSAY_OK;
	char *text = assay_json_dumps(doc, ASSAY_JSON_PRETTY);
	if (assay_write_file_atomic(out, text, strlen(text), &e) != ASSAY_OK) {
		char buf[2048];
		fprintf(stderr, "assay-ep: %s\n", assay_error_format(&e, buf, sizeof(buf)));
		code = ASSAY_INFRA;
	}
	free(text);
	json_decref(doc);
	return code;
}

static int probe_shape(MPI_Comm comm, int rank, int size, const struct assay_ep_problem *p,
		       const char *routing, int reps, const char *out)
{
	struct assay_error e;
	if (assay_ep_problem_check(p, &e) != ASSAY_OK)
		return ep_usage("probe", "%s", e.message);
	struct ep_run run;
	memset(&run, 0, sizeof(run));
	run.base = *p;
	run.comm = comm, run.rank = rank, run.size = size;
	int64_t ladder[1] = {p->tokens};
	run.ladder = ladder, run.npoints = 1;
	/* Every rank reads a routing file: all refuse when one cannot. */
	int bad = ep_routing_prepare("probe", routing, p->experts, p->topk, &run.dist) != 0,
	    anybad = 0;
	MPI_CHECK(MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_LOR, comm));
	if (anybad) {
		if (!bad)
			assay_ep_dist_release(&run.dist);
		return ASSAY_USAGE;
	}
	run.base.dist = &run.dist;
	if (ep_memory_check(&run, "probe")) {
		assay_ep_dist_release(&run.dist);
		return ASSAY_USAGE;
	}
	struct ep_point pt;
	memset(&pt, 0, sizeof(pt));
	ep_point_stage(&run, &pt, p->tokens);
	struct ep_pattern *pa = ep_pattern_open(comm, rank, size, &pt, NULL);
	ep_pattern_choose(pa, &pt, reps);
	ep_pattern_close(pa);
	int code = ASSAY_OK;
	if (rank == 0) {
		double bytes = (double)ep_point_bytes(&pt, EP_DISPATCH) / size;
		double gb[2] = {bytes / pt.copy_us[0] / 1e3, bytes / pt.copy_us[1] / 1e3};
		int best = pt.pattern_copy;
		printf("assay-ep probe --shape: ep %d, tokens %lld per rank, hidden %lld, %s, "
		       "top-%lld "
		       "of %lld, seed %llu, routing %s (imbalance: expert %.2f, rank %.2f): %lld "
		       "records copied, %.0f dispatch bytes per rank, %d rounds\n",
		       size, (long long)p->tokens, (long long)p->hidden,
		       ep_precision_name(p->precision), (long long)p->topk, (long long)p->experts,
		       (unsigned long long)p->seed, assay_ep_dist_label(&run.base),
		       pt.rs.imbalance_expert, pt.rs.imbalance_rank, (long long)pt.rs.routed_copies,
		       bytes, reps);
		printf("copy memcpy   p50 %10.1f us %8.2f GB/s per rank\n", pt.copy_us[0], gb[0]);
		printf("copy nt       p50 %10.1f us %8.2f GB/s per rank\n", pt.copy_us[1], gb[1]);
		printf("ceiling_us %.1f (p50 of the faster routine, %s; %.2f GB/s per rank)\n",
		       pt.copy_us[best], ep_copy_names[best], gb[best]);
		if (out) {
			json_t *doc = json_pack(
			    "{s:s, s:s, s:i, s:I, s:I, s:s, s:I, s:I, s:I, s:I, s:i, s:f, s:f, "
			    "s:f, "
			    "s:s}",
			    "schema", "assay.ep.probe/1", "mode", "shape", "ranks", size, "tokens",
			    (json_int_t)p->tokens, "hidden", (json_int_t)p->hidden, "precision",
			    ep_precision_name(p->precision), "experts", (json_int_t)p->experts,
			    "topk", (json_int_t)p->topk, "seed", (json_int_t)p->seed, "bytes",
			    (json_int_t)ep_point_bytes(&pt, EP_DISPATCH), "reps", reps, "memcpy_us",
			    pt.copy_us[0], "nt_us", pt.copy_us[1], "ceiling_us", pt.copy_us[best],
			    "copy", ep_copy_names[best]);
			json_object_set_new(doc, "routing",
					    json_string(assay_ep_dist_label(&run.base)));
			code = assay_err_worst(code, write_doc(out, doc));
		}
		fflush(stdout);
	}
	MPI_CHECK(MPI_Bcast(&code, 1, MPI_INT, 0, comm));
	ep_point_unstage(&pt);
	assay_ep_dist_release(&run.dist);
	return code;
}

/* --stream: N bytes from private memory into the next rank's shared window,
 * with memcpy and with non-temporal stores; the median per routine. */
static int probe_stream(MPI_Comm comm, int rank, int size, long long bytes, long long reps,
			const char *out)
{
	size_t n = (size_t)bytes;
	unsigned char *src = xmalloc(n);
	memset(src, rank + 1, n);
	MPI_Win win;
	unsigned char **seg = xcalloc((size_t)size, sizeof(*seg));
	unsigned char *base = ep_shm_window(comm, n, &win, seg);
	memset(base, 0, n);
	unsigned char *peer = seg[(rank + 1) % size];
	free(seg);
	MPI_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
	double gb[2], *t = xmalloc((size_t)reps * sizeof(*t));
	for (int kind = 0; kind < 2; kind++) {
		ep_copy(peer, src, n, (enum ep_copy_kind)kind); /* warm-up */
		for (long long r = 0; r < reps; r++) {
			MPI_CHECK(MPI_Barrier(comm));
			double t0 = assay_monotonic();
			ep_copy(peer, src, n, (enum ep_copy_kind)kind);
			ep_copy_fence();
			double dt = assay_monotonic() - t0, worst = 0;
			MPI_CHECK(MPI_Allreduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, comm));
			t[r] = worst;
		}
		assay_ep_sort(t, (size_t)reps);
		gb[kind] = (double)n / t[assay_ep_rank_index((size_t)reps, 50)] / 1e9;
	}
	int best = gb[1] > gb[0];
	/* A byte of the copy must have arrived (a probe that copies nothing is no probe). */
	MPI_CHECK(MPI_Win_sync(win));
	MPI_CHECK(MPI_Barrier(comm));
	MPI_CHECK(MPI_Win_sync(win));
	int from = (rank + size - 1) % size, bad = base[n - 1] != (unsigned char)(from + 1),
	    anybad = 0;
	MPI_CHECK(MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_LOR, comm));
	int code = anybad ? ASSAY_WORKLOAD_FAILED : ASSAY_OK;
	if (rank == 0) {
		printf("assay-ep probe: %d ranks, %lld bytes per rank, %lld repetitions\n", size,
		       bytes, reps);
		printf("copy memcpy   %8.2f GB/s per rank\n", gb[0]);
		printf("copy nt       %8.2f GB/s per rank\n", gb[1]);
		printf("copy_gbps_per_rank %.2f (%s)\n", gb[best], ep_copy_names[best]);
		if (anybad)
			fprintf(stderr, "assay-ep probe: copied data did not arrive\n");
		if (out) {
			json_t *doc =
			    json_pack("{s:s, s:s, s:i, s:I, s:I, s:f, s:f, s:f, s:s}", "schema",
				      "assay.ep.probe/1", "mode", "stream", "ranks", size, "bytes",
				      (json_int_t)bytes, "reps", (json_int_t)reps,
				      "memcpy_gbps_per_rank", gb[0], "nt_gbps_per_rank", gb[1],
				      "copy_gbps_per_rank", gb[best], "copy", ep_copy_names[best]);
			code = assay_err_worst(code, write_doc(out, doc));
		}
		fflush(stdout);
	}
	MPI_CHECK(MPI_Bcast(&code, 1, MPI_INT, 0, comm));
	MPI_CHECK(MPI_Win_unlock_all(win));
	MPI_CHECK(MPI_Win_free(&win));
	free(src);
	free(t);
	return code;
}

int ep_cmd_probe(int argc, char **argv)
{
	struct probe_args a = {.bytes = 64ll << 20, .reps = 10, .sh = EP_SHAPE_DEFAULTS};
	ep_quiet = !ep_env_rank0();
	if (ep_parse_opts("probe", argc, argv, probe_opts, &a))
		return ep_usage_done(ASSAY_USAGE);
	bool shape = a.shape, stream = a.stream;
	long long bytes = a.bytes, reps = a.reps, tokens = a.tokens;
	struct ep_shape_opts sh = a.sh;
	const char *out = a.out;
	int precision = a.precision ? ep_precision_parse(a.precision) : ASSAY_EP_BF16;
	if (shape && stream)
		return ep_usage_done(ep_usage("probe", "--shape and --stream exclude each other"));
	if (shape != (tokens > 0))
		return ep_usage_done(
		    ep_usage("probe", shape ? "--shape needs --tokens" : "--tokens needs --shape"));
	if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
		fprintf(stderr, "assay-ep: MPI_Init failed\n");
		return ASSAY_INFRA;
	}
	MPI_Comm comm = MPI_COMM_WORLD;
	int rank, size;
	MPI_CHECK(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
	MPI_CHECK(MPI_Comm_rank(comm, &rank));
	MPI_CHECK(MPI_Comm_size(comm, &size));
	MPI_Comm node;
	int nnode;
	MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
	MPI_CHECK(MPI_Comm_size(node, &nnode));
	MPI_CHECK(MPI_Comm_free(&node));
	int one = nnode == size, all = 0;
	MPI_CHECK(MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_LAND, comm));
	if (!all) {
		if (rank == 0)
			fprintf(stderr, "assay-ep probe: all ranks must share one node\n");
		MPI_Finalize();
		return ASSAY_NO_METRICS;
	}
	if (shape) {
		struct assay_ep_problem p = {.ep = size,
					     .tokens = tokens,
					     .hidden = sh.hidden,
					     .experts = sh.experts,
					     .topk = sh.topk,
					     .seed = (uint64_t)sh.seed,
					     .scale_up_domain = size,
					     .precision = (enum assay_ep_precision)precision};
		int code = probe_shape(comm, rank, size, &p, sh.routing, (int)reps, out);
		MPI_Finalize();
		return code;
	}
	int code = probe_stream(comm, rank, size, bytes, reps, out);
	MPI_Finalize();
	return code;
}
