/* The option-table engine (opt.h): flattens a command's table into
 * getopt_long's, stores each value at its row's offset, and prints the same
 * rows as --help text and as the Markdown option list of the doc page. */
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"

/* A flattened row: the option and the base offset of its table. */
struct flat {
	const struct cli_opt *o;
	size_t base;
};

static size_t flatten(const struct cli_opt *t, size_t base, struct flat *out, size_t n)
{
	for (; t && t->type != CLI_END; t++) {
		if (t->type == CLI_TABLE) {
			n = flatten(t->sub, base + t->off, out, n);
			continue;
		}
		if (out)
			out[n] = (struct flat){t, base};
		n++;
	}
	return n;
}

static int bad_value(const char *cmd, const struct cli_opt *o, const char *arg, const char *what)
{
	return cli_usage_error(cmd, "--%s: expected %s, got '%s'", o->name, what, arg);
}

/* Store arg for row o (already resolved from an alias) at base. */
static int store(const char *cmd, const struct cli_opt *o, void *args, size_t base, const char *arg)
{
	void *p = (char *)args + base + o->off;
	char *end;
	switch (o->type) {
	case CLI_STRING:
		if ((long long)strlen(arg) < o->min)
			return bad_value(cmd, o, arg, "a value");
		*(const char **)p = arg;
		return 0;
	case CLI_FLAG: *(bool *)p = true; return 0;
	case CLI_UNSET: *(bool *)p = false; return 0;
	case CLI_INT: {
		errno = 0;
		long long v = strtoll(arg, &end, 10);
		if (!*arg || *end || errno || v < o->min) {
			char what[64];
			snprintf(what, sizeof(what), "a whole number of at least %lld", o->min);
			return bad_value(cmd, o, arg, what);
		}
		*(long long *)p = v;
		return 0;
	}
	case CLI_DOUBLE: {
		errno = 0;
		double v = strtod(arg, &end);
		if (!*arg || *end || errno || !isfinite(v))
			return bad_value(cmd, o, arg, "a number");
		*(double *)p = v;
		return 0;
	}
	case CLI_LIST: cli_split_list(p, arg); return 0;
	case CLI_APPEND: strlist_push(p, arg); return 0;
	case CLI_CHOICE:
		for (const char *const *c = o->choices; *c; c++)
			if (!strcmp(*c, arg)) {
				*(const char **)p = *c;
				return 0;
			}
		{
			struct sbuf sb = SBUF_INIT;
			sbuf_addf(&sb, "one of ");
			for (const char *const *c = o->choices; *c; c++)
				sbuf_addf(&sb, "%s%s", c == o->choices ? "" : ", ", *c);
			int rc = bad_value(cmd, o, arg, sbuf_str(&sb));
			sbuf_release(&sb);
			return rc;
		}
	case CLI_CALL: return o->call((char *)args + base, arg, cmd);
	default: return 0;
	}
}

/* The message for getopt_long's '?': an unknown option or a missing value. */
static int unknown(const struct cli_spec *spec, const struct flat *f, size_t n, const char *a)
{
	const struct cli_opt *o = NULL;
	if (optopt >= 256 && (size_t)optopt - 256 < n)
		o = f[optopt - 256].o;
	for (size_t i = 0; !o && optopt > 0 && optopt < 256 && i < n; i++)
		if (f[i].o->short_name == optopt)
			o = f[i].o;
	if (o)
		return cli_usage_error(spec->name, "option '--%s' expects a value (%s)", o->name,
				       o->arg);
	if (optopt > 0 && optopt < 256)
		return cli_usage_error(spec->name, "unknown option '-%c' (see 'assay help %s')",
				       optopt, spec->name);
	return cli_usage_error(spec->name, "unknown option '%s' (see 'assay help %s')", a,
			       spec->name);
}

/* The message for a wrong number of positional arguments. */
static int count_error(const struct cli_spec *spec, int npos, const char *extra)
{
	const char *what = spec->args_what ? spec->args_what : "argument";
	char n[32];
	if (spec->max_args == 0)
		return cli_usage_error(spec->name, "unexpected argument '%s'", extra);
	if (spec->min_args == spec->max_args || npos < spec->min_args) {
		int want = npos < spec->min_args ? spec->min_args : spec->max_args;
		snprintf(n, sizeof(n), "%d", want);
		return cli_usage_error(spec->name, "expected %s%s %s%s, got %d",
				       spec->min_args != spec->max_args ? "at least " : "",
				       want == 1 ? "one" : n, what, want == 1 ? "" : "s", npos);
	}
	snprintf(n, sizeof(n), "%d", spec->max_args);
	return cli_usage_error(spec->name, "expected at most %s %s%s, got %d",
			       spec->max_args == 1 ? "one" : n, what,
			       spec->max_args == 1 ? "" : "s", npos);
}

/* The element of argv that held the long option just returned (its value
 * may have been the next element), or NULL for a short option. */
