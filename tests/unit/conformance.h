/* For unit tests: where the conformance data is. It is kept in the project
 * (tests/conformance, with each file's source and licence in its README);
 * $ASSAY_CONFORMANCE_DIR points elsewhere (a newer copy, for example). A
 * missing file is a failure, not a skip: a clone always has the data. */
#ifndef ASSAY_TESTS_CONFORMANCE_H
#define ASSAY_TESTS_CONFORMANCE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The path of SUBDIR/NAME in buf; fails the test when it cannot be read. */
static inline const char *conformance_file(const char *subdir, const char *name, char *buf,
					   size_t size)
{
	const char *dir = getenv("ASSAY_CONFORMANCE_DIR");
	snprintf(buf, size, "%s/%s/%s", dir ? dir : ASSAY_SOURCE_DIR "/tests/conformance", subdir,
		 name);
	if (access(buf, R_OK))
		fail_msg("%s: conformance file not readable (it is kept in tests/conformance)",
			 buf);
	return buf;
}

#endif
