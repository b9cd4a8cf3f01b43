/* What the build generates from a program's option tables (opt.h): man
 * pages (roff) and the bash and zsh completion scripts, so that --help, the
 * pages and the completion cannot drift apart. Run as
 * `PROG --generate ...` by CMakeLists.txt; docs/development.md. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/version.h"
#include "opt.h"

void cli_gen_bash(const struct cli_program *p, FILE *out);
void cli_gen_zsh(const struct cli_program *p, FILE *out);
int cli_gen_man_md(const char *page, const char *summary, const char *path, const char *heading);

/* --- roff --- */

/* n bytes of s as roff text: backslashes, minus signs and non-ASCII
 * characters escaped; a leading control character neutralised. */
static void roff_n(FILE *out, const char *s, size_t n)
{
	if (n && (*s == '.' || *s == '\''))
		fputs("\\&", out);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\\')
			fputs("\\e", out);
		else if (c == '-')
			fputs("\\-", out);
		else if (c < 0x80)
			fputc(c, out);
		else {
			/* UTF-8 to \[uXXXX] (groff reads bytes, not UTF-8). */
			unsigned cp = 0;
			int more = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
			cp = c & (0x3f >> more);
			for (int k = 0; k < more && i + 1 < n; k++)
				cp = (cp << 6) | ((unsigned char)s[++i] & 0x3f);
			fprintf(out, "\\[u%04X]", cp);
		}
	}
}

static void roff(FILE *out, const char *s)
{
	roff_n(out, s, strlen(s));
}

/* Text of '\n'-separated lines: blank lines start paragraphs, indented
 * lines are kept as they are (commands, samples). */
static void roff_text(FILE *out, const char *text)
{
	bool nofill = false;
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		bool pre = len && *p == ' ';
		if (pre != nofill)
			fputs(pre ? ".PP\n.nf\n" : ".fi\n", out);
		nofill = pre;
		if (!len)
			fputs(".PP\n", out);
		else {
			if (pre && len >= 2 && p[1] == ' ')
				p += 2, len -= 2; /* the help's indent of two */
			roff_n(out, p, len);
			fputc('\n', out);
		}
		p = nl ? nl + 1 : NULL;
	}
	if (nofill)
		fputs(".fi\n", out);
}

static void roff_usage(FILE *out, const char *usage)
{
	fputs(".nf\n", out);
	for (const char *p = usage; *p;) {
		size_t len = strcspn(p, "\n");
		roff_n(out, p, len);
		fputc('\n', out);
		p += len + (p[len] ? 1 : 0);
	}
	fputs(".fi\n", out);
}

/* "-x, --name ARG" in bold and italics. */
static void roff_label(FILE *out, const struct cli_opt *o)
{
	fputs(".TP\n", out);
	if (o->short_name)
		fprintf(out, "\\fB\\-%c\\fR, ", o->short_name);
	fputs("\\fB\\-\\-", out);
	roff(out, o->name);
	fputs("\\fR", out);
	if (o->arg) {
		fputs(" \\fI", out);
		roff(out, o->arg);
		fputs("\\fR", out);
	}
	fputc('\n', out);
}

static void roff_option(FILE *out, const struct cli_opt *o)
{
	roff_label(out, o);
	if (o->alias_arg) {
		fprintf(out, "Same as \\fB\\-\\-");
		roff(out, o->alias_of);
		fputs(" ", out);
		roff(out, o->alias_arg);
		fputs("\\fR.\n", out);
		return;
	}
	if (o->alias_of) {
		fputs("Deprecated spelling of \\fB\\-\\-", out);
		roff(out, o->alias_of);
		fputs("\\fR.\n", out);
		return;
	}
	struct sbuf sb = SBUF_INIT;
	sbuf_addf(&sb, "%s", o->help ? o->help : "");
	if (o->help_more) {
		sbuf_addf(&sb, " ");
		o->help_more(&sb);
	}
	if (o->def)
		sbuf_addf(&sb, " (default: %s)", o->def);
	for (const char *p = sbuf_str(&sb); *p;) {
		size_t len = strcspn(p, "\n");
		roff_n(out, p, len);
		fputc('\n', out);
		p += len + (p[len] ? 1 : 0);
	}
	sbuf_release(&sb);
}

