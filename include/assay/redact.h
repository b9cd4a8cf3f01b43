/* Secret redaction: every writer of user-visible text (reports, logs copied
 * into the output folder, messages) passes it through here, so that a secret
 * value given to a workload by environment is never written anywhere. */
#ifndef ASSAY_REDACT_H
#define ASSAY_REDACT_H

#include <stddef.h>

#include "assay/util.h"

/* What a secret is replaced with. */
#define ASSAY_REDACTED "***"

/* Append text[0..len) to out with every occurrence of every secret replaced
 * by ASSAY_REDACTED. Empty secrets are ignored. Overlapping or adjacent
 * occurrences become one "***", so no part of any secret survives. Returns
 * the number of replacements. secrets may be NULL (plain copy). */
size_t assay_redact_append(struct sbuf *out, const char *text, size_t len,
			   const struct strlist *secrets);
/* The same on a whole buffer, in place. */
size_t assay_redact_sbuf(struct sbuf *sb, const struct strlist *secrets);
/* A new redacted copy of s (s may be NULL: returns NULL). */
char *assay_redact_str(const char *s, const struct strlist *secrets);
/* True when s contains any (non-empty) secret. */
bool assay_redact_contains(const char *s, size_t len, const struct strlist *secrets);

#endif
