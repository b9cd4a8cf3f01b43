/* Gate rules (docs/suite.md, "Gates"): a suite's gates that name a metric,
 * or a statistic of it, that the suite's parser never produces, checked
 * against the metrics each format declares (include/assay/parse.h). Such a
 * threshold fails "missing" after the workload ran, and a regression or ab
 * gate whose metrics select nothing judges nothing and passes. */
#include <stdlib.h>
#include <string.h>

#include "assay/gate.h"
#include "assay/parse.h"
#include "lint_int.h"

static const struct assay_lint_rule rules[] = {
    {"gate-metric-not-produced", "gates", ASSAY_LINT_ERROR, true, KIND(SUITE),
     "a suite gate naming a metric or statistic its parser never produces"},
};
#define R_METRIC (&rules[0])

/* What makes the suite's rows. */
struct source {
	const struct assay_format *format; /* NULL with none: parser "none" */
	bool none;
};

/* The suite's parser; false when it cannot tell (auto, unknown, or a format
 * whose data names its metrics). */
static bool suite_source(const json_t *doc, struct source *src)
{
	const json_t *kind = json_object_get(doc, "kind");
	const char *k = json_string_value(kind);
	const char *parser = k && !strcmp(k, "ep") ? "assay-ep"
			     : k && !strcmp(k, "collective")
				 ? "nccl-tests-text"
				 : json_string_value(json_object_get(doc, "parser"));
	memset(src, 0, sizeof(*src));
	if (!parser)
		return false;
	if (!strcmp(parser, "none")) {
		src->none = true;
		return true;
	}
	src->format = assay_format_find(parser);
	return src->format && src->format->metrics;
}

/* The distinct metric names of f's list, or the statistics of one metric:
 * "a, b, c". */
static void add_declared(struct sbuf *sb, const struct assay_format *f, const char *metric)
{
	struct strlist seen = STRLIST_INIT;
	size_t n = metric ? strlen(metric) : 0;
	for (const char *const *m = f->metrics; *m; m++) {
		const char *slash = strchr(*m, '/');
		char *part =
		    metric ? (!strncmp(*m, metric, n) && (*m)[n] == '/' ? xstrdup(slash + 1) : NULL)
			   : xstrndup(*m, (size_t)(slash - *m));
		if (part && !strlist_has(&seen, part)) {
			sbuf_addf(sb, "%s%s", seen.n ? ", " : "", part);
			strlist_push(&seen, part);
		}
		free(part);
	}
	strlist_clear(&seen);
}

/* Report at path when the rows never hold metric (with statistic when not
 * NULL). where prefixes the message (a thresholds file's location); a
 * threshold names no statistic when it reads the metric's default or the
 * one statistic its rows have. */
static void check_metric(struct lint_ctx *c, const struct source *src, const char *path,
			 const char *where, const char *metric, const char *statistic,
			 bool threshold)
{
	if (src->none) {
		lint_report(c, R_METRIC, path,
			    "%sno row has %s: the suite's parser is \"none\", which makes no rows",
			    where, metric);
		return;
	}
	const struct assay_format *f = src->format;
	struct sbuf list = SBUF_INIT;
	const char *dflt =
	    threshold && !statistic ? assay_threshold_default_statistic(metric) : NULL;
	const char *stat = statistic ? statistic : dflt;
	if (!assay_format_produces(f, metric, NULL)) {
		add_declared(&list, f, NULL);
		lint_report(c, R_METRIC, path,
			    "%sthe %s parser never produces %s (its metrics: %s)", where, f->name,
			    metric, sbuf_str(&list));
	} else if (stat && !assay_format_produces(f, metric, stat)) {
		add_declared(&list, f, metric);
		lint_report(c, R_METRIC, path, "%sthe %s parser produces %s as %s, never %s%s",
			    where, f->name, metric, sbuf_str(&list), stat,
			    dflt ? " (the default statistic of this metric): name one with "
				   "\"statistic\""
				 : "");
	} else if (threshold && !stat) {
		add_declared(&list, f, metric);
		if (strchr(sbuf_str(&list), ','))
			lint_report(
			    c, R_METRIC, path,
			    "%sthe %s parser produces %s as %s: name one with \"statistic\" "
			    "(rows of several stop the gate, exit 2)",
			    where, f->name, metric, sbuf_str(&list));
	}
	sbuf_release(&list);
}

