/* Unit tests for notifications (src/lib/notify): the targets file (defaults,
 * errors that name file and JSON path and never a secret), the events made
 * from change points (regression, recovered, an ack silencing one), event
 * identities, the store's memory of what was sent (once per target), and
 * text cut to a limit without splitting a UTF-8 character. Delivery itself
 * is tested against loopback servers by the scripts of tests/notify. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "assay/notify.h"
#include "notify/notify_int.h"

static char dir[] = "/tmp/assay-test-notify-XXXXXX";

static const char *write_file(const char *name, const char *text)
{
	static char path[600];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_load_defaults(void **state)
{
	(void)state;
	setenv("ASSAY_UNIT_HOOK", "https://hooks.example.com/services/T0/B0/s3cr3t-canary", 1);
	const char *f = write_file(
	    "ok.json", "{\"targets\": [{\"name\": \"h\", \"type\": \"webhook\", \"url_env\": "
		       "\"ASSAY_UNIT_HOOK\", \"match\": [\"cluster=a\"]}]}");
	struct assay_notify_config c;
	struct assay_error e;
	assert_int_equal(assay_notify_load(f, &c, &e), ASSAY_OK);
	assert_int_equal(c.n, 1);
	assert_true(c.timeout_s == 10 && c.retries == 3 && c.backoff_s == 0.5);
	assert_string_equal(c.v[0].url, "https://hooks.example.com/services/T0/B0/s3cr3t-canary");
	assert_string_equal(c.v[0].type->name, "webhook");
	/* Every kind but published, by default. */
	assert_int_equal(c.v[0].events,
			 (1u << ASSAY_NOTIFY_KINDS) - 1 - (1u << ASSAY_NOTIFY_PUBLISHED));
	assert_int_equal(c.v[0].match.match.n, 1);
	assay_notify_config_release(&c);
}

/* An error names file and JSON path, and never quotes a URL. */
static void expect_error(const char *json, const char *path, const char *words)
{
	const char *f = write_file("bad.json", json);
	struct assay_notify_config c;
	struct assay_error e;
	assert_int_equal(assay_notify_load(f, &c, &e), ASSAY_USAGE);
	assert_string_equal(e.file, f);
	assert_string_equal(e.path, path);
	if (!strstr(e.message, words))
		fail_msg("\"%s\" lacks \"%s\"", e.message, words);
	assert_null(strstr(e.message, "s3cr3t-canary"));
}

static void test_load_errors(void **state)
{
	(void)state;
	setenv("ASSAY_UNIT_HOOK", "http://hooks.example.com/s3cr3t-canary", 1);
	expect_error("{\"targets\": [{\"name\": \"h\", \"type\": \"webhook\", \"url_env\": "
		     "\"ASSAY_UNIT_HOOK\"}]}",
		     "$.targets[0].url_env", "must start with https://");
	setenv("ASSAY_UNIT_HOOK", "https://hooks.example.com/s3cr3t-canary", 1);
	expect_error("{\"targets\": []}", "$.targets", "a non-empty array");
	expect_error("{\"targets\": [{\"name\": \"h\", \"type\": \"pager\"}]}", "$.targets[0].type",
		     "unknown target type \"pager\"");
	expect_error("{\"targets\": [{\"name\": \"h\", \"type\": \"webhook\", \"url_env\": "
		     "\"ASSAY_UNIT_HOOK\", \"events\": [\"regresion\"]}]}",
		     "$.targets[0].events[0]", "got \"regresion\"");
	expect_error("{\"targets\": [{\"name\": \"h\", \"type\": \"webhook\", \"url_env\": "
		     "\"ASSAY_UNIT_HOOK\", \"match\": [\"cluster\"]}]}",
		     "$.targets[0].match[0]", "expected FIELD=VALUE");
	expect_error("{\"timeout_s\": 0, \"targets\": [{\"name\": \"h\", \"type\": \"webhook\", "
		     "\"url_env\": \"ASSAY_UNIT_HOOK\"}]}",
		     "$.timeout_s", "expected");
	unsetenv("ASSAY_UNIT_UNSET");
	expect_error("{\"targets\": [{\"name\": \"g\", \"type\": \"github\", \"token_env\": "
		     "\"ASSAY_UNIT_UNSET\", \"repo\": \"a/b\"}]}",
		     "$.targets[0].token_env", "ASSAY_UNIT_UNSET is not set");
}

/* Points of a change point list: a drop at 10, maybe back at 20. */
static void changes(struct assay_change_points *cp, bool back, const char *annotation)
{
	memset(cp, 0, sizeof(*cp));
	cp->v = calloc(2, sizeof(*cp->v));
	cp->n = back ? 2 : 1;
	cp->v[0] = (struct assay_change_point){
	    .c = {.index = 10, .mean_before = 100, .mean_after = 90, .rel_change = -0.1},
	    .revision = "r10",
	    .previous = "r9",
	    .annotation = annotation};
	cp->v[1] = (struct assay_change_point){
	    .c = {.index = 20, .mean_before = 90, .mean_after = 100, .rel_change = 1.0 / 9},
	    .revision = "r20",
	    .previous = "r19"};
}

