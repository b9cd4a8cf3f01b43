/* The one vocabulary of series identity values: precision names (canonical
 * names and their aliases) and the scale grammar (2x8, 2N/16GPU, 2N8G, a
 * bare GPU count). Every row is canonicalised here when it is finished. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "assay/measure.h"

/* Canonical names first in each entry, then their aliases (any case). */
static const char *const precisions[][8] = {
    {"fp64", "float64", "double", "f64"},
    {"fp32", "float32", "float", "f32", "single"},
    {"tf32", "tensorfloat32"},
    {"fp16", "float16", "half", "f16"},
    {"bf16", "bfloat16"},
    {"fp8_e4m3", "fp8", "f8e4m3", "e4m3", "fp8e4m3", "float8_e4m3fn", "fp8_e4m3fn", "float8_e4m3"},
    {"fp8_e5m2", "f8e5m2", "e5m2", "fp8e5m2", "float8_e5m2"},
    {"fp8_e4m3fnuz", "float8_e4m3fnuz", "f8e4m3fnuz"},
    {"fp8_e5m2fnuz", "float8_e5m2fnuz", "f8e5m2fnuz"},
    {"mxfp8", "mx_fp8"},
    {"mxfp6", "mx_fp6"},
    {"mxfp4", "mx_fp4", "fp4_e2m1", "e2m1"},
    {"nvfp4"},
    {"int8", "i8"},
    {"uint8", "u8"},
    {"int4", "i4"},
    {"int32", "i32"},
    {"uint32", "u32"},
    {"int64", "i64"},
    {"uint64", "u64"},
};

const char *const *assay_precision_names(size_t *n)
{
	static const char *names[sizeof(precisions) / sizeof(precisions[0]) + 1];
	size_t k = sizeof(precisions) / sizeof(precisions[0]);
	for (size_t i = 0; i < k; i++)
		names[i] = precisions[i][0];
	names[k] = NULL;
	if (n)
		*n = k;
	return names;
}

const char *assay_precision_lookup(const char *name)
{
	char buf[64];
	size_t n = 0;
	while (isspace((unsigned char)*name))
		name++;
	while (name[n] && n + 1 < sizeof(buf)) {
		char c = (char)tolower((unsigned char)name[n]);
		buf[n++] = c == '-' ? '_' : c;
	}
	while (n && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	for (size_t i = 0; i < sizeof(precisions) / sizeof(precisions[0]); i++)
		for (size_t j = 0; j < 8 && precisions[i][j]; j++)
			if (!strcmp(buf, precisions[i][j]))
				return precisions[i][0];
	return NULL;
}

void assay_precision_canonical(const char *in, char *out, size_t size)
{
	const char *c = assay_precision_lookup(in);
	if (c) {
		snprintf(out, size, "%s", c);
		return;
	}
	/* Unknown names keep their spelling, lower-cased and trimmed. */
	while (isspace((unsigned char)*in))
		in++;
	size_t n = 0;
	while (in[n] && n + 1 < size) {
		out[n] = (char)tolower((unsigned char)in[n]);
		n++;
	}
	while (n && isspace((unsigned char)out[n - 1]))
		n--;
	if (size)
		out[n] = '\0';
}

/* A positive decimal count at *p (advanced past it); 0 when none. */
static long count_at(const char **p)
{
	const char *s = *p;
	long v = 0;
	if (!isdigit((unsigned char)*s))
		return 0;
	while (isdigit((unsigned char)*s)) {
		if (v > 1000000)
			return 0;
		v = v * 10 + (*s++ - '0');
	}
	*p = s;
	return v;
}

static bool word_at(const char **p, const char *const words[])
{
	for (size_t i = 0; words[i]; i++) {
		size_t n = strlen(words[i]);
		if (!strncasecmp(*p, words[i], n)) {
			*p += n;
			return true;
		}
	}
	return false;
}

bool assay_scale_parse(const char *in, long *nodes, long *gpus)
{
	static const char *const node_words[] = {"nodes", "node", "n", NULL};
	static const char *const gpu_words[] = {"gpus", "gpu", "g", NULL};
	const char *p = in;
	while (isspace((unsigned char)*p))
		p++;
	long a = count_at(&p), b = 0;
	if (!a)
		return false;
	if (*p == 'x' || *p == 'X' || *p == '*') {
		/* 2x8: nodes x GPUs per node */
		p++;
		if (!(b = count_at(&p)))
			return false;
		*nodes = a;
		*gpus = b;
	} else if (word_at(&p, node_words)) {
		/* 2N/16GPU: nodes and the total GPU count; 2N8G: nodes and GPUs per node */
		bool total = *p == '/';
		if (total)
			p++;
		if (!(b = count_at(&p)) || !word_at(&p, gpu_words))
			return false;
		if (total && b % a)
			return false;
		*nodes = a;
		*gpus = total ? b / a : b;
	} else {
		/* a bare GPU count (16, 16GPU): GPUs on one node */
		word_at(&p, gpu_words);
		*nodes = 1;
		*gpus = a;
	}
	while (isspace((unsigned char)*p))
		p++;
	return *p == '\0';
}

bool assay_scale_canonical(const char *in, char *out, size_t size)
{
	long nodes, gpus;
	if (!assay_scale_parse(in, &nodes, &gpus))
		return false;
	snprintf(out, size, "%ldx%ld", nodes, gpus);
	return true;
}

void assay_series_canonicalize(json_t *series)
{
	char buf[128];
	json_t *v = json_object_get(series, "precision");
	if (json_is_string(v)) {
		assay_precision_canonical(json_string_value(v), buf, sizeof(buf));
		if (strcmp(buf, json_string_value(v)))
			json_object_set_new(series, "precision", json_string(buf));
	}
	v = json_object_get(series, "scale");
	if ((json_is_string(v) && assay_scale_canonical(json_string_value(v), buf, sizeof(buf)) &&
	     strcmp(buf, json_string_value(v))) ||
	    (json_is_integer(v) && json_integer_value(v) > 0 &&
	     snprintf(buf, sizeof(buf), "1x%lld", (long long)json_integer_value(v)) > 0))
		json_object_set_new(series, "scale", json_string(buf));
}
