/* assay-coll: nccl-tests' collective benchmarks (all_reduce_perf ...) over
 * MPI on host memory: nccl-tests' command line, table and -J JSON, every
 * point checked, with the mpi and shm backends (docs/collectives.md). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "assay/collective.h"
#include "assay/ep.h"
#include "assay/json.h"
#include "assay/util.h"
#include "assay/version.h"
#include "coll.h"

const struct coll_backend *const coll_backends[] = {&coll_backend_mpi, &coll_backend_shm, NULL};

static const char usage_text[] =
    "usage: mpirun -np N assay-coll -O OPERATION [options]\n"
    "       mpirun -np N OPERATION_perf [options]   (a link to assay-coll)\n"
    "\n"
    "nccl-tests' benchmarks on host memory over MPI, with its flags and table\n"
    "(docs/collectives.md). One rank per process.\n"
    "\n"
    "  -O,--collective OP  all_reduce, all_gather, reduce_scatter, alltoall, broadcast,\n"
    "                      reduce or sendrecv (default: from the program name)\n"
    "  --backend B         mpi (default: the MPI library's collectives) or shm\n"
    "                      (one-copy algorithms in an MPI-3 shared window)\n"
    "  -b,--minbytes N     smallest size (default 32M; K, M, G are binary)\n"
    "  -e,--maxbytes N     largest size (default 32M)\n"
    "  -i,--stepbytes N    size increment when -f is 1 (default 1M)\n"
    "  -f,--stepfactor N   size multiplier (default 1: use -i)\n"
    "  -n,--iters N        timed iterations per size (default 20)\n"
    "  -w,--warmup_iters N untimed iterations per size before timing (default 1)\n"
    "  -c,--check N        checked iterations per size (default 1; 0: no check, N/A)\n"
    "  -o,--op OP          sum, prod, max, min, avg or all (default sum)\n"
    "  -d,--datatype T     int8, uint8, int32, uint32, int64, uint64, float, double,\n"
    "                      bfloat16 or all (default float)\n"
    "  -r,--root R         root of broadcast and reduce, -1 for every rank (default 0)\n"
    "  -a,--average A      time column: 0 rank 0, 1 mean, 2 min, 3 max over ranks (default 1)\n"
    "  -z,--blocking 0|1   1: a barrier after each timed iteration (default 0)\n"
    "  -g,--ngpus 1  -t,--nthreads 1  -m,--agg_iters 1   accepted as 1 only\n"
    "  -J,--output_file F  also write nccl-tests' JSON (with percentiles) to F\n"
    "  --inject bitflip    flip one bit of one output element on the last rank after\n"
    "                      every checked call (#wrong must count it)\n"
    "  -h,--help\n"
    "\n"
    "exit: 0 every point correct, 2 bad arguments, 3 #wrong > 0 somewhere,\n"
    "4 the backend cannot run here (shm across nodes), 5 MPI failure.\n";

struct opts {
	int op, backend;
	size_t minb, maxb, stepb, stepf;
	long long iters, warmup, check, root, average, blocking;
	int type, redop; /* -1: all */
	const char *json;
	bool inject;
};

static bool quiet;

static int usage(const char *fmt, ...) ASSAY_PRINTF(1, 2);
static int usage(const char *fmt, ...)
{
	if (quiet)
		return ASSAY_USAGE;
	va_list ap;
	fputs("assay-coll: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return ASSAY_USAGE;
}

/* nccl-tests' parsesize: a number with an optional K, M or G (binary). */
static bool parse_size(const char *s, size_t *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || !(v >= 0) || v > 1e18)
		return false;
	double unit = 1;
	if (*end == 'K' || *end == 'k')
		unit = 1024, end++;
	else if (*end == 'M' || *end == 'm')
		unit = 1024 * 1024, end++;
	else if (*end == 'G' || *end == 'g')
		unit = 1024.0 * 1024 * 1024, end++;
	if (*end)
		return false;
	*out = (size_t)(v * unit);
	return true;
}

