/* assay_store_name: a store's name as messages, records and `ps` show it,
 * with any password of a PostgreSQL connection string taken out, in each
 * place libpq reads one; a file's path unchanged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/store.h"

static void name_is(const char *store, const char *want)
{
	char *got = assay_store_name(store);
	if (strcmp(got, want))
		fail_msg("%s: got '%s', expected '%s'", store, got, want);
	assert_null(strstr(got, "CANARY"));
	free(got);
}

static void test_urls(void **state)
{
	(void)state;
	name_is("postgresql://ci:CANARY@db.example.com:5432/hist",
		"postgresql://ci@db.example.com:5432/hist");
	name_is("postgres://ci:CANARY@db/hist", "postgres://ci@db/hist");
	/* A password holding '@' and ':': the user info ends at the last '@'. */
	name_is("postgresql://ci:CAN@RY:CANARY@db/hist", "postgresql://ci@db/hist");
	name_is("postgresql://ci@db/hist?sslmode=require&password=CANARY&connect_timeout=5",
		"postgresql://ci@db/hist?sslmode=require&connect_timeout=5");
	name_is("postgresql://ci@db/hist?password=CANARY", "postgresql://ci@db/hist");
	name_is("postgresql://db/hist", "postgresql://db/hist");
	name_is("postgresql:///hist?host=/run/pg", "postgresql:///hist?host=/run/pg");
}

static void test_keywords(void **state)
{
	(void)state;
	name_is("service=assay", "service=assay");
	name_is("service=assay password=CANARY", "service=assay");
	name_is("service=assay password='CAN ARY\\'CANARY' user=ci", "service=assay user=ci");
	name_is("service=assay password = CANARY dbname=h", "service=assay dbname=h");
	name_is("host=db port=5432 user=ci password=CANARY dbname=h",
		"host=db port=5432 user=ci dbname=h");
	assert_false(assay_store_is_file("host=db dbname=h"));
	assert_false(assay_store_is_file("dbname=h"));
}

static void test_files(void **state)
{
	(void)state;
	name_is("assay.db", "assay.db");
	name_is("/srv/results/password=x.db", "/srv/results/password=x.db");
	assert_true(assay_store_is_file("out/assay.db"));
	assert_false(assay_store_is_file("postgresql://db/h"));
	assert_false(assay_store_is_file("service=assay"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_urls),
	    cmocka_unit_test(test_keywords),
	    cmocka_unit_test(test_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
