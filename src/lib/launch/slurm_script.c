/* Batch scripts and srun command lines for the Slurm launcher: #SBATCH
 * placement, exports (network block, suite variables; never secret values),
 * MASTER_ADDR/MASTER_PORT, and one srun step per case with per-node logs.
 * Every value is validated for #SBATCH lines and shell-quoted in the body. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "assay/slurm.h"

/* Characters a shell word may hold without quotes. */
static bool bare_char(char c)
{
	return isalnum((unsigned char)c) || strchr("_./:=@%+,-", c);
}

void assay_shell_quote(struct sbuf *sb, const char *s)
{
	bool bare = *s != '\0';
	for (const char *p = s; bare && *p; p++)
		bare = bare_char(*p);
	/* NAME=... as a first word would be an assignment: quote it. */
	if (bare && (isalpha((unsigned char)*s) || *s == '_')) {
		const char *p = s;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		if (*p == '=')
			bare = false;
	}
	if (bare) {
		sbuf_adds(sb, s);
		return;
	}
	sbuf_addch(sb, '\'');
	for (const char *p = s; *p; p++) {
		if (*p == '\'')
			sbuf_adds(sb, "'\\''");
		else
			sbuf_addch(sb, *p);
	}
	sbuf_addch(sb, '\'');
}

static bool env_name_ok(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

bool assay_slurm_sbatch_safe(const char *s)
{
	return !has_control(s) && !strpbrk(s, "\"\\");
}

/* "#SBATCH --opt=value": sbatch reads these lines itself (not the shell). A
 * value with spaces, '#' or '\'' is double-quoted; '"', '\' and control
 * characters cannot be carried at all. */
static assay_err sbatch_opt(struct sbuf *sb, const char *opt, const char *value,
			    struct assay_error *e)
{
	if (!value) {
		sbuf_addf(sb, "#SBATCH %s\n", opt);
		return ASSAY_OK;
	}
	if (!*value || !assay_slurm_sbatch_safe(value))
		return assay_error_set(e, ASSAY_USAGE,
				       "%s \"%.60s\": an #SBATCH value cannot be empty or hold a "
				       "control character, '\"' or '\\'",
				       opt, value);
	bool quote = strpbrk(value, " \t#'") != NULL;
	sbuf_addf(sb, "#SBATCH %s=%s%s%s\n", opt, quote ? "\"" : "", value, quote ? "\"" : "");
	return ASSAY_OK;
}

/* A directory for Slurm output patterns (%x, %j, %N follow): absolute, with
 * no '%' or '\' (Slurm would expand or stop expanding patterns). */
static assay_err check_log_dir(const char *what, const char *dir, struct assay_error *e)
{
	if (!dir || dir[0] != '/' || has_control(dir) || strpbrk(dir, "%\\\""))
		return assay_error_set(
		    e, ASSAY_USAGE,
		    "%s \"%.80s\": expected an absolute path without '%%', '\\', "
		    "'\"' or control characters",
		    what, dir ? dir : "");
	return ASSAY_OK;
}

static void add_path(struct sbuf *sb, const char *dir, const char *file)
{
	sbuf_adds(sb, dir);
	if (!assay_ends_with(dir, "/"))
		sbuf_addch(sb, '/');
	sbuf_adds(sb, file);
}

long long assay_slurm_master_port(const struct assay_slurm_options *o, const json_t *network)
{
	const json_t *p = json_object_get(network, "master_port");
	if (o && o->master_port > 0)
		return o->master_port;
	if (json_is_integer(p) && json_integer_value(p) > 0 && json_integer_value(p) < 65536)
		return json_integer_value(p);
	return ASSAY_SLURM_DEFAULT_MASTER_PORT;
}

void assay_slurm_network_env(const json_t *network, struct strlist *out)
{
	static const struct {
		const char *key, *var;
	} map[] = {
	    {"socket_ifname", "NCCL_SOCKET_IFNAME"}, {"socket_ifname", "GLOO_SOCKET_IFNAME"},
	    {"rdma_devices", "NCCL_IB_HCA"},         {"ib_gid_index", "NCCL_IB_GID_INDEX"},
	    {"ib_traffic_class", "NCCL_IB_TC"},      {"ib_service_level", "NCCL_IB_SL"},
	    {"net_plugin", "NCCL_NET_PLUGIN"},
	};
	if (!json_is_object(network))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(map); i++) {
		const json_t *v = json_object_get(network, map[i].key);
		struct sbuf sb = SBUF_INIT;
		sbuf_addf(&sb, "%s=", map[i].var);
		if (json_is_string(v)) {
			sbuf_adds(&sb, json_string_value(v));
		} else if (json_is_integer(v)) {
			sbuf_addf(&sb, "%lld", (long long)json_integer_value(v));
		} else if (json_is_array(v) && json_array_size(v)) {
			size_t k;
			const json_t *d;
			json_array_foreach(v, k, d)
			{
				if (json_is_string(d))
					sbuf_addf(&sb, "%s%s", k ? "," : "", json_string_value(d));
			}
		} else {
			sbuf_release(&sb);
			continue;
		}
		strlist_push(out, sbuf_str(&sb));
		sbuf_release(&sb);
	}
}