static int lookup(const char *const *names, const char *s, bool all)
{
	if (all && !strcmp(s, "all"))
		return -1;
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], s))
			return i;
	return -2;
}

/* "all_reduce" from ".../all_reduce_perf" (a link to assay-coll). */
static int op_from_program(const char *argv0)
{
	const char *b = strrchr(argv0, '/');
	b = b ? b + 1 : argv0;
	for (int i = 0; coll_op_names[i]; i++) {
		size_t n = strlen(coll_op_names[i]);
		if (!strncmp(b, coll_op_names[i], n) && !strcmp(b + n, "_perf"))
			return i;
	}
	return -1;
}

enum { OPT_BACKEND = 256, OPT_INJECT };

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {{"nthreads", required_argument, 0, 't'},
						 {"ngpus", required_argument, 0, 'g'},
						 {"minbytes", required_argument, 0, 'b'},
						 {"maxbytes", required_argument, 0, 'e'},
						 {"stepbytes", required_argument, 0, 'i'},
						 {"stepfactor", required_argument, 0, 'f'},
						 {"iters", required_argument, 0, 'n'},
						 {"agg_iters", required_argument, 0, 'm'},
						 {"warmup_iters", required_argument, 0, 'w'},
						 {"check", required_argument, 0, 'c'},
						 {"op", required_argument, 0, 'o'},
						 {"datatype", required_argument, 0, 'd'},
						 {"root", required_argument, 0, 'r'},
						 {"blocking", required_argument, 0, 'z'},
						 {"output_file", required_argument, 0, 'J'},
						 {"average", required_argument, 0, 'a'},
						 {"collective", required_argument, 0, 'O'},
						 {"backend", required_argument, 0, OPT_BACKEND},
						 {"inject", required_argument, 0, OPT_INJECT},
						 {"help", no_argument, 0, 'h'},
						 {0, 0, 0, 0}};
	*o = (struct opts){.op = op_from_program(argv[0]),
			   .minb = 32u << 20,
			   .maxb = 32u << 20,
			   .stepb = 1u << 20,
			   .stepf = 1,
			   .iters = 20,
			   .warmup = 1,
			   .check = 1,
			   .average = 1,
			   .type = CT_FLOAT,
			   .redop = CR_SUM};
	opterr = 0;
	int c, idx;
	while ((c = getopt_long(argc, argv, ":t:g:b:e:i:f:n:m:w:c:o:d:r:z:J:a:O:h", longopts,
				&idx)) != -1) {
		long long v = 0;
		const char *name = NULL;
		switch (c) {
		case 'h':
			if (!quiet)
				fputs(usage_text, stdout);
			return -1;
		case ':': return usage("option '%s' needs a value", argv[optind - 1]);
		case '?':
			return usage("unknown option '%s' (see assay-coll --help)",
				     argv[optind - 1]);
		case 'b':
		case 'e':
		case 'i': {
			size_t *dst = c == 'b' ? &o->minb : c == 'e' ? &o->maxb : &o->stepb;
			if (!parse_size(optarg, dst))
				return usage(
				    "-%c: expected a size in bytes (K, M and G are binary), "
				    "got '%s'",
				    c, optarg);
			continue;
		}
		case 'J': o->json = optarg; continue;
		case 'O':
			o->op = lookup(coll_op_names, optarg, false);
			if (o->op < 0)
				return usage("-O: expected all_reduce, all_gather, reduce_scatter, "
					     "alltoall, broadcast, reduce or sendrecv, got '%s'",
					     optarg);
			continue;
		case OPT_BACKEND:
			o->backend = -1;
			for (int k = 0; coll_backends[k]; k++)
				if (!strcmp(coll_backends[k]->name, optarg))
					o->backend = k;
			if (o->backend < 0)
				return usage("--backend: expected mpi or shm, got '%s'", optarg);
			continue;
		case OPT_INJECT:
			if (strcmp(optarg, "bitflip") && strcmp(optarg, "none"))
				return usage("--inject: expected bitflip or none, got '%s'",
					     optarg);
			o->inject = !strcmp(optarg, "bitflip");
			continue;
		case 'o':
			o->redop = lookup(coll_redop_names, optarg, true);
			if (o->redop == -2)
				return usage(
				    "-o: expected sum, prod, max, min, avg or all, got '%s'%s",
				    optarg,
				    !strcmp(optarg, "mulsum") ? " (mulsum is not built)" : "");
			continue;
		case 'd':
			o->type = lookup(coll_type_names, optarg, true);
			if (o->type == -2 || o->type == CT_HALF)
				return usage(
				    "-d: expected int8, uint8, int32, uint32, int64, uint64, "
				    "float, double, bfloat16 or all, got '%s'%s",
				    optarg, o->type == CT_HALF ? " (half is not built)" : "");
			continue;
		default: break;
		}
		/* The integer options. */
		static const struct {
			int c;
			long long min, max;
		} ints[] = {{'t', 1, 1},       {'g', 1, 1},        {'m', 1, 1},
			    {'f', 1, 1 << 20}, {'n', 1, 1 << 24},  {'w', 0, 1 << 24},
			    {'c', 0, 1 << 20}, {'r', -1, INT_MAX}, {'z', 0, 1},
			    {'a', 0, 3}};
		for (size_t k = 0; k < ARRAY_SIZE(ints); k++) {
			if (ints[k].c != c)
				continue;
			name = optarg;
			if (!assay_parse_long(optarg, &v) || v < ints[k].min || v > ints[k].max) {
				if (ints[k].min == ints[k].max)
					return usage(
					    "-%c: assay-coll runs one rank per process, one "
					    "call at a time: expected 1, got '%s'",
					    c, optarg);
				return usage("-%c: expected an integer from %lld to %lld, got '%s'",
					     c, ints[k].min, ints[k].max, optarg);
			}
			switch (c) {
			case 'f': o->stepf = (size_t)v; break;
			case 'n': o->iters = v; break;
			case 'w': o->warmup = v; break;
			case 'c': o->check = v; break;
			case 'r': o->root = v; break;
			case 'z': o->blocking = v; break;
			case 'a': o->average = v; break;
			default: break;
			}
		}
		(void)name;
	}
	if (optind < argc)
		return usage("unexpected argument '%s' (see assay-coll --help)", argv[optind]);
	if (o->op < 0)
		return usage("no operation: give -O all_reduce (or another), or run a link named "
			     "all_reduce_perf (or another)");
	if (o->minb > o->maxb)
		return usage("invalid sizes for 'minbytes' and 'maxbytes': %zu > %zu", o->minb,
			     o->maxb);
	if (o->stepf == 1 && o->stepb == 0)
		return usage("-i 0 with -f 1: the sizes would never grow");
	if (o->stepf > 1 && o->minb == 0)
		return usage("-b 0 with -f %zu: the sizes would never grow", o->stepf);
	return 0;
}

