/* assay-coll's command line: nccl-tests' flags (-b, -e, -f, -n, ...) and
 * assay-coll's own (--backend, --inject), checked before MPI starts. */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/util.h"
#include "coll.h"
#include "opt.h"

bool coll_quiet;

static void type_words(struct sbuf *sb)
{
	coll_type_list(sb, "all");
}

static const char *const injects[] = {"bitflip", "hang", "none", "bf16-sum", "short-sum", NULL};
/* coll_backends[]'s names (main.c), for completion. */
static const char *const backends[] = {"mpi", "shm", "nccl", "rccl", NULL};

#define ONE_ONLY "accepted as 1 only (one rank per process, one call at a time)"
/* nccl-tests' flags with its short letters and long names, then assay-coll's
 * own. Parsing is coll_parse_args's (the checks need the letter); the help,
 * man page and completion come from these rows. */
static const struct cli_opt coll_opts[] = {
    {.type = CLI_STRING,
     .name = "collective",
     .short_name = 'O',
     .arg = "OP",
     .help = "all_reduce, all_gather, reduce_scatter, alltoall, broadcast,\nreduce, sendrecv, "
	     "gather, scatter, hypercube or\nalltoallv",
     .def = "from the program name",
     .choices = coll_op_names},
    {.type = CLI_STRING,
     .name = "backend",
     .arg = "B",
     .help = "mpi (the MPI library's collectives), shm\n(one-copy algorithms in an MPI-3 "
	     "shared window),\nnccl or rccl (NCCL or RCCL on device buffers, one\nGPU per rank; "
	     "built where CUDA + NCCL or ROCm +\nRCCL is found)",
     .def = "mpi",
     .choices = backends},
    {.type = CLI_STRING,
     .name = "minbytes",
     .short_name = 'b',
     .arg = "N",
     .help = "smallest size (K, M, G are binary)",
     .def = "32M"},
    {.type = CLI_STRING,
     .name = "maxbytes",
     .short_name = 'e',
     .arg = "N",
     .help = "largest size",
     .def = "32M"},
    {.type = CLI_STRING,
     .name = "stepbytes",
     .short_name = 'i',
     .arg = "N",
     .help = "size increment when -f is 1",
     .def = "1M"},
    {.type = CLI_STRING,
     .name = "stepfactor",
     .short_name = 'f',
     .arg = "N",
     .help = "size multiplier (1: use -i)",
     .def = "1"},
    {.type = CLI_STRING,
     .name = "iters",
     .short_name = 'n',
     .arg = "N",
     .help = "timed iterations per size",
     .def = "20"},
    {.type = CLI_STRING,
     .name = "warmup_iters",
     .short_name = 'w',
     .arg = "N",
     .help = "untimed iterations per size before timing",
     .def = "1"},
    {.type = CLI_STRING,
     .name = "check",
     .short_name = 'c',
     .arg = "N",
     .help = "checked iterations per size (0: no check, N/A)",
     .def = "1"},
    {.type = CLI_STRING,
     .name = "op",
     .short_name = 'o',
     .arg = "OP",
     .help = "sum, prod, max, min, avg, mulsum or all",
     .def = "sum",
     .choices = coll_redop_names},
    {.type = CLI_STRING,
     .name = "datatype",
     .short_name = 'd',
     .arg = "T",
     .help = "one of",
     .help_more = type_words,
     .def = "float"},
    {.type = CLI_STRING,
     .name = "root",
     .short_name = 'r',
     .arg = "R",
     .help = "root of broadcast, reduce, gather and scatter, -1 for every rank",
     .def = "0"},
    {.type = CLI_STRING,
     .name = "average",
     .short_name = 'a',
     .arg = "A",
     .help = "time column: 0 rank 0, 1 mean, 2 min, 3 max over ranks",
     .def = "1"},
    {.type = CLI_STRING,
     .name = "blocking",
     .short_name = 'z',
     .arg = "0-3",
     .help = "1: a barrier after each iteration, inside its time; 2: none\n(as 0: CPU calls "
	     "block); 3: a barrier after each iteration,\noutside its time",
     .def = "0"},
    {.type = CLI_STRING,
     .name = "agg_iters",
     .short_name = 'm',
     .arg = "N",
     .help = "calls per timed iteration (the time is per call)",
     .def = "1"},
    {.type = CLI_STRING,
     .name = "run_cycles",
     .short_name = 'N',
     .arg = "N",
     .help = "sweep the sizes N times, each printed (0: for ever)",
     .def = "1"},
    {.type = CLI_STRING,
     .name = "report_cputime",
     .short_name = 'C',
     .arg = "0|1",
     .help = "1: the time column is rank 0's loop time per call (cputime)",
     .def = "0"},
    {.type = CLI_STRING,
     .name = "timeout",
     .short_name = 'T',
     .arg = "SECONDS",
     .help = "end the run (exit 5) when one call takes longer (0: never)",
     .def = "0"},
    {.type = CLI_STRING,
     .name = "per_iter_timing",
     .short_name = 'I',
     .arg = "0|1",
     .help = "1: i_min, i_max, i_p99 and i_cv% columns per placement\n(max over ranks per "
	     "iteration)",
     .def = "0"},
    {.type = CLI_STRING,
     .name = "per_iter_skip",
     .short_name = 'K',
     .arg = "N",
     .help = "leave the first N iterations out of -I's columns",
     .def = "0"},
    {.type = CLI_STRING,
     .name = "unalign",
     .short_name = 'u',
     .arg = "N",
     .help = "start both buffers N elements past their alignment",
     .def = "0"},
    {.type = CLI_STRING,
     .name = "local_register",
     .short_name = 'R',
     .arg = "0",
     .help = "NCCL buffer registration: refused above 0 (not built\nin any backend)",
     .def = "0"},
    {.type = CLI_STRING,
     .name = "cudagraph",
     .short_name = 'G',
     .arg = "0",
     .help = "CUDA graph launches: refused above 0 (not built in any\nbackend)",
     .def = "0"},
    {.type = CLI_STRING, .name = "ngpus", .short_name = 'g', .arg = "1", .help = ONE_ONLY},
    {.type = CLI_STRING, .name = "nthreads", .short_name = 't', .arg = "1", .help = ONE_ONLY},
    {.type = CLI_STRING,
     .name = "output_file",
     .short_name = 'J',
     .arg = "FILE",
     .help = "also write nccl-tests' JSON (with percentiles) to FILE"},
    {.type = CLI_STRING,
     .name = "inject",
     .arg = "KIND",
     .help = "bitflip: flip one bit of one output element on the last rank\nafter every "
	     "checked call (#wrong must count it); hang: the last\nrank stops in its first timed "
	     "call (-T must end the run);\nbf16-sum, short-sum: floating sums accumulate in "
	     "bfloat16,\nor one mantissa bit short (tests)",
     .choices = injects},
    CLI_OPT_END,
};

