/* Unit tests for detection over a store (src/lib/detect/over_store.c):
 * assay_detect_store hands every series over once, in key order, with the
 * same change points as assay_detect_points on that series' own points and
 * annotations (ignore leaves a point out, ack marks a change), over more
 * series than its ring holds; a non-zero return of the callback stops it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "assay/detect.h"
#include "assay/json.h"
#include "assay/store.h"

#define NSERIES 600 /* more than the ring of 256 */
#define NPOINTS 40

static char dir[] = "/tmp/assay-test-detect-store-XXXXXX";
static char path[600];

static void add_point(struct assay_rows *rows, int series, int i)
{
	struct assay_row *r = assay_rows_add(rows);
	/* A 5% step at point 25 in every third series, a wobble in all. */
	double v = 1000 + (i % 3) - (series % 3 == 0 && i >= 25 ? 50 : 0);
	assay_row_set(r,
		      json_pack("{s:s, s:s, s:s, s:i}", "cluster", "c", "scale", "1x8", "precision",
				"bf16", "n", series),
		      "tokens", "mean", v, "tok/s", ASSAY_DIR_HIGHER);
	char rev[32], ts[32];
	snprintf(rev, sizeof(rev), "r%02d", i);
	snprintf(ts, sizeof(ts), "2026-01-01T00:%02d:00Z", i);
	r->revision = xstrdup(rev);
	r->timestamp = xstrdup(ts);
	struct assay_error e;
	assert_int_equal(assay_row_finish(r, &e), ASSAY_OK);
}

static struct assay_store *make_store(struct assay_series_list *l)
{
	struct assay_store *s;
	struct assay_error e;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/s.db", dir);
	assert_int_equal(assay_store_open(path, ASSAY_STORE_CREATE, &s, &e), ASSAY_OK);
	struct assay_rows rows = ASSAY_ROWS_INIT;
	for (int k = 0; k < NSERIES; k++)
		for (int i = 0; i < NPOINTS; i++)
			add_point(&rows, k, i);
	struct assay_ingest_result res;
	struct assay_ingest_info ii = {.file = "h.ndjson", .format = "rows", .sha256 = "aa"};
	assert_int_equal(assay_store_ingest_rows(s, &ii, &rows, &res, &e), ASSAY_OK);
	assay_rows_release(&rows);
	struct assay_series_filter f = {.keys = STRLIST_INIT, .match = STRLIST_INIT, .bare = true};
	assert_int_equal(assay_store_series(s, &f, l, &e), ASSAY_OK);
	assert_int_equal(l->n, NSERIES);
	/* Every step's revision acknowledged; in one series a point ignored. */
	for (size_t k = 0; k < l->n; k++)
		assert_int_equal(
		    assay_store_annotate(s, l->v[k].key, "r25", ASSAY_ANN_ACK, NULL, &e), ASSAY_OK);
	assert_int_equal(assay_store_annotate(s, l->v[3].key, "r10", ASSAY_ANN_IGNORE, NULL, &e),
			 ASSAY_OK);
	return s;
}

struct seen {
	struct assay_store *s;
	const struct assay_detect_opts *o;
	size_t n, with_changes, acked;
	size_t stop_at;                          /* 0: never */
	const struct assay_series_filter *range; /* as given to assay_detect_store */
	const struct assay_series_list *l;
};

/* Each series as handed over must be the next of the list, and its change
 * points those of assay_detect_points on its own points. */
static int on_series(void *ctx, struct assay_series_info *si, const struct assay_change_points *cp)
{
	struct seen *sn = ctx;
	struct assay_error e;
	struct assay_points pts = {0};
	struct assay_annotations ann = {0};
	assert_int_equal(assay_store_series_values(sn->s, si->key, sn->range, &pts, &e), ASSAY_OK);
	assert_int_equal(assay_store_annotations(sn->s, si->key, &ann, &e), ASSAY_OK);
	assert_string_equal(si->key, sn->l->v[sn->n].key); /* in list order */
	struct assay_change_points own = {0};
	assert_int_equal(assay_detect_points(&pts, &ann, sn->o, &own, &e), ASSAY_OK);
	assert_int_equal(cp->n, own.n);
	assert_int_equal(cp->points, own.points);
	for (size_t i = 0; i < cp->n; i++) {
		assert_int_equal(cp->v[i].c.index, own.v[i].c.index);
		assert_true(cp->v[i].c.pvalue == own.v[i].c.pvalue);
		assert_string_equal(cp->v[i].revision, own.v[i].revision);
		if (cp->v[i].annotation) {
			assert_string_equal(cp->v[i].annotation, "ack");
			sn->acked++;
		}
	}
	sn->with_changes += cp->n > 0;
	assay_change_points_release(&own);
	assay_annotations_release(&ann);
	assay_points_release(&pts);
	sn->n++;
	return sn->stop_at && sn->n == sn->stop_at ? 7 : 0;
}

static void test_every_series_in_order(void **state)
{
	(void)state;
	struct assay_series_list l = {0};
	struct assay_store *s = make_store(&l);
	struct assay_detect_opts o;
	assay_detect_defaults(&o);
	struct seen sn = {s, &o, 0, 0, 0, 0, NULL, &l};
	struct assay_error e;
	assert_int_equal(assay_detect_store(s, &l, NULL, &o, on_series, &sn, &e), ASSAY_OK);
	assert_int_equal(sn.n, NSERIES);
	assert_int_equal(sn.with_changes, NSERIES / 3); /* the stepped ones, no others */
	assert_int_equal(sn.acked, NSERIES / 3);
	/* Stopped by the callback: its code back, nothing after it. */
	sn = (struct seen){s, &o, 0, 0, 0, 300, NULL, &l};
	assert_int_equal(assay_detect_store(s, &l, NULL, &o, on_series, &sn, &e), 7);
	assert_int_equal(sn.n, 300);
	/* Since a time after the step: those points only. */
	struct assay_series_filter range = {.since = "2026-01-01T00:30:00Z"};
	sn = (struct seen){s, &o, 0, 0, 0, 0, &range, &l};
	assert_int_equal(assay_detect_store(s, &l, sn.range, &o, on_series, &sn, &e), ASSAY_OK);
	assert_int_equal(sn.n, NSERIES);
	assert_int_equal(sn.with_changes, 0);
	/* The newest points only (read backwards, lean and not): the same
	 * points both ways; until before the step: no change either. */
	range = (struct assay_series_filter){.last = 25};
	sn = (struct seen){s, &o, 0, 0, 0, 0, &range, &l};
	assert_int_equal(assay_detect_store(s, &l, sn.range, &o, on_series, &sn, &e), ASSAY_OK);
	assert_int_equal(sn.n, NSERIES);
	range = (struct assay_series_filter){.until = "2026-01-01T00:10:00Z", .last = 1000};
	sn = (struct seen){s, &o, 0, 0, 0, 0, &range, &l};
	assert_int_equal(assay_detect_store(s, &l, sn.range, &o, on_series, &sn, &e), ASSAY_OK);
	assert_int_equal(sn.with_changes, 0);
	assay_series_list_release(&l);
	assert_int_equal(assay_store_close(s, &e), ASSAY_OK);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_series_in_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