/* ---- the run ---- */

struct table {
	struct opts *o;
	struct coll_run run;
	double bw_sum;
	int bw_count, errors;
	json_t *results; /* rank 0 with -J */
	int rep;
};

/* nccl-tests' getFloatStr (src/util.cu): the widest of %.2f, %.1f, %.0f that
 * fits width, else an exponent. */
static void float_str(double v, int width, char *out, size_t size)
{
	if (snprintf(out, size, "%*.2f", width, v) <= width ||
	    snprintf(out, size, "%*.1f", width, v) <= width ||
	    snprintf(out, size, "%*.0f", width, v) <= width)
		return;
	if (width >= 7)
		snprintf(out, size, "%*.1e", width, v);
	else
		snprintf(out, size, "%*.0e", width, v);
}

static void set_call(struct table *t, struct coll_call *c, const struct coll_shape *sh,
		     bool in_place)
{
	size_t elt = coll_type_size(c->type);
	c->count = sh->count;
	c->in_place = in_place;
	c->send_stride = in_place ? sh->send_inplace * elt : 0;
	c->recv_stride = in_place ? sh->recv_inplace * elt : 0;
	c->send = in_place ? t->run.recvbuf + c->send_stride * (size_t)t->run.rank : t->run.sendbuf;
	c->recv = t->run.recvbuf + c->recv_stride * (size_t)t->run.rank;
}

