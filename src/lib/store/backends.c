/* Which backend a store's path or URI selects: the first row whose prefix
 * starts it. A new backend (one file, <name>.c) adds its declaration and
 * its row here, above the last row (which takes every plain path), e.g.
 * {"postgresql://", &store_postgres}. */
#include <string.h>

#include "store_int.h"

/* The backends, one file each. */
extern const struct store_backend store_sqlite;   /* sqlite.c */
extern const struct store_backend store_postgres; /* postgres.c */

static const struct {
	const char *prefix; /* NULL: any path */
	const struct store_backend *be;
} backends[] = {
    {"postgresql://", &store_postgres},
    {"postgres://", &store_postgres},
    {"service=", &store_postgres},
    /* libpq's keyword/value strings, by their usual first keyword */
    {"host=", &store_postgres},
    {"hostaddr=", &store_postgres},
    {"dbname=", &store_postgres},
    {"user=", &store_postgres},
    {"port=", &store_postgres},
    {"password=", &store_postgres},
    {NULL, &store_sqlite},
};

const struct store_backend *store_backend_for(const char *path)
{
	for (size_t i = 0; i < ARRAY_SIZE(backends); i++)
		if (!backends[i].prefix ||
		    !strncmp(path, backends[i].prefix, strlen(backends[i].prefix)))
			return backends[i].be;
	return backends[ARRAY_SIZE(backends) - 1].be;
}
