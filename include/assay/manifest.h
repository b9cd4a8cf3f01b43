/* madengine build manifests generated from assay's own configs: one
 * platform of a registry and one combo of a command suite with a
 * "madengine" block become the build_manifest.json that madengine's run
 * phase reads (docs/manifest.md). The library builds the document; the
 * command writes it. */
#ifndef ASSAY_MANIFEST_H
#define ASSAY_MANIFEST_H

#include <jansson.h>

#include "assay/error.h"

struct assay_manifest_request {
	const char *platforms; /* the platform registry file */
	const char *platform;  /* its sku; NULL when the registry has exactly one */
	const char *suite;     /* a command suite with a "madengine" block */
	const char *combo;     /* one of the suite's combos that it runs */
};

/* Build the manifest for rq into *out (a new reference). ASSAY_USAGE naming
 * the file and JSON path when an input is wrong or incomplete, or when the
 * document would not lint clean under `assay lint --strict`; then *out is
 * NULL. */
assay_err assay_manifest_build(const struct assay_manifest_request *rq, json_t **out,
			       struct assay_error *e);

#endif
