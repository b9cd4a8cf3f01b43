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
	/* Plain keys ([A-Za-z0-9_-]+) as ".key", the rest as assay_json_path_key
	 * writes them: ["key"], JSON-escaped. */
	static const unsigned char plain[256] = {
	    ['_'] = 1, ['-'] = 1, ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1,
	    ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1,
	    ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1,
	    ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1,
	    ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1, ['A'] = 1, ['B'] = 1,
	    ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1,
	    ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1,
	    ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
	};
	size_t n = 0;
	bool is_plain = true, needs_escape = false;
	for (const unsigned char *p = (const unsigned char *)key; *p; p++, n++) {
		if (!plain[*p]) {
			is_plain = false;
			if (*p < 0x20 || *p == '"' || *p == '\\' || *p == 0x7f)
				needs_escape = true;
		}
	}
	if (is_plain && n) {
		sbuf_addch(path, '.');
		sbuf_add(path, key, n);
		return;
	}
	if (!needs_escape) {
		sbuf_adds(path, "[\"");
		sbuf_add(path, key, n);
		sbuf_adds(path, "\"]");
		return;
	}
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
	size_t len = s[0] >= 0xf0 && s[0] <= 0xf4  ? 4
		     : s[0] >= 0xe0                ? 3
		     : s[0] >= 0xc2 && s[0] < 0xe0 ? 2
						   : 0;
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

/* One step from the root to the string being visited. */
struct step {
	const char *key; /* NULL for an array element */
	size_t index;
};

struct lint_walk {
	struct lint_ctx *c;
	lint_str_fn fn;
	void *arg;
	struct step *steps;
	size_t depth, alloc;
	struct sbuf path;
};

const char *lint_str_path(const struct lint_str *s)
{
	struct lint_walk *w = s->walk;
	sbuf_reset(&w->path);
	sbuf_addch(&w->path, '$');
	for (size_t i = 0; i < w->depth; i++) {
		if (w->steps[i].key)
			lint_path_push_key(&w->path, w->steps[i].key);
		else
			lint_path_push_index(&w->path, w->steps[i].index);
	}
	return w->path.buf;
}

static void push(struct lint_walk *w, const char *key, size_t index)
{
	ALLOC_GROW(w->steps, w->depth + 1, w->alloc);
	w->steps[w->depth].key = key;
	w->steps[w->depth].index = index;
	w->depth++;
}

static void walk_value(struct lint_walk *w, const json_t *v, const char *key)
{
	if (json_is_string(v)) {
		struct lint_str s = {w, key, json_string_value(v), json_string_length(v), false};
		w->fn(w->c, &s, w->arg);
	} else if (json_is_object(v)) {
		const char *k;
		json_t *child;
		json_object_foreach((json_t *)v, k, child)
		{
			push(w, k, 0);
			struct lint_str s = {w, k, k, strlen(k), true};
			w->fn(w->c, &s, w->arg);
			walk_value(w, child, k);
			w->depth--;
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *child;
		json_array_foreach(v, i, child)
		{
			push(w, NULL, i);
			walk_value(w, child, key);
			w->depth--;
		}
	}
}

void lint_walk_strings(struct lint_ctx *c, lint_str_fn fn, void *arg)
{
	struct lint_walk w = {c, fn, arg, NULL, 0, 0, SBUF_INIT};
	walk_value(&w, c->doc, NULL);
	free(w.steps);
	sbuf_release(&w.path);
}

void lint_models_cards(struct lint_ctx *c,
		       void (*fn)(struct lint_ctx *c, const json_t *card, const char *path))
{
	if (!json_is_array(c->doc)) {
		fn(c, c->doc, "$");
		return;
	}
	size_t i;
	json_t *card;
	json_array_foreach(c->doc, i, card)
	{
		char *p = lint_path_index("$", i);
		fn(c, card, p);
		free(p);
	}
}
