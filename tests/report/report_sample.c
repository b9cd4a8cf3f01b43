/* Writes the synthetic report model (assay_report_sample) to a folder:
 * report.html, junit.xml and summary.md. Used by the report tests and by
 * bench/report-speed.sh, which passes --time to get build times and sizes.
 *   report_sample [--cases N] [--secret VALUE]... [--time] OUTDIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/report.h"
#include "assay/util.h"
#include "sample.h"

static int usage(void)
{
	fprintf(stderr, "usage: report_sample [--cases N] [--secret VALUE]... [--time] OUTDIR\n");
	return 2;
}

int main(int argc, char **argv)
{
	long long cases = 16;
	bool timing = false;
	const char *dir = NULL;
	struct strlist secrets = STRLIST_INIT;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cases") && i + 1 < argc) {
			if (!assay_parse_long(argv[++i], &cases) || cases < 0)
				return usage();
		} else if (!strcmp(argv[i], "--secret") && i + 1 < argc) {
			strlist_push(&secrets, argv[++i]);
		} else if (!strcmp(argv[i], "--time")) {
			timing = true;
		} else if (argv[i][0] != '-' && !dir) {
			dir = argv[i];
		} else {
			return usage();
		}
	}
	if (!dir)
		return usage();

	double t0 = assay_monotonic();
	struct assay_report r;
	assay_report_init(&r);
	assay_report_sample(&r, (size_t)cases);
	for (size_t i = 0; i < secrets.n; i++)
		assay_redactor_add(&r.secrets, "secret", secrets.v[i]);
	double t1 = assay_monotonic();

	static const struct {
		const char *name;
		void (*write)(const struct assay_report *, struct sbuf *);
	} files[] = {{"report.html", assay_report_html},
		     {"junit.xml", assay_report_junit},
		     {"summary.md", assay_report_markdown}};
	struct assay_error e;
	if (assay_mkdirs(dir, &e)) {
		fprintf(stderr, "report_sample: %s\n", e.message);
		return 5;
	}
	double total = t1 - t0;
	if (timing)
		printf("model      %8lld cases  %8.1f ms\n", cases, (t1 - t0) * 1e3);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		double a = assay_monotonic();
		struct sbuf sb = SBUF_INIT;
		files[i].write(&r, &sb);
		char *path = xasprintf("%s/%s", dir, files[i].name);
		if (assay_write_file_atomic(path, sbuf_str(&sb), sb.len, &e)) {
			fprintf(stderr, "report_sample: %s: %s\n", path, e.message);
			return 5;
		}
		double b = assay_monotonic();
		total += b - a;
		if (timing)
			printf("%-11s %8zu bytes  %8.1f ms\n", files[i].name, sb.len,
			       (b - a) * 1e3);
		free(path);
		sbuf_release(&sb);
	}
	if (timing)
		printf("total                     %8.1f ms\n", total * 1e3);
	assay_report_release(&r);
	strlist_clear(&secrets);
	return 0;
}