static const char *long_text(int argc, char **argv, bool has_arg)
{
	int at = optind - 1;
	if (has_arg && optarg && at >= 1 && optarg == argv[at])
		at--;
	if (at < 1 || at >= argc || strncmp(argv[at], "--", 2))
		return NULL;
	return argv[at];
}

/* Options take their full names: getopt_long also takes a unique prefix
 * ("--sto" for "--store"), which would break a script the day a second
 * option starts the same way. The exit code of a prefix, or 0. */
static int exact_name(const struct cli_spec *spec, const char *text, const char *name)
{
	size_t len = strcspn(text + 2, "=");
	if (len == strlen(name) && !strncmp(text + 2, name, len))
		return 0;
	return cli_usage_error(
	    spec->name,
	    "unknown option '%.*s' (did you mean '--%s'? options take their full names)",
	    (int)(len + 2), text, name);
}

int cli_parse(const struct cli_spec *spec, int argc, char **argv, void *args, int *first)
{
	size_t n = flatten(spec->opts, 0, NULL, 0);
	struct flat *f = xcalloc(n + 1, sizeof(*f));
	flatten(spec->opts, 0, f, 0);
	struct option *lo = xcalloc(n + 2, sizeof(*lo));
	char shorts[2 * 64 + 2] = "", *sp = shorts;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const struct cli_opt *o = f[i].o;
		if (!o->name)
			continue;
		lo[k++] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL,
					  256 + (int)i};
		if (o->short_name && sp + 3 < shorts + sizeof(shorts)) {
			*sp++ = o->short_name;
			if (o->arg)
				*sp++ = ':';
			*sp = 0;
		}
	}
	lo[k] = (struct option){"help", no_argument, NULL, 'h'};
	int rc = 0, opt;
	opterr = 0;
	optind = 1;
	while (!rc && (opt = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const char *text = opt == 'h' || opt >= 256
				       ? long_text(argc, argv, opt >= 256 && f[opt - 256].o->arg)
				       : NULL;
		if (text &&
		    (rc = exact_name(spec, text, opt == 'h' ? "help" : f[opt - 256].o->name)))
			break;
		if (opt == 'h') {
			cli_help(spec, stdout);
			rc = -1;
			break;
		}
		size_t i = n;
		if (opt >= 256)
			i = (size_t)opt - 256;
		else if (opt != '?')
			for (i = 0; i < n && f[i].o->short_name != opt; i++)
				;
		if (i >= n) {
			rc = unknown(spec, f, n, argv[optind - 1]);
			break;
		}
		const struct cli_opt *o = f[i].o;
		size_t base = f[i].base;
		const char *arg = o->arg ? optarg : NULL;
		if (o->alias_of) {
			if (o->alias_arg)
				arg = o->alias_arg;
			else
				fprintf(stderr, "assay %s: --%s is deprecated; use --%s\n",
					spec->name, o->name, o->alias_of);
			for (size_t j = 0; j < n; j++)
				if (f[j].o->name && !strcmp(f[j].o->name, o->alias_of) &&
				    !f[j].o->alias_of) {
					o = f[j].o;
					base = f[j].base;
					break;
				}
		}
		rc = store(spec->name, o, args, base, arg);
	}
	int npos = argc - optind;
	if (!rc && (npos < spec->min_args || (spec->max_args >= 0 && npos > spec->max_args)))
		rc = count_error(spec, npos, argv[optind]);
	*first = optind;
	free(lo);
	free(f);
	return rc;
}

/* "--name ARG", or "-x, --name ARG" with a one-letter alias, into buf. */
static const char *label(const struct cli_opt *o, char *buf, size_t size)
{
	const char *a = o->arg ? o->arg : "";
	if (o->short_name)
		snprintf(buf, size, "-%c, --%s%s%s", o->short_name, o->name, *a ? " " : "", a);
	else
		snprintf(buf, size, "--%s%s%s", o->name, *a ? " " : "", a);
	return buf;
}

/* Print text with every line after the first indented by indent columns. */
/* o's help text into sb: its help, then what help_more appends, broken
 * into lines of at most 70 characters at the spaces it adds. */
static void help_text(const struct cli_opt *o, struct sbuf *sb)
{
	sbuf_addf(sb, "%s", o->help);
	if (!o->help_more)
		return;
	struct sbuf more = SBUF_INIT;
	o->help_more(&more);
	const char *nl = strrchr(sbuf_str(sb), '\n');
	size_t col = sb->len - (nl ? (size_t)(nl + 1 - sb->buf) : 0);
	for (const char *w = sbuf_str(&more); *w;) {
		size_t len = strcspn(w, " ");
		if (col + 1 + len > 70) {
			sbuf_addf(sb, "\n%.*s", (int)len, w);
			col = len;
		} else {
			sbuf_addf(sb, " %.*s", (int)len, w);
			col += 1 + len;
		}
		w += len + strspn(w + len, " ");
	}
	sbuf_release(&more);
}

static void print_wrapped(FILE *out, const char *text, int indent)
{
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		fprintf(out, "%.*s\n", len, p);
		if (!nl)
			break;
		p = nl + 1;
		if (*p)
			fprintf(out, "%*s", indent, "");
	}
}