static bool is_secret(const struct assay_slurm_job *j, const char *name)
{
	for (size_t i = 0; i < j->n_secrets; i++)
		if (!strcmp(j->secrets[i], name))
			return true;
	return false;
}

static assay_err check_env(const struct assay_slurm_job *j, const struct assay_slurm_env *env,
			   size_t n, struct assay_error *e)
{
	for (size_t i = 0; i < n; i++) {
		if (!env_name_ok(env[i].name))
			return assay_error_set(e, ASSAY_USAGE,
					       "environment variable name \"%.60s\": expected "
					       "letters, digits and '_', not starting with a digit",
					       env[i].name ? env[i].name : "");
		if (is_secret(j, env[i].name))
			return assay_error_set(e, ASSAY_USAGE,
					       "%s is a secret: it reaches the job through the "
					       "environment only and cannot also be given a value",
					       env[i].name);
		if (!env[i].value)
			return assay_error_set(e, ASSAY_USAGE,
					       "environment variable %s has no value", env[i].name);
	}
	return ASSAY_OK;
}

static assay_err check_step(const struct assay_slurm_job *j, const struct assay_slurm_step *s,
			    size_t i, struct assay_error *e)
{
	if (!s->argc || !s->argv[0] || !*s->argv[0])
		return assay_error_set(e, ASSAY_USAGE, "job %s, step %zu: no program", j->name,
				       i + 1);
	for (size_t k = 1; k < s->argc; k++)
		if (!s->argv[k])
			return assay_error_set(e, ASSAY_USAGE,
					       "job %s, step %zu: argument %zu is missing", j->name,
					       i + 1, k);
	if (s->log_dir && check_log_dir("step log directory", s->log_dir, e) != ASSAY_OK)
		return ASSAY_USAGE;
	if (s->status_file && s->status_file[0] != '/')
		return assay_error_set(e, ASSAY_USAGE,
				       "status file \"%.80s\": expected an absolute path",
				       s->status_file);
	if (s->cwd && (s->cwd[0] != '/' || has_control(s->cwd)))
		return assay_error_set(
		    e, ASSAY_USAGE,
		    "step working directory \"%.80s\": expected an absolute path "
		    "without control characters",
		    s->cwd);
	if (s->cwd && s->mpi && j->o && j->o->mpi_launcher.n)
		return assay_error_set(
		    e, ASSAY_USAGE,
		    "job %s, step %zu: a working directory cannot be given to an "
		    "mpi_launcher step (it runs in the job's directory)",
		    j->name, i + 1);
	return check_env(j, s->env, s->n_env, e);
}

