/* Containment: every local case runs in a process group of its own that
 * the kernel keeps, so that a stop ends everything the workload started (a
 * double-forked daemon in a session of its own, grandchildren of a shell
 * wrapper) and a later assay can find what a killed one left behind. In
 * order of preference: a cgroup v2 (cgroup.kill, cgroup.freeze), the v1
 * freezer hierarchy, the v1 pids hierarchy (pids.max 0 stops forks), and
 * where no cgroup can be made, assay as the case's child subreaper
 * (PR_SET_CHILD_SUBREAPER: orphans become assay's children, not init's).
 * docs/run.md, "Containment". */
#ifndef ASSAY_CONTAIN_H
#define ASSAY_CONTAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "assay/error.h"
#include "assay/proc.h"
#include "assay/util.h"

enum assay_contain_kind {
	ASSAY_CONTAIN_NONE = 0,
	ASSAY_CONTAIN_CGROUP2,   /* a cgroup v2 directory */
	ASSAY_CONTAIN_FREEZER,   /* a cgroup v1 freezer directory */
	ASSAY_CONTAIN_PIDS,      /* a cgroup v1 pids directory */
	ASSAY_CONTAIN_SUBREAPER, /* no cgroup: session, descendants, assay as subreaper */
};
/* "cgroup2", "freezer", "pids", "subreaper", "none". */
const char *assay_contain_kind_name(enum assay_contain_kind k);

struct assay_contain {
	enum assay_contain_kind kind;
	char path[4096]; /* the cgroup directory; "" for subreaper and none */
	char why[512];   /* why a preferred kind could not be used (for command.txt) */
};

/* Make a new group named name (letters, digits, '-', '.') under the
 * cgroup assay runs in, of the first kind that works; ASSAY_CONTAIN in the
 * environment forces one ("cgroup2", "freezer", "pids", "subreaper"; tests
 * use it). Never fails: the last resort is the subreaper, which this call
 * turns on for assay itself. */
void assay_contain_create(struct assay_contain *c, const char *name);
/* In a child between fork and exec: move this process into the group.
 * Async-signal-safe; 0 or an errno. */
int assay_contain_join(const struct assay_contain *c);
/* The live processes of the group (pid and start time) into out, replacing
 * its contents. For a cgroup, its cgroup.procs. */
size_t assay_contain_members(const struct assay_contain *c, struct assay_proc_set *out);
/* Stop the group at once: freeze it (no process can fork or run away),
 * SIGKILL every member, thaw. Returns how many processes were signalled. */
size_t assay_contain_kill(const struct assay_contain *c);
/* Remove an empty group's directory; false while it still has members. */
bool assay_contain_remove(const struct assay_contain *c);

/* What a run records in the store before a case starts, to find it again
 * after assay was killed (table procs, docs/store.md). */
struct assay_proc_record {
	const char *host;         /* gethostname() of the assay that started it */
	const char *boot_id;      /* /proc/sys/kernel/random/boot_id then */
	pid_t pid;                /* the case's first process; also its session and group */
	unsigned long long start; /* its start time (clock ticks after boot) */
	const char *contain;      /* assay_contain_kind_name() */
	const char *cgroup;       /* the cgroup directory, or NULL */
	const char *slurm_job;    /* the Slurm job id it runs in, or NULL */
	const char *container;    /* a container's name (reserved), or NULL */
};
/* This machine's boot id ("" when unknown). */
void assay_boot_id(char out[64]);
/* End whatever is left of a recorded case on this machine: the cgroup's
 * members, else the live processes of its session started no earlier than
 * it (never on another host or boot). Appends what was done to report
 * ("3 process(es) in cgroup X"); returns how many processes were killed. */
size_t assay_contain_end_record(const struct assay_proc_record *r, struct sbuf *report);

#endif
