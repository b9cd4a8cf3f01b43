/* JSON loading with located errors, a deterministic serializer, canonical
 * JSON digests and JSON path strings. */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "assay/json.h"
#include "assay/redact.h"

void assay_json_path_at(const char *text, size_t len, size_t off, char *out, size_t size)
{
	/* Track the container stack while scanning up to off. */
	enum { MAXD = 64 };
	struct {
		bool object;
		size_t index;
		const char *key;
		size_t key_len;
	} st[MAXD];
	int depth = 0;
	bool expect_key = false;
	if (off > len)
		off = len;
	for (size_t i = 0; i < off; i++) {
		char c = text[i];
		if (c == '"') {
			size_t start = ++i;
			while (i < len && text[i] != '"') {
				if (text[i] == '\\')
					i++;
				i++;
			}
			if (depth > 0 && depth <= MAXD && st[depth - 1].object && expect_key) {
				st[depth - 1].key = text + start;
				st[depth - 1].key_len = (i < len ? i : len) - start;
			}
			continue;
		}
		switch (c) {
		case '{':
		case '[':
			if (depth < MAXD) {
				st[depth].object = c == '{';
				st[depth].index = 0;
				st[depth].key = NULL;
				st[depth].key_len = 0;
			}
			depth++;
			expect_key = c == '{';
			break;
		case '}':
		case ']':
			if (depth > 0)
				depth--;
			expect_key = false;
			break;
		case ':': expect_key = false; break;
		case ',':
			if (depth > 0 && depth <= MAXD) {
				if (st[depth - 1].object) {
					expect_key = true;
					st[depth - 1].key = NULL;
				} else {
					st[depth - 1].index++;
				}
			}
			break;
		default: break;
		}
	}
	char buf[512] = "$";
	int lim = depth < MAXD ? depth : MAXD;
	for (int d = 0; d < lim; d++) {
		char tmp[512];
		if (st[d].object) {
			if (!st[d].key)
				break;
			char *k = xstrndup(st[d].key, st[d].key_len);
			assay_json_path_key(tmp, sizeof(tmp), buf, k);
			free(k);
		} else {
			assay_json_path_index(tmp, sizeof(tmp), buf, st[d].index);
		}
		snprintf(buf, sizeof(buf), "%s", tmp);
	}
	snprintf(out, size, "%s", buf);
}

json_t *assay_json_loadb(const char *buf, size_t len, const char *name, struct assay_error *e)
{
	json_error_t je;
	json_t *v = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (v)
		return v;
	if (!strncmp(je.text, "duplicate object key", 20)) {
		char path[256];
		assay_json_path_at(buf, len, (size_t)je.position, path, sizeof(path));
		const char *slash = strrchr(path, '.');
		const char *key = slash ? slash + 1 : path;
		assay_error_at(e, ASSAY_USAGE, name, path, je.line, "duplicate key \"%s\"", key);
	} else {
		assay_error_at(e, ASSAY_USAGE, name, NULL, je.line > 0 ? je.line : 1,
			       "invalid JSON: %s", je.text);
	}
	if (e)
		e->column = je.column > 0 ? je.column : 1;
	return NULL;
}

json_t *assay_json_load_file(const char *path, struct assay_error *e)
{
	size_t len;
	char *buf = assay_read_file(path, &len, e);
	if (!buf)
		return NULL;
	json_t *v = assay_json_loadb(buf, len, path, e);
	free(buf);
	return v;
}

int assay_ndjson_next(const char *text, size_t len, size_t *pos, long *line, const char *file,
		      json_t **v, struct assay_error *e)
{
	while (*pos < len) {
		const char *start = text + *pos;
		const char *nl = memchr(start, '\n', len - *pos);
		size_t n = nl ? (size_t)(nl - start) : len - *pos;
		*pos += n + (nl ? 1 : 0);
		(*line)++;
		size_t k = 0;
		while (k < n && (start[k] == ' ' || start[k] == '\t' || start[k] == '\r'))
			k++;
		if (k == n)
			continue;
		json_error_t je;
		*v = json_loadb(start, n, JSON_REJECT_DUPLICATES, &je);
		if (*v)
			return 1;
		assay_error_at(e, ASSAY_USAGE, file, NULL, *line, "invalid JSON: %s", je.text);
		if (e)
			e->column = je.column;
		return -1;
	}
	return 0;
}