/* The job's own settings (name, shape, logs, secrets, exports). */
static assay_err check_head(const struct assay_slurm_job *j, struct assay_error *e)
{
	if (!j->name || !*j->name || strchr(j->name, '/'))
		return assay_error_set(e, ASSAY_USAGE,
				       "job name \"%.60s\": expected a non-empty "
				       "name without '/'",
				       j->name ? j->name : "");
	if (j->shape.nodes < 1 || j->shape.ntasks_per_node < 1 || j->shape.gpus_per_node < 0)
		return assay_error_set(
		    e, ASSAY_USAGE, "job %s: %lld node(s) x %lld task(s): expected positive counts",
		    j->name, j->shape.nodes, j->shape.ntasks_per_node);
	if (check_log_dir("log directory", j->log_dir, e) != ASSAY_OK)
		return ASSAY_USAGE;
	if (j->spool && check_log_dir("spool directory", j->spool, e) != ASSAY_OK)
		return ASSAY_USAGE;
	for (size_t i = 0; i < j->n_secrets; i++)
		if (!env_name_ok(j->secrets[i]))
			return assay_error_set(
			    e, ASSAY_USAGE,
			    "secret name \"%.60s\": expected letters, digits and "
			    "'_', not starting with a digit",
			    j->secrets[i] ? j->secrets[i] : "");
	return check_env(j, j->env, j->n_env, e);
}

static assay_err check_job(const struct assay_slurm_job *j, struct assay_error *e)
{
	if (check_head(j, e) != ASSAY_OK)
		return ASSAY_USAGE;
	if (!j->n_steps && !j->spool)
		return assay_error_set(e, ASSAY_USAGE, "job %s has no steps", j->name);
	if (j->n_steps && j->spool)
		return assay_error_set(e, ASSAY_USAGE,
				       "job %s: steps are either in the script or handed over "
				       "through the spool folder, not both",
				       j->name);
	for (size_t i = 0; i < j->n_steps; i++)
		if (check_step(j, &j->steps[i], i, e) != ASSAY_OK)
			return ASSAY_USAGE;
	return ASSAY_OK;
}

static bool use_mpi_launcher(const struct assay_slurm_job *j, const struct assay_slurm_step *s)
{
	return s->mpi && j->o && j->o->mpi_launcher.n;
}

/* The launcher words of a step (srun and its options, or mpi_launcher). */
static void step_words(const struct assay_slurm_job *j, const struct assay_slurm_step *s,
		       const char *nodelist, struct strlist *w)
{
	const struct assay_slurm_options *o = j->o;
	if (use_mpi_launcher(j, s)) {
		for (size_t i = 0; i < o->mpi_launcher.n; i++)
			strlist_push(w, o->mpi_launcher.v[i]);
		return;
	}
	struct sbuf sb = SBUF_INIT;
	const char *dir = s->log_dir ? s->log_dir : j->log_dir;
	strlist_push(w, "srun");
	sbuf_addf(&sb, "--nodes=%lld", j->shape.nodes);
	strlist_push(w, sbuf_str(&sb));
	sbuf_reset(&sb);
	sbuf_addf(&sb, "--ntasks-per-node=%lld", j->shape.ntasks_per_node);
	strlist_push(w, sbuf_str(&sb));
	if (j->shape.gpus_per_node > 0) {
		sbuf_reset(&sb);
		sbuf_addf(&sb, "--gpus-per-node=%lld", j->shape.gpus_per_node);
		strlist_push(w, sbuf_str(&sb));
	}
	if (nodelist) {
		sbuf_reset(&sb);
		sbuf_addf(&sb, "--nodelist=%s", nodelist);
		strlist_push(w, sbuf_str(&sb));
	}
	if (s->cwd) {
		sbuf_reset(&sb);
		sbuf_addf(&sb, "--chdir=%s", s->cwd);
		strlist_push(w, sbuf_str(&sb));
	}
	strlist_push(w, "--kill-on-bad-exit=1");
	if (s->mpi) {
		sbuf_reset(&sb);
		sbuf_addf(&sb, "--mpi=%s", o && o->mpi ? o->mpi : ASSAY_SLURM_DEFAULT_MPI);
		strlist_push(w, sbuf_str(&sb));
	}
	sbuf_reset(&sb);
	sbuf_adds(&sb, "--output=");
	add_path(&sb, dir, s->per_task ? "%x-%j-%N.%t.out" : "%x-%j-%N.out");
	strlist_push(w, sbuf_str(&sb));
	sbuf_reset(&sb);
	sbuf_adds(&sb, "--error=");
	add_path(&sb, dir, s->per_task ? "%x-%j-%N.%t.err" : "%x-%j-%N.err");
	strlist_push(w, sbuf_str(&sb));
	for (size_t i = 0; o && i < o->srun_args.n; i++)
		strlist_push(w, o->srun_args.v[i]);
	for (size_t i = 0; i < s->n_srun_opts; i++)
		strlist_push(w, s->srun_opts[i]);
	sbuf_release(&sb);
}

