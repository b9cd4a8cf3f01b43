/* assay-ep: the expert-parallel dispatch/combine benchmark. This file holds
 * the subcommand table, help, and the error helpers every subcommand uses. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/util.h"
#include "assay/version.h"
#include "bench.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
	const char *summary;
} commands[] = {
    {"run", ep_cmd_run, ep_run_help,
     "run one case (a ladder) under mpirun -np EP, with the oracle"},
    {"routing", ep_cmd_routing, ep_routing_help, "print the global routing as NDJSON"},
    {"probe", ep_cmd_probe, ep_probe_help, "measure this node's copy bandwidth per rank"},
};

static const char main_help[] =
    "usage: assay-ep <command> [options]\n"
    "\n"
    "The expert-parallel (MoE) dispatch/combine benchmark with a correctness\n"
    "oracle (docs/ep.md). Run cases under mpirun, one rank per EP rank:\n"
    "  mpirun -np 2 assay-ep run --backend shm --ep 2 --phase prefill \\\n"
    "      --precision bf16 --tokens 1024,2048 --profile quick --out case.json\n"
    "\n"
    "commands:\n";

static void print_main_help(FILE *f)
{
	fputs(main_help, f);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(
	    f, "\n'assay-ep help COMMAND' or 'assay-ep COMMAND --help' shows a command's options.\n"
	       "exit codes: 0 all points valid, 2 bad arguments, 3 a point invalid,\n"
	       "4 unsupported (nothing measured), 5 MPI/CUDA setup failure.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		print_main_help(stderr);
		return ASSAY_USAGE;
	}
	const char *cmd = argv[1];
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
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(commands[i].name, cmd))
			continue;
		for (int a = 2; a < argc && !help; a++)
			help = !strcmp(argv[a], "--help") || !strcmp(argv[a], "-h");
		if (help) {
			fputs(commands[i].help, stdout);
			return 0;
		}
		return commands[i].fn(argc - 1, argv + 1);
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

static const struct ep_opt *find_opt(const struct ep_opt *opts, const char *a)
{
	for (; opts->name; opts++)
		if (!strcmp(opts->name, a))
			return opts;
	return NULL;
}

/* One option with its value v (NULL when argv ends): false after a message. */
static bool parse_opt(const char *cmd, const struct ep_opt *o, const char *v)
{
	if (o->type == EP_OPT_INT)
		return ep_parse_int(cmd, o->name, v, o->min, o->max, o->dst);
	if (!v || (o->type == EP_OPT_STRING && !*v && !o->allow_empty)) {
		ep_usage(cmd, "%s needs a value", o->name);
		return false;
	}
	if (o->type == EP_OPT_STRING) {
		*(const char **)o->dst = v;
		return true;
	}
	for (int k = 0; o->choices[k]; k++)
		if (!strcmp(o->choices[k], v)) {
			*(int *)o->dst = k;
			return true;
		}
	struct sbuf sb = SBUF_INIT;
	ep_choice_words(&sb, o->choices);
	ep_usage(cmd, "%s: expected %s, got '%s'", o->name, sbuf_str(&sb), v);
	sbuf_release(&sb);
	return false;
}

int ep_parse_opts(const char *cmd, int argc, char **argv, const struct ep_opt *opts)
{
	for (int i = 1; i < argc; i++) {
		const struct ep_opt *o = find_opt(opts, argv[i]);
		if (!o)
			return ep_usage(cmd, "unknown option '%s' (see assay-ep %s --help)",
					argv[i], cmd);
		if (o->type == EP_OPT_FLAG) {
			*(bool *)o->dst = true;
			continue;
		}
		if (!parse_opt(cmd, o, i + 1 < argc ? argv[i + 1] : NULL))
			return ASSAY_USAGE;
		i++;
	}
	return 0;
}
