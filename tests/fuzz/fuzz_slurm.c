/* libFuzzer target: what the Slurm launcher reads from Slurm: sbatch
 * --parsable output, squeue lines, scontrol show job records, time strings,
 * hostlists and the SLURM_* variables of an allocation, each then mapped to
 * an outcome (which must be one of the table's codes). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "assay/slurm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_outcome(const struct assay_slurm_jobinfo *j)
{
	struct assay_slurm_outcome o;
	assay_slurm_outcome(j, j && j->id[0] == '1', &o);
	if (o.phase == ASSAY_SLURM_FINAL && o.code != ASSAY_OK && o.code != ASSAY_WORKLOAD_FAILED &&
	    o.code != ASSAY_INFRA)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	struct assay_error e;
	char id[32], cluster[64];
	assay_slurm_parse_sbatch(s, id, sizeof(id), cluster, sizeof(cluster), &e);

	struct assay_slurm_jobinfo *jobs = NULL;
	size_t n = 0;
	if (assay_slurm_parse_squeue(s, &jobs, &n, &e) == ASSAY_OK)
		for (size_t i = 0; i < n; i++)
			check_outcome(&jobs[i]);
	assay_slurm_jobinfo_free_array(jobs, n);

	struct assay_slurm_jobinfo info;
	memset(&info, 0, sizeof(info));
	if (assay_slurm_parse_scontrol(s, &info, &e) == ASSAY_OK)
		check_outcome(&info);
	assay_slurm_jobinfo_release(&info);
	check_outcome(NULL);

	/* The first line as a time string and as a hostlist. */
	char *nl = strchr(s, '\n');
	char *first = xstrndup(s, nl ? (size_t)(nl - s) : size);
	long long secs;
	assay_slurm_time_parse(first, &secs);
	if (strlen(first) < 256) {
		struct strlist hosts = STRLIST_INIT;
		assay_hostlist_expand(first, &hosts, &e);
		strlist_clear(&hosts);
	}
	free(first);

	/* The lines as an environment. */
	size_t lines = 1;
	for (size_t i = 0; i < size; i++)
		lines += s[i] == '\n';
	char **envp = calloc(lines + 1, sizeof(*envp));
	size_t k = 0;
	for (char *p = s, *q; p && k < lines; p = q ? q + 1 : NULL) {
		q = strchr(p, '\n');
		if (q)
			*q = '\0';
		envp[k++] = p;
	}
	struct assay_slurm_alloc a;
	if (assay_slurm_alloc_detect(envp, &a, &e) == ASSAY_OK) {
		char why[256];
		struct strlist use = STRLIST_INIT;
		if (a.inside && a.nodes <= 4096)
			assay_slurm_alloc_fits(&a, 1 + (long long)(size % 4), NULL, NULL, &use, why,
					       sizeof(why));
		strlist_clear(&use);
		assay_slurm_alloc_release(&a);
	}
	free(envp);
	free(s);
	return 0;
}
