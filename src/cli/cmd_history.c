/* assay history: one stored series over time, point by point, with its
 * change points (CI defaults) and annotations marked. docs/history.md. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/detect.h"
#include "assay/json.h"
#include "cli.h"
#include "store_cli.h"

const char cmd_history_help[] =
    "usage: assay history [--store PATH] [--since DATE] [--format table|json|csv] SERIES\n"
    "       assay history [--store PATH] --match FIELD=VALUE... [--format F]\n"
    "\n"
    "Print one series point by point in time order: timestamp, revision, value, run,\n"
    "and notes: where a change point starts a new regime (detection at the CI\n"
    "defaults, as `assay detect` reports it) and the series' annotations. SERIES is a\n"
    "series key or a prefix of 8+ hex digits (see `assay store series`); --match\n"
    "filters must select exactly one series.\n"
    "\n"
    "options:\n"
    "  --since DATE      only points at or after DATE (2026-11-01 or an RFC 3339 time)\n"
    "  --format F        table (default), json or csv\n"
    "  --no-detect       leave out change points\n"
    "\n"
    "example:\n"
    "  assay history --match workload=llama3-70b-pretrain --match precision=fp8 \\\n"
    "      --match metric=tokens_per_sec_per_gpu\n"
    "\n"
    "Exit codes: 0 printed, 2 bad arguments or no such series, 5 the store failed.\n";

enum { H_FORMAT = SO_NEXT, H_NO_DETECT };

/* Notes for point i: a change point starting there, and annotations. */
static void notes(const struct assay_point *pt, size_t i, const struct assay_changes *ch,
		  const size_t *idx, const struct assay_annotations *ann, enum assay_direction dir,
		  struct sbuf *sb)
{
	sbuf_reset(sb);
	for (size_t k = 0; k < ch->n; k++) {
		if (idx[ch->v[k].index] != i)
			continue;
		sbuf_addf(sb, "change %+.2f%% (%s, p=%.2g)", ch->v[k].rel_change * 100,
			  assay_change_is_regression(&ch->v[k], dir) ? "regression" : "improvement",
			  ch->v[k].pvalue);
	}
	for (size_t k = 0; k < ann->n; k++) {
		if (!pt->revision || strcmp(ann->v[k].revision, pt->revision))
			continue;
		sbuf_addf(sb, "%s%s%s%s", sb->len ? "; " : "",
			  assay_annotation_kind_name(ann->v[k].kind), ann->v[k].note ? ": " : "",
			  ann->v[k].note ? ann->v[k].note : "");
	}
}

