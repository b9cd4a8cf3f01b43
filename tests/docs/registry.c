/* Prints the library's registries, one entry per line, for the recipe
 * meta-test (tests/docs/recipes.sh): "format NAME", "signature FAMILY NAME",
 * "family NAME", "suitekey KIND KEY". The tables are the truth; the script checks that each
 * entry has the files and doc lines its recipe in docs/development.md asks
 * for. */
#include <stdio.h>

#include "assay/parse.h"
#include "assay/watch.h"

/* The key lists of src/lib/suite/suite.c (suite_int.h, not public). */
extern const char *const assay_suite_ep_keys[];
extern const char *const assay_suite_command_keys[];
extern const char *const assay_suite_collective_keys[];

int main(void)
{
	for (const struct assay_format *f = assay_formats; f->name; f++)
		printf("format %s\n", f->name);
	for (const struct assay_builtin_signature *s = assay_builtin_signatures; s->name; s++)
		printf("signature %s %s\n", s->family, s->name);
	for (const struct assay_signature_family *f = assay_signature_families; f->name; f++)
		printf("family %s\n", f->name);
	const struct {
		const char *kind;
		const char *const *keys;
	} suites[] = {{"ep", assay_suite_ep_keys},
		      {"command", assay_suite_command_keys},
		      {"collective", assay_suite_collective_keys}};
	for (size_t k = 0; k < sizeof(suites) / sizeof(suites[0]); k++)
		for (size_t i = 0; suites[k].keys[i]; i++)
			printf("suitekey %s %s\n", suites[k].kind, suites[k].keys[i]);
	return 0;
}
