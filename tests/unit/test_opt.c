/* Unit tests for the CLI option engine (src/assay/opt.c): every row kind lands
 * its value at its offset, shared tables keep their own base, deprecated
 * spellings resolve to the new name, and each misuse is an exit-2 usage
 * error; the help and the doc list are made from the same rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/util.h"
#include "cli.h"
#include "opt.h"

struct shared {
	const char *store;
	struct strlist match;
};

struct args {
	const char *name, *format;
	bool on, off;
	long long n;
	double x;
	struct strlist list, append;
	int calls;
	struct shared sh;
};

static int count_call(void *args, const char *arg, const char *cmd)
{
	(void)cmd;
	struct args *a = args;
	a->calls++;
	return strcmp(arg, "bad") ? 0 : cli_usage_error("t", "--call: bad");
}

static const char *const formats[] = {"table", "json", NULL};

static const struct cli_opt shared_opts[] = {
    CLI_OPT_STRING("store", "PATH", struct shared, store, "the store"),
    {.type = CLI_APPEND,
     .name = "match",
     .arg = "K=V",
     .off = offsetof(struct shared, match),
     .help = "a filter"},
    CLI_OPT_END,
};

static const struct cli_opt opts[] = {
    CLI_OPT_STRING("name", "NAME", struct args, name, "a name"),
    {.type = CLI_STRING,
     .name = "label",
     .arg = "NAME",
     .off = offsetof(struct args, name),
     .alias_of = "name"},
    CLI_OPT_FLAG("on", struct args, on, "turn on"),
    {.type = CLI_UNSET, .name = "no-off", .off = offsetof(struct args, off), .help = "off"},
    {.type = CLI_INT,
     .name = "n",
     .short_name = 'n',
     .arg = "N",
     .off = offsetof(struct args, n),
     .help = "a count\nsecond line",
     .def = "3",
     .min = 1},
    {.type = CLI_DOUBLE, .name = "x", .arg = "X", .off = offsetof(struct args, x), .help = "x"},
    {.type = CLI_LIST, .name = "list", .arg = "L", .off = offsetof(struct args, list), .help = "l"},
    {.type = CLI_APPEND,
     .name = "append",
     .arg = "A",
     .off = offsetof(struct args, append),
     .help = "a"},
    {.type = CLI_CHOICE,
     .name = "format",
     .arg = "F",
     .off = offsetof(struct args, format),
     .help = "output",
     .choices = formats},
    CLI_OPT_JSON,
    {.type = CLI_CALL, .name = "call", .arg = "C", .help = "c", .call = count_call},
    CLI_OPT_GROUP("store options"),
    CLI_OPT_TABLE(shared_opts, struct args, sh),
    CLI_OPT_END,
};

static const struct cli_spec spec = {
    .name = "t",
    .usage = "assay t [options] FILE...\nassay t --other",
    .about = "A test command.\n",
    .opts = opts,
    .examples = "assay t a\nassay t b",
    .exits = "Exit codes: 0 ok.\n",
    .min_args = 1,
    .max_args = 2,
    .args_what = "file",
};

/* Parse a NULL-terminated argument list into a fresh args struct. */
static int parse(struct args *a, int *first, ...)
{
	char *argv[32] = {"t"};
	int argc = 1;
	va_list ap;
	va_start(ap, first);
	for (char *s; argc < 31 && (s = va_arg(ap, char *));)
		argv[argc++] = s;
	va_end(ap);
	memset(a, 0, sizeof(*a));
	a->off = true;
	return cli_parse(&spec, argc, argv, a, first);
}

static void release(struct args *a)
{
	strlist_clear(&a->list);
	strlist_clear(&a->append);
	strlist_clear(&a->sh.match);
}

static void test_values(void **state)
{
	(void)state;
	struct args a;
	int first;
	assert_int_equal(parse(&a, &first, "--name", "x", "--on", "--no-off", "-n", "7", "--x=2.5",
			       "--list", "a,b", "--list", "b,c", "--append", "p,q", "--append",
			       "p,q", "--format", "json", "--call", "ok", "--store", "s.db",
			       "--match", "k=v", "f1", "f2", NULL),
			 0);
	assert_string_equal(a.name, "x");
	assert_true(a.on && !a.off);
	assert_int_equal(a.n, 7);
	assert_true(a.x == 2.5);
	assert_int_equal(a.list.n, 3); /* a, b, c: duplicates dropped */
	assert_int_equal(a.append.n, 2);
	assert_string_equal(a.append.v[1], "p,q");
	assert_string_equal(a.format, "json");
	assert_int_equal(a.calls, 1);
	assert_string_equal(a.sh.store, "s.db"); /* the shared table's own base */
	assert_string_equal(a.sh.match.v[0], "k=v");
	assert_int_equal(first, 24);
	release(&a);
}