static void inject(struct table *t, const struct coll_call *c)
{
	size_t m = coll_out_count(c, t->run.size);
	if (!t->o->inject || t->run.rank != t->run.size - 1 || m == 0)
		return;
	((unsigned char *)c->recv)[(m - 1) * coll_type_size(c->type)] ^= 0x01;
}

/* A number as nccl-tests' jsonDouble writes it: "nan" when not finite. */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_string("nan");
}

static json_t *stats_json(double *samples, size_t n)
{
	struct assay_ep_stats st;
	double sum = 0, var = 0;
	for (size_t i = 0; i < n; i++)
		sum += samples[i];
	double avg = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		var += (samples[i] - avg) * (samples[i] - avg);
	double sd = sqrt(var / (double)n);
	json_t *times = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(times, num(samples[i]));
	assay_ep_stats_compute(samples, n, &st);
	return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "skipped_iterations", 0, "min_us", num(st.min), "max_us", num(st.max),
			 "avg_us", num(avg), "p50_us", num(st.p50), "p90_us", num(st.p90), "p95_us",
			 num(st.p95), "p99_us", num(st.p99), "stdev_us", num(sd), "cv_pct",
			 num(avg > 0 ? sd / avg * 100 : 0.0), "times_us", times);
}

/* nccl-tests' BenchTime for one size and placement: timing, then the
 * checked calls; prints the placement's columns (rank 0). */
static void bench_time(struct table *t, struct coll_call *c, json_t *row)
{
	struct coll_run *run = &t->run;
	struct opts *o = t->o;
	const struct coll_backend *be = run->be;
	size_t n = (size_t)o->iters;
	double *mine = xmalloc(n * sizeof(double));
	double *maxs = run->rank == 0 ? xmalloc(n * sizeof(double)) : NULL;
	if (o->check)
		coll_fill(c, run->rank, run->size, 99);
	be->call(run, c);
	MPI_CHECK(MPI_Barrier(run->comm));
	double sum = 0;
	for (size_t it = 0; it < n; it++) {
		double t0 = assay_monotonic();
		be->call(run, c);
		mine[it] = (assay_monotonic() - t0) * 1e6;
		sum += mine[it];
		if (o->blocking)
			MPI_CHECK(MPI_Barrier(run->comm));
	}
	/* The time column: the per-rank mean, combined as -a says; the samples:
	 * MAX across ranks per iteration (the EP timing contract). */
	double usec = sum / (double)n, comb = usec;
	if (o->average == 0)
		MPI_CHECK(MPI_Bcast(&comb, 1, MPI_DOUBLE, 0, run->comm));
	else
		MPI_CHECK(MPI_Allreduce(&usec, &comb, 1, MPI_DOUBLE,
					o->average == 1   ? MPI_SUM
					: o->average == 2 ? MPI_MIN
							  : MPI_MAX,
					run->comm));
	if (o->average == 1)
		comb /= run->size;
	MPI_CHECK(MPI_Reduce(mine, maxs, (int)n, MPI_DOUBLE, MPI_MAX, 0, run->comm));

	size_t elt = coll_type_size(c->type);
	double factor = 1;
	assay_coll_busbw_factor(coll_op_names[c->op], run->size, &factor);
	/* algbw counts the bytes nccl-tests' <Op>GetBw does: count * elt, times
	 * the rank count for all_gather, reduce_scatter and alltoall. */
	bool blocks =
	    c->op == COLL_ALL_GATHER || c->op == COLL_REDUCE_SCATTER || c->op == COLL_ALLTOALL;
	double bytes = (double)(c->count * elt) * (blocks ? run->size : 1);
	double algbw = bytes / 1e9 / (comb / 1e6), busbw = algbw * factor;

	/* The check: alltoall and sendrecv in place are not checked (nccl-tests). */
	bool report =
	    o->check && !(c->in_place && (c->op == COLL_ALLTOALL || c->op == COLL_SENDRECV));
	int64_t wrong = 0;
	t->rep++;
	for (long long k = 0; k < o->check && report; k++) {
		coll_poison(c, run->rank, run->size);
		coll_fill(c, run->rank, run->size, (uint64_t)t->rep);
		be->call(run, c);
		inject(t, c);
		long long w = coll_wrong(c, run->rank, run->size, (uint64_t)t->rep), all = 0;
		MPI_CHECK(MPI_Allreduce(&w, &all, 1, MPI_LONG_LONG, MPI_SUM, run->comm));
		wrong = all;
		if (wrong)
			break;
	}
	if (report && wrong)
		t->errors++;
	t->bw_sum += busbw;
	t->bw_count++;
	if (run->rank == 0) {
		char ts[16], as[16], bs[16];
		float_str(comb, 7, ts, sizeof(ts));
		float_str(algbw, 6, as, sizeof(as));
		float_str(busbw, 6, bs, sizeof(bs));
		if (report)
			printf("  %7s  %6s  %6s  %6g", ts, as, bs, (double)wrong);
		else
			printf("  %7s  %6s  %6s    N/A", ts, as, bs);
		if (row) {
			const char *key = c->in_place ? "in_place" : "out_of_place";
			json_object_set_new(
			    row, key,
			    json_pack("{s:o, s:o, s:o, s:o}", "time", num(comb), "alg_bw",
				      num(algbw), "bus_bw", num(busbw), "nwrong",
				      report ? json_real((double)wrong) : json_null()));
			char pk[32];
			snprintf(pk, sizeof(pk), "%s_per_iter", key);
			json_object_set_new(row, pk, stats_json(maxs, n));
		}
	}
	free(mine);
	free(maxs);
}

