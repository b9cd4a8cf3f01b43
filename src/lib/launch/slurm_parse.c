/* Parsers for what Slurm's commands print: sbatch --parsable, squeue with
 * ASSAY_SLURM_SQUEUE_FORMAT, scontrol show job (multi-line form), and Slurm
 * time strings. Input is untrusted text: every field is bounded and checked. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "assay/slurm.h"

/* Copy at most size-1 bytes of s[0..n). */
static void copy_field(char *dst, size_t size, const char *s, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* Digits only, at most 9 of them (no overflow), into *v. */
static bool small_uint(const char *s, size_t n, long long *v)
{
	if (n == 0 || n > 9)
		return false;
	long long x = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		x = x * 10 + (s[i] - '0');
	}
	*v = x;
	return true;
}

bool assay_slurm_time_parse(const char *s, long long *seconds)
{
	static const char *const unlimited[] = {"UNLIMITED", "INFINITE", "NOT_SET",
						"Partition_Limit", NULL};
	for (size_t i = 0; unlimited[i]; i++) {
		if (!strcmp(s, unlimited[i])) {
			*seconds = -1;
			return true;
		}
	}
	long long days = 0, part[3];
	size_t nparts = 0;
	const char *p = s;
	const char *dash = strchr(s, '-');
	if (dash) {
		if (!small_uint(s, (size_t)(dash - s), &days))
			return false;
		p = dash + 1;
	}
	for (;;) {
		const char *q = p;
		while (*q && *q != ':')
			q++;
		if (nparts == 3 || !small_uint(p, (size_t)(q - p), &part[nparts]))
			return false;
		nparts++;
		if (!*q)
			break;
		p = q + 1;
	}
	long long h = 0, m = 0, sec = 0;
	if (dash) { /* D-H, D-H:M, D-H:M:S */
		h = part[0];
		m = nparts > 1 ? part[1] : 0;
		sec = nparts > 2 ? part[2] : 0;
	} else if (nparts == 1) { /* M */
		m = part[0];
	} else if (nparts == 2) { /* M:S */
		m = part[0];
		sec = part[1];
	} else { /* H:M:S */
		h = part[0];
		m = part[1];
		sec = part[2];
	}
	*seconds = ((days * 24 + h) * 60 + m) * 60 + sec;
	return true;
}

static bool id_char(char c)
{
	return isdigit((unsigned char)c) || c == '_' || c == '+';
}

assay_err assay_slurm_parse_sbatch(const char *out, char *job_id, size_t id_size, char *cluster,
				   size_t cluster_size, struct assay_error *e)
{
	const char *s = out, *end = out + strlen(out);
	while (s < end && isspace((unsigned char)*s))
		s++;
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	const char *semi = memchr(s, ';', (size_t)(end - s));
	const char *id_end = semi ? semi : end;
	bool ok = id_end > s && (size_t)(id_end - s) < id_size && (size_t)(id_end - s) < 32 &&
		  isdigit((unsigned char)*s);
	for (const char *c = s; ok && c < id_end; c++)
		ok = isdigit((unsigned char)*c);
	if (ok && semi) {
		ok = end > semi + 1 && (size_t)(end - semi - 1) < cluster_size;
		for (const char *c = semi + 1; ok && c < end; c++)
			ok = isalnum((unsigned char)*c) || *c == '_' || *c == '-' || *c == '.';
	}
	if (!ok) {
		char brief[80];
		size_t n = (size_t)(end - s);
		copy_field(brief, sizeof(brief), s, n);
		for (char *c = brief; *c; c++)
			if (!isprint((unsigned char)*c))
				*c = '?';
		return assay_error_set(
		    e, ASSAY_INFRA,
		    "sbatch --parsable printed \"%s%s\": expected JOBID or JOBID;CLUSTER", brief,
		    n >= sizeof(brief) ? "..." : "");
	}
	copy_field(job_id, id_size, s, (size_t)(id_end - s));
	if (cluster && cluster_size)
		copy_field(cluster, cluster_size, semi ? semi + 1 : "",
			   semi ? (size_t)(end - semi - 1) : 0);
	return ASSAY_OK;
}

static void jobinfo_init(struct assay_slurm_jobinfo *j)
{
	memset(j, 0, sizeof(*j));
	j->nodes = j->restarts = j->time_limit_s = j->run_time_s = -1;
	j->exit_code = j->exit_signal = j->requeue = -1;
}

void assay_slurm_jobinfo_release(struct assay_slurm_jobinfo *j)
{
	free(j->name);
	free(j->comment);
	free(j->nodelist);
	free(j->std_out);
	free(j->std_err);
	jobinfo_init(j);
}