static void roff_options(FILE *out, const struct cli_opt *t, bool *heading)
{
	for (; t && t->type != CLI_END; t++) {
		if (t->type == CLI_TABLE) {
			roff_options(out, t->sub, heading);
			continue;
		}
		if (t->type == CLI_GROUP) {
			fputs(".SS \"", out);
			roff(out, t->help);
			fputs("\"\n", out);
			*heading = true;
			continue;
		}
		if (!*heading) {
			fputs(".SS Options\n", out);
			*heading = true;
		}
		roff_option(out, t);
	}
}

/* One command's spec; title: a section of its own ("ASSAY STORE INGEST")
 * for a subcommand or a command of a one-page program. */
static void man_spec(FILE *out, const struct cli_spec *s, const char *title)
{
	if (title) {
		fputs(".SH \"", out);
		roff(out, title);
		fputs("\"\n", out);
		roff_usage(out, s->usage);
		fputs(".PP\n", out);
	} else {
		fputs(".SH SYNOPSIS\n", out);
		roff_usage(out, s->usage);
		fputs(".SH DESCRIPTION\n", out);
	}
	roff_text(out, s->about);
	bool heading = false;
	if (!title && s->opts && s->opts->type != CLI_END && s->opts->type != CLI_GROUP) {
		fputs(".SH OPTIONS\n", out);
		heading = true;
	}
	roff_options(out, s->opts, &heading);
}

static void man_examples(FILE *out, const char *examples)
{
	if (!examples || !*examples)
		return;
	fputs(".SH EXAMPLES\n.nf\n", out);
	roff_text(out, examples);
	fputs(".fi\n", out);
}

static void man_exits(FILE *out, const char *exits)
{
	if (!exits || !*exits)
		return;
	fputs(".SH \"EXIT STATUS\"\n", out);
	roff_text(out, exits);
}

static void man_head(FILE *out, const char *page, const char *summary)
{
	struct sbuf up = SBUF_INIT;
	for (const char *c = page; *c; c++)
		sbuf_addf(&up, "%c", toupper((unsigned char)*c));
	fprintf(out, ".\\\" Generated from the option tables by `--generate man`; do not edit.\n");
	fputs(".TH \"", out);
	roff(out, sbuf_str(&up));
	fprintf(out, "\" 1 \"\" \"assay %s\" \"assay manual\"\n.SH NAME\n", assay_version_string);
	roff(out, page);
	fputs(" \\- ", out);
	roff(out, summary);
	fputc('\n', out);
	sbuf_release(&up);
}

static void man_see_also(FILE *out, const struct cli_program *p, const char *self)
{
	fputs(".SH \"SEE ALSO\"\n", out);
	bool first = true;
	if (strcmp(self, p->name)) {
		fprintf(out, "\\fB%s\\fR(1)", p->name);
		first = false;
	}
	for (const struct cli_command *c = p->commands; p->page_per_command && c && c->name; c++) {
		char page[128];
		snprintf(page, sizeof(page), "%s-%s", p->name, c->name);
		if (!strcmp(page, self))
			continue;
		fprintf(out, "%s\\fB", first ? "" : ",\n");
		roff(out, page);
		fputs("\\fR(1)", out);
		first = false;
	}
	fprintf(out, "%s\n", first ? "\\fBassay\\fR(1)" : "");
}