static size_t next_size(const struct opts *o, size_t s)
{
	return o->stepf > 1 ? s * o->stepf : s + o->stepb;
}

/* nccl-tests' TimeTest: warm every size (doubling), then one row per size. */
static void time_test(struct table *t, enum coll_type type, enum coll_redop redop, int root)
{
	struct opts *o = t->o;
	struct coll_run *run = &t->run;
	size_t elt = coll_type_size(type);
	struct coll_call c = {
	    .op = (enum coll_op)o->op, .type = type, .redop = redop, .root = root};
	struct coll_shape sh;
	for (size_t s = o->minb; s <= o->maxb; s = s * 2) {
		coll_shape_of(c.op, s, elt, run->size, &sh);
		set_call(t, &c, &sh, false);
		for (long long w = 0; w < o->warmup; w++)
			run->be->call(run, &c);
		if (s == 0)
			break;
	}
	for (size_t s = o->minb; s <= o->maxb; s = next_size(o, s)) {
		coll_shape_of(c.op, s, elt, run->size, &sh);
		size_t bytes =
		    (sh.send_count > sh.recv_count ? sh.send_count : sh.recv_count) * elt;
		const char *redop_name = coll_op_has_redop(c.op) ? coll_redop_names[redop] : "none";
		char rootname[32];
		snprintf(rootname, sizeof(rootname), "%6i", coll_op_has_root(c.op) ? root : -1);
		json_t *row = NULL;
		if (run->rank == 0) {
			printf("%12zu  %12zu  %8s  %6s  %6s", bytes, sh.count,
			       coll_type_names[type], redop_name, rootname);
			if (t->results) {
				row = json_pack("{s:I, s:I, s:s, s:s, s:s}", "size",
						(json_int_t)bytes, "count", (json_int_t)sh.count,
						"type", coll_type_names[type], "redop", redop_name,
						"root", rootname);
				json_array_append_new(t->results, row);
			}
		}
		for (int ip = 0; ip < 2; ip++) {
			set_call(t, &c, &sh, ip == 1);
			bench_time(t, &c, row);
		}
		if (run->rank == 0) {
			printf("\n");
			fflush(stdout);
			if (row) {
				json_object_set_new(row, "actual_iterations",
						    json_integer(o->iters));
				json_object_set_new(row, "experiment_name", json_string(""));
			}
		}
		if (next_size(o, s) <= s)
			break;
	}
}