void assay_slurm_jobinfo_free_array(struct assay_slurm_jobinfo *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		assay_slurm_jobinfo_release(&jobs[i]);
	free(jobs);
}

/* A heap copy of s[0..n), or NULL for Slurm's empty markers. */
static char *opt_str(const char *s, size_t n)
{
	if (n == 0 || (n == 6 && !memcmp(s, "(null)", 6)) || (n == 4 && !memcmp(s, "None", 4)) ||
	    (n == 3 && !memcmp(s, "N/A", 3)))
		return NULL;
	return xstrndup(s, n);
}

static bool state_word(const char *s, size_t n)
{
	if (n == 0 || n >= 32)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isupper((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/* "3:0" -> exit 3, signal 0. */
static void parse_exit(const char *s, size_t n, struct assay_slurm_jobinfo *j)
{
	const char *colon = memchr(s, ':', n);
	long long code, sig;
	if (colon && small_uint(s, (size_t)(colon - s), &code) &&
	    small_uint(colon + 1, n - (size_t)(colon - s) - 1, &sig) && code < 256 && sig < 256) {
		j->exit_code = (int)code;
		j->exit_signal = (int)sig;
	}
}

static long long time_field(const char *s, size_t n)
{
	char buf[32];
	long long v;
	if (n >= sizeof(buf))
		return -1;
	copy_field(buf, sizeof(buf), s, n);
	return assay_slurm_time_parse(buf, &v) ? v : -1;
}

static assay_err squeue_line(const char *line, size_t len, size_t lineno,
			     struct assay_slurm_jobinfo *j, struct assay_error *e)
{
	const char *f[8];
	size_t fl[8], nf = 0;
	const char *p = line, *end = line + len;
	while (nf < 7) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		if (!bar)
			break;
		f[nf] = p;
		fl[nf++] = (size_t)(bar - p);
		p = bar + 1;
	}
	f[nf] = p;
	fl[nf++] = (size_t)(end - p);
	long long nodes;
	bool ok = nf == 8 && fl[0] > 0 && fl[0] < sizeof(j->id) && state_word(f[1], fl[1]) &&
		  small_uint(f[3], fl[3], &nodes);
	for (size_t i = 0; ok && i < fl[0]; i++)
		ok = id_char(f[0][i]);
	if (!ok)
		return assay_error_set(e, ASSAY_INFRA,
				       "squeue output line %zu: expected %s (id|state|reason|nodes|"
				       "time|limit|nodelist|comment)",
				       lineno, ASSAY_SLURM_SQUEUE_FORMAT);
	copy_field(j->id, sizeof(j->id), f[0], fl[0]);
	copy_field(j->state, sizeof(j->state), f[1], fl[1]);
	copy_field(j->reason, sizeof(j->reason), f[2], fl[2]);
	j->nodes = nodes;
	j->run_time_s = time_field(f[4], fl[4]);
	j->time_limit_s = time_field(f[5], fl[5]);
	j->nodelist = opt_str(f[6], fl[6]);
	j->comment = opt_str(f[7], fl[7]);
	return ASSAY_OK;
}

assay_err assay_slurm_parse_squeue(const char *out, struct assay_slurm_jobinfo **jobs, size_t *n,
				   struct assay_error *e)
{
	struct assay_slurm_jobinfo *v = NULL;
	size_t nr = 0, alloc = 0, lineno = 0;
	const char *p = out;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		lineno++;
		size_t trimmed = len;
		while (trimmed && (p[trimmed - 1] == '\r' || p[trimmed - 1] == ' '))
			trimmed--;
		if (trimmed) {
			ALLOC_GROW(v, nr + 1, alloc);
			jobinfo_init(&v[nr]);
			if (squeue_line(p, trimmed, lineno, &v[nr], e) != ASSAY_OK) {
				assay_slurm_jobinfo_free_array(v, nr + 1);
				*jobs = NULL;
				*n = 0;
				return ASSAY_INFRA;
			}
			nr++;
		}
		p += len + (nl ? 1 : 0);
	}
	*jobs = v;
	*n = nr;
	return ASSAY_OK;
}

/* Keys whose value is free text: it runs to the end of its line. */
static bool free_text_key(const char *k, size_t n)
{
	static const char *const keys[] = {"JobName",       "Comment", "Command", "WorkDir",
					   "StdOut",        "StdErr",  "StdIn",   "AdminComment",
					   "SystemComment", NULL};
	for (size_t i = 0; keys[i]; i++)
		if (strlen(keys[i]) == n && !memcmp(keys[i], k, n))
			return true;
	return false;
}

/* Length of a "Key=" token at s (a letter, then letters, digits, _ : /), or 0. */
static size_t key_len(const char *s, const char *end)
{
	if (s >= end || !isalpha((unsigned char)*s))
		return 0;
	const char *p = s + 1;
	while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == ':' || *p == '/'))
		p++;
	return p < end && *p == '=' ? (size_t)(p - s) : 0;
}

