/* The cases of a run: failure names, outcome reasons, and the run's summary
 * document (schema assay.run/1, <run_dir>/summary.json). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "run_int.h"

const char *assay_failure_name(enum assay_failure f)
{
	switch (f) {
	case ASSAY_FAILURE_EXIT: return "exit-code";
	case ASSAY_FAILURE_SIGNAL: return "signal";
	case ASSAY_FAILURE_SIGNATURE: return "signature";
	case ASSAY_FAILURE_TIMEOUT: return "timeout";
	case ASSAY_FAILURE_NOT_STARTED: return "not-started";
	case ASSAY_FAILURE_TRAINING: return "training-log";
	case ASSAY_FAILURE_PROVENANCE: return "provenance";
	case ASSAY_FAILURE_CORRECTNESS: return "correctness";
	default: return "";
	}
}

void case_outcome_release(struct assay_case_outcome *o)
{
	free(o->case_id);
	free(o->reason);
	free(o->signature);
	free(o->source);
	free(o->line);
	free(o->dir);
	free(o->image);
	free(o->image_digest);
	assay_verdicts_release(&o->verdicts);
	memset(o, 0, sizeof(*o));
}

void case_outcome_set(struct run_ctx *rc, struct assay_case_outcome *o, enum assay_outcome outcome,
		      enum assay_failure failure, const char *fmt, ...)
{
	o->outcome = outcome;
	o->failure = failure;
	free(o->reason);
	o->reason = NULL;
	if (!fmt)
		return;
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* One line: a reason quoting output must not break the summary table. */
	for (char *p = buf; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	o->reason = assay_redactor_str(&rc->redact, buf);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *assay_run_summary_json(const struct assay_run_result *res)
{
	json_t *cases = json_array();
	for (size_t i = 0; i < res->n; i++) {
		const struct assay_case_outcome *c = &res->cases[i];
		json_t *o = json_pack(
		    "{s:s, s:s, s:o, s:o, s:f, s:I, s:b, s:o}", "case_id", c->case_id, "outcome",
		    assay_outcome_name(c->outcome), "failure",
		    c->failure ? json_string(assay_failure_name(c->failure)) : json_null(),
		    "reason", str_or_null(c->reason), "duration_s", c->duration_s, "rows",
		    (json_int_t)c->rows, "earlier_attempt", c->earlier, "dir", str_or_null(c->dir));
		json_t *verdicts = json_array();
		for (size_t k = 0; k < c->verdicts.n; k++)
			json_array_append_new(verdicts, assay_verdict_to_json(&c->verdicts.v[k]));
		json_object_set_new(o, "verdicts", verdicts);
		/* duration_s = queue_s (waiting for a Slurm allocation) + run_s */
		json_object_set_new(o, "queue_s", json_real(c->queue_s));
		json_object_set_new(
		    o, "run_s",
		    json_real(c->duration_s > c->queue_s ? c->duration_s - c->queue_s : 0));
		if (c->image) {
			json_object_set_new(o, "image", json_string(c->image));
			json_object_set_new(o, "image_digest", str_or_null(c->image_digest));
		}
		if (c->signature)
			json_object_set_new(o, "signature",
					    json_pack("{s:s, s:s, s:s}", "name", c->signature,
						      "source", c->source ? c->source : "", "line",
						      c->line ? c->line : ""));
		json_array_append_new(cases, o);
	}
	json_t *counts = json_object();
	for (int i = 0; i < ASSAY_OUTCOME_COUNT; i++)
		json_object_set_new(counts, assay_outcome_name((enum assay_outcome)i),
				    json_integer((json_int_t)res->counts[i]));
	json_t *secrets = json_array();
	for (size_t i = 0; i < res->secrets.n; i++)
		json_array_append_new(secrets, json_string(res->secrets.v[i]));
	/* Written: the store's name without a password. */
	char *store_name = res->store_name ? xstrdup(res->store_name)
			   : res->store    ? assay_store_name(res->store)
					   : NULL;
	json_t *doc = json_pack(
	    "{s:s, s:s, s:o, s:o, s:o, s:i, s:s, s:b, s:o, s:o, s:o}", "schema", "assay.run/1",
	    "run_id", res->run_id, "suite", str_or_null(res->suite), "revision",
	    str_or_null(res->revision), "store", str_or_null(store_name), "exit_code",
	    (int)res->exit_code, "result", assay_strerror(res->exit_code), "interrupted",
	    res->interrupted, "counts", counts, "cases", cases, "secrets", secrets);
	free(store_name);
	if (res->attempt > 0)
		json_object_set_new(doc, "attempt", json_integer(res->attempt));
	/* The run's image: its cases' when they agree, else "mixed". */
	const char *image = NULL, *digest = NULL;
	bool mixed = false;
	for (size_t i = 0; i < res->n; i++) {
		const struct assay_case_outcome *c = &res->cases[i];
		if (!c->image)
			continue;
		const char *d = c->image_digest ? c->image_digest : "";
		if (!image) {
			image = c->image;
			digest = d;
		} else if (strcmp(image, c->image) || strcmp(digest, d)) {
			mixed = true;
		}
	}
	if (image) {
		json_object_set_new(doc, "image", json_string(mixed ? "mixed" : image));
		json_object_set_new(doc, "image_digest",
				    mixed ? json_string("mixed")
					  : (*digest ? json_string(digest) : json_null()));
	}
	if (res->resume_hint)
		json_object_set_new(doc, "resume_command", json_string(res->resume_hint));
	return doc;
}

void assay_run_result_release(struct assay_run_result *res)
{
	for (size_t i = 0; i < res->n; i++)
		case_outcome_release(&res->cases[i]);
	free(res->cases);
	free(res->suite);
	free(res->revision);
	free(res->run_dir);
	free(res->store);
	free(res->store_name);
	free(res->resume_hint);
	strlist_clear(&res->secrets);
	assay_redactor_release(&res->redact);
	memset(res, 0, sizeof(*res));
}