void cli_help(const struct cli_spec *spec, FILE *out)
{
	size_t n = flatten(spec->opts, 0, NULL, 0);
	struct flat *f = xcalloc(n + 1, sizeof(*f));
	flatten(spec->opts, 0, f, 0);
	char buf[128];
	int width = 0;
	for (size_t i = 0; i < n; i++) {
		const struct cli_opt *o = f[i].o;
		if (o->name && (!o->alias_of || o->alias_arg)) {
			int w = (int)strlen(label(o, buf, sizeof(buf)));
			width = w > width ? w : width;
		}
	}
	width = width > 24 ? 24 : width;
	const char *u = spec->usage;
	for (bool firstline = true; *u; firstline = false) {
		const char *nl = strchr(u, '\n');
		int len = nl ? (int)(nl - u) : (int)strlen(u);
		fprintf(out, "%s%.*s\n", firstline ? "usage: " : "       ", len, u);
		u += len + (nl ? 1 : 0);
	}
	fprintf(out, "\n%s", spec->about);
	bool heading = false;
	for (size_t i = 0; i < n; i++) {
		const struct cli_opt *o = f[i].o;
		if (o->type == CLI_GROUP) {
			fprintf(out, "\n%s:\n", o->help);
			heading = true;
			continue;
		}
		if (o->alias_of && !o->alias_arg)
			continue;
		if (!heading) {
			fprintf(out, "\noptions:\n");
			heading = true;
		}
		label(o, buf, sizeof(buf));
		int w = (int)strlen(buf);
		if (w > width)
			fprintf(out, "  %s\n  %*s  ", buf, width, "");
		else
			fprintf(out, "  %-*s  ", width, buf);
		struct sbuf sb = SBUF_INIT;
		if (o->alias_arg)
			sbuf_addf(&sb, "same as --%s %s", o->alias_of, o->alias_arg);
		else
			help_text(o, &sb);
		if (o->def)
			sbuf_addf(&sb, " (default: %s)", o->def);
		print_wrapped(out, sbuf_str(&sb), width + 4);
		sbuf_release(&sb);
	}
	for (const struct cli_spec *const *sub = spec->subs; sub && *sub; sub++) {
		fprintf(out, "\n");
		cli_help(*sub, out);
	}
	if (spec->examples && *spec->examples) {
		fprintf(out, "\nexample%s:\n", strchr(spec->examples, '\n') ? "s" : "");
		for (const char *p = spec->examples; *p;) {
			const char *nl = strchr(p, '\n');
			int len = nl ? (int)(nl - p) : (int)strlen(p);
			fprintf(out, "  %.*s\n", len, p);
			p += len + (nl ? 1 : 0);
		}
	}
	if (spec->exits)
		fprintf(out, "\n%s", spec->exits);
	free(f);
}

void cli_doc_options(const struct cli_spec *spec, FILE *out)
{
	size_t n = flatten(spec->opts, 0, NULL, 0);
	struct flat *f = xcalloc(n + 1, sizeof(*f));
	flatten(spec->opts, 0, f, 0);
	char buf[128];
	for (size_t i = 0; i < n; i++) {
		const struct cli_opt *o = f[i].o;
		if (o->type == CLI_GROUP) {
			fprintf(out, "\n%s:\n\n", o->help);
			continue;
		}
		fprintf(out, "- `%s`: ", label(o, buf, sizeof(buf)));
		if (o->alias_arg) {
			fprintf(out, "same as `--%s %s`\n", o->alias_of, o->alias_arg);
			continue;
		}
		if (o->alias_of) {
			fprintf(out, "deprecated spelling of `--%s`\n", o->alias_of);
			continue;
		}
		struct sbuf sb = SBUF_INIT;
		help_text(o, &sb);
		for (const char *p = sbuf_str(&sb); *p; p++)
			fputc(*p == '\n' ? ' ' : *p, out);
		sbuf_release(&sb);
		if (o->def)
			fprintf(out, " (default: %s)", o->def);
		fputc('\n', out);
	}
	free(f);
	for (const struct cli_spec *const *sub = spec->subs; sub && *sub; sub++) {
		fprintf(out, "\n`assay %s %s`:\n\n", spec->name, (*sub)->sub_name);
		cli_doc_options(*sub, out);
	}
}

const struct cli_spec *cli_sub(const struct cli_spec *spec, const char *name)
{
	for (const struct cli_spec *const *sub = spec->subs; sub && *sub; sub++)
		if (!strcmp((*sub)->sub_name, name))
			return *sub;
	return NULL;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "assay %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return ASSAY_USAGE;
}

void cli_split_list(struct strlist *l, const char *arg)
{
	const char *p = arg;
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		if (n) {
			char *s = xstrndup(p, n);
			if (!strlist_has(l, s))
				strlist_push(l, s);
			free(s);
		}
		p += n + (comma ? 1 : 0);
	}
}