assay_err assay_slurm_step_argv(const struct assay_slurm_job *j, const struct assay_slurm_step *s,
				const char *nodelist, struct strlist *argv, struct assay_error *e)
{
	if (check_head(j, e) != ASSAY_OK || check_step(j, s, 0, e) != ASSAY_OK)
		return ASSAY_USAGE;
	if (nodelist && (has_control(nodelist) || !*nodelist))
		return assay_error_set(e, ASSAY_USAGE, "step nodelist \"%.60s\": not a hostlist",
				       nodelist);
	step_words(j, s, nodelist, argv);
	for (size_t i = 0; i < s->argc; i++)
		strlist_push(argv, s->argv[i]);
	return ASSAY_OK;
}

static void export_line(struct sbuf *sb, const char *name, const char *value)
{
	sbuf_addf(sb, "export %s=", name);
	assay_shell_quote(sb, value);
	sbuf_addch(sb, '\n');
}

/* One line of comment text: control characters become '?'. */
static void comment_text(struct sbuf *sb, const char *s)
{
	for (; s && *s; s++)
		sbuf_addch(sb, ((unsigned char)*s < 0x20 || *s == 0x7f) ? '?' : *s);
}

/* One step: its variables, the launcher with its options (srun's own
 * messages go to LOG_DIR/srun.err), the program, and its exit status. */
static void emit_step(const struct assay_slurm_job *j, const struct assay_slurm_step *s, size_t i,
		      size_t total, struct sbuf *sb)
{
	struct strlist words = STRLIST_INIT;
	const char *dir = s->log_dir ? s->log_dir : j->log_dir;
	struct sbuf p = SBUF_INIT;
	if (total)
		sbuf_addf(sb, "\n# step %zu/%zu", i + 1, total);
	else
		sbuf_addf(sb, "\n# step %zu", i + 1);
	if (s->label) {
		sbuf_adds(sb, ": ");
		comment_text(sb, s->label);
	}
	sbuf_addch(sb, '\n');
	for (size_t k = 0; k < s->n_env; k++) {
		sbuf_addf(sb, "%s=", s->env[k].name);
		assay_shell_quote(sb, s->env[k].value);
		sbuf_addch(sb, ' ');
	}
	/* The launcher and its options, then the program on its own line. */
	step_words(j, s, NULL, &words);
	for (size_t k = 0; k < words.n; k++) {
		if (k && (assay_starts_with(words.v[k], "--output=") ||
			  assay_starts_with(words.v[k], "--error=")))
			sbuf_adds(sb, " \\\n    ");
		else if (k)
			sbuf_addch(sb, ' ');
		assay_shell_quote(sb, words.v[k]);
	}
	sbuf_adds(sb, " \\\n   ");
	for (size_t k = 0; k < s->argc; k++) {
		sbuf_addch(sb, ' ');
		assay_shell_quote(sb, s->argv[k]);
	}
	if (use_mpi_launcher(j, s)) {
		add_path(&p, dir, "launcher.out");
		sbuf_adds(sb, " >");
		assay_shell_quote(sb, sbuf_str(&p));
		sbuf_reset(&p);
		add_path(&p, dir, "launcher.err");
	} else {
		add_path(&p, dir, "srun.err");
	}
	sbuf_adds(sb, " 2>");
	assay_shell_quote(sb, sbuf_str(&p));
	sbuf_adds(sb, "\nrc=$?\n");
	if (s->status_file) {
		sbuf_adds(sb, "printf '%s\\n' \"$rc\" >");
		assay_shell_quote(sb, s->status_file);
		sbuf_addch(sb, '\n');
	}
	sbuf_adds(sb, "[ \"$status\" -ne 0 ] || status=$rc\n");
	sbuf_release(&p);
	strlist_clear(&words);
}