static void write_string(struct sbuf *sb, const char *s, size_t n)
{
	sbuf_grow(sb, n + 2);
	sbuf_addch(sb, '"');
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f)
			continue;
		sbuf_add(sb, s + run, i - run);
		run = i + 1;
		switch (c) {
		case '"': sbuf_adds(sb, "\\\""); break;
		case '\\': sbuf_adds(sb, "\\\\"); break;
		case '\n': sbuf_adds(sb, "\\n"); break;
		case '\r': sbuf_adds(sb, "\\r"); break;
		case '\t': sbuf_adds(sb, "\\t"); break;
		case '\b': sbuf_adds(sb, "\\b"); break;
		case '\f': sbuf_adds(sb, "\\f"); break;
		default: sbuf_addf(sb, "\\u%04x", c); break;
		}
	}
	sbuf_add(sb, s + run, n - run);
	sbuf_addch(sb, '"');
}

static void write_real(struct sbuf *sb, double d)
{
	if (!isfinite(d)) {
		sbuf_adds(sb, "null");
		return;
	}
	char buf[40];
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	sbuf_adds(sb, buf);
	if (!strpbrk(buf, ".eE"))
		sbuf_adds(sb, ".0");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void indent(struct sbuf *sb, int flags, int depth)
{
	if (!(flags & ASSAY_JSON_PRETTY))
		return;
	sbuf_addch(sb, '\n');
	for (int i = 0; i < depth; i++)
		sbuf_adds(sb, "  ");
}

static void write_value(struct sbuf *sb, const json_t *v, int flags, int depth)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		size_t n = json_object_size(v);
		if (!n) {
			sbuf_adds(sb, "{}");
			return;
		}
		const char **keys = xmalloc(n * sizeof(*keys));
		size_t i = 0;
		const char *k;
		json_t *child;
		json_object_foreach((json_t *)v, k, child) keys[i++] = k;
		if (flags & ASSAY_JSON_SORT)
			qsort(keys, n, sizeof(*keys), cmp_str);
		sbuf_addch(sb, '{');
		for (i = 0; i < n; i++) {
			if (i)
				sbuf_addch(sb, ',');
			indent(sb, flags, depth + 1);
			write_string(sb, keys[i], strlen(keys[i]));
			sbuf_adds(sb, (flags & ASSAY_JSON_PRETTY) ? ": " : ":");
			write_value(sb, json_object_get(v, keys[i]), flags, depth + 1);
		}
		indent(sb, flags, depth);
		sbuf_addch(sb, '}');
		free(keys);
		return;
	}
	case JSON_ARRAY: {
		size_t n = json_array_size(v);
		if (!n) {
			sbuf_adds(sb, "[]");
			return;
		}
		/* Arrays of scalars stay on one line even when pretty. */
		bool flat = true;
		for (size_t i = 0; i < n; i++)
			if (json_is_object(json_array_get(v, i)) ||
			    json_is_array(json_array_get(v, i)))
				flat = false;
		sbuf_addch(sb, '[');
		for (size_t i = 0; i < n; i++) {
			if (i)
				sbuf_adds(sb, flat && (flags & ASSAY_JSON_PRETTY) ? ", " : ",");
			if (!flat)
				indent(sb, flags, depth + 1);
			write_value(sb, json_array_get(v, i), flags, depth + 1);
		}
		if (!flat)
			indent(sb, flags, depth);
		sbuf_addch(sb, ']');
		return;
	}
	case JSON_STRING: write_string(sb, json_string_value(v), json_string_length(v)); return;
	case JSON_INTEGER: sbuf_addf(sb, "%" JSON_INTEGER_FORMAT, json_integer_value(v)); return;
	case JSON_REAL: write_real(sb, json_real_value(v)); return;
	case JSON_TRUE: sbuf_adds(sb, "true"); return;
	case JSON_FALSE: sbuf_adds(sb, "false"); return;
	case JSON_NULL: sbuf_adds(sb, "null"); return;
	}
}

void assay_json_write(struct sbuf *sb, const json_t *v, int flags)
{
	write_value(sb, v, flags, 0);
}

char *assay_json_dumps(const json_t *v, int flags)
{
	struct sbuf sb = SBUF_INIT;
	assay_json_write(&sb, v, flags);
	return sbuf_detach(&sb, NULL);
}