const struct cli_spec coll_spec = {
    .name = "assay-coll",
    .usage = "mpirun -np N assay-coll -O OPERATION [options]\n"
	     "mpirun -np N OPERATION_perf [options]   (a link to assay-coll)",
    .about = "nccl-tests' benchmarks over MPI, on host memory (mpi, shm) or on GPUs\n"
	     "(nccl, rccl), with its flags and table (docs/collectives.md). One rank per\n"
	     "process. Long options may be shortened to a unique prefix, as nccl-tests\n"
	     "takes them.\n",
    .opts = coll_opts,
    .examples = "mpirun -np 2 assay-coll -O all_reduce -b 8 -e 64K -f 4\n"
		"mpirun -np 2 assay-coll -O alltoall --backend shm -b 1K -e 1M -f 2 -J out.json",
    .exits = "exit: 0 every point correct, 2 bad arguments, 3 #wrong > 0 somewhere,\n"
	     "4 the backend cannot run here (shm across nodes, nccl or rccl not\n"
	     "built or without a GPU), 5 MPI, GPU or NCCL failure or\n"
	     "a call past -T, 7 the average bus bandwidth below 90% of\n"
	     "NCCL_TESTS_MIN_BW.\n",
};

const struct cli_program coll_program = {
    .name = "assay-coll",
    .summary = "nccl-tests' collective benchmarks over MPI, every point checked",
    .spec = &coll_spec,
};