/* "metric" or "metric/statistic" entries of gates.<gate>.metrics. */
static void check_list(struct lint_ctx *c, const struct source *src, const json_t *gates,
		       const char *gate)
{
	const json_t *list = json_object_get(json_object_get(gates, gate), "metrics");
	if (!json_is_array(list))
		return;
	char *g = lint_path_key("$.gates", gate);
	char *base = lint_path_key(g, "metrics");
	size_t i;
	json_t *v;
	json_array_foreach(list, i, v)
	{
		if (!json_is_string(v) || !json_string_length(v))
			continue;
		const char *entry = json_string_value(v), *slash = strchr(entry, '/');
		char *metric = slash ? xstrndup(entry, (size_t)(slash - entry)) : xstrdup(entry);
		char *p = lint_path_index(base, i);
		check_metric(c, src, p, "", metric, slash ? slash + 1 : NULL, false);
		free(p);
		free(metric);
	}
	free(base);
	free(g);
}

/* Every threshold of the thresholds file (read from disk, as assay run does;
 * one it cannot load is assay-config's). */
static void check_thresholds(struct lint_ctx *c, const struct source *src, const json_t *gates)
{
	const json_t *file = json_object_get(gates, "thresholds");
	const char *kind = json_string_value(json_object_get(c->doc, "kind"));
	/* A collective suite's file is per size: busbw and time, always made. */
	if (!c->on_disk || !json_is_string(file) || (kind && !strcmp(kind, "collective")))
		return;
	struct assay_thresholds t;
	struct assay_error e;
	if (assay_thresholds_load(json_string_value(file), &t, &e) != ASSAY_OK)
		return;
	for (size_t i = 0; i < t.n_cells; i++) {
		/* CVS's SGLang accuracy cells (BENCH=lm_eval_*, ACC_ISL=…): CVS
		 * judges them by lm-eval and long-context runs, never by the
		 * benchmark's rows, and no suite cell selects them. */
		const char *key = t.cells[i].key;
		if (t.cvs && (!strncmp(key, "BENCH=", 6) || !strncmp(key, "ACC_", 4)))
			continue;
		for (size_t k = 0; k < t.cells[i].n; k++) {
			const struct assay_threshold *th = &t.cells[i].v[k];
			char *where = xasprintf("%s: %s: ", t.file, th->path);
			/* A CVS metric read at one statistic (SGLang's mean_ttft_ms:
			 * ttft_ms/mean) names it; but not the older library's tail
			 * minimum (cvs_tail_min), which the CVS reading of the log
			 * makes beside the parser's rows (train_cvs.c). */
			const char *stat = th->statistic;
			if (!stat && th->cvs_stats[0] && !th->cvs_stats[1] &&
			    strcmp(th->cvs_stats[0], "cvs_tail_min"))
				stat = th->cvs_stats[0];
			/* TorchTitan's reading of a name Megatron shares (the gate's
			 * alternate, docs/gate.md "TorchTitan and MaxText"). */
			/* tokens_per_sec_x_gbs is derived from the parser's
			 * tokens_per_sec by the gate (cvs_train.c). */
			const char *metric = th->metric, *alt = th->alt_metric;
			if (alt && !strcmp(alt, "tokens_per_sec_x_gbs"))
				alt = "tokens_per_sec";
			if (alt && !src->none && src->format &&
			    !assay_format_produces(src->format, metric, NULL) &&
			    assay_format_produces(src->format, alt, NULL))
				metric = alt, stat = th->alt_stats[0];
			check_metric(c, src, "$.gates.thresholds", where, metric, stat, true);
			free(where);
		}
	}
	assay_thresholds_release(&t);
}

static void check(struct lint_ctx *c)
{
	const json_t *gates = json_object_get(c->doc, "gates");
	struct source src;
	if (!lint_on(c, R_METRIC) || !json_is_object(gates) || !suite_source(c->doc, &src))
		return;
	check_thresholds(c, &src, gates);
	check_list(c, &src, gates, "regression");
	check_list(c, &src, gates, "ab");
}

const struct lint_family lint_family_gates = {"gates", rules, ARRAY_SIZE(rules), check};