void assay_json_text(struct sbuf *sb, const json_t *v)
{
	if (json_is_string(v))
		sbuf_adds(sb, json_string_value(v));
	else
		assay_json_write(sb, v, ASSAY_JSON_SORT);
}

char *assay_json_canonical(const json_t *v)
{
	return assay_json_dumps(v, ASSAY_JSON_SORT);
}

/* libcrypto's SHA-256, loaded on first use (cmake/libcrypto.cmake says
 * why). Its two functions, with OpenSSL's own prototypes. */
static struct {
	pthread_once_t once;
	__typeof__(EVP_Digest) *digest;
	__typeof__(EVP_sha256) *sha256;
	char why[200];
} crypto = {.once = PTHREAD_ONCE_INIT};

static void crypto_load(void)
{
	void *h = dlopen(ASSAY_LIBCRYPTO, RTLD_NOW | RTLD_LOCAL);
	if (h) {
		/* POSIX: a function's address comes back as a void *. */
		*(void **)&crypto.digest = dlsym(h, "EVP_Digest");
		*(void **)&crypto.sha256 = dlsym(h, "EVP_sha256");
	}
	if (!crypto.digest || !crypto.sha256) {
		const char *why = dlerror();
		snprintf(crypto.why, sizeof(crypto.why), "assay: cannot load %s: %s\n",
			 ASSAY_LIBCRYPTO, why ? why : "EVP_Digest or EVP_sha256 missing");
	}
}

void assay_sha256_hex(const void *data, size_t len, char out[65])
{
	unsigned char md[32];
	unsigned int mdlen = 0;
	static const char hex[] = "0123456789abcdef";
	pthread_once(&crypto.once, crypto_load);
	if (!crypto.digest) {
		/* What the dynamic loader does when a library a program needs is
		 * missing at start-up: say so and exit 127. */
		ssize_t w =
		    write(2, crypto.why, strlen(crypto.why)); /* layers: allowed (the loader's) */
		(void)w;
		_exit(127);
	}
	crypto.digest(data, len, md, &mdlen, crypto.sha256(), NULL);
	for (int i = 0; i < 32; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[64] = '\0';
}

void assay_json_sha256(const json_t *v, char out[65])
{
	struct sbuf sb = SBUF_INIT;
	assay_json_write(&sb, v, ASSAY_JSON_SORT);
	assay_sha256_hex(sbuf_str(&sb), sb.len, out);
	sbuf_release(&sb);
}

const char *assay_json_brief(const json_t *v, char *buf, size_t size)
{
	if (!v) {
		snprintf(buf, size, "nothing");
		return buf;
	}
	if (json_is_object(v)) {
		snprintf(buf, size, json_object_size(v) ? "{...}" : "{}");
		return buf;
	}
	if (json_is_array(v)) {
		snprintf(buf, size, json_array_size(v) ? "[...]" : "[]");
		return buf;
	}
	/* Tokens are masked before the cut, so no part of one survives it. */
	struct sbuf sb = SBUF_INIT;
	assay_json_write(&sb, v, 0);
	assay_token_mask(&sb);
	if (sb.len > 60)
		snprintf(buf, size, "%.56s...%s", sb.buf, json_is_string(v) ? "\"" : "");
	else
		snprintf(buf, size, "%s", sbuf_str(&sb));
	sbuf_release(&sb);
	return buf;
}

const char *assay_json_type_name(const json_t *v)
{
	if (!v)
		return "nothing";
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "a value";
}

static bool plain_key(const char *k)
{
	if (!*k)
		return false;
	for (const char *p = k; *p; p++) {
		char c = *p;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-'))
			return false;
	}
	return true;
}

void assay_json_path_key(char *out, size_t size, const char *parent, const char *key)
{
	if (plain_key(key)) {
		/* The hot path of every config and row lookup: no printf. */
		size_t pl = strlen(parent), kl = strlen(key);
		if (pl + 1 + kl < size) {
			memmove(out, parent, pl);
			out[pl] = '.';
			memcpy(out + pl + 1, key, kl + 1);
		} else {
			snprintf(out, size, "%s.%s", parent, key);
		}
		return;
	}
	struct sbuf sb = SBUF_INIT;
	write_string(&sb, key, strlen(key));
	snprintf(out, size, "%s[%s]", parent, sbuf_str(&sb));
	sbuf_release(&sb);
}

void assay_json_path_index(char *out, size_t size, const char *parent, size_t index)
{
	snprintf(out, size, "%s[%zu]", parent, index);
}