/* The program's own page: its commands, or its one table. */
static void man_program(FILE *out, const struct cli_program *p)
{
	man_head(out, p->name, p->summary);
	if (p->spec) {
		man_spec(out, p->spec, NULL);
	} else {
		fputs(".SH SYNOPSIS\n", out);
		roff_usage(out, p->usage);
		fputs(".SH DESCRIPTION\n", out);
		roff_text(out, p->about);
		fputs(".SH COMMANDS\n", out);
		for (const struct cli_command *c = p->commands; c->name; c++) {
			fputs(".TP\n\\fB", out);
			roff(out, c->name);
			fputs("\\fR\n", out);
			roff(out, c->summary);
			if (p->page_per_command) {
				fprintf(out, "; see \\fB%s\\-", p->name);
				roff(out, c->name);
				fputs("\\fR(1)", out);
			}
			fputs(".\n", out);
		}
		for (const struct cli_command *c = p->commands; !p->page_per_command && c->name;
		     c++) {
			char title[128];
			snprintf(title, sizeof(title), "%s %s", p->name, c->name);
			man_spec(out, c->spec, title);
			man_examples(out, c->spec->examples);
		}
	}
	man_examples(out, p->examples);
	man_exits(out, p->exits);
	man_see_also(out, p, p->name);
}

/* assay-CMD(1): one command, its subcommands after it. */
static void man_command(FILE *out, const struct cli_program *p, const struct cli_command *c)
{
	char page[128];
	snprintf(page, sizeof(page), "%s-%s", p->name, c->name);
	man_head(out, page, c->summary);
	if (c->spec) {
		man_spec(out, c->spec, NULL);
		for (const struct cli_spec *const *sub = c->spec->subs; sub && *sub; sub++) {
			char title[128];
			snprintf(title, sizeof(title), "%s %s %s", p->name, c->name,
				 (*sub)->sub_name);
			man_spec(out, *sub, title);
		}
		man_examples(out, c->spec->examples);
		man_exits(out, c->spec->exits);
	} else {
		fputs(".SH DESCRIPTION\n.nf\n", out);
		roff_text(out, c->help);
		fputs(".fi\n", out);
	}
	man_see_also(out, p, page);
}

static int gen_man(const struct cli_program *p, const char *page)
{
	if (!strcmp(page, p->name)) {
		man_program(stdout, p);
		return 0;
	}
	size_t n = strlen(p->name);
	for (const struct cli_command *c = p->commands; p->page_per_command && c && c->name; c++)
		if (!strncmp(page, p->name, n) && page[n] == '-' &&
		    !strcmp(page + n + 1, c->name)) {
			man_command(stdout, p, c);
			return 0;
		}
	fprintf(stderr, "%s --generate man: no page '%s' (see --generate man-pages)\n", p->name,
		page);
	return ASSAY_USAGE;
}

int cli_generate(const struct cli_program *p, int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	if (!strcmp(what, "man-pages") && argc == 2) {
		printf("%s\n", p->name);
		for (const struct cli_command *c = p->commands; p->page_per_command && c->name; c++)
			printf("%s-%s\n", p->name, c->name);
		return 0;
	}
	if (!strcmp(what, "man-md") && (argc == 5 || argc == 6))
		return cli_gen_man_md(argv[2], argv[3], argv[4], argc == 6 ? argv[5] : NULL);
	if (!strcmp(what, "man") && argc == 3)
		return gen_man(p, argv[2]);
	if (!strcmp(what, "completion") && argc == 3 && !strcmp(argv[2], "bash")) {
		cli_gen_bash(p, stdout);
		return 0;
	}
	if (!strcmp(what, "completion") && argc == 3 && !strcmp(argv[2], "zsh")) {
		cli_gen_zsh(p, stdout);
		return 0;
	}
	fprintf(stderr,
		"%s --generate: expected man-pages, man PAGE, man-md PAGE SUMMARY FILE.md "
		"[HEADING] or completion bash|zsh (see "
		"docs/development.md)\n",
		p->name);
	return ASSAY_USAGE;
}
