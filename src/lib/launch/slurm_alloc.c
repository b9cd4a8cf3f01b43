/* Running inside an existing Slurm allocation (salloc, or assay started from
 * a batch script): detection from the environment, and whether a case's
 * nodes fit so that it can run as an srun step in place. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/slurm.h"

static const char *env_get(char *const envp[], const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; envp && envp[i]; i++)
		if (!strncmp(envp[i], name, n) && envp[i][n] == '=')
			return envp[i] + n + 1;
	return NULL;
}

static const char *env_either(char *const envp[], const char *a, const char *b, const char **which)
{
	const char *v = env_get(envp, a);
	*which = a;
	if (!v) {
		v = env_get(envp, b);
		*which = b;
	}
	return v;
}

static bool digits(const char *s, size_t max)
{
	size_t n = strlen(s);
	if (n == 0 || n > max)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* The smallest CPU count of SLURM_JOB_CPUS_PER_NODE ("72(x2),36"); -1 when
 * absent or not understood. */
static long long cpus_min(const char *s)
{
	long long min = -1;
	while (s && *s) {
		char *end;
		errno = 0;
		long long n = strtoll(s, &end, 10);
		if (end == s || errno || n < 0)
			return -1;
		if (*end == '(') {
			end = strchr(end, ')');
			if (!end)
				return -1;
			end++;
		}
		if (*end && *end != ',')
			return -1;
		if (min < 0 || n < min)
			min = n;
		s = *end ? end + 1 : end;
	}
	return min;
}

void assay_slurm_alloc_release(struct assay_slurm_alloc *a)
{
	free(a->nodelist);
	strlist_clear(&a->hosts);
	memset(a, 0, sizeof(*a));
}

assay_err assay_slurm_alloc_detect(char *const envp[], struct assay_slurm_alloc *a,
				   struct assay_error *e)
{
	memset(a, 0, sizeof(*a));
	const char *which;
	const char *id = env_either(envp, "SLURM_JOB_ID", "SLURM_JOBID", &which);
	if (!id || !*id)
		return ASSAY_OK;
	if (!digits(id, sizeof(a->job_id) - 1))
		return assay_error_set(e, ASSAY_USAGE, "%s=\"%.40s\": expected a job id (digits)",
				       which, id);
	a->inside = true;
	snprintf(a->job_id, sizeof(a->job_id), "%s", id);
	const char *step = env_get(envp, "SLURM_STEP_ID");
	a->in_step = step && *step;

	const char *list = env_either(envp, "SLURM_JOB_NODELIST", "SLURM_NODELIST", &which);
	if (!list || !*list) {
		assay_slurm_alloc_release(a);
		return assay_error_set(e, ASSAY_USAGE,
				       "SLURM_JOB_ID is set but SLURM_JOB_NODELIST is not: "
				       "cannot tell the allocation's nodes");
	}
	if (assay_hostlist_expand(list, &a->hosts, e) != ASSAY_OK) {
		assay_error_prefix(e, "%s", which);
		assay_slurm_alloc_release(a);
		return ASSAY_USAGE;
	}
	a->nodelist = xstrdup(list);
	a->nodes = (long long)a->hosts.n;
	a->cpus_per_node = cpus_min(env_get(envp, "SLURM_JOB_CPUS_PER_NODE"));
	const char *num = env_either(envp, "SLURM_JOB_NUM_NODES", "SLURM_NNODES", &which);
	if (num) {
		long long n;
		if (!digits(num, 9) || !assay_parse_long(num, &n) || n != a->nodes) {
			assay_error_set(e, ASSAY_USAGE,
					"%s=\"%.20s\" but SLURM_JOB_NODELIST=\"%.200s\" names %lld "
					"host(s)",
					which, num, list, a->nodes);
			assay_slurm_alloc_release(a);
			return ASSAY_USAGE;
		}
	}
	return ASSAY_OK;
}

bool assay_slurm_alloc_fits(const struct assay_slurm_alloc *a, long long nodes,
			    const char *nodelist, const char *exclude, struct strlist *use,
			    char *why, size_t why_size)
{
	struct strlist want = STRLIST_INIT, excl = STRLIST_INIT, pick = STRLIST_INIT;
	struct assay_error e;
	bool ok = false;
	if (!a->inside) {
		snprintf(why, why_size, "not inside a Slurm allocation (SLURM_JOB_ID is not set)");
		return false;
	}
	if (a->in_step) {
		snprintf(why, why_size,
			 "assay runs inside a job step of job %s (under srun); steps cannot be "
			 "started from a step",
			 a->job_id);
		return false;
	}
	if ((nodelist && assay_hostlist_expand(nodelist, &want, &e) != ASSAY_OK) ||
	    (exclude && assay_hostlist_expand(exclude, &excl, &e) != ASSAY_OK)) {
		snprintf(why, why_size, "%s", e.message);
		goto out;
	}
	for (size_t i = 0; i < want.n; i++) {
		if (!strlist_has(&a->hosts, want.v[i])) {
			snprintf(why, why_size,
				 "host %s of the nodelist is not in allocation %s (%s)", want.v[i],
				 a->job_id, a->nodelist);
			goto out;
		}
		if (strlist_has(&excl, want.v[i])) {
			snprintf(why, why_size, "host %s is both in the nodelist and excluded",
				 want.v[i]);
			goto out;
		}
		if (!strlist_has(&pick, want.v[i]))
			strlist_push(&pick, want.v[i]);
	}
	for (size_t i = 0; i < a->hosts.n && (long long)pick.n < nodes; i++)
		if (!strlist_has(&excl, a->hosts.v[i]) && !strlist_has(&pick, a->hosts.v[i]))
			strlist_push(&pick, a->hosts.v[i]);
	if ((long long)pick.n != nodes) {
		if ((long long)pick.n > nodes)
			snprintf(why, why_size,
				 "the nodelist names %zu hosts but the case needs %lld", pick.n,
				 nodes);
		else
			snprintf(why, why_size,
				 "the case needs %lld node(s); allocation %s has %lld usable "
				 "(%s%s)",
				 nodes, a->job_id, (long long)pick.n, a->nodelist,
				 excl.n ? " minus excluded hosts" : "");
		goto out;
	}
	ok = true;
	if (why_size)
		why[0] = '\0';
	if (use)
		for (size_t i = 0; i < pick.n; i++)
			strlist_push(use, pick.v[i]);
out:
	strlist_clear(&want);
	strlist_clear(&excl);
	strlist_clear(&pick);
	return ok;
}