/* Spool mode: the job runs the steps assay hands over, one file each. */
static void driver(const struct assay_slurm_job *j, struct sbuf *sb)
{
	long long idle = j->idle_s > 0 ? j->idle_s : ASSAY_SLURM_DEFAULT_IDLE_S;
	sbuf_addf(sb,
		  "\n# The cases run as steps when assay hands them over: it writes step-N.sh\n"
		  "# into the spool folder as the run reaches each case, and \"end\" when the\n"
		  "# shard is done (or a resumed run ends a killed attempt's job). A finished\n"
		  "# step is never run again (after a requeue). With no new step for %lld s\n"
		  "# (assay has gone), the job ends.\n"
		  "spool=",
		  idle);
	assay_shell_quote(sb, j->spool);
	sbuf_addf(sb,
		  "\nn=1\n"
		  "last=$SECONDS\n"
		  "while :; do\n"
		  "\tls \"$spool\" >/dev/null 2>&1 # a fresh look on a network file system\n"
		  "\tif [ -e \"$spool/end\" ] || [ ! -d \"$spool\" ]; then\n"
		  "\t\tbreak # the shard is done, or its run folder was removed\n"
		  "\telif [ -e \"$spool/step-$n.done\" ]; then\n"
		  "\t\tn=$((n + 1))\n"
		  "\telif [ -e \"$spool/step-$n.sh\" ]; then\n"
		  "\t\t. \"$spool/step-$n.sh\"\n"
		  "\t\t: >\"$spool/step-$n.done\"\n"
		  "\t\tn=$((n + 1))\n"
		  "\t\tlast=$SECONDS\n"
		  "\telif [ $((SECONDS - last)) -ge %lld ]; then\n"
		  "\t\techo \"assay: no step handed over for %lld s; ending the job\" >&2\n"
		  "\t\tbreak\n"
		  "\telse\n"
		  "\t\tsleep 0.2\n"
		  "\tfi\n"
		  "done\n",
		  idle, idle);
}

static assay_err placement(const struct assay_slurm_job *j, struct sbuf *sb, struct assay_error *e)
{
	const struct assay_slurm_options *o = j->o;
	struct sbuf v = SBUF_INIT;
	assay_err rc = sbatch_opt(sb, "--job-name", j->name, e);
	sbuf_addf(sb, "#SBATCH --nodes=%lld\n", j->shape.nodes);
	sbuf_addf(sb, "#SBATCH --ntasks-per-node=%lld\n", j->shape.ntasks_per_node);
	if (j->shape.gpus_per_node > 0)
		sbuf_addf(sb, "#SBATCH --gpus-per-node=%lld\n", j->shape.gpus_per_node);
	if (o) {
		const struct {
			const char *opt, *value;
		} opts[] = {
		    {"--partition", o->partition},
		    {"--account", o->account},
		    {"--qos", o->qos},
		    {"--reservation", o->reservation},
		    {"--time", o->time},
		    {"--nodelist", o->nodelist},
		    {"--exclude", o->exclude},
		    {"--constraint", o->constraint},
		};
		for (size_t i = 0; rc == ASSAY_OK && i < ARRAY_SIZE(opts); i++)
			if (opts[i].value)
				rc = sbatch_opt(sb, opts[i].opt, opts[i].value, e);
		if (o->exclusive == 1)
			sbuf_adds(sb, "#SBATCH --exclusive\n");
	}
	if (rc == ASSAY_OK && j->workdir)
		rc = sbatch_opt(sb, "--chdir", j->workdir, e);
	add_path(&v, j->log_dir, "%x-%j.out");
	if (rc == ASSAY_OK)
		rc = sbatch_opt(sb, "--output", sbuf_str(&v), e);
	sbuf_adds(sb, "#SBATCH --export=ALL\n");
	for (size_t i = 0; o && rc == ASSAY_OK && i < o->sbatch_args.n; i++) {
		const char *a = o->sbatch_args.v[i], *eq = strchr(a, '=');
		sbuf_reset(&v);
		sbuf_add(&v, a, eq ? (size_t)(eq - a) : strlen(a));
		rc = sbatch_opt(sb, sbuf_str(&v), eq ? eq + 1 : NULL, e);
	}
	sbuf_release(&v);
	return rc;
}

