/* ROCm/cvs's training-log error dictionaries: the Megatron one
 * (cvs/lib/training/megatron/megatron_lib.py, training_err_dict at
 * dddd914, searched case-sensitively) and a config's
 * training.error_patterns, which replaces the defaults entirely
 * (cvs/lib/training/jaxmaxtext/jaxmaxtext_training_lib.py, searched with
 * re.I). Each pattern is searched in the whole log, as re.search does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/gate.h"
#include "assay/json.h"
#include "assay/watch.h"

static const struct {
	const char *name, *pattern;
} megatron_dict[] = {
    {"NCCL ERROR", "NCCL ERROR|NCCL timeout|ncclRemoteError: A call failed possibly due to a "
		   "network error|NCCL error:"},
    {"GPU HW ERROR", "HW Exception by GPU|GPU Hang|Uncorrectable error|GPU Reset"},
    {"torch", "torch.distributed.elastic.multiprocessing.errors"},
};

/* Add one pattern; false (with e) when it does not compile. */
static bool dict_add(struct assay_error_dict *d, const char *name, const char *pattern,
		     struct assay_error *e)
{
	/* Compiled as written first, so an error's offset is the pattern's. */
	void *code = assay_pattern_compile(pattern, e);
	if (code && d->icase) {
		char *p = xasprintf("(?i)%s", pattern);
		assay_pattern_free(code);
		code = assay_pattern_compile(p, e);
		free(p);
	}
	if (!code)
		return false;
	d->names = xrealloc(d->names, (d->n + 1) * sizeof(*d->names));
	d->patterns = xrealloc(d->patterns, (d->n + 1) * sizeof(*d->patterns));
	d->codes = xrealloc(d->codes, (d->n + 1) * sizeof(*d->codes));
	d->names[d->n] = xstrdup(name);
	d->patterns[d->n] = xstrdup(pattern);
	d->codes[d->n++] = code;
	return true;
}

void assay_error_dict_cvs_megatron(struct assay_error_dict *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->source, sizeof(d->source), "cvs megatron");
	for (size_t i = 0; i < ARRAY_SIZE(megatron_dict); i++) {
		struct assay_error e;
		if (!dict_add(d, megatron_dict[i].name, megatron_dict[i].pattern, &e))
			abort(); /* the table compiles */
	}
}

assay_err assay_error_dict_load(const char *file, struct assay_error_dict *d, struct assay_error *e)
{
	memset(d, 0, sizeof(*d));
	d->icase = true;
	snprintf(d->source, sizeof(d->source), "%s", file);
	json_t *doc = assay_json_load_file(file, e);
	if (!doc)
		return ASSAY_USAGE;
	const char *base = "$";
	const json_t *obj = doc;
	const json_t *tr = json_object_get(doc, "training");
	if (json_is_object(tr) && json_object_get(tr, "error_patterns")) {
		obj = json_object_get(tr, "error_patterns");
		base = "$.training.error_patterns";
	}
	struct assay_cfg c = {file, e};
	assay_err rc = ASSAY_OK;
	if (!json_is_object(obj) || !json_object_size(obj)) {
		assay_cfg_expected(&c, base, "an object of error names to patterns", obj);
		rc = ASSAY_USAGE;
	}
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)obj, key, v)
	{
		if (rc != ASSAY_OK)
			break;
		char kp[512];
		assay_json_path_key(kp, sizeof(kp), base, key);
		struct assay_error pe;
		if (!json_is_string(v)) {
			assay_cfg_expected(&c, kp, "a pattern (a string)", v);
			rc = ASSAY_USAGE;
		} else if (json_string_length(v) && !dict_add(d, key, json_string_value(v), &pe)) {
			assay_cfg_fail(&c, kp, "%s", pe.message);
			rc = ASSAY_USAGE;
		}
	}
	json_decref(doc);
	if (rc != ASSAY_OK)
		assay_error_dict_release(d);
	return rc;
}

