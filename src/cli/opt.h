/* One option table per command: it drives getopt_long, the command's --help,
 * the option list of its doc page, its man page and completion
 * (docs/development.md, "Options"), so they cannot drift apart. Shared by
 * the three programs (src/cli: the library assay_opt). Values land in the command's own argument
 * struct at the offset each row names. */
#ifndef ASSAY_CLI_OPT_H
#define ASSAY_CLI_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "assay/error.h"
#include "assay/util.h"

enum cli_opt_type {
	CLI_END = 0,
	CLI_STRING, /* const char *: the argument as given */
	CLI_FLAG,   /* bool: set to true */
	CLI_UNSET,  /* bool: set to false (the --no-X spelling of a default-on flag) */
	CLI_INT,    /* long long: a whole decimal number, at least .min */
	CLI_DOUBLE, /* double: a finite number */
	CLI_LIST,   /* struct strlist: comma-separated values, repeatable, duplicates dropped */
	CLI_APPEND, /* struct strlist: one value per use, repeatable, kept as given */
	CLI_CHOICE, /* const char *: one of .choices */
	CLI_CALL,   /* .call(args, arg): returns an exit code, 0 when accepted */
	CLI_GROUP,  /* not an option: a heading in --help and the doc list (.help) */
	CLI_TABLE,  /* the rows of .sub, their offsets relative to .off (shared option sets) */
};

struct cli_opt {
	enum cli_opt_type type;
	const char *name;           /* the long name, without dashes */
	char short_name;            /* a one-letter alias, or 0 */
	const char *arg;            /* the argument's placeholder (PATH, N, ...), NULL for none */
	size_t off;                 /* offset of the value in the command's argument struct */
	const char *help;           /* what it does; '\n' starts a continuation line */
	const char *def;            /* the default shown in help, or NULL */
	const char *const *choices; /* CLI_CHOICE: NULL-terminated */
	long long min;              /* CLI_INT: the smallest value accepted; CLI_STRING: the
				       fewest characters */
	long long max; /* CLI_INT: the largest value accepted (assay-ep's parser), 0: none */
	int (*call)(void *args, const char *arg, const char *cmd); /* CLI_CALL */
	const struct cli_opt *sub;                                 /* CLI_TABLE */
	const char *alias_of; /* a deprecated spelling: the name to use instead */
	/* With alias_of: a documented shorthand (no deprecation note) that stands
	 * for --ALIAS_OF ALIAS_ARG, e.g. --json for --format json. */
	const char *alias_arg;
	/* Words appended to help from a table of the library (comma-separated,
	 * e.g. every input format), so the help names what the table holds. */
	void (*help_more)(struct sbuf *out);
};

/* Rows for the common kinds; others are written with designated initialisers. */
#define CLI_OPT_STRING(n, a, s, f, h)                                                              \
	{                                                                                          \
		.type = CLI_STRING, .name = n, .arg = a, .off = offsetof(s, f), .help = h          \
	}
#define CLI_OPT_FLAG(n, s, f, h)                                                                   \
	{                                                                                          \
		.type = CLI_FLAG, .name = n, .off = offsetof(s, f), .help = h                      \
	}
#define CLI_OPT_GROUP(h)                                                                           \
	{                                                                                          \
		.type = CLI_GROUP, .help = h                                                       \
	}
#define CLI_OPT_TABLE(t, s, f)                                                                     \
	{                                                                                          \
		.type = CLI_TABLE, .off = offsetof(s, f), .sub = t                                 \
	}
/* --format F: what a command prints (what it reads is --input-format),
 * one of choices c (NULL-terminated), default d. */
#define CLI_OPT_FORMAT(s, f, h, d, c)                                                              \
	{                                                                                          \
		.type = CLI_CHOICE, .name = "format", .arg = "F", .off = offsetof(s, f),           \
		.help = h, .def = d, .choices = c                                                  \
	}
