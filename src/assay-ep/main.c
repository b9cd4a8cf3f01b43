/* assay-ep: the expert-parallel dispatch/combine benchmark. This file holds
 * the subcommand table, help, and the error helpers every subcommand uses. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/util.h"
#include "assay/version.h"
#include "bench.h"

static const struct cli_command commands[] = {
    {"run", ep_cmd_run, "run one case (a ladder) under mpirun -np EP, with the oracle", NULL,
     &ep_run_spec},
    {"routing", ep_cmd_routing, "print the global routing as NDJSON", NULL, &ep_routing_spec},
    {"probe", ep_cmd_probe, "measure this node's copy bandwidth per rank", NULL, &ep_probe_spec},
    {NULL, NULL, NULL, NULL, NULL},
};

static const struct cli_program program = {
    .name = "assay-ep",
    .summary = "the expert-parallel (MoE) dispatch/combine benchmark",
    .usage = "assay-ep <command> [options]",
    .about = "The expert-parallel (MoE) dispatch/combine benchmark with a correctness\n"
	     "oracle (docs/ep.md). Run cases under mpirun, one rank per EP rank:\n"
	     "  mpirun -np 2 assay-ep run --backend shm --ep 2 --phase prefill \\\n"
	     "      --precision bf16 --tokens 1024,2048 --profile quick --out case.json\n",
    .commands = commands,
    .exits = "exit codes: 0 all points valid, 2 bad arguments, 3 a point invalid,\n"
	     "4 unsupported (nothing measured), 5 MPI/CUDA setup failure.\n",
};

static void print_main_help(FILE *f)
{
	fprintf(f, "usage: %s\n\n%s\ncommands:\n", program.usage, program.about);
	for (const struct cli_command *c = commands; c->name; c++)
		fprintf(f, "  %-8s %s\n", c->name, c->summary);
	fprintf(
	    f,
	    "\n'assay-ep help COMMAND' or 'assay-ep COMMAND --help' shows a command's options.\n"
	    "%s",
	    program.exits);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		print_main_help(stderr);
		return ASSAY_USAGE;
	}
	const char *cmd = argv[1];
	ep_backend_names_fill();
	if (!strcmp(cmd, "--generate"))
		return cli_generate(&program, argc - 1, argv + 1);
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		print_main_help(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		printf("assay-ep %s (%s)\n", assay_version_string, assay_git_revision);
		return 0;
	}
	bool help = !strcmp(cmd, "help");
	if (help) {
		if (argc < 3) {
			print_main_help(stdout);
			return 0;
		}
		cmd = argv[2];
	}
	for (const struct cli_command *c = commands; c->name; c++) {
		if (strcmp(c->name, cmd))
			continue;
		for (int a = 2; a < argc && !help; a++)
			help = !strcmp(argv[a], "--help") || !strcmp(argv[a], "-h");
		if (help) {
			cli_help(c->spec, stdout);
			return 0;
		}
		return c->run(argc - 1, argv + 1);
	}
	fprintf(stderr,
		"assay-ep: unknown command '%s' (run, routing, probe; see assay-ep --help)\n", cmd);
	return ASSAY_USAGE;
}

bool ep_quiet;

int ep_usage(const char *cmd, const char *fmt, ...)
{
	if (ep_quiet)
		return ASSAY_USAGE;
	va_list ap;
	fprintf(stderr, "assay-ep %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return ASSAY_USAGE;
}

bool ep_parse_int(const char *cmd, const char *flag, const char *s, long long min, long long max,
		  long long *out)
{
	if (!s) {
		ep_usage(cmd, "%s needs a value", flag);
		return false;
	}
	if (!assay_parse_long(s, out) || *out < min || *out > max) {
		ep_usage(cmd, "%s: expected an integer from %lld to %lld, got '%s'", flag, min, max,
			 s);
		return false;
	}
	return true;
}

void ep_choice_words(struct sbuf *sb, const char *const *names)
{
	for (size_t i = 0; names[i]; i++)
		sbuf_addf(sb, "%s%s", !i ? "" : names[i + 1] ? ", " : " or ", names[i]);
}

/* The row of opts named by a ("--hidden"), its table's offset added to
 * *base; NULL when none. */