void assay_error_dict_release(struct assay_error_dict *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->names[i]);
		free(d->patterns[i]);
		assay_pattern_free(d->codes[i]);
	}
	free(d->names);
	free(d->patterns);
	free(d->codes);
	memset(d, 0, sizeof(*d));
}

/* The line of data around offset at: its number (1-based) and bounds. */
static long line_at(const char *data, size_t at, const char **ls, const char **le, const char *end)
{
	long n = 1;
	for (const char *p = data; p < data + at; p++)
		n += *p == '\n';
	*ls = data + at;
	while (*ls > data && (*ls)[-1] != '\n')
		(*ls)--;
	*le = data + at;
	while (*le < end && **le != '\n' && **le != '\r')
		(*le)++;
	return n;
}

size_t assay_gate_error_dict(const struct assay_error_dict *d, const char *data, size_t len,
			     struct assay_verdicts *out)
{
	size_t matched = 0;
	for (size_t i = 0; i < d->n; i++) {
		size_t s, e;
		if (!assay_pattern_search(d->codes[i], data, len, &s, &e))
			continue;
		const char *ls, *le;
		long line = line_at(data, s, &ls, &le, data + len);
		int n = le - ls > 200 ? 200 : (int)(le - ls);
		char text[208];
		for (int k = 0; k < n; k++) {
			unsigned char ch = (unsigned char)ls[k];
			text[k] = ch < 0x20 || ch == 0x7f ? ' ' : (char)ch;
		}
		text[n] = '\0';
		assay_verdicts_add(out, ASSAY_VERDICT_FAIL, "run", "errors", 1, "lines",
				   "no error pattern", "%s (%s) at line %ld: %s", d->names[i],
				   d->source, line, text);
		matched++;
	}
	return matched;
}

/* MaxText's defaults (cvs/lib/training/jaxmaxtext/jaxmaxtext_training_lib.py,
 * _TRAINING_ERR_PATTERNS at dddd914), searched with re.I. */
static const struct {
	const char *name, *pattern;
} maxtext_dict[] = {
    {"NCCL ERROR", "NCCL ERROR|NCCL timeout|local work queue catastrophic error"},
    {"GPU HW ERROR", "HW Exception by GPU|GPU Hang|Uncorrectable error|GPU Reset"},
    {"AssertionError", "AssertionError|ValueError:|JaxStackTrace|During handling of the above "
		       "exception|triggered the following exception"},
    {"rocm Err", "FAILED_PRECONDITION: No visible GPU devices|failed call to hipInit: "
		 "HIP_ERROR_NoDevice|librocm reported version is: NOT_FOUND"},
    {"python err", "ModuleNotFoundError: No module named|Fatal Python error:"},
    {"tensorflow",
     "tensorflow.CoordinationServiceError|tensorflow.BarrierError|CoordinationServiceError"},
    {"resource", "RESOURCE_EXHAUSTED: Out of memory|failed: RESOURCE_EXHAUSTED"},
    {"segfault", "Segmentation fault|SIGSEGV|signal 11|core dumped"},
};

/* TorchTitan's dictionary (torchtitan_lib.py, training_err_dict) holds
 * Megatron's patterns, searched with re.I. */
void assay_error_dict_cvs_torchtitan(struct assay_error_dict *d)
{
	memset(d, 0, sizeof(*d));
	d->icase = true;
	snprintf(d->source, sizeof(d->source), "cvs torchtitan");
	for (size_t i = 0; i < ARRAY_SIZE(megatron_dict); i++) {
		struct assay_error e;
		if (!dict_add(d, megatron_dict[i].name, megatron_dict[i].pattern, &e))
			abort(); /* the table compiles */
	}
}

void assay_error_dict_cvs_maxtext(struct assay_error_dict *d)
{
	memset(d, 0, sizeof(*d));
	d->icase = true;
	snprintf(d->source, sizeof(d->source), "cvs maxtext");
	for (size_t i = 0; i < ARRAY_SIZE(maxtext_dict); i++) {
		struct assay_error e;
		if (!dict_add(d, maxtext_dict[i].name, maxtext_dict[i].pattern, &e))
			abort(); /* the table compiles */
	}
}