int coll_usage(const char *fmt, ...)
{
	if (coll_quiet)
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
bool coll_parse_size(const char *s, size_t *out)
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

int coll_min_bw(double *min_bw)
{
	const char *env = getenv("NCCL_TESTS_MIN_BW");
	char *end;
	*min_bw = -1;
	if (!env)
		return 0;
	*min_bw = strtod(env, &end);
	if (end == env || *end || !isfinite(*min_bw))
		return coll_usage("NCCL_TESTS_MIN_BW: expected the smallest average bus bandwidth "
				  "in GB/s (a number), got '%s'",
				  env);
	return 0;
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

enum { OPT_BACKEND = 256, OPT_INJECT, OPT_UNHANDLED };

/* getopt_long's table and letters from coll_opts: a row's letter, else the
 * code of its long name. A row added without a case below is refused as
 * unknown, never silently ignored (tests/install/meta.sh then fails). */
static void getopt_tables(struct option *lo, char *shorts)
{
	size_t k = 0;
	char *sp = shorts;
	*sp++ = ':';
	for (const struct cli_opt *o = coll_opts; o->type != CLI_END; o++, k++) {
		int val = o->short_name                 ? o->short_name
			  : !strcmp(o->name, "backend") ? OPT_BACKEND
			  : !strcmp(o->name, "inject")  ? OPT_INJECT
							: OPT_UNHANDLED;
		lo[k] = (struct option){o->name, required_argument, 0, val};
		if (o->short_name) {
			*sp++ = o->short_name;
			*sp++ = ':';
		}
	}
	lo[k] = (struct option){"help", no_argument, 0, 'h'};
	*sp++ = 'h';
	*sp = 0;
}

/* The sizes (-b, -e, -i) and the options that take a name. */
static int parse_sizes(int c, struct coll_opts *o)
{
	size_t *dst = c == 'b' ? &o->minb : c == 'e' ? &o->maxb : &o->stepb;
	if (!coll_parse_size(optarg, dst))
		return coll_usage("-%c: expected a size in bytes (K, M and G are binary), got '%s'",
				  c, optarg);
	return 0;
}

static int parse_names(int c, struct coll_opts *o)
{
	switch (c) {
	case 'O':
		o->op = lookup(coll_op_names, optarg, false);
		if (o->op < 0)
			return coll_usage("-O: expected all_reduce, all_gather, reduce_scatter, "
					  "alltoall, broadcast, reduce, sendrecv, gather, scatter, "
					  "hypercube or alltoallv, got '%s'",
					  optarg);
		return 0;
	case OPT_BACKEND:
		o->backend = -1;
		for (int k = 0; coll_backends[k]; k++)
			if (!strcmp(coll_backends[k]->name, optarg))
				o->backend = k;
		if (o->backend < 0)
			return coll_usage("--backend: expected mpi, shm, nccl or rccl, got '%s'",
					  optarg);
		return 0;
	case OPT_INJECT:
		if (lookup(injects, optarg, false) < 0)
			return coll_usage("--inject: expected bitflip, hang, none, bf16-sum or "
					  "short-sum, got '%s'",
					  optarg);
		o->inject = !strcmp(optarg, "bitflip");
		o->inject_hang = !strcmp(optarg, "hang");
		coll_mutant = !strcmp(optarg, "bf16-sum")    ? COLL_MUTANT_BF16
			      : !strcmp(optarg, "short-sum") ? COLL_MUTANT_SHORT
							     : COLL_MUTANT_NONE;
		return 0;
	case 'o':
		o->redop = lookup(coll_redop_names, optarg, true);
		if (o->redop == -2)
			return coll_usage(
			    "-o: expected sum, prod, max, min, avg, mulsum or all, got "
			    "'%s'",
			    optarg);
		return 0;
	default: /* 'd' */
		o->type = strcmp(optarg, "all") ? coll_type_find(optarg) : -1;
		if (strcmp(optarg, "all") && (o->type < 0 || !coll_type_size(o->type))) {
			struct sbuf sb = SBUF_INIT;
			coll_type_list(&sb, "all");
			coll_usage("-d: expected %s, got '%s'%s%s%s", sbuf_str(&sb), optarg,
				   o->type >= 0 ? " (" : "", o->type >= 0 ? optarg : "",
				   o->type >= 0 ? " is not built)" : "");
			sbuf_release(&sb);
			return ASSAY_USAGE;
		}
		return 0;
	}
}

/* The integer options. */
static int parse_int(int c, struct coll_opts *o)
{
	static const struct {
		int c;
		long long min, max;
	} ints[] = {{'t', 1, 1},       {'g', 1, 1},       {'m', 1, 1 << 20}, {'f', 1, 1 << 20},
		    {'n', 1, 1 << 24}, {'w', 0, 1 << 24}, {'c', 0, 1 << 20}, {'r', -1, INT_MAX},
		    {'z', 0, 3},       {'a', 0, 3},       {'N', 0, INT_MAX}, {'C', 0, 1},
		    {'T', 0, INT_MAX}, {'I', 0, 1},       {'K', 0, 1 << 24}, {'u', 0, 4096},
		    {'R', 0, 2},       {'G', 0, INT_MAX}};
	size_t k = 0;
	while (k < ARRAY_SIZE(ints) && ints[k].c != c)
		k++;
	if (k == ARRAY_SIZE(ints)) {
		const struct cli_opt *row = coll_opts;
		while (row->type != CLI_END && row->short_name != c)
			row++;
		return coll_usage("unknown option '--%s' (a row of coll_opts without its case in "
				  "args.c)",
				  row->name ? row->name : "?");
	}
	long long v = 0;
	if (!assay_parse_long(optarg, &v) || v < ints[k].min || v > ints[k].max) {
		if (ints[k].min == ints[k].max)
			return coll_usage("-%c: assay-coll runs one rank per process, one "
					  "call at a time: expected 1, got '%s'",
					  c, optarg);
		return coll_usage("-%c: expected an integer from %lld to %lld, got '%s'", c,
				  ints[k].min, ints[k].max, optarg);
	}
	switch (c) {
	case 'R': o->reg = v; break;
	case 'G': o->graph = v; break;
	case 'm': o->agg = v; break;
	case 'N': o->cycles = v; break;
	case 'C': o->cputime = v; break;
	case 'T': o->timeout = v; break;
	case 'I': o->per_iter = v; break;
	case 'K': o->skip = v; break;
	case 'u': o->unalign = v; break;
	case 'f': o->stepf = (size_t)v; break;
	case 'n': o->iters = v; break;
	case 'w': o->warmup = v; break;
	case 'c': o->check = v; break;
	case 'r': o->root = v; break;
	case 'z': o->blocking = v; break;
	case 'a': o->average = v; break;
	default: break;
	}
	return 0;
}

/* -R and -G above 0, refused on every backend, naming it: the CPU backends
 * have neither; the GPU backends (backend_nccl.c) do not build them. */
static int refuse_gpu_flags(const struct coll_opts *o)
{
	const char *be = coll_backends[o->backend]->name;
	bool cpu = coll_backends[o->backend] == &coll_backend_mpi ||
		   coll_backends[o->backend] == &coll_backend_shm;
	if (o->reg && cpu)
		return coll_usage("-R %lld: buffer registration is NCCL's; the CPU backends (mpi, "
				  "shm) have no registration to turn on",
				  o->reg);
	if (o->reg)
		return coll_usage("-R %lld: buffer registration is not built in assay-coll's %s "
				  "backend; run without -R",
				  o->reg, be);
	if (cpu)
		return coll_usage("-G %lld: CUDA graphs need a GPU backend; the CPU backends (mpi, "
				  "shm) run each call at once",
				  o->graph);
	return coll_usage("-G %lld: CUDA graph launches are not built in assay-coll's %s backend; "
			  "run without -G",
			  o->graph, be);
}

/* What the options say together, once all are read. */
static int check_opts(const struct coll_opts *o, int argc, char **argv)
{
	if (optind < argc)
		return coll_usage("unexpected argument '%s' (see assay-coll --help)", argv[optind]);
	if (o->op < 0)
		return coll_usage("no operation: give -O all_reduce (or another), or run a link "
				  "named all_reduce_perf (or another)");
	if (o->minb > o->maxb)
		return coll_usage("invalid sizes for 'minbytes' and 'maxbytes': %zu > %zu", o->minb,
				  o->maxb);
	if (o->stepf == 1 && o->stepb == 0)
		return coll_usage("-i 0 with -f 1: the sizes would never grow");
	if (o->stepf > 1 && o->minb == 0)
		return coll_usage("-b 0 with -f %zu: the sizes would never grow", o->stepf);
	if (o->skip && !o->per_iter)
		return coll_usage("-K %lld: per-iteration skip needs per-iteration timing (-I 1)",
				  o->skip);
	if (o->skip >= o->iters)
		return coll_usage(
		    "-K %lld: per-iteration skip must be between 0 and %lld (-n %lld)", o->skip,
		    o->iters - 1, o->iters);
	if (o->reg || o->graph)
		return refuse_gpu_flags(o);
	if (o->op == COLL_ALLTOALLV && getenv("NCCL_TESTS_ALLTOALLV_MATRIX_FILE"))
		return coll_usage("NCCL_TESTS_ALLTOALLV_MATRIX_FILE: alltoallv's traffic-matrix "
				  "file is not built; unset it for the generated pattern "
				  "(NCCL_TESTS_ALLTOALLV_SPREAD)");
	return 0;
}

int coll_parse_args(int argc, char **argv, struct coll_opts *o)
{
	*o = (struct coll_opts){.op = op_from_program(argv[0]),
				.minb = 32u << 20,
				.maxb = 32u << 20,
				.stepb = 1u << 20,
				.stepf = 1,
				.iters = 20,
				.warmup = 1,
				.check = 1,
				.average = 1,
				.agg = 1,
				.cycles = 1,
				.type = coll_type_find("float"),
				.redop = CR_SUM};
	struct option longopts[ARRAY_SIZE(coll_opts) + 1];
	char shorts[2 * ARRAY_SIZE(coll_opts) + 4];
	getopt_tables(longopts, shorts);
	opterr = 0;
	int c, idx, rc = 0;
	while (!rc && (c = getopt_long(argc, argv, shorts, longopts, &idx)) != -1) {
		switch (c) {
		case 'h':
			if (!coll_quiet)
				cli_help(&coll_spec, stdout);
			return -1;
		case ':': return coll_usage("option '%s' needs a value", argv[optind - 1]);
		case '?':
			return coll_usage("unknown option '%s' (see assay-coll --help)",
					  argv[optind - 1]);
		case 'b':
		case 'e':
		case 'i': rc = parse_sizes(c, o); break;
		case 'J': o->json = optarg; break;
		case 'O':
		case OPT_BACKEND:
		case OPT_INJECT:
		case 'o':
		case 'd': rc = parse_names(c, o); break;
		case OPT_UNHANDLED:
			return coll_usage("unknown option '--%s' (a row of coll_opts without its "
					  "case in args.c)",
					  longopts[idx].name);
		default: rc = parse_int(c, o); break;
		}
	}
	return rc ? rc : check_opts(o, argc, argv);
}