static const struct cli_opt *find_opt(const struct cli_opt *t, const char *a, size_t *base)
{
	for (; t && t->type != CLI_END; t++) {
		if (t->type == CLI_TABLE) {
			size_t b = *base + t->off;
			const struct cli_opt *o = find_opt(t->sub, a, &b);
			if (o) {
				*base = b;
				return o;
			}
		} else if (t->name && !strncmp(a, "--", 2) && !strcmp(t->name, a + 2)) {
			return t;
		}
	}
	return NULL;
}

/* One option with its value v (NULL when argv ends) into p: false after a
 * message. */
static bool parse_opt(const char *cmd, const struct cli_opt *o, const char *v, void *p)
{
	char flag[64];
	snprintf(flag, sizeof(flag), "--%s", o->name);
	if (o->type == CLI_INT)
		return ep_parse_int(cmd, flag, v, o->min, o->max ? o->max : LLONG_MAX, p);
	if (!v || (o->type == CLI_STRING && (long long)strlen(v) < o->min)) {
		ep_usage(cmd, "%s needs a value", flag);
		return false;
	}
	if (o->type == CLI_STRING) {
		*(const char **)p = v;
		return true;
	}
	for (const char *const *c = o->choices; *c; c++)
		if (!strcmp(*c, v)) {
			*(const char **)p = *c;
			return true;
		}
	struct sbuf sb = SBUF_INIT;
	ep_choice_words(&sb, o->choices);
	ep_usage(cmd, "%s: expected %s, got '%s'", flag, sbuf_str(&sb), v);
	sbuf_release(&sb);
	return false;
}

int ep_parse_opts(const char *cmd, int argc, char **argv, const struct cli_opt *opts, void *args)
{
	for (int i = 1; i < argc; i++) {
		size_t base = 0;
		const struct cli_opt *o = find_opt(opts, argv[i], &base);
		if (!o)
			return ep_usage(cmd, "unknown option '%s' (see assay-ep %s --help)",
					argv[i], cmd);
		void *p = (char *)args + base + o->off;
		if (o->type == CLI_FLAG) {
			*(bool *)p = true;
			continue;
		}
		if (!parse_opt(cmd, o, i + 1 < argc ? argv[i + 1] : NULL, p))
			return ASSAY_USAGE;
		i++;
	}
	return 0;
}

#define A struct ep_shape_opts
const struct cli_opt ep_shape_cli[] = {
    {.type = CLI_INT,
     .name = "hidden",
     .arg = "N",
     .off = offsetof(A, hidden),
     .min = 32,
     .max = 1 << 20,
     .help = "columns per token, at least 32",
     .def = "7168"},
    {.type = CLI_INT,
     .name = "experts",
     .arg = "N",
     .off = offsetof(A, experts),
     .min = 1,
     .max = 1 << 20,
     .help = "routed experts, a multiple of EP",
     .def = "256"},
    {.type = CLI_INT,
     .name = "topk",
     .arg = "N",
     .off = offsetof(A, topk),
     .min = 1,
     .max = 1 << 20,
     .help = "experts per token",
     .def = "8"},
    {.type = CLI_INT,
     .name = "seed",
     .arg = "N",
     .off = offsetof(A, seed),
     .min = 0,
     .max = (long long)(~0ull >> 1),
     .help = "routing and activation seed",
     .def = "67"},
    {.type = CLI_STRING,
     .name = "routing",
     .arg = "SPEC",
     .off = offsetof(A, routing),
     .min = 1,
     .help = "routing distribution: uniform, zipf:S, hot:K:P or\nfile:PATH (docs/ep.md)",
     .def = "uniform"},
    CLI_OPT_END,
};
#undef A

bool ep_shape_is_reference(const struct ep_shape_opts *sh)
{
	const struct ep_shape_opts r = EP_SHAPE_DEFAULTS;
	return sh->hidden == r.hidden && sh->experts == r.experts && sh->topk == r.topk &&
	       sh->seed == r.seed;
}

int ep_routing_prepare(const char *cmd, const char *spec, int64_t experts, int64_t topk,
		       struct assay_ep_dist *d)
{
	struct assay_error e;
	if (assay_ep_dist_parse(spec ? spec : "uniform", d, &e) != ASSAY_OK)
		return ep_usage(cmd, "%s", e.message);
	if (assay_ep_dist_prepare(d, experts, topk, &e) != ASSAY_OK) {
		assay_ep_dist_release(d);
		return ep_usage(cmd, "%s", e.message);
	}
	return 0;
}
