/* assay history: one stored series over time, point by point, with its
 * change points (CI defaults) and annotations marked. docs/history.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/detect.h"
#include "assay/json.h"
#include "cli.h"
#include "opt.h"
#include "store_cli.h"

struct history_args {
	struct store_cli sc;
	const char *format;
	bool detect;
};

static const char *const formats[] = {"table", "json", "csv", NULL};

static const struct cli_opt history_opts[] = {
    CLI_OPT_TABLE(store_cli_opts, struct history_args, sc),
    CLI_OPT_FORMAT(struct history_args, format, "what is printed: table, json or csv", "table",
		   formats),
    CLI_OPT_JSON,
    {.type = CLI_UNSET,
     .name = "no-detect",
     .off = offsetof(struct history_args, detect),
     .help = "leave out change points"},
    CLI_OPT_END,
};

const struct cli_spec cmd_history_spec = {
    .name = "history",
    .usage = "assay history [--store PATH] [--since DATE] [--format table|json|csv] SERIES\n"
	     "assay history [--store PATH] --match FIELD=VALUE... [--format F]",
    .about = "Print one series point by point in time order: timestamp, revision, value, run,\n"
	     "and notes: where a change point starts a new regime (detection at the CI\n"
	     "defaults, as `assay detect` reports it) and the series' annotations. SERIES is a\n"
	     "series key or a prefix of 8+ hex digits (see `assay store series`); --match\n"
	     "filters must select exactly one series.\n",
    .opts = history_opts,
    .examples = "assay history --match workload=llama3-70b-pretrain --match precision=fp8 \\\n"
		"    --match metric=tokens_per_sec_per_gpu",
    .exits = "Exit codes: 0 printed, 2 bad arguments or no such series, 5 the store failed.\n",
    .min_args = 0,
    .max_args = 1,
    .args_what = "series",
};

static void history_json(const struct assay_history *h, struct assay_series_info *si)
{
	json_t *doc = assay_history_json(h, si);
	char *t = assay_json_dumps(doc, ASSAY_JSON_PRETTY);
	printf("%s\n", t);
	free(t);
	json_decref(doc);
}

/* The table (with the series' header) or CSV. */
static void history_text(const struct assay_history *h, const struct assay_series_info *si,
			 bool csv)
{
	struct sbuf note = SBUF_INIT, label = SBUF_INIT;
	store_cli_series_label(si->fields, &label);
	if (csv) {
		printf("index,timestamp,revision,value,run_id,notes\n");
	} else {
		printf("series %s\n  %s\n  %zu points, %s, %s is better\n\n", si->key,
		       sbuf_str(&label), h->pts.n, si->unit, assay_direction_name(si->direction));
		printf("%5s  %-20s  %-12s  %14s  %-24s  %s\n", "point", "timestamp", "revision",
		       "value", "run", "notes");
	}
	for (size_t i = 0; i < h->pts.n; i++) {
		const struct assay_point *pt = &h->pts.v[i];
		assay_history_notes(h, i, si->direction, &note);
		json_t *v = json_real(pt->value);
		char *value = assay_json_dumps(v, 0);
		json_decref(v);
		if (csv) {
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
	sbuf_release(&note);
	sbuf_release(&label);
}

int cmd_history(int argc, char **argv)
{
	struct history_args a = {.format = "table", .detect = true};
	struct store_cli *sc = &a.sc;
	int first, rc = cli_parse(&cmd_history_spec, argc, argv, &a, &first);
	if (rc == ASSAY_OK && first == argc && !sc->filter.match.n)
		rc = cli_usage_error("history",
				     "expected a series key (see 'assay store series') or "
				     "--match filters");
	if (rc) {
		store_cli_release(sc);
		return rc < 0 ? ASSAY_OK : rc;
	}
	if (first < argc)
		strlist_push(&sc->filter.keys, argv[first]);
	struct assay_store *s = NULL;
	struct assay_series_list l = {0};
	struct assay_history h = {0};
	struct assay_error e;
	/* Select the series by identity, points by time. */
	struct assay_series_filter range = {
	    .since = sc->filter.since, .until = sc->filter.until, .last = sc->filter.last};
	sc->filter.since = sc->filter.until = NULL;
	sc->filter.last = 0;
	rc = store_cli_open_series(sc, false, &s, &l);
	if (rc == ASSAY_OK && l.n != 1)
		rc = cli_usage_error("history", "%s series match%s", l.n ? "several" : "no",
				     l.n ? "; narrow it with more digits or --match" : "");
	if (rc == ASSAY_OK &&
	    assay_history_load(s, l.v[0].key, &range, a.detect, &h, &e) != ASSAY_OK)
		rc = cli_report(&e);
	if (rc == ASSAY_OK && !strcmp(a.format, "json"))
		history_json(&h, &l.v[0]);
	else if (rc == ASSAY_OK)
		history_text(&h, &l.v[0], !strcmp(a.format, "csv"));
	assay_history_release(&h);
	assay_series_list_release(&l);
	store_cli_release(sc);
	return s ? store_cli_close(s, rc) : rc;
}
