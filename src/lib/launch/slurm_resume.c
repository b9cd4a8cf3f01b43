/* A resumed run and the Slurm jobs of its earlier attempts: their shard
 * spool folders get "end", and every job of theirs still queued or running
 * is cancelled. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/slurm.h"
#include "slurm_int.h"

/* Every shard spool folder of the attempts before attempt gets "end": a
 * shard job of a killed attempt that reaches Slurm only after the squeue
 * below (its sbatch was still on its way) ends as soon as it starts,
 * before it runs any step. */
static void end_earlier_spools(const char *run_dir, int attempt, struct sbuf *report)
{
	size_t ended = 0;
	for (int a = 1; a < attempt; a++) {
		char *dir =
		    a > 1 ? xasprintf("%s/slurm/a%d", run_dir, a) : xasprintf("%s/slurm", run_dir);
		DIR *d = opendir(dir);
		struct dirent *de;
		while (d && (de = readdir(d))) {
			if (de->d_name[0] == '.' || !assay_ends_with(de->d_name, ".d"))
				continue;
			char *end = xasprintf("%s/%s/end", dir, de->d_name);
			struct assay_error e;
			if (access(end, F_OK) != 0 &&
			    assay_write_file_atomic(end, "", 0, &e) == ASSAY_OK)
				ended++;
			free(end);
		}
		if (d)
			closedir(d);
		free(dir);
	}
	if (ended)
		sbuf_addf(report, "%zu shard spool folder(s) of earlier attempts: ended\n", ended);
}

/* A resumed run: cancel every job of an earlier attempt still queued or
 * running: those the store recorded, and those named after the run (a
 * kill between sbatch and the record leaves one the store does not know). */
void slurm_resume(struct assay_launcher *base, const char *run_id, const char *run_dir, int attempt,
		  const struct strlist *jobs, struct sbuf *report)
{
	(void)base;
	if (run_dir)
		end_earlier_spools(run_dir, attempt, report);
	const char *argv[] = {"squeue", "-h", "-o", "%i|%j|%T", NULL};
	struct sbuf out = SBUF_INIT;
	int code;
	char why[512];
	struct assay_error e;
	if (slurm_cmd(argv, &out, &code, why, sizeof(why), &e) != ASSAY_OK || code != 0) {
		for (size_t i = 0; i < jobs->n; i++) {
			/* squeue does not answer: cancel what the store knows. */
			struct batch b = {.cancelled = false};
			snprintf(b.id, sizeof(b.id), "%s", jobs->v[i]);
			slurm_batch_cancel(&b,
					   "an earlier attempt of the run (assay run --resume)");
			sbuf_addf(report, "job %s of an earlier attempt: scancel sent\n", b.id);
		}
		sbuf_release(&out);
		return;
	}
	char *prefix = xasprintf("assay-%s-", run_id);
	for (char *line = out.buf, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		char *bar1 = strchr(line, '|'), *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
		if (!bar2)
			continue;
		*bar1 = *bar2 = '\0';
		const char *id = line, *name = bar1 + 1, *state = bar2 + 1;
		if (!strlist_has(jobs, id) && strncmp(name, prefix, strlen(prefix)))
			continue;
		if (!strcmp(state, "COMPLETED") || !strcmp(state, "CANCELLED") ||
		    !strcmp(state, "FAILED") || !strcmp(state, "TIMEOUT"))
			continue;
		struct batch b = {.cancelled = false};
		snprintf(b.id, sizeof(b.id), "%s", id);
		slurm_batch_cancel(&b, "an earlier attempt of the run (assay run --resume)");
		sbuf_addf(report, "job %s (%s, %s) of an earlier attempt: cancelled\n", id, name,
			  state);
	}
	free(prefix);
	sbuf_release(&out);
}
