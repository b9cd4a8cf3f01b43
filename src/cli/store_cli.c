/* Shared by the store, history and detect commands: --store, the series
 * filter options, opening the store and naming series in tables. */
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "cli.h"
#include "store_cli.h"

bool store_cli_option(struct store_cli *c, int opt, const char *arg)
{
	switch (opt) {
	case SO_STORE: c->path = arg; return true;
	case SO_SERIES: cli_split_list(&c->filter.keys, arg); return true;
	case SO_MATCH: strlist_push(&c->filter.match, arg); return true;
	case SO_SINCE: c->filter.since = arg; return true;
	default: return false;
	}
}

void store_cli_release(struct store_cli *c)
{
	assay_series_filter_release(&c->filter);
}

int store_cli_open(const struct store_cli *c, bool writable, struct assay_store **s)
{
	struct assay_error e;
	const char *path = c->path ? c->path : ASSAY_STORE_DEFAULT_PATH;
	if (assay_store_open(path, writable ? ASSAY_STORE_CREATE : ASSAY_STORE_READONLY, s, &e) !=
	    ASSAY_OK)
		return cli_report(&e);
	return ASSAY_OK;
}

int store_cli_close(struct assay_store *s, int rc)
{
	struct assay_error e;
	if (assay_store_close(s, &e) != ASSAY_OK) {
		cli_report(&e);
		return rc == ASSAY_OK ? ASSAY_INFRA : rc;
	}
	return rc;
}

static void add_value(struct sbuf *sb, const json_t *v)
{
	if (json_is_string(v)) {
		sbuf_adds(sb, json_string_value(v));
	} else {
		char *t = assay_json_dumps(v, ASSAY_JSON_SORT);
		sbuf_adds(sb, t);
		free(t);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void store_cli_series_label(const json_t *fields, struct sbuf *sb)
{
	static const char *const first[] = {"workload", "metric", "statistic", "cluster", "scale",
					    "precision"};
	const json_t *w = json_object_get(fields, "workload");
	if (w) {
		add_value(sb, w);
		sbuf_addch(sb, ' ');
	}
	add_value(sb, json_object_get(fields, "metric"));
	sbuf_addch(sb, '/');
	add_value(sb, json_object_get(fields, "statistic"));
	for (size_t i = 3; i < ARRAY_SIZE(first); i++) {
		const json_t *v = json_object_get(fields, first[i]);
		if (v) {
			sbuf_addf(sb, " %s=", first[i]);
			add_value(sb, v);
		}
	}
	const char **keys = xcalloc(json_object_size(fields) + 1, sizeof(*keys));
	size_t n = 0;
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)fields, k, v) {
		bool known = false;
		for (size_t i = 0; i < ARRAY_SIZE(first); i++)
			known |= !strcmp(k, first[i]);
		if (!known)
			keys[n++] = k;
	}
	qsort(keys, n, sizeof(*keys), cmp_str);
	for (size_t i = 0; i < n; i++) {
		sbuf_addf(sb, " %s=", keys[i]);
		add_value(sb, json_object_get(fields, keys[i]));
	}
	free(keys);
}

void store_cli_csv(FILE *out, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
}