assay_err assay_slurm_script(const struct assay_slurm_job *j, struct sbuf *out,
			     struct assay_error *e)
{
	struct sbuf sb = SBUF_INIT;
	struct strlist net = STRLIST_INIT;
	if (check_job(j, e) != ASSAY_OK)
		return ASSAY_USAGE;
	sbuf_adds(&sb, "#!/bin/bash\n");
	sbuf_addf(&sb, "# Generated by assay: job %s, %lld node(s) x %lld task(s).\n", j->name,
		  j->shape.nodes, j->shape.ntasks_per_node);
	if (placement(j, &sb, e) != ASSAY_OK) {
		sbuf_release(&sb);
		return ASSAY_USAGE;
	}
	sbuf_adds(&sb, "set -u\n");
	if (j->n_secrets) {
		sbuf_adds(
		    &sb,
		    "\n# Secrets are not in this file: they come from the environment sbatch\n"
		    "# ran in (--export=ALL). Check that they arrived, without showing them.\n");
		for (size_t i = 0; i < j->n_secrets; i++)
			sbuf_addf(
			    &sb,
			    "if [ -z \"${%s+set}\" ]; then echo \"assay: secret %s is not in the "
			    "job's environment\" >&2; exit 97; fi\n",
			    j->secrets[i], j->secrets[i]);
	}
	assay_slurm_network_env(j->network, &net);
	if (net.n || j->n_env || j->master_addr)
		sbuf_adds(&sb, "\n");
	for (size_t i = 0; i < net.n; i++) {
		char *eq = strchr(net.v[i], '=');
		*eq = '\0';
		export_line(&sb, net.v[i], eq + 1);
	}
	for (size_t i = 0; i < j->n_env; i++)
		export_line(&sb, j->env[i].name, j->env[i].value);
	if (j->master_addr) {
		sbuf_adds(&sb, "MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | "
			       "head -n 1)\nexport MASTER_ADDR\n");
		sbuf_addf(&sb, "export MASTER_PORT=%lld\n",
			  assay_slurm_master_port(j->o, j->network));
	}
	sbuf_adds(&sb, "\nstatus=0\n");
	if (j->spool)
		driver(j, &sb);
	for (size_t i = 0; i < j->n_steps; i++)
		emit_step(j, &j->steps[i], i, j->n_steps, &sb);
	sbuf_adds(&sb, "exit \"$status\"\n");
	sbuf_add(out, sb.buf, sb.len);
	sbuf_release(&sb);
	strlist_clear(&net);
	return ASSAY_OK;
}

assay_err assay_slurm_step_text(const struct assay_slurm_job *j, const struct assay_slurm_step *s,
				size_t index, size_t total, struct sbuf *out, struct assay_error *e)
{
	if (check_head(j, e) != ASSAY_OK || check_step(j, s, index, e) != ASSAY_OK)
		return ASSAY_USAGE;
	struct sbuf sb = SBUF_INIT;
	emit_step(j, s, index, total, &sb);
	sbuf_adds(out, sbuf_str(&sb) + 1); /* without the blank line that separates steps */
	sbuf_release(&sb);
	return ASSAY_OK;
}
