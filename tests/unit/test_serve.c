/* assay serve's request parsing and tokens (src/lib/serve/route.c,
 * token.c): which targets name which page with which filters, which are
 * refused with which status, and how tokens are read and found. The
 * server itself is driven over HTTP by tests/serve/serve.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "assay/serve.h"

static int parse(const char *method, const char *target, struct assay_serve_route *r)
{
	struct assay_error e;
	int st = assay_serve_route_parse(method, target, r, &e);
	return st;
}

static void test_routes(void **state)
{
	(void)state;
	struct assay_serve_route r;
	assert_int_equal(parse("GET", "/", &r), 200);
	assert_int_equal(r.page, ASSAY_SERVE_OVERVIEW);
	assert_int_equal(r.page_no, 1);
	assert_int_equal(r.per, ASSAY_SERVE_PAGE_SIZE);
	assert_string_equal(r.sort, "key");
	assay_serve_route_release(&r);

	assert_int_equal(parse("HEAD", "/series/b7bca5ca73daf99b", &r), 200);
	assert_int_equal(r.page, ASSAY_SERVE_SERIES);
	assert_string_equal(r.key, "b7bca5ca73daf99b");
	assay_serve_route_release(&r);

	assert_int_equal(
	    parse("GET",
		  "/api/v1/series?match=precision%3Dbf16&match=cluster=a+b&since="
		  "2026-11-01&until=2026-11-12T02:00:00Z&last=5&page=3&per=50&sort=last",
		  &r),
	    200);
	assert_int_equal(r.page, ASSAY_SERVE_API_SERIES);
	assert_int_equal(r.match.n, 2);
	assert_string_equal(r.match.v[0], "precision=bf16");
	assert_string_equal(r.match.v[1], "cluster=a b");
	assert_string_equal(r.since, "2026-11-01");
	assert_string_equal(r.until, "2026-11-12T02:00:00Z");
	assert_int_equal(r.last, 5);
	assert_int_equal(r.page_no, 3);
	assert_int_equal(r.per, 50);
	assert_string_equal(r.sort, "last");
	assay_serve_route_release(&r);

	/* An empty form field is not given. */
	assert_int_equal(parse("GET", "/?match=&since=&sort=key", &r), 200);
	assert_int_equal(r.match.n, 0);
	assert_null(r.since);
	assay_serve_route_release(&r);

	assert_int_equal(parse("POST", "/api/v1/annotations", &r), 200);
	assert_int_equal(r.page, ASSAY_SERVE_API_ANNOTATE);
	assay_serve_route_release(&r);
}

static void test_refused(void **state)
{
	(void)state;
	static const struct {
		const char *method, *target;
		int status;
	} cases[] = {
	    {"GET", "", 400},
	    {"GET", "http://evil.example/", 400},
	    {"GET", "/series/../etc/passwd", 400},
	    {"GET", "/series/./b7bca5ca73daf99b", 400},
	    {"GET", "/..", 400},
	    {"GET", "/%2e%2e/etc", 400},
	    {"GET", "/assets%2freport.css", 400},
	    {"GET", "//etc/passwd", 400},
	    {"GET", "/series/b7bca5ca73daf99b\\..", 400},
	    {"GET", "/?match=%zz", 400},
	    {"GET", "/?match=%4", 400},
	    {"GET", "/?match=a%00=b", 400},
	    {"GET", "/?match=a%0a=b", 400},
	    {"GET", "/?match=novalue", 400},
	    {"GET", "/?match==x", 400},
	    {"GET", "/?since=2026-11-01&since=2026-11-02", 400},
	    {"GET", "/?since=yesterday", 400},
	    {"GET", "/?last=0", 400},
	    {"GET", "/?per=501", 400},
	    {"GET", "/?page=x", 400},
	    {"GET", "/?sort=value", 400},
	    {"GET", "/?color=red", 400},
	    {"GET", "/?flag", 400},
	    {"GET", "/series/B7BCA5CA73DAF99B", 404},
	    {"GET", "/series/b7bca5c", 404},
	    {"GET", "/etc/passwd", 404},
	    {"GET", "/series/", 404},
	    {"DELETE", "/", 405},
	    {"POST", "/", 405},
	    {"GET", "/api/v1/annotations", 405},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct assay_serve_route r;
		int st = parse(cases[i].method, cases[i].target, &r);
		if (st != cases[i].status)
			fail_msg("%s %s: %d, expected %d", cases[i].method, cases[i].target, st,
				 cases[i].status);
		assay_serve_route_release(&r);
	}
	char long_target[ASSAY_SERVE_MAX_TARGET + 8];
	memset(long_target, 'a', sizeof(long_target) - 1);
	long_target[0] = '/';
	long_target[sizeof(long_target) - 1] = '\0';
	struct assay_serve_route r;
	assert_int_equal(parse("GET", long_target, &r), 414);
	assay_serve_route_release(&r);
	/* At most 16 match filters. */
	char many[1024] = "/?";
	for (int i = 0; i < 17; i++)
		strcat(many, "match=a=b&");
	assert_int_equal(parse("GET", many, &r), 400);
	assay_serve_route_release(&r);
}

static void test_tokens(void **state)
{
	(void)state;
	struct assay_serve_tokens t;
	struct assay_error e;
	assert_int_equal(assay_serve_tokens_parse("alice:write:0123456789abcdef0123,\n"
						  " bob:read:fedcba9876543210fedc",
						  &t, &e),
			 ASSAY_OK);
	assert_int_equal(t.n, 2);
	const struct assay_serve_token *k =
	    assay_serve_token_find(&t, "Bearer 0123456789abcdef0123");
	assert_non_null(k);
	assert_string_equal(k->name, "alice");
	assert_true(k->write);
	k = assay_serve_token_find(&t, "Bearer fedcba9876543210fedc");
	assert_non_null(k);
	assert_false(k->write);
	assert_null(assay_serve_token_find(&t, "Bearer 0123456789abcdef012"));
	assert_null(assay_serve_token_find(&t, "Bearer 0123456789abcdef01234"));
	assert_null(assay_serve_token_find(&t, "bearer 0123456789abcdef0123"));
	assert_null(assay_serve_token_find(&t, "0123456789abcdef0123"));
	assert_null(assay_serve_token_find(&t, "Bearer "));
	assert_null(assay_serve_token_find(&t, NULL));
	assay_serve_tokens_release(&t);

	static const char *const bad[] = {
	    "alice:write",
	    "alice:admin:0123456789abcdef0123",
	    "alice:write:short",
	    "al ice:write:0123456789abcdef0123",
	    ":write:0123456789abcdef0123",
	    "a:write:0123456789abcdef0123 a:read:0123456789abcdef0124",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(assay_serve_tokens_parse(bad[i], &t, &e), ASSAY_USAGE);
		/* The message names the entry, never its secret. */
		assert_null(strstr(e.message, "0123456789abcdef"));
		assert_null(strstr(e.message, "short"));
	}
	assert_true(assay_serve_secret_equal("abc", 3, "abc", 3));
	assert_false(assay_serve_secret_equal("abc", 3, "abd", 3));
	assert_false(assay_serve_secret_equal("abc", 3, "ab", 2));
	assert_false(assay_serve_secret_equal("abc", 3, "", 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_routes),
	    cmocka_unit_test(test_refused),
	    cmocka_unit_test(test_tokens),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