/* --json: the documented shorthand of --format json. */
#define CLI_OPT_JSON                                                                               \
	{                                                                                          \
		.type = CLI_FLAG, .name = "json", .alias_of = "format", .alias_arg = "json"        \
	}
#define CLI_OPT_END                                                                                \
	{                                                                                          \
		.type = CLI_END                                                                    \
	}

struct cli_spec {
	const char *name;  /* the command: "report" */
	const char *usage; /* usage lines after "usage: ", '\n'-separated */
	const char *about; /* what the command does: one or more paragraphs */
	const struct cli_opt *opts;
	const char *examples;  /* one command per line */
	const char *exits;     /* the "Exit codes: ..." paragraph */
	int min_args;          /* positional arguments: at least */
	int max_args;          /* at most; -1 for any number */
	const char *args_what; /* what a positional argument is, for messages */
	/* Subcommands (assay store ingest, ...): NULL-terminated; each has its own
	 * table and is parsed with its own spec. Their help and option lists
	 * follow the command's own. */
	const struct cli_spec *const *subs;
	const char *sub_name; /* a subcommand: its name ("ingest") */
};

/* A row of a program's command table (assay's is in src/assay/main.c,
 * assay-ep's in src/assay-ep/main.c). */
struct cli_command {
	const char *name;
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
	const char *summary;               /* one line for `assay --help` */
	const char *help;                  /* full text for `assay help NAME`, or NULL: */
	const struct cli_spec *spec;       /* its option table (opt.h) makes the help */
};

/* Print "assay CMD: message" to stderr; returns ASSAY_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) ASSAY_PRINTF(2, 3);
/* Split a comma-separated option value into list entries. */
void cli_split_list(struct strlist *l, const char *arg);

/* A whole program, for what is generated from its tables (gen.c): man
 * pages and shell completion. A program has commands (assay, assay-ep) or
 * one table of its own (assay-coll). */
struct cli_program {
	const char *name;                   /* "assay-ep" */
	const char *summary;                /* what it is, one line: the man page's NAME */
	const char *usage;                  /* the SYNOPSIS lines, '\n'-separated */
	const char *about;                  /* the DESCRIPTION */
	const struct cli_command *commands; /* ended by a row without a name, or NULL */
	const struct cli_spec *spec;        /* a program without commands: its table */
	const char *examples;               /* one command per line */
	const char *exits;                  /* the EXIT STATUS paragraph */
	bool page_per_command;              /* assay-CMD(1) each (assay); else one page for all */
};

/* `PROG --generate WHAT ...`, the build's generators (docs/development.md):
 *   --generate man-pages           the names of the program's man pages
 *   --generate man PAGE            one page (e.g. assay-run) as roff
 *   --generate completion bash|zsh the completion script
 *   --generate man-md PAGE SUMMARY FILE.md [HEADING]
 *                                  a section-5 page from a doc page (gen_md.c)
 * Returns the exit code. */
int cli_generate(const struct cli_program *p, int argc, char **argv);

/* Parse argv (argv[0] is the command name) into args. On success returns 0
 * and sets *first to the index of the first positional argument (getopt_long
 * moves them to the end). --help prints the help and returns -1: the command
 * then returns 0. Otherwise prints "assay NAME: ..." and returns the exit
 * code (2). */
int cli_parse(const struct cli_spec *spec, int argc, char **argv, void *args, int *first);

/* The command's help, as `assay help NAME` and `assay NAME --help` print it
 * (with every subcommand's help after its own). */
void cli_help(const struct cli_spec *spec, FILE *out);

/* The option list of the doc page, as Markdown (docs/<name>.md between the
 * "options" markers; tests/docs checks that the page has it). */
void cli_doc_options(const struct cli_spec *spec, FILE *out);

/* The subcommand of spec named name, or NULL. */
const struct cli_spec *cli_sub(const struct cli_spec *spec, const char *name);

/* The options of a training log's statistics (--warmup, --seq-len,
 * --world-size) over struct assay_train_opts; defined in cli.c. */
extern const struct cli_opt train_cli_opts[];

#endif
