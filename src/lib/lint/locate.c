/* Where a JSON path lies in the text it was read from: findings carry paths
 * (jansson keeps no positions), and reports want line and column. The text
 * has been accepted by the JSON loader, but every step stays in bounds. */
#include <stdlib.h>
#include <string.h>

#include "lint_int.h"

static size_t skip_ws(const char *t, size_t n, size_t p)
{
	while (p < n && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n' || t[p] == '\r'))
		p++;
	return p;
}

/* t[p] is '"': the offset just past the closing quote. */
static size_t skip_string(const char *t, size_t n, size_t p)
{
	for (p++; p < n; p++) {
		if (t[p] == '\\')
			p++;
		else if (t[p] == '"')
			return p + 1;
	}
	return n;
}

/* Past one value starting at p. */
static size_t skip_value(const char *t, size_t n, size_t p)
{
	if (p >= n)
		return n;
	if (t[p] == '"')
		return skip_string(t, n, p);
	if (t[p] != '{' && t[p] != '[') {
		while (p < n && t[p] != ',' && t[p] != '}' && t[p] != ']' && t[p] != ' ' &&
		       t[p] != '\n' && t[p] != '\r' && t[p] != '\t')
			p++;
		return p;
	}
	size_t depth = 0;
	for (; p < n; p++) {
		char ch = t[p];
		if (ch == '"') {
			p = skip_string(t, n, p) - 1;
		} else if (ch == '{' || ch == '[') {
			depth++;
		} else if (ch == '}' || ch == ']') {
			if (--depth == 0)
				return p + 1;
		}
	}
	return n;
}

/* From the start of a member's value or an element at *p, to the start of the
 * next one; false at the end of the container. */
static bool next_sibling(const char *t, size_t n, size_t *p)
{
	*p = skip_ws(t, n, skip_value(t, n, *p));
	if (*p < n && t[*p] == ',') {
		*p = skip_ws(t, n, *p + 1);
		return true;
	}
	return false;
}

/* One step of a path: a key (decoded, owned) or an index. */
struct step {
	char *key;
	size_t index;
};

/* Parse the step at path[*i]; false at the end or on a malformed step. */
static bool next_step(const char *path, size_t *i, struct step *st)
{
	const char *p = path + *i;
	st->key = NULL;
	if (*p == '.') {
		size_t n = 1;
		while (p[n] && p[n] != '.' && p[n] != '[')
			n++;
		st->key = xstrndup(p + 1, n - 1);
		*i += n;
		return true;
	}
	if (*p != '[')
		return false;
	if (p[1] == '"') {
		size_t n = skip_string(p, strlen(p), 1);
		if (p[n] != ']')
			return false;
		json_error_t je;
		json_t *k = json_loadb(p + 1, n - 1, JSON_DECODE_ANY, &je);
		if (!json_is_string(k)) {
			json_decref(k);
			return false;
		}
		st->key = xstrdup(json_string_value(k));
		json_decref(k);
		*i += n + 1;
		return true;
	}
	char *end;
	st->index = strtoul(p + 1, &end, 10);
	if (end == p + 1 || *end != ']')
		return false;
	*i += (size_t)(end - p) + 1;
	return true;
}

/* Whether the raw JSON string at t[p] (a quote) spells key. */
static bool key_equals(const char *t, size_t n, size_t p, const char *key)
{
	size_t end = skip_string(t, n, p);
	if (end < p + 2)
		return false;
	const char *raw = t + p + 1;
	size_t len = end - p - 2;
	if (!memchr(raw, '\\', len))
		return len == strlen(key) && !memcmp(raw, key, len);
	json_error_t je;
	json_t *k = json_loadb(t + p, end - p, JSON_DECODE_ANY, &je);
	bool eq = json_is_string(k) && !strcmp(json_string_value(k), key);
	json_decref(k);
	return eq;
}

size_t lint_locate(const char *text, size_t len, const char *path)
{
	size_t p = skip_ws(text, len, 0);
	size_t found = p;
	if (path[0] != '$')
		return found;
	size_t i = 1;
	struct step st = {0};
	while (p < len && next_step(path, &i, &st)) {
		bool ok = false;
		if (st.key && text[p] == '{') {
			p = skip_ws(text, len, p + 1);
			while (p < len && text[p] == '"') {
				size_t kpos = p;
				bool match = key_equals(text, len, p, st.key);
				p = skip_ws(text, len, skip_string(text, len, p));
				if (p < len && text[p] == ':')
					p = skip_ws(text, len, p + 1);
				if (match) {
					found = kpos;
					ok = true;
					break;
				}
				if (!next_sibling(text, len, &p))
					break;
			}
		} else if (!st.key && text[p] == '[') {
			p = skip_ws(text, len, p + 1);
			for (size_t k = 0; p < len && text[p] != ']'; k++) {
				if (k == st.index) {
					found = p;
					ok = true;
					break;
				}
				if (!next_sibling(text, len, &p))
					break;
			}
		}
		free(st.key);
		if (!ok)
			break;
	}
	return found;
}

void lint_line_col(const char *text, size_t len, size_t off, long *line, long *column)
{
	long l = 1, c = 1;
	if (off > len)
		off = len;
	for (size_t i = 0; i < off; i++) {
		unsigned char ch = (unsigned char)text[i];
		if (ch == '\n') {
			l++;
			c = 1;
		} else if ((ch & 0xc0) != 0x80) {
			c++;
		}
	}
	*line = l;
	*column = c;
}
