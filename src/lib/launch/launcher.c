/* The launcher table and what launchers share: parsing a suite's `launcher`
 * value, printable command lines with secrets redacted, and the MPI starter
 * command with the flags Open MPI needs as root or with more ranks than
 * cores. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/json.h"
#include "assay/launch.h"
#include "assay/proc.h"
#include "assay/slurm.h" /* assay_shell_quote */

int assay_launch_local_parse(struct assay_cfg *c, const json_t *opts, const char *path,
			     struct assay_launcher **out);
int assay_launch_slurm_parse(struct assay_cfg *c, const json_t *opts, const char *path,
			     struct assay_launcher **out);
int assay_launch_ssh_parse(struct assay_cfg *c, const json_t *opts, const char *path,
			   struct assay_launcher **out);

const struct assay_launcher_type assay_launcher_types[] = {
    {"local", "processes on this machine, one session per case; MPI cases through mpirun",
     assay_launch_local_parse},
    {"slurm", "Slurm jobs (sbatch, one per shard or case), or srun steps inside an allocation",
     assay_launch_slurm_parse},
    {"ssh", "one process per node over OpenSSH (hosts listed, or a CVS cluster file)",
     assay_launch_ssh_parse},
    {NULL, NULL, NULL},
};

int assay_launcher_parse(struct assay_cfg *c, const json_t *v, const char *path,
			 struct assay_launcher **out)
{
	*out = NULL;
	const char *type = "local";
	const json_t *opts = NULL;
	if (v && json_is_string(v)) {
		type = json_string_value(v);
	} else if (v && json_is_object(v)) {
		json_t *t = json_object_get(v, "type");
		char p[256];
		assay_json_path_key(p, sizeof(p), path, "type");
		if (!t)
			return assay_cfg_fail(c, p, "missing (expected a launcher type)");
		if (!json_is_string(t))
			return assay_cfg_expected(c, p, "a launcher type", t);
		type = json_string_value(t);
		opts = v;
	} else if (v) {
		return assay_cfg_expected(c, path, "a launcher type or an object with \"type\"", v);
	}
	for (const struct assay_launcher_type *t = assay_launcher_types; t->name; t++)
		if (!strcmp(t->name, type))
			return t->parse(c, opts, path, out);
	struct sbuf sb = SBUF_INIT;
	for (const struct assay_launcher_type *t = assay_launcher_types; t->name; t++)
		sbuf_addf(&sb, "%s%s", t == assay_launcher_types ? "" : ", ", t->name);
	char p[256];
	if (opts)
		assay_json_path_key(p, sizeof(p), path, "type");
	else
		snprintf(p, sizeof(p), "%s", path);
	assay_cfg_fail(c, p, "unknown launcher \"%s\" (known: %s)", type, sbuf_str(&sb));
	sbuf_release(&sb);
	return -1;
}

void assay_launcher_free(struct assay_launcher *l)
{
	if (l)
		l->ops->free(l);
}

void assay_command_line(const struct strlist *env, const struct strlist *argv,
			const struct assay_redactor *r, struct sbuf *out)
{
	bool first = true;
	for (size_t pass = 0; pass < 2; pass++) {
		const struct strlist *l = pass ? argv : env;
		for (size_t i = 0; l && i < l->n; i++) {
			/* Redact before quoting: quoting could split a secret's bytes. */
			char *v = assay_redactor_str(r, l->v[i]);
			if (!first)
				sbuf_addch(out, ' ');
			first = false;
			char *eq = pass ? NULL : strchr(v, '=');
			if (eq) {
				sbuf_add(out, v, (size_t)(eq - v) + 1);
				assay_shell_quote(out, eq + 1);
			} else {
				assay_shell_quote(out, v);
			}
			free(v);
		}
	}
}

long long assay_usable_cores(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) != 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		return n > 0 ? n : 1;
	}
	/* Open MPI counts cores, not hardware threads: count distinct
	 * (package, core) pairs among the CPUs we may use. */
	long long keys[CPU_SETSIZE];
	size_t n = 0;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		long long core = cpu, pkg = 0;
		char path[128];
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
		FILE *f = fopen(path, "r");
		if (f) {
			if (fscanf(f, "%lld", &core) != 1)
				core = cpu;
			fclose(f);
		}
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		f = fopen(path, "r");
		if (f) {
			if (fscanf(f, "%lld", &pkg) != 1)
				pkg = 0;
			fclose(f);
		}
		long long key = pkg * 1000000 + core;
		bool seen = false;
		for (size_t i = 0; i < n && !seen; i++)
			seen = keys[i] == key;
		if (!seen)
			keys[n++] = key;
	}
	return n ? (long long)n : 1;
}

bool assay_mpi_is_openmpi(const char *starter)
{
	const char *argv[] = {starter, "--version", NULL};
	struct sbuf out = SBUF_INIT;
	int code;
	struct assay_error e;
	bool yes = assay_proc_capture(argv, NULL, &out, &code, &e) == ASSAY_OK &&
		   (strstr(sbuf_str(&out), "Open MPI") || strstr(sbuf_str(&out), "OpenRTE") ||
		    strstr(sbuf_str(&out), "PRRTE"));
	sbuf_release(&out);
	return yes;
}

void assay_mpi_command(const struct assay_local_opts *o, bool openmpi, long long n,
		       const struct strlist *argv, struct strlist *out)
{
	for (size_t i = 0; i < o->mpirun.n; i++)
		strlist_push(out, o->mpirun.v[i]);
	if (!o->mpirun.n)
		strlist_push(out, "mpirun");
	strlist_push(out, "-np");
	char buf[32];
	snprintf(buf, sizeof(buf), "%lld", n);
	strlist_push(out, buf);
	if (o->auto_flags && openmpi) {
		if (geteuid() == 0 && !strlist_has(&o->mpirun_args, "--allow-run-as-root"))
			strlist_push(out, "--allow-run-as-root");
		if (n > assay_usable_cores() && !strlist_has(&o->mpirun_args, "--oversubscribe"))
			strlist_push(out, "--oversubscribe");
	}
	for (size_t i = 0; i < o->mpirun_args.n; i++)
		strlist_push(out, o->mpirun_args.v[i]);
	for (size_t i = 0; i < argv->n; i++)
		strlist_push(out, argv->v[i]);
}
