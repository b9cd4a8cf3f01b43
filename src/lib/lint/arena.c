/* Lint's allocator for jansson values: while a file is linted, the values
 * jansson allocates on that thread come from a bump arena that is dropped
 * whole at the end, so the document is never taken apart value by value
 * (freeing a 50 KB manifest's values cost lint as much as reading it).
 * Outside a lint, or for memory from elsewhere, plain malloc and free.
 * Sanitizer builds give every allocation a chunk of its own, so the same
 * code runs under the tests while bounds and lifetimes stay checked. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lint_int.h"

#if defined(__SANITIZE_ADDRESS__)
#define LINT_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define LINT_POOL 0
#endif
#endif
#ifndef LINT_POOL
#define LINT_POOL 1
#endif

/* Chunk size when pooling; without, a chunk per allocation. */
#define CHUNK (LINT_POOL ? (size_t)1 << 20 : 0)

struct chunk {
	struct chunk *next;
	size_t used, size;
	max_align_t data[];
};

static _Thread_local struct lint_arena *current;

static bool owned(const struct lint_arena *a, const void *p)
{
	for (const struct chunk *c = a->head; c; c = c->next) {
		const char *b = (const char *)c->data;
		if ((const char *)p >= b && (const char *)p < b + c->size)
			return true;
	}
	return false;
}

static void *arena_malloc(size_t n)
{
	struct lint_arena *a = current;
	if (!a)
		return malloc(n);
	if (LINT_POOL)
		n = (n + 15) & ~(size_t)15;
	struct chunk *c = a->head;
	if (!c || c->size - c->used < n || !LINT_POOL) {
		size_t size = n > CHUNK ? n : CHUNK;
		if (!size)
			size = 1;
		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->next = a->head;
		c->used = 0;
		c->size = size;
		a->head = c;
	}
	void *p = (char *)c->data + c->used;
	c->used += n;
	return p;
}

static void arena_free(void *p)
{
	struct lint_arena *a = current;
	if (p && (!a || !owned(a, p)))
		free(p);
}

static void install(void)
{
	json_set_alloc_funcs(arena_malloc, arena_free);
}

bool lint_arena_begin(struct lint_arena *a)
{
	memset(a, 0, sizeof(*a));
	if (current)
		return false;
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, install);
	current = a;
	return true;
}

void lint_arena_end(struct lint_arena *a)
{
	if (current != a)
		return;
	current = NULL;
	while (a->head) {
		struct chunk *c = a->head;
		a->head = c->next;
		free(c);
	}
}
