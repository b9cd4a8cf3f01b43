/* The error core: names and precedence of the outcome codes, and filling and
 * rendering struct assay_error (token-shaped text masked in every message). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "assay/error.h"
#include "assay/redact.h"

static const struct {
	const char *name;
	const char *meaning;
	int severity; /* higher is more severe: 2 > 5 > 3 > 4 > 1 > 0 */
} outcomes[ASSAY_ERR_COUNT] = {
    [ASSAY_OK] = {"ok", "everything ran and passed its gates", 0},
    [ASSAY_GATE_FAILED] = {"gate-failed", "a threshold, loss-curve or regression gate failed", 1},
    [ASSAY_USAGE] = {"usage", "bad arguments, invalid config or unreadable input: nothing ran", 5},
    [ASSAY_WORKLOAD_FAILED] =
	{"workload-failed", "a workload exited non-zero, matched an error signature or timed out",
	 3},
    [ASSAY_NO_METRICS] = {"no-metrics", "a workload succeeded but produced no measurements", 2},
    [ASSAY_INFRA] = {"infrastructure", "launcher, store or file system failed", 4},
};

const char *assay_strerror(assay_err code)
{
	if ((int)code < 0 || (int)code >= ASSAY_ERR_COUNT)
		return "unknown";
	return outcomes[code].name;
}

const char *assay_err_meaning(assay_err code)
{
	if ((int)code < 0 || (int)code >= ASSAY_ERR_COUNT)
		return "unknown outcome";
	return outcomes[code].meaning;
}

int assay_err_from_name(const char *name)
{
	for (int i = 0; i < ASSAY_ERR_COUNT; i++)
		if (!strcmp(outcomes[i].name, name))
			return i;
	return -1;
}

assay_err assay_err_worst(assay_err a, assay_err b)
{
	int sa = ((int)a >= 0 && (int)a < ASSAY_ERR_COUNT) ? outcomes[a].severity : 6;
	int sb = ((int)b >= 0 && (int)b < ASSAY_ERR_COUNT) ? outcomes[b].severity : 6;
	return sb > sa ? b : a;
}

void assay_error_clear(struct assay_error *e)
{
	if (e)
		memset(e, 0, sizeof(*e));
}

static void copy_field(char *dst, size_t size, const char *src)
{
	if (!src)
		src = "";
	snprintf(dst, size, "%s", src);
}

assay_err assay_error_set(struct assay_error *e, assay_err code, const char *fmt, ...)
{
	if (!e)
		return code;
	assay_error_clear(e);
	e->code = code;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	va_end(ap);
	assay_token_mask_str(e->message, sizeof(e->message));
	return code;
}

assay_err assay_error_at(struct assay_error *e, assay_err code, const char *file,
			 const char *json_path, long line, const char *fmt, ...)
{
	if (!e)
		return code;
	assay_error_clear(e);
	e->code = code;
	copy_field(e->file, sizeof(e->file), file);
	copy_field(e->path, sizeof(e->path), json_path);
	e->line = line;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	va_end(ap);
	assay_token_mask_str(e->path, sizeof(e->path));
	assay_token_mask_str(e->message, sizeof(e->message));
	return code;
}

void assay_error_prefix(struct assay_error *e, const char *fmt, ...)
{
	if (!e)
		return;
	char pre[512], old[sizeof(e->message)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	memcpy(old, e->message, sizeof(old));
	snprintf(e->message, sizeof(e->message), "%s: %s", pre, old);
	assay_token_mask_str(e->message, sizeof(e->message));
}

const char *assay_error_format(const struct assay_error *e, char *buf, size_t size)
{
	size_t n = 0;
	if (!size)
		return buf;
	buf[0] = '\0';
#define ADD(...)                                                                                   \
	do {                                                                                       \
		if (n < size) {                                                                    \
			int k = snprintf(buf + n, size - n, __VA_ARGS__);                          \
			n += k > 0 ? (size_t)k : 0;                                                \
		}                                                                                  \
	} while (0)
	if (e->file[0]) {
		ADD("%s", e->file);
		if (e->line > 0) {
			ADD(":%ld", e->line);
			if (e->column > 0)
				ADD(":%ld", e->column);
		}
		ADD(": ");
	}
	if (e->path[0])
		ADD("%s: ", e->path);
	ADD("%s", e->message);
#undef ADD
	return buf;
}
