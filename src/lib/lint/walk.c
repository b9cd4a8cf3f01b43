/* Helpers the rule families share: JSON paths, member lookup along a chain
 * of keys, a walk over every string of a document, and integer values that
 * madengine accepts as numbers or numeric strings. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "lint_int.h"

void lint_path_push_key(struct sbuf *path, const char *key)
{
	char tmp[1024];
	assay_json_path_key(tmp, sizeof(tmp), "", key);
	sbuf_adds(path, tmp);
}

void lint_path_push_index(struct sbuf *path, size_t i)
{
	sbuf_addf(path, "[%zu]", i);
}

char *lint_path_key(const char *parent, const char *key)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, parent);
	lint_path_push_key(&sb, key);
	return sbuf_detach(&sb, NULL);
}

char *lint_path_index(const char *parent, size_t i)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, parent);
	lint_path_push_index(&sb, i);
	return sbuf_detach(&sb, NULL);
}

const json_t *lint_get(const json_t *v, const char *chain)
{
	const char *p = chain;
	while (v && *p) {
		if (!json_is_object(v))
			return NULL;
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		v = json_object_getn(v, p, n);
		p += n + (dot ? 1 : 0);
	}
	return v;
}

const char *lint_brief(const char *s, char *buf, size_t size)
{
	json_t *v = json_string(s);
	if (!v) {
		snprintf(buf, size, "(not UTF-8)");
		return buf;
	}
	assay_json_brief(v, buf, size);
	json_decref(v);
	return buf;
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 when invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	if (s[0] < 0x80)
		return 1;
	size_t len = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
	if (!len || len > n || s[0] > 0xf4)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return len;
}

void lint_utf8_clean(struct sbuf *sb)
{
	size_t i = 0;
	while (i < sb->len) {
		size_t k = utf8_seq((const unsigned char *)sb->buf + i, sb->len - i);
		if (!k) {
			sb->buf[i] = '?';
			k = 1;
		}
		i += k;
	}
}

char *lint_utf8_dup(const char *s)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, s);
	lint_utf8_clean(&sb);
	return sbuf_detach(&sb, NULL);
}

bool lint_int_value(const json_t *v, bool allow_string, long long *out)
{
	if (json_is_integer(v)) {
		*out = json_integer_value(v);
		return true;
	}
	if (!allow_string || !json_is_string(v))
		return false;
	const char *s = json_string_value(v);
	const char *p = s + (*s == '-' || *s == '+');
	if (!*p)
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	errno = 0;
	*out = strtoll(s, NULL, 10);
	return errno == 0;
}

struct walk {
	struct lint_ctx *c;
	lint_str_fn fn;
	void *arg;
	struct sbuf path;
};

static void walk_value(struct walk *w, const json_t *v, const char *key)
{
	if (json_is_string(v)) {
		struct lint_str s = {w->path.buf, key, json_string_value(v), json_string_length(v),
				     false};
		w->fn(w->c, &s, w->arg);
		return;
	}
	size_t mark = w->path.len;
	if (json_is_object(v)) {
		const char *k;
		json_t *child;
		json_object_foreach((json_t *)v, k, child) {
			lint_path_push_key(&w->path, k);
			struct lint_str s = {w->path.buf, k, k, strlen(k), true};
			w->fn(w->c, &s, w->arg);
			walk_value(w, child, k);
			w->path.len = mark;
			w->path.buf[mark] = '\0';
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *child;
		json_array_foreach(v, i, child) {
			lint_path_push_index(&w->path, i);
			walk_value(w, child, key);
			w->path.len = mark;
			w->path.buf[mark] = '\0';
		}
	}
}

void lint_walk_strings(struct lint_ctx *c, lint_str_fn fn, void *arg)
{
	struct walk w = {c, fn, arg, SBUF_INIT};
	sbuf_adds(&w.path, "$");
	walk_value(&w, c->doc, NULL);
	sbuf_release(&w.path);
}