static void test_events_from_changes(void **state)
{
	(void)state;
	json_t *fields =
	    json_pack("{s:s, s:s, s:s}", "workload", "w", "metric", "tput", "statistic", "value");
	struct assay_notify_events ev = {0};
	struct assay_change_points cp;
	changes(&cp, false, NULL);
	assay_notify_from_changes(&ev, "k1", fields, "x/s", ASSAY_DIR_HIGHER, &cp);
	assert_int_equal(ev.n, 1);
	assert_int_equal(ev.v[0].kind, ASSAY_NOTIFY_REGRESSION);
	assert_string_equal(ev.v[0].revision, "r10");
	assert_string_equal(ev.v[0].message,
			    "regression: w tput/value 100 -> 90 x/s (-10.00%) at r10 (after r9)");
	/* Lower is better: the same drop is no regression. */
	assay_notify_from_changes(&ev, "k1", fields, "x/s", ASSAY_DIR_LOWER, &cp);
	assert_int_equal(ev.n, 1);
	free(cp.v);
	changes(&cp, false, "ack");
	assay_notify_from_changes(&ev, "k1", fields, "x/s", ASSAY_DIR_HIGHER, &cp);
	assert_int_equal(ev.n, 1);
	free(cp.v);
	changes(&cp, true, NULL);
	assay_notify_from_changes(&ev, "k1", fields, "x/s", ASSAY_DIR_HIGHER, &cp);
	assert_int_equal(ev.n, 2);
	assert_int_equal(ev.v[1].kind, ASSAY_NOTIFY_RECOVERED);
	assert_string_equal(ev.v[1].revision, "r20");
	free(cp.v);
	/* The identity: kind, series and revision, and only those. */
	struct assay_notify_events other = {0};
	assay_notify_add(&other, ASSAY_NOTIFY_REGRESSION, "k1", "r10", "another message");
	assert_string_equal(other.v[0].id, ev.v[0].id);
	assay_notify_add(&other, ASSAY_NOTIFY_REGRESSION, "k1", "r11", NULL);
	assert_string_not_equal(other.v[1].id, ev.v[0].id);
	assay_notify_events_release(&other);
	assay_notify_events_release(&ev);
	json_decref(fields);
}

static void test_store_memory(void **state)
{
	(void)state;
	char path[600];
	snprintf(path, sizeof(path), "%s/s.db", dir);
	struct assay_store *s;
	struct assay_error e;
	assert_int_equal(assay_store_open(path, ASSAY_STORE_CREATE, &s, &e), ASSAY_OK);
	const char *id = "5c0e5c0e5c0e5c0e5c0e5c0e5c0e5c0e5c0e5c0e5c0e5c0e5c0e5c0e5c0e5c0e";
	bool sent = true;
	assert_int_equal(assay_store_notified(s, "slack", id, &sent, &e), ASSAY_OK);
	assert_false(sent);
	for (int i = 0; i < 2; i++) /* a second record changes nothing */
		assert_int_equal(
		    assay_store_notify_record(s, "slack", id, "regression", "k", "r", &e),
		    ASSAY_OK);
	assert_int_equal(assay_store_notified(s, "slack", id, &sent, &e), ASSAY_OK);
	assert_true(sent);
	assert_int_equal(assay_store_notified(s, "teams", id, &sent, &e), ASSAY_OK);
	assert_false(sent);
	/* An identity is 64 hex digits: the schema refuses anything else. */
	assert_int_not_equal(assay_store_notify_record(s, "slack", "short", NULL, NULL, NULL, &e),
			     ASSAY_OK);
	assert_int_equal(assay_store_close(s, &e), ASSAY_OK);
}

static void test_cut_utf8(void **state)
{
	(void)state;
	char s[64];
	snprintf(s, sizeof(s), "%s", "ab\xe2\x86\x92\xe2\x86\x92"); /* ab + two arrows: 8 bytes */
	notify_cut(s, 8);
	assert_string_equal(s, "ab\xe2\x86\x92\xe2\x86\x92");
	notify_cut(s, 7); /* "ab" + 3 bytes of an arrow would fit "..." after byte 4 */
	assert_true(strlen(s) <= 7);
	assert_string_equal(s, "ab...");
	snprintf(s, sizeof(s), "%s", "abcdefghij");
	notify_cut(s, 6);
	assert_string_equal(s, "abc...");
}

static int setup_all(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_load_defaults),
	    cmocka_unit_test(test_load_errors),
	    cmocka_unit_test(test_events_from_changes),
	    cmocka_unit_test(test_store_memory),
	    cmocka_unit_test(test_cut_utf8),
	};
	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
