/* The stored identities of a series that already holds ingested rows, read
 * once per series and ingest (from the file's earliest timestamp on) with
 * one statement, instead of one lookup per row: an ingest that appends to
 * a history, or ingests a file again, asks the database once per series.
 * Rows the ingest adds join the set as they go (without an id yet). */
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

struct known_entry {
	uint64_t h;
	long long id; /* 0: added by this ingest, not stored yet */
	double value;
	size_t key; /* offset of its identity's encoding in the block */
};

/* The identity's fields, each NULL ("\1") or its text ("\2text"), NUL-ended. */
static void encode(struct sbuf *b, const char *run_id, const char *revision, const char *case_id,
		   const char *ts)
{
	const char *f[] = {run_id, revision, case_id, ts};
	for (int i = 0; i < 4; i++) {
		sbuf_addch(b, f[i] ? '\2' : '\1');
		if (f[i])
			sbuf_adds(b, f[i]);
		sbuf_addch(b, 0);
	}
}

static uint64_t mix_text(uint64_t h, const char *t)
{
	if (!t)
		return assay_mix64(h ^ 0x9e3779b97f4a7c15ULL);
	for (const unsigned char *p = (const unsigned char *)t; *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	return assay_mix64(h ^ 0x2545f4914f6cdd1dULL);
}

static uint64_t hash_of(long long sid, const char *run_id, const char *revision,
			const char *case_id, const char *ts)
{
	uint64_t h = assay_mix64((uint64_t)sid);
	h = mix_text(h, run_id);
	h = mix_text(h, revision);
	h = mix_text(h, case_id);
	h = mix_text(h, ts);
	return h ? h : 1;
}

static struct known_set *known(struct assay_store *s)
{
	struct known_set *k = &s->known;
	if (k->gen != s->known_gen) {
		if (k->slot)
			memset(k->slot, 0, k->cap * sizeof(*k->slot));
		k->n = 0;
		sbuf_reset(&k->block);
		k->gen = s->known_gen;
	}
	return k;
}

static void table_put(struct known_set *k, size_t idx)
{
	size_t mask = k->cap - 1, i = (size_t)k->v[idx].h & mask;
	while (k->slot[i])
		i = (i + 1) & mask;
	k->slot[i] = idx + 1;
}

static struct known_entry *add(struct known_set *k, long long sid, const char *run_id,
			       const char *revision, const char *case_id, const char *ts,
			       long long id, double value)
{
	if ((k->n + 1) * 2 > k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 1024;
		free(k->slot);
		k->slot = xcalloc(cap, sizeof(*k->slot));
		k->cap = cap;
		for (size_t i = 0; i < k->n; i++)
			table_put(k, i);
	}
	ALLOC_GROW(k->v, k->n + 1, k->alloc);
	struct known_entry *en = &k->v[k->n];
	en->h = hash_of(sid, run_id, revision, case_id, ts);
	en->id = id;
	en->value = value;
	if (!k->block.len)
		sbuf_addch(&k->block, 0);
	en->key = k->block.len;
	encode(&k->block, run_id, revision, case_id, ts);
	table_put(k, k->n++);
	return en;
}

/* Read series sid's ingested rows at or after since into the set. */
static assay_err load(struct assay_store *s, struct known_set *k, long long sid, const char *since,
		      struct assay_error *e)
{
	if (!s->known_read && !(s->known_read = store_prepare(
				    s,
				    "SELECT id, value, run_id, revision, case_id, timestamp "
				    "FROM measurements WHERE series = ?1 AND timestamp >= ?2 "
				    "AND \"case\" IS NULL",
				    e)))
		return e ? e->code : ASSAY_INFRA;
	struct store_stmt *st = s->known_read;
	store_reset(st);
	store_bind_int64(st, 1, sid);
	store_bind_static(st, 2, since);
	enum store_step step;
	while ((step = store_step(st)) == STORE_ROW)
		add(k, sid, store_column_text(st, 2), store_column_text(st, 3),
		    store_column_text(st, 4), store_column_text(st, 5), store_column_int64(st, 0),
		    store_column_double(st, 1));
	store_reset(st);
	return step == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "looking up rows");
}

int store_known_find(struct assay_store *s, struct series_slot *slot, long long sid,
		     const struct assay_row *r, const char *ts, const char *since, long long *id,
		     double *value, struct assay_error *e)
{
	struct known_set *k = known(s);
	if (slot->known != s->known_gen) {
		if (load(s, k, sid, since, e) != ASSAY_OK)
			return -1;
		slot->known = s->known_gen;
	}
	if (!k->cap)
		return 0;
	uint64_t h = hash_of(sid, r->run_id, r->revision, r->case_id, ts);
	struct sbuf want = SBUF_INIT;
	encode(&want, r->run_id, r->revision, r->case_id, ts);
	size_t mask = k->cap - 1;
	int found = 0;
	for (size_t i = (size_t)h & mask; k->slot[i] && !found; i = (i + 1) & mask) {
		struct known_entry *en = &k->v[k->slot[i] - 1];
		if (en->h == h && !memcmp(k->block.buf + en->key, want.buf, want.len)) {
			*id = en->id;
			*value = en->value;
			found = 1;
		}
	}
	sbuf_release(&want);
	return found;
}

void store_known_add(struct assay_store *s, long long sid, const struct assay_row *r,
		     const char *ts)
{
	add(known(s), sid, r->run_id, r->revision, r->case_id, ts, 0, r->value);
}

void store_known_release(struct assay_store *s)
{
	store_finalize(s->known_read);
	s->known_read = NULL;
	free(s->known.v);
	free(s->known.slot);
	sbuf_release(&s->known.block);
	memset(&s->known, 0, sizeof(s->known));
}
