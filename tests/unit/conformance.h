/* For unit tests: where the shared conformance data is. Tests read it from
 * $ASSAY_CONFORMANCE_DIR, else ${ASSAY_SOURCE_DIR}/../shared/conformance, and
 * skip with a message when a file is not there (CI may not have it). */
#ifndef ASSAY_TESTS_CONFORMANCE_H
#define ASSAY_TESTS_CONFORMANCE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The path of SUBDIR/NAME in buf, or NULL after printing a SKIP message. */
static inline const char *conformance_file(const char *subdir, const char *name, char *buf,
					   size_t size)
{
	const char *dir = getenv("ASSAY_CONFORMANCE_DIR");
	snprintf(buf, size, "%s/%s/%s", dir ? dir : ASSAY_SOURCE_DIR "/../shared/conformance",
		 subdir, name);
	if (access(buf, R_OK)) {
		print_message("SKIP: %s not found (set ASSAY_CONFORMANCE_DIR to the shared "
			      "conformance folder)\n",
			      buf);
		return NULL;
	}
	return buf;
}

#endif