static bool key_is(const char *k, size_t n, const char *name)
{
	return strlen(name) == n && !memcmp(k, name, n);
}

static void scontrol_field(struct assay_slurm_jobinfo *j, const char *k, size_t kn, const char *v,
			   size_t vn)
{
	long long x;
	if (key_is(k, kn, "JobId")) {
		copy_field(j->id, sizeof(j->id), v, vn);
	} else if (key_is(k, kn, "JobState")) {
		if (state_word(v, vn))
			copy_field(j->state, sizeof(j->state), v, vn);
	} else if (key_is(k, kn, "Reason")) {
		copy_field(j->reason, sizeof(j->reason), v, vn);
	} else if (key_is(k, kn, "JobName")) {
		free(j->name);
		j->name = xstrndup(v, vn);
	} else if (key_is(k, kn, "Comment")) {
		free(j->comment);
		j->comment = opt_str(v, vn);
	} else if (key_is(k, kn, "NodeList")) {
		free(j->nodelist);
		j->nodelist = opt_str(v, vn);
	} else if (key_is(k, kn, "StdOut")) {
		free(j->std_out);
		j->std_out = opt_str(v, vn);
	} else if (key_is(k, kn, "StdErr")) {
		free(j->std_err);
		j->std_err = opt_str(v, vn);
	} else if (key_is(k, kn, "ExitCode")) {
		parse_exit(v, vn, j);
	} else if (key_is(k, kn, "Restarts")) {
		if (small_uint(v, vn, &x))
			j->restarts = x;
	} else if (key_is(k, kn, "Requeue")) {
		if (small_uint(v, vn, &x))
			j->requeue = x != 0;
	} else if (key_is(k, kn, "NumNodes")) {
		/* "2" or, while pending, "2-2" / "2-4". */
		const char *dash = memchr(v, '-', vn);
		if (small_uint(v, dash ? (size_t)(dash - v) : vn, &x))
			j->nodes = x;
	} else if (key_is(k, kn, "TimeLimit")) {
		j->time_limit_s = time_field(v, vn);
	} else if (key_is(k, kn, "RunTime")) {
		j->run_time_s = time_field(v, vn);
	}
}

assay_err assay_slurm_parse_scontrol(const char *out, struct assay_slurm_jobinfo *j,
				     struct assay_error *e)
{
	jobinfo_init(j);
	bool started = false;
	const char *p = out;
	while (*p) {
		const char *nl = strchr(p, '\n');
		const char *end = nl ? nl : p + strlen(p);
		const char *next = nl ? nl + 1 : end;
		while (end > p && (end[-1] == ' ' || end[-1] == '\r'))
			end--;
		const char *s = p;
		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
		if (s == end) {
			if (started)
				break; /* a blank line ends the first record (het jobs) */
			p = next;
			continue;
		}
		if (!started) {
			if (!key_is(s, key_len(s, end), "JobId")) {
				p = next;
				continue; /* text before the record */
			}
			started = true;
		}
		/* Fields: "Key=value" separated by spaces; a space not followed by
		 * "Key=" belongs to the value. Free-text keys run to the line end. */
		while (s < end) {
			size_t kn = key_len(s, end);
			if (!kn)
				break;
			const char *k = s, *v = s + kn + 1, *ve = end;
			if (!free_text_key(k, kn)) {
				for (const char *c = v; c < end; c++) {
					if (*c == ' ' && key_len(c + 1, end)) {
						ve = c;
						break;
					}
				}
			}
			scontrol_field(j, k, kn, v, (size_t)(ve - v));
			s = ve;
			while (s < end && *s == ' ')
				s++;
		}
		p = next;
	}
	if (!started || !j->id[0] || !j->state[0]) {
		assay_slurm_jobinfo_release(j);
		return assay_error_set(e, ASSAY_INFRA,
				       "scontrol show job printed no %s: expected \"JobId=N ... "
				       "JobState=STATE\"",
				       started ? "JobState" : "JobId");
	}
	return ASSAY_OK;
}

bool assay_slurm_job_unknown(const char *stderr_text)
{
	return strstr(stderr_text, "Invalid job id specified") != NULL;
}
