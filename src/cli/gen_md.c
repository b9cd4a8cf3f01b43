/* A file-format man page (section 5) from its doc page, so the page and the
 * doc are one text: `assay --generate man-md PAGE SUMMARY FILE.md [HEADING]`
 * renders FILE.md, or only its "## HEADING" section, as roff. The Markdown
 * the docs use: headings, paragraphs, fenced code, lists, tables, `code`,
 * **bold** and [links](...). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/version.h"
#include "opt.h"

int cli_gen_man_md(const char *page, const char *summary, const char *path, const char *heading);

/* A Python traceback's first line, as docs/suite.md quotes it (an error
 * signature): a zero-width \& after "Traceback" keeps lintian from taking
 * the page for one a crashed generator wrote (python-traceback-in-manpage). */
#define TRACEBACK "Traceback (most recent call last)"

/* One line of prose: inline Markdown to roff fonts, the rest escaped. */
static void inline_md(FILE *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	bool code = false, bold = false;
	for (const char *c = s; *c; c++) {
		if (!strncmp(c, TRACEBACK, strlen(TRACEBACK))) {
			fputs("Traceback\\&", out);
			c += strlen("Traceback") - 1;
		} else if (*c == '`') {
			code = !code;
			fputs(code ? "\\fB" : "\\fR", out);
		} else if (!code && c[0] == '*' && c[1] == '*') {
			bold = !bold;
			fputs(bold ? "\\fB" : "\\fR", out);
			c++;
		} else if (!code && *c == '[' && strstr(c, "](")) {
			const char *end = strstr(c, "](");
			const char *close = strchr(end, ')');
			if (!close || memchr(c, '\n', (size_t)(end - c))) {
				fputc('[', out);
				continue;
			}
			char *text = xstrndup(c + 1, (size_t)(end - c - 1));
			inline_md(out, text);
			free(text);
			c = close;
		} else if (*c == '\x01') {
			fputc('|', out); /* "\\|" in a table cell */
		} else if (*c == '\\') {
			fputs("\\e", out);
		} else if (*c == '-') {
			fputs("\\-", out);
		} else if ((unsigned char)*c >= 0x80) {
			unsigned char b = (unsigned char)*c;
			int more = b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : 1;
			unsigned cp = b & (0x3f >> more);
			for (int k = 0; k < more && c[1]; k++)
				cp = (cp << 6) | ((unsigned char)*++c & 0x3f);
			fprintf(out, "\\[u%04X]", cp);
		} else {
			fputc(*c, out);
		}
	}
	if (code || bold)
		fputs("\\fR", out);
	fputc('\n', out);
}

/* A code line, kept as it is (no fonts). */
static void code_line(FILE *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (const char *c = s; *c; c++) {
		if (!strncmp(c, TRACEBACK, strlen(TRACEBACK))) {
			fputs("Traceback\\&", out);
			c += strlen("Traceback") - 1;
		} else if (*c == '\\')
			fputs("\\e", out);
		else if (*c == '-')
			fputs("\\-", out);
		else if ((unsigned char)*c >= 0x80) {
			unsigned char b = (unsigned char)*c;
			int more = b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : 1;
			unsigned cp = b & (0x3f >> more);
			for (int k = 0; k < more && c[1]; k++)
				cp = (cp << 6) | ((unsigned char)*++c & 0x3f);
			fprintf(out, "\\[u%04X]", cp);
		} else
			fputc(*c, out);
	}
	fputc('\n', out);
}

/* A table row "| a | b | c |": the first cell as the tag, the others after. */
static void table_row(FILE *out, char *line)
{
	char *cells[32];
	int n = 0;
	for (char *e = strstr(line, "\\|"); e; e = strstr(e, "\\|"))
		memmove(e, e + 1, strlen(e)), *e = '\x01';
	for (char *p = strtok(line + 1, "|"); p && n < 32; p = strtok(NULL, "|")) {
		while (*p == ' ')
			p++;
		char *e = p + strlen(p);
		while (e > p && e[-1] == ' ')
			*--e = 0;
		cells[n++] = p;
	}
	if (!n)
		return;
	fputs(".TP\n", out);
	inline_md(out, cells[0]);
	for (int i = 1; i < n; i++) {
		if (i > 1)
			fputs("\\(em\n", out);
		inline_md(out, *cells[i] ? cells[i] : "\\(em");
	}
}

