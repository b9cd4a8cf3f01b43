/* assay-coll's command line: nccl-tests' flags (-b, -e, -f, -n, ...) and
 * assay-coll's own (--backend, --inject), checked before MPI starts. */
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/util.h"
#include "coll.h"

/* The -d line (%s) is filled in from the type table. */
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
    "  -d,--datatype T     %s\n"
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

bool coll_quiet;

/* The usage, its -d line the built types of the table, wrapped at 80
 * columns under the option's help column. */
static void print_usage(void)
{
	const char *at = strstr(usage_text, "%s");
	fwrite(usage_text, 1, (size_t)(at - usage_text), stdout);
	struct sbuf list = SBUF_INIT;
	coll_type_list(&list, "all (default float)");
	size_t col = 22; /* "  -d,--datatype T     " */
	for (const char *w = sbuf_str(&list); *w;) {
		size_t len = strcspn(w, " ");
		if (col > 22 && col + 1 + len > 80) {
			printf("\n%22s", "");
			col = 22;
		} else if (col > 22) {
			putchar(' ');
			col++;
		}
		printf("%.*s", (int)len, w);
		col += len;
		w += len + strspn(w + len, " ");
	}
	sbuf_release(&list);
	fputs(at + 2, stdout);
}

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

/* The sizes (-b, -e, -i) and the options that take a name. */
static int parse_sizes(int c, struct coll_opts *o)
{
	size_t *dst = c == 'b' ? &o->minb : c == 'e' ? &o->maxb : &o->stepb;
	if (!parse_size(optarg, dst))
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
					  "alltoall, broadcast, reduce or sendrecv, got '%s'",
					  optarg);
		return 0;
	case OPT_BACKEND:
		o->backend = -1;
		for (int k = 0; coll_backends[k]; k++)
			if (!strcmp(coll_backends[k]->name, optarg))
				o->backend = k;
		if (o->backend < 0)
			return coll_usage("--backend: expected mpi or shm, got '%s'", optarg);
		return 0;
	case OPT_INJECT:
		if (strcmp(optarg, "bitflip") && strcmp(optarg, "none"))
			return coll_usage("--inject: expected bitflip or none, got '%s'", optarg);
		o->inject = !strcmp(optarg, "bitflip");
		return 0;
	case 'o':
		o->redop = lookup(coll_redop_names, optarg, true);
		if (o->redop == -2)
			return coll_usage(
			    "-o: expected sum, prod, max, min, avg or all, got '%s'%s", optarg,
			    !strcmp(optarg, "mulsum") ? " (mulsum is not built)" : "");
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
	} ints[] = {{'t', 1, 1},       {'g', 1, 1},       {'m', 1, 1},       {'f', 1, 1 << 20},
		    {'n', 1, 1 << 24}, {'w', 0, 1 << 24}, {'c', 0, 1 << 20}, {'r', -1, INT_MAX},
		    {'z', 0, 1},       {'a', 0, 3}};
	for (size_t k = 0; k < ARRAY_SIZE(ints); k++) {
		long long v = 0;
		if (ints[k].c != c)
			continue;
		if (!assay_parse_long(optarg, &v) || v < ints[k].min || v > ints[k].max) {
			if (ints[k].min == ints[k].max)
				return coll_usage("-%c: assay-coll runs one rank per process, one "
						  "call at a time: expected 1, got '%s'",
						  c, optarg);
			return coll_usage("-%c: expected an integer from %lld to %lld, got '%s'", c,
					  ints[k].min, ints[k].max, optarg);
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
	return 0;
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
				.type = coll_type_find("float"),
				.redop = CR_SUM};
	opterr = 0;
	int c, idx, rc = 0;
	while (!rc && (c = getopt_long(argc, argv, ":t:g:b:e:i:f:n:m:w:c:o:d:r:z:J:a:O:h", longopts,
				       &idx)) != -1) {
		switch (c) {
		case 'h':
			if (!coll_quiet)
				print_usage();
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
		default: rc = parse_int(c, o); break;
		}
	}
	return rc ? rc : check_opts(o, argc, argv);
}
