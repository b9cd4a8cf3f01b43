/* Helpers shared by the commands: error printing and list options. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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

int cli_report(const struct assay_error *e)
{
	char buf[2048];
	fprintf(stderr, "%s\n", assay_error_format(e, buf, sizeof(buf)));
	return e->code;
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
