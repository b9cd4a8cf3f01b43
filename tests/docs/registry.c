/* Prints the library's registries, one entry per line, for the recipe
 * meta-test (tests/docs/recipes.sh): "format NAME", "signature FAMILY NAME",
 * "family NAME", "suite-key NAME". The tables are the truth; the script checks that each
 * entry has the files and doc lines its recipe in docs/development.md asks
 * for. */
#include <stdio.h>

#include "assay/parse.h"
#include "assay/watch.h"

/* The suite loader's key lists (src/lib/suite/suite.c; not a public header). */
extern const char *const assay_suite_ep_keys[];
extern const char *const assay_suite_command_keys[];

int main(void)
{
	for (const struct assay_format *f = assay_formats; f->name; f++)
		printf("format %s\n", f->name);
	for (const struct assay_builtin_signature *s = assay_builtin_signatures; s->name; s++)
		printf("signature %s %s\n", s->family, s->name);
	for (const struct assay_signature_family *f = assay_signature_families; f->name; f++)
		printf("family %s\n", f->name);
	for (size_t i = 0; assay_suite_ep_keys[i]; i++)
		printf("suite-key %s\n", assay_suite_ep_keys[i]);
	for (size_t i = 0; assay_suite_command_keys[i]; i++)
		printf("suite-key %s\n", assay_suite_command_keys[i]);
	return 0;
}