int cmd_history(int argc, char **argv)
{
	static const struct option opts[] = {
	    STORE_CLI_OPTIONS,
	    {"format", required_argument, NULL, H_FORMAT},
	    {"no-detect", no_argument, NULL, H_NO_DETECT},
	    {NULL, 0, NULL, 0},
	};
	struct store_cli sc = {0};
	const char *format = "table";
	bool detect = true;
	int rc = ASSAY_OK, opt;
	opterr = 0;
	while (rc == ASSAY_OK && (opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (store_cli_option(&sc, opt, optarg))
			continue;
		if (opt == H_FORMAT)
			format = optarg;
		else if (opt == H_NO_DETECT)
			detect = false;
		else
			rc = cli_usage_error("history", "unknown option or missing value: '%s'",
					     argv[optind - 1]);
	}
	static const char *const formats[] = {"table", "json", "csv", NULL};
	if (rc == ASSAY_OK)
		rc = store_cli_format("history", NULL, format, formats);
	if (rc == ASSAY_OK && optind < argc - 1)
		rc = cli_usage_error("history", "expected one series, got %d", argc - optind);
	if (rc == ASSAY_OK && optind == argc && !sc.filter.match.n)
		rc = cli_usage_error("history",
				     "expected a series key (see 'assay store series') or "
				     "--match filters");
	if (rc == ASSAY_OK && optind < argc)
		strlist_push(&sc.filter.keys, argv[optind]);
	struct assay_store *s = NULL;
	struct assay_series_list l = {0};
	struct assay_points pts = {0};
	struct assay_annotations ann = {0};
	struct assay_changes ch = {0};
	struct assay_error e;
	const char *since = sc.filter.since;
	sc.filter.since = NULL; /* select the series by identity, points by time */
	if (rc == ASSAY_OK)
		rc = store_cli_open_series(&sc, false, &s, &l);
	if (rc == ASSAY_OK && l.n != 1)
		rc = cli_usage_error("history", "%s series match%s", l.n ? "several" : "no",
				     l.n ? "; narrow it with more digits or --match" : "");
	if (rc != ASSAY_OK)
		goto out;
	const struct assay_series_info *si = &l.v[0];
	if (assay_store_points(s, si->key, since, &pts, &e) != ASSAY_OK ||
	    assay_store_annotations(s, si->key, &ann, &e) != ASSAY_OK) {
		rc = cli_report(&e);
		goto out;
	}
	/* Detect as `assay detect` does: ignored revisions left out. */
	double *x = xmalloc((pts.n + 1) * sizeof(*x));
	size_t *idx = xmalloc((pts.n + 1) * sizeof(*idx)), n = 0;
	for (size_t i = 0; i < pts.n; i++) {
		if (pts.v[i].revision &&
		    assay_annotations_has(&ann, pts.v[i].revision, ASSAY_ANN_IGNORE))
			continue;
		idx[n] = i;
		x[n++] = pts.v[i].value;
	}
	struct assay_detect_opts o;
	assay_detect_defaults(&o);
	if (detect && assay_detect(x, n, &o, &ch, &e) != ASSAY_OK)
		rc = cli_report(&e);
	free(x);
	struct sbuf note = SBUF_INIT, label = SBUF_INIT;
	store_cli_series_label(si->fields, &label);
	json_t *arr = json_array();
	if (rc == ASSAY_OK && !strcmp(format, "table")) {
		printf("series %s\n  %s\n  %zu points, %s, %s is better\n\n", si->key,
		       sbuf_str(&label), pts.n, si->unit, assay_direction_name(si->direction));
		printf("%5s  %-20s  %-12s  %14s  %-24s  %s\n", "point", "timestamp", "revision",
		       "value", "run", "notes");
	} else if (rc == ASSAY_OK && !strcmp(format, "csv")) {
		printf("index,timestamp,revision,value,run_id,notes\n");
	}
	for (size_t i = 0; rc == ASSAY_OK && i < pts.n; i++) {
		const struct assay_point *pt = &pts.v[i];
		notes(pt, i, &ch, idx, &ann, si->direction, &note);
		json_t *v = json_real(pt->value);
		char *value = assay_json_dumps(v, 0);
		json_decref(v);
		if (!strcmp(format, "json")) {
			json_array_append_new(
			    arr, json_pack("{s:I, s:s?, s:s?, s:f, s:s?, s:s?}", "index",
					   (json_int_t)i, "timestamp", pt->timestamp, "revision",
					   pt->revision, "value", pt->value, "run_id", pt->run_id,
					   "notes", note.len ? note.buf : NULL));
		} else if (!strcmp(format, "csv")) {
			printf("%zu,%s,", i, pt->timestamp ? pt->timestamp : "");
			store_cli_csv(stdout, pt->revision);
			printf(",%s,", value);
			store_cli_csv(stdout, pt->run_id);
			putchar(',');
			store_cli_csv(stdout, sbuf_str(&note));
			putchar('\n');
		} else {
			printf("%5zu  %-20s  %-12.12s  %14s  %-24.24s  %s\n", i,
			       pt->timestamp ? pt->timestamp : "-",
			       pt->revision ? pt->revision : "-", value,
			       pt->run_id ? pt->run_id : "-", sbuf_str(&note));
		}
		free(value);
	}
	if (rc == ASSAY_OK && !strcmp(format, "json")) {
		json_t *doc = json_pack("{s:s, s:O, s:s, s:s, s:o}", "series_key", si->key,
					"series", si->fields, "unit", si->unit, "direction",
					assay_direction_name(si->direction), "points", arr);
		arr = NULL;
		char *t = assay_json_dumps(doc, ASSAY_JSON_PRETTY);
		printf("%s\n", t);
		free(t);
		json_decref(doc);
	}
	json_decref(arr);
	free(idx);
	sbuf_release(&note);
	sbuf_release(&label);
out:
	sc.filter.since = since;
	assay_changes_release(&ch);
	assay_annotations_release(&ann);
	assay_points_release(&pts);
	assay_series_list_release(&l);
	store_cli_release(&sc);
	return s ? store_cli_close(s, rc) : rc;
}