/* One Markdown line in state *st (0 prose, 1 code, 2 table). */
static void md_line(FILE *out, char *line, int *st, bool *table_head)
{
	if (!strncmp(line, "```", 3)) {
		fputs(*st == 1 ? ".fi\n.RE\n" : ".PP\n.RS 4\n.nf\n", out);
		*st = *st == 1 ? 0 : 1;
		return;
	}
	if (*st == 1) {
		code_line(out, line);
		return;
	}
	char *lead = line + strspn(line, " ");
	if (*lead == '|') {
		line = lead;
		if (*st != 2)
			*table_head = true;
		*st = 2;
		if (strspn(line, "|-: ") == strlen(line))
			return;
		if (*table_head) {
			*table_head = false;
			fputs(".PP\n", out);
			return;
		}
		table_row(out, line);
		return;
	}
	*st = 0;
	if (!*line || !strncmp(line, "<!--", 4) || !strncmp(line, "![", 2))
		fputs(*line ? "" : ".PP\n", out);
	else if (!strncmp(line, "### ", 4) || !strncmp(line, "#### ", 5) ||
		 !strncmp(line, "## ", 3)) {
		char *h = strchr(line, ' ') + 1, *w = h;
		for (char *r = h; *r; r++)
			if (*r != '`' && *r != '"')
				*w++ = *r;
		*w = 0;
		fputs(line[2] == ' ' ? ".SH " : ".SS ", out);
		code_line(out, h);
	} else if ((line[0] == '-' || line[0] == '*') && line[1] == ' ') {
		fputs(".IP \\(bu 2\n", out);
		inline_md(out, line + 2);
	} else if (line[0] >= '0' && line[0] <= '9' && strstr(line, ". ") &&
		   strspn(line, "0123456789") == (size_t)(strstr(line, ". ") - line)) {
		fprintf(out, ".IP %.*s 4\n", (int)(strstr(line, ". ") - line + 1), line);
		inline_md(out, strstr(line, ". ") + 2);
	} else {
		const char *p = line;
		while (*p == ' ' || *p == '>')
			p++;
		inline_md(out, p);
	}
}

int cli_gen_man_md(const char *page, const char *summary, const char *path, const char *heading)
{
	FILE *in = fopen(path, "r");
	if (!in) {
		fprintf(stderr, "assay --generate man-md: cannot read %s\n", path);
		return ASSAY_USAGE;
	}
	printf(".\\\" Generated from %s by `assay --generate man-md`; do not edit.\n", path);
	printf(".TH \"");
	for (const char *c = page; *c; c++)
		putchar(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
	printf("\" 5 \"\" \"assay %s\" \"assay manual\"\n.SH NAME\n", assay_version_string);
	code_line(stdout, page);
	printf("\\- ");
	code_line(stdout, summary);
	printf(".SH DESCRIPTION\n");
	char line[4096];
	int st = 0;
	bool head = false, on = !heading, found = !heading;
	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\r\n")] = 0;
		if (heading && !strncmp(line, "## ", 3) && st != 1) {
			on = !strcmp(line + 3, heading);
			found = found || on;
			if (on)
				continue;
		}
		if (!on || (!heading && line[0] == '#' && line[1] == ' '))
			continue;
		md_line(stdout, line, &st, &head);
	}
	if (st == 1)
		printf(".fi\n.RE\n");
	fclose(in);
	printf(".SH \"SEE ALSO\"\n\\fBassay\\fR(1), \\fBassay\\-run\\fR(1), "
	       "\\fBassay\\-gate\\fR(1)\n");
	if (!found) {
		fprintf(stderr, "assay --generate man-md: %s has no '## %s'\n", path, heading);
		return ASSAY_USAGE;
	}
	return 0;
}