static void test_alias(void **state)
{
	(void)state;
	struct args a;
	int first;
	assert_int_equal(parse(&a, &first, "--label", "old", "f", NULL), 0);
	assert_string_equal(a.name, "old");
	release(&a);
	/* A documented shorthand stands for the option with its fixed value. */
	assert_int_equal(parse(&a, &first, "--json", "f", NULL), 0);
	assert_string_equal(a.format, "json");
	release(&a);
}

static void test_errors(void **state)
{
	(void)state;
	struct args a;
	int first;
	const char *bad[][4] = {
	    {"--nope", "f", NULL},        {"-z", "f", NULL},
	    {"f", "--name", NULL},        {"-n", "0", "f", NULL},
	    {"-n", "2x", "f", NULL},      {"--x", "inf", "f", NULL},
	    {"--x", "", "f", NULL},       {"--format", "xml", "f"},
	    {"--call", "bad", "f", NULL}, {NULL},
	    {"a", "b", "c", NULL},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = parse(&a, &first, bad[i][0], bad[i][0] ? bad[i][1] : NULL,
			       bad[i][0] && bad[i][1] ? bad[i][2] : NULL, NULL);
		if (rc != 2)
			fail_msg("case %zu (%s): exit %d, expected 2", i,
				 bad[i][0] ? bad[i][0] : "no arguments", rc);
		release(&a);
	}
}

/* Options take their full names: a unique prefix getopt_long would take
 * ("--sto", "--for=json", "--he") is an unknown option; a value that looks
 * like a prefix ("--name --sto") is a value. */
static void test_exact_names(void **state)
{
	(void)state;
	struct args a;
	int first;
	const char *bad[][3] = {
	    {"--sto", "s.db", "f"}, {"--for=json", "f", NULL}, {"--he", NULL, NULL},
	    {"--appen", "x", "f"},  {"--ca", "ok", "f"},       {"--js", "f", NULL},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc =
		    parse(&a, &first, bad[i][0], bad[i][1], bad[i][1] ? bad[i][2] : NULL, NULL);
		if (rc != 2)
			fail_msg("case %zu (%s): exit %d, expected 2", i, bad[i][0], rc);
		release(&a);
	}
	assert_int_equal(parse(&a, &first, "--name", "--sto", "--store=s.db", "f", NULL), 0);
	assert_string_equal(a.name, "--sto");
	assert_string_equal(a.sh.store, "s.db");
	release(&a);
	assert_int_equal(parse(&a, &first, "f", "--format=json", NULL), 0);
	assert_string_equal(a.format, "json");
	release(&a);
}

static void test_help_and_doc(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cli_help(&spec, f);
	fclose(f);
	assert_non_null(strstr(buf, "usage: assay t [options] FILE...\n       assay t --other\n"));
	assert_non_null(strstr(buf, "  -n, --n N     a count\n                second line "
				    "(default: 3)\n"));
	assert_non_null(strstr(buf, "\nstore options:\n  --store PATH"));
	assert_null(strstr(buf, "--label")); /* deprecated spellings stay out of help */
	assert_non_null(strstr(buf, "  --json        same as --format json\n"));
	assert_non_null(strstr(buf, "examples:\n  assay t a\n  assay t b\n"));
	free(buf);
	f = open_memstream(&buf, &len);
	cli_doc_options(&spec, f);
	fclose(f);
	assert_non_null(strstr(buf, "- `-n, --n N`: a count second line (default: 3)\n"));
	assert_non_null(strstr(buf, "- `--label NAME`: deprecated spelling of `--name`\n"));
	assert_non_null(strstr(buf, "- `--json`: same as `--format json`\n"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_values),       cmocka_unit_test(test_alias),
	    cmocka_unit_test(test_errors),       cmocka_unit_test(test_exact_names),
	    cmocka_unit_test(test_help_and_doc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