/* The largest send and receive buffers of the sweep, in bytes: those of
 * maxbytes (the warm-ups double up to it), as nccl-tests allocates. */
static void buffer_bytes(const struct opts *o, int nranks, size_t *sb, size_t *rb)
{
	*sb = *rb = 0;
	for (int t = 0; t < CT_NTYPES; t++) {
		size_t elt = coll_type_size((enum coll_type)t);
		if (!elt || (o->type >= 0 && o->type != t))
			continue;
		struct coll_shape sh;
		coll_shape_of((enum coll_op)o->op, o->maxb, elt, nranks, &sh);
		size_t send = sh.send_count * elt, recv = sh.recv_count * elt;
		*sb = send > *sb ? send : *sb;
		*rb = recv > *rb ? recv : *rb;
		*rb = send > *rb ? send : *rb; /* in place the input is here */
	}
}

/* nccl-tests' writeDeviceReport: the options line and one line per rank. */
static json_t *device_report(struct table *t, const char *prog)
{
	struct opts *o = t->o;
	struct coll_run *run = &t->run;
	char line[512], host[256] = "";
	gethostname(host, sizeof(host) - 1);
	snprintf(line, sizeof(line),
		 "#  Rank %2d Group %2d Pid %6d on %10s device %2d [%04x:%02x:%02x] %s\n",
		 run->rank, 0, (int)getpid(), host, -1, 0, 0, 0,
		 run->be == &coll_backend_shm ? "host memory (assay-coll shm)"
					      : "host memory (assay-coll mpi)");
	char *lines = run->rank == 0 ? xmalloc((size_t)run->size * sizeof(line)) : NULL;
	MPI_CHECK(
	    MPI_Gather(line, sizeof(line), MPI_CHAR, lines, sizeof(line), MPI_CHAR, 0, run->comm));
	json_t *devs = NULL;
	if (run->rank == 0) {
		printf("# assay-coll version %s (%s) backend %s\n", assay_version_string,
		       assay_git_revision, run->be->name);
		printf("# Collective test starting: %s\n", prog);
		printf(
		    "# nThread %d nGpus %d minBytes %zu maxBytes %zu step: %zu(%s) warmup iters: "
		    "%lld iters: %lld agg iters: %d validation: %lld graph: %d unalign: %d\n",
		    1, 1, o->minb, o->maxb, o->stepf > 1 ? o->stepf : o->stepb,
		    o->stepf > 1 ? "factor" : "bytes", o->warmup, o->iters, 1, o->check, 0, 0);
		if (o->blocking)
			printf("# Blocking Enabled: wait and barrier after each inner iteration "
			       "(-m) \n");
		printf("#\n# Using devices\n");
		devs = json_array();
		for (int r = 0; r < run->size; r++) {
			const char *l = lines + (size_t)r * sizeof(line);
			fputs(l, stdout);
			json_array_append_new(
			    devs, json_pack("{s:i, s:i, s:i, s:s, s:i, s:s, s:s}", "rank", r,
					    "group", 0, "pid", 0, "hostname", "", "device", -1,
					    "device_hex", "0000:00:00", "device_info", ""));
			/* The pid and host from the line itself. */
			int pid = 0;
			char h[256] = "";
			const char *p = strstr(l, "Pid ");
			if (p && sscanf(p, "Pid %d on %255s", &pid, h) == 2) {
				json_t *d = json_array_get(devs, (size_t)r);
				json_object_set_new(d, "pid", json_integer(pid));
				json_object_set_new(d, "hostname", json_string(h));
			}
		}
	}
	free(lines);
	return devs;
}

