/* The store for Prometheus: each series' latest value, its change-point
 * state and its gate verdict as gauges labelled with the series' fields, in
 * the OpenMetrics text format (gauges, no timestamps, "# EOF"), which
 * Prometheus' text parser, node_exporter's textfile collector and the
 * Pushgateway read as well. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "notify_int.h"

/* The metric families, in the order they are written. */
enum family { F_VALUE, F_POINTS, F_TIME, F_CHANGES, F_REGRESSED, F_CHANGE, F_GATE, F_COUNT };
static const char *const family[F_COUNT][2] = {
    {"assay_series_value", "The newest stored value of the series (in its unit label)."},
    {"assay_series_points", "Stored points of the series."},
    {"assay_series_last_timestamp_seconds", "When the newest point was measured (Unix time)."},
    {"assay_series_change_points", "Change points found in the series (assay detect)."},
    {"assay_series_regressed",
     "1 when the newest change point is a regression without an ack or expected annotation."},
    {"assay_series_last_change_ratio",
     "The newest change point's relative change (after / before - 1)."},
    {"assay_series_gate_failed",
     "1 when a gate verdict of the newest case that judged the series failed."},
};

struct gate {
	char *key;
	bool failed;
};

struct om {
	struct sbuf fam[F_COUNT];
	struct gate *gates;
	size_t ngates, alloc;
	size_t series;
};

static int add_gate(const char *key, bool failed, void *ctx)
{
	struct om *m = ctx;
	ALLOC_GROW(m->gates, m->ngates + 1, m->alloc);
	m->gates[m->ngates++] = (struct gate){xstrdup(key), failed};
	return 0;
}

static int cmp_gate(const void *a, const void *b)
{
	return strcmp(((const struct gate *)a)->key, ((const struct gate *)b)->key);
}

/* A label name: [a-zA-Z_][a-zA-Z0-9_]*, other characters as '_'. */
static void label_name(struct sbuf *sb, const char *k)
{
	if (!isalpha((unsigned char)*k) && *k != '_')
		sbuf_addch(sb, '_');
	for (; *k; k++)
		sbuf_addch(sb, isalnum((unsigned char)*k) || *k == '_' ? *k : '_');
}

/* A label value, escaped: backslash, double quote, newline. */
static void label_value(struct sbuf *sb, const char *v)
{
	sbuf_addch(sb, '"');
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			sbuf_addch(sb, '\\');
		if (*v == '\n')
			sbuf_adds(sb, "\\n");
		else
			sbuf_addch(sb, *v);
	}
	sbuf_addch(sb, '"');
}

static void labels(struct sbuf *sb, const struct assay_series_info *si, const json_t *fields)
{
	const char *k;
	json_t *v;
	/* The fields in key order, whatever order the store kept. */
	char *canon = assay_json_canonical(fields);
	json_t *sorted = json_loads(canon, 0, NULL);
	free(canon);
	sbuf_addf(sb, "{series_key=\"%s\"", si->key);
	json_object_foreach(sorted, k, v)
	{
		if (!strcmp(k, "series_key") || !strcmp(k, "unit") || !strcmp(k, "direction"))
			continue;
		struct sbuf text = SBUF_INIT;
		assay_json_text(&text, v);
		sbuf_addch(sb, ',');
		label_name(sb, k);
		sbuf_addch(sb, '=');
		label_value(sb, sbuf_str(&text));
		sbuf_release(&text);
	}
	json_decref(sorted);
	sbuf_adds(sb, ",unit=");
	label_value(sb, si->unit ? si->unit : "");
	sbuf_addf(sb, ",direction=\"%s\"}", assay_direction_name(si->direction));
}

static void sample(struct om *m, enum family f, const char *lbl, double v)
{
	char num[64];
	/* The shortest text that reads back as v. */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(num, sizeof(num), "%.*g", prec, v);
		if (strtod(num, NULL) == v)
			break;
	}
	sbuf_addf(&m->fam[f], "%s%s %s\n", family[f][0], lbl, num);
}

static int one_series(void *ctx, struct assay_series_info *si, const struct assay_change_points *cp)
{
	struct om *m = ctx;
	struct sbuf lbl = SBUF_INIT;
	labels(&lbl, si, assay_series_fields(si));
	const char *l = sbuf_str(&lbl);
	int64_t t = 0;
	sample(m, F_VALUE, l, si->last_value);
	sample(m, F_POINTS, l, (double)si->count);
	if (si->last_timestamp && assay_time_parse(si->last_timestamp, &t))
		sample(m, F_TIME, l, (double)t);
	sample(m, F_CHANGES, l, (double)cp->n);
	const struct assay_change_point *last = cp->n ? &cp->v[cp->n - 1] : NULL;
	bool regressed =
	    last && assay_change_is_regression(&last->c, si->direction) && !last->annotation;
	sample(m, F_REGRESSED, l, regressed);
	if (last)
		sample(m, F_CHANGE, l, last->c.rel_change);
	struct gate key = {si->key, false};
	const struct gate *g =
	    m->gates ? bsearch(&key, m->gates, m->ngates, sizeof(key), cmp_gate) : NULL;
	if (g)
		sample(m, F_GATE, l, g->failed);
	m->series++;
	sbuf_release(&lbl);
	return 0;
}

assay_err assay_openmetrics(struct assay_store *s, struct assay_series_list *l,
			    const struct assay_series_filter *range,
			    const struct assay_detect_opts *o, struct sbuf *out, size_t *series,
			    struct assay_error *e)
{
	struct om m = {0};
	assay_err rc = assay_store_series_gates(s, add_gate, &m, e);
	if (rc == ASSAY_OK && m.ngates)
		qsort(m.gates, m.ngates, sizeof(*m.gates), cmp_gate);
	if (rc == ASSAY_OK)
		rc = assay_detect_store(s, l, range, o, one_series, &m, e);
	for (int f = 0; rc == ASSAY_OK && f < F_COUNT; f++) {
		sbuf_addf(out, "# TYPE %s gauge\n# HELP %s %s\n", family[f][0], family[f][0],
			  family[f][1]);
		sbuf_adds(out, sbuf_str(&m.fam[f]));
	}
	if (rc == ASSAY_OK)
		sbuf_adds(out, "# EOF\n");
	for (int f = 0; f < F_COUNT; f++)
		sbuf_release(&m.fam[f]);
	for (size_t i = 0; i < m.ngates; i++)
		free(m.gates[i].key);
	free(m.gates);
	*series = m.series;
	return rc;
}