/* nccl-tests' jsonOutputInit: a new file, F or F.0, F.1 ... when F exists. */
static FILE *open_json(const char *path)
{
	FILE *f = fopen(path, "wx");
	char *try = xstrdup(path);
	for (int i = 0; !f && errno == EEXIST && i < 1000; i++) {
		free(try);
		size_t len = strlen(path) + 16;
		try = xmalloc(len);
		snprintf(try, len, "%s.%d", path, i);
		f = fopen(try, "wx");
	}
	if (f)
		printf("# Writing JSON output to %s\n", try);
	else
		printf("# skipping json output; %s not accessible\n", try);
	free(try);
	return f;
}

static void time_string(char *out, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(out, size, "%Y-%m-%d %H:%M:%S", &tm);
}

int main(int argc, char **argv)
{
	ep_prog = "assay-coll";
	quiet = !ep_env_rank0();
	struct opts o;
	int rc = parse_args(argc, argv, &o);
	if (rc < 0)
		return 0;
	if (rc)
		return ep_usage_done(rc);
	MPI_CHECK(MPI_Init(&argc, &argv));
	struct table t = {.o = &o};
	struct coll_run *run = &t.run;
	run->comm = MPI_COMM_WORLD;
	MPI_CHECK(MPI_Comm_rank(run->comm, &run->rank));
	MPI_CHECK(MPI_Comm_size(run->comm, &run->size));
	run->be = coll_backends[o.backend];
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (o.root >= run->size) {
		if (run->rank == 0)
			usage("-r %lld: there are %d ranks (0 to %d)", o.root, run->size,
			      run->size - 1);
		MPI_Finalize();
		return ASSAY_USAGE;
	}
	size_t sb, rb;
	buffer_bytes(&o, run->size, &sb, &rb);
	for (int ty = 0; ty < CT_NTYPES; ty++) {
		size_t elt = coll_type_size((enum coll_type)ty);
		if (elt && (o.type < 0 || o.type == ty) && rb / elt > INT_MAX) {
			if (run->rank == 0)
				usage("-e %zu: %zu elements of %s do not fit an MPI count (at most "
				      "%d)",
				      o.maxb, rb / elt, coll_type_names[ty], INT_MAX);
			MPI_Finalize();
			return ASSAY_USAGE;
		}
	}
	char prog[64];
	snprintf(prog, sizeof(prog), "%s_perf", coll_op_names[o.op]);
	FILE *jf = NULL;
	json_t *doc = NULL;
	if (o.json && run->rank == 0) {
		jf = open_json(o.json);
		if (jf) {
			char ts[64];
			time_string(ts, sizeof(ts));
			json_t *args = json_array();
			for (int i = 0; i < argc; i++)
				json_array_append_new(args, json_string(argv[i]));
			/* No "env": the environment may hold secrets. */
			doc = json_pack("{s:i, s:s, s:o, s:i, s:s, s:s, s:s}", "version", 3,
					"start_time", ts, "args", args, "nccl_version", 0,
					"program", "assay-coll", "collective", coll_op_names[o.op],
					"backend", run->be->name);
			t.results = json_array();
		}
	}
	json_t *devs = device_report(&t, prog);

	char reason[512] = "";
	assay_err st = run->be->setup(run, sb, rb, reason, sizeof(reason));
	int ok = st == ASSAY_OK, all_ok = 0;
	MPI_CHECK(MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, run->comm));
	if (!all_ok) {
		if (reason[0])
			fprintf(stderr, "assay-coll: unsupported: %s\n", reason);
		if (run->be_state)
			run->be->teardown(run);
		json_decref(devs);
		json_decref(doc);
		json_decref(t.results);
		if (jf)
			fclose(jf);
		MPI_Finalize();
		return ASSAY_NO_METRICS;
	}
	if (run->rank == 0) {
		/* nccl-tests' writeResultHeader (src/util.cu). */
		printf("#\n");
		printf("# %10s  %12s  %8s  %6s  %6s           out-of-place                       "
		       "in-place          \n",
		       "", "", "", "", "");
		printf("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %*s\n",
		       "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong",
		       "time", "algbw", "busbw", "#wrong", 0, "");
		printf("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %*s\n",
		       "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)",
		       "(GB/s)", "(GB/s)", "", 0, "");
	}
	bool redops = coll_op_has_redop((enum coll_op)o.op);
	for (int ty = 0; ty < CT_NTYPES; ty++) {
		if (!coll_type_size((enum coll_type)ty) || (o.type >= 0 && o.type != ty))
			continue;
		for (int r = 0; r < CR_NREDOPS; r++) {
			if (redops ? (o.redop >= 0 && o.redop != r) : r != 0)
				continue;
			int r0 = 0, r1 = 0;
			if (coll_op_has_root((enum coll_op)o.op)) {
				r0 = o.root < 0 ? 0 : (int)o.root;
				r1 = o.root < 0 ? run->size - 1 : (int)o.root;
			}
			for (int root = r0; root <= r1; root++)
				time_test(&t, (enum coll_type)ty,
					  redops ? (enum coll_redop)r : CR_SUM, root);
		}
	}
	int errors = 0;
	MPI_CHECK(MPI_Allreduce(&t.errors, &errors, 1, MPI_INT, MPI_SUM, run->comm));
	double avg = t.bw_sum / t.bw_count;
	if (run->rank == 0) {
		/* nccl-tests' writeResultFooter, finalizeFooter and writeErrors. */
		printf("# %-20s : %d %s\n", "Out of bounds values", errors,
		       errors ? "FAILED" : "OK");
		printf("# %-20s : %g %s\n", "Avg bus bandwidth", avg, "");
		printf("#\n");
		printf("# Collective test concluded: %s\n", prog);
		printf("#\n");
		printf("\n");
	}
	run->be->teardown(run);
	MPI_CHECK(MPI_Barrier(run->comm));
	MPI_Finalize();
	rc = errors ? ASSAY_WORKLOAD_FAILED : 0;
	if (doc) {
		char ts[64];
		time_string(ts, sizeof(ts));
		json_t *cfg = json_pack(
		    "{s:i, s:i, s:I, s:I, s:I, s:I, s:I, s:i, s:I, s:i, s:b, s:b, s:i, s:b, s:o}",
		    "nthreads", 1, "ngpus", 1, "minimum_bytes", (json_int_t)o.minb, "maximum_bytes",
		    (json_int_t)o.maxb, o.stepf > 1 ? "step_factor" : "step_bytes",
		    (json_int_t)(o.stepf > 1 ? o.stepf : o.stepb), "warmup_iters",
		    (json_int_t)o.warmup, "iterations", (json_int_t)o.iters,
		    "aggregated_iterations", 1, "validation", (json_int_t)o.check, "graph", 0,
		    "blocking_collectives", (int)o.blocking, "per_iter_timing", 1, "per_iter_skip",
		    0, "parallel_init", 0, "devices", devs);
		devs = NULL;
		json_object_set_new(doc, "config", cfg);
		json_object_set_new(doc, "results", t.results);
		json_object_set_new(doc, "out_of_bounds",
				    json_pack("{s:i, s:b}", "count", errors, "okay", errors == 0));
		json_object_set_new(
		    doc, "average_bus_bandwidth",
		    json_pack("{s:o, s:s}", "bandwidth", num(avg), "okay", "unchecked"));
		json_object_set_new(doc, "end_time", json_string(ts));
		json_object_set_new(doc, "errors", json_array());
		char *text = assay_json_dumps(doc, JSON_COMPACT);
		bool wrote = fputs(text, jf) >= 0 && fputc('\n', jf) != EOF;
		wrote = (fclose(jf) == 0) && wrote;
		free(text);
		json_decref(doc);
		if (!wrote) {
			fprintf(stderr, "assay-coll: cannot write the JSON output %s\n", o.json);
			rc = ASSAY_INFRA;
		}
	}
	json_decref(devs);
	return rc;
}
