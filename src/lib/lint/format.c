/* Renderings of lint findings: human lines, GitHub workflow annotations,
 * the assay.lint/1 JSON document and a SARIF 2.1.0 log for code scanning.
 * All go into buffers or JSON values; the lint command prints them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint_int.h"

static const char *finding_file(const struct assay_lint_result *r,
				const struct assay_lint_finding *f)
{
	return f->file ? f->file : r->file;
}

void assay_lint_format_human(struct sbuf *out, const struct assay_lint_result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct assay_lint_finding *f = &r->v[i];
		sbuf_addf(out, "%s:%s: %s: %s: %s\n", finding_file(r, f), f->path,
			  assay_lint_severity_name(f->severity), f->rule->id, f->message);
	}
}

/* Workflow command escaping: data escapes %, CR and LF; properties also : and ,. */
static void gh_escape(struct sbuf *out, const char *s, bool property)
{
	for (; *s; s++) {
		switch (*s) {
		case '%': sbuf_adds(out, "%25"); break;
		case '\r': sbuf_adds(out, "%0D"); break;
		case '\n': sbuf_adds(out, "%0A"); break;
		case ':': sbuf_adds(out, property ? "%3A" : ":"); break;
		case ',': sbuf_adds(out, property ? "%2C" : ","); break;
		default: sbuf_addch(out, *s); break;
		}
	}
}

/* The message of an error without its location (which the formats carry
 * apart): "file:line:col: " is left out. */
static const char *error_text(const struct assay_error *e)
{
	return e->message;
}

void assay_lint_format_github(struct sbuf *out, const struct assay_lint_result *r)
{
	if (r->error) {
		sbuf_adds(out, "::error file=");
		gh_escape(out, r->error->file[0] ? r->error->file : r->file, true);
		if (r->error->line > 0)
			sbuf_addf(out, ",line=%ld", r->error->line);
		if (r->error->column > 0)
			sbuf_addf(out, ",col=%ld", r->error->column);
		sbuf_adds(out, ",title=");
		gh_escape(out, "assay lint", true);
		sbuf_adds(out, "::");
		if (r->error->path[0]) {
			gh_escape(out, r->error->path, false);
			sbuf_adds(out, ": ");
		}
		gh_escape(out, error_text(r->error), false);
		sbuf_addch(out, '\n');
	}
	for (size_t i = 0; i < r->n; i++) {
		const struct assay_lint_finding *f = &r->v[i];
		sbuf_addf(out, "::%s file=", assay_lint_severity_name(f->severity));
		gh_escape(out, finding_file(r, f), true);
		sbuf_addf(out, ",line=%ld,col=%ld,title=", f->line, f->column);
		gh_escape(out, f->rule->id, true);
		sbuf_adds(out, "::");
		gh_escape(out, f->path, false);
		sbuf_adds(out, ": ");
		gh_escape(out, f->message, false);
		sbuf_addch(out, '\n');
	}
}

json_t *assay_lint_to_json(const struct assay_lint_result *r, size_t n)
{
	json_t *files = json_array();
	size_t errors = 0, warnings = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *findings = json_array();
		for (size_t j = 0; j < r[i].n; j++) {
			const struct assay_lint_finding *f = &r[i].v[j];
			json_t *fj =
			    json_pack("{s:s, s:s, s:s, s:I, s:I, s:s}", "rule", f->rule->id,
				      "severity", assay_lint_severity_name(f->severity), "path",
				      f->path, "line", (json_int_t)f->line, "column",
				      (json_int_t)f->column, "message", f->message);
			if (f->file) {
				char *ff = lint_utf8_dup(f->file);
				json_object_set_new(fj, "file", json_string(ff));
				free(ff);
			}
			json_array_append_new(findings, fj);
		}
		char *file = lint_utf8_dup(r[i].file);
		json_t *entry = json_pack("{s:s, s:s, s:I, s:I, s:o}", "file", file, "kind",
					  r[i].error ? "unknown" : assay_lint_kind_name(r[i].kind),
					  "errors", (json_int_t)r[i].errors, "warnings",
					  (json_int_t)r[i].warnings, "findings", findings);
		if (r[i].error) {
			const struct assay_error *e = r[i].error;
			char *msg = lint_utf8_dup(error_text(e));
			json_t *ej = json_pack("{s:s}", "message", msg);
			free(msg);
			if (e->file[0] && strcmp(e->file, r[i].file)) {
				char *ef = lint_utf8_dup(e->file);
				json_object_set_new(ej, "file", json_string(ef));
				free(ef);
			}
			if (e->path[0])
				json_object_set_new(ej, "path", json_string(e->path));
			if (e->line > 0)
				json_object_set_new(ej, "line", json_integer(e->line));
			if (e->column > 0)
				json_object_set_new(ej, "column", json_integer(e->column));
			json_object_set_new(entry, "error", ej);
		}
		json_array_append_new(files, entry);
		free(file);
		errors += r[i].errors;
		warnings += r[i].warnings;
	}
	return json_pack("{s:s, s:o, s:I, s:I}", "schema", "assay.lint/1", "files", files, "errors",
			 (json_int_t)errors, "warnings", (json_int_t)warnings);
}

/* A relative or absolute path as a URI reference (RFC 3986): characters
 * outside the unreserved and path sets are percent-encoded. */
static char *path_uri(const char *file)
{
	struct sbuf sb = SBUF_INIT;
	if (assay_starts_with(file, "./"))
		file += 2;
	for (const unsigned char *p = (const unsigned char *)file; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/!$&'()*+,;=@", *p))
			sbuf_addch(&sb, (char)*p);
		else
			sbuf_addf(&sb, "%%%02X", *p);
	}
	return sbuf_detach(&sb, NULL);
}

static const char *sarif_level(enum assay_lint_severity s)
{
	return s == ASSAY_LINT_ERROR ? "error" : "warning";
}

json_t *assay_lint_to_sarif(const struct assay_lint_result *r, size_t n, const char *tool_version)
{
	json_t *rules = json_array();
	size_t nr = assay_lint_rule_count();
	for (size_t i = 0; i < nr; i++) {
		const struct assay_lint_rule *rule = assay_lint_rule_at(i);
		json_array_append_new(rules, json_pack("{s:s, s:{s:s}, s:{s:s, s:b}, s:{s:s}}",
						       "id", rule->id, "shortDescription", "text",
						       rule->summary, "defaultConfiguration",
						       "level", sarif_level(rule->severity),
						       "enabled", rule->default_on, "properties",
						       "family", rule->family));
	}
	json_t *driver = json_pack("{s:s, s:o}", "name", "assay", "rules", rules);
	if (tool_version)
		json_object_set_new(driver, "version", json_string(tool_version));
	json_t *results = json_array(), *notes = json_array();
	for (size_t i = 0; i < n; i++) {
		char *uri = path_uri(r[i].file); /* percent-encoded: plain ASCII */
		if (r[i].error) {
			const struct assay_error *e = r[i].error;
			char *euri = e->file[0] ? path_uri(e->file) : xstrdup(uri);
			struct sbuf text = SBUF_INIT;
			if (e->path[0])
				sbuf_addf(&text, "%s: ", e->path);
			sbuf_adds(&text, error_text(e));
			lint_utf8_clean(&text);
			json_t *region = json_object();
			if (e->line > 0)
				json_object_set_new(region, "startLine", json_integer(e->line));
			if (e->column > 0)
				json_object_set_new(region, "startColumn", json_integer(e->column));
			json_t *phys = json_pack("{s:{s:s}}", "artifactLocation", "uri", euri);
			if (json_object_size(region))
				json_object_set_new(phys, "region", region);
			else
				json_decref(region);
			json_array_append_new(notes,
					      json_pack("{s:s, s:{s:s}, s:[{s:o}]}", "level",
							"error", "message", "text", text.buf,
							"locations", "physicalLocation", phys));
			sbuf_release(&text);
			free(euri);
		}
		for (size_t j = 0; j < r[i].n; j++) {
			const struct assay_lint_finding *f = &r[i].v[j];
			char *furi = f->file ? path_uri(f->file) : NULL;
			struct sbuf text = SBUF_INIT;
			sbuf_addf(&text, "%s: %s", f->path, f->message);
			json_array_append_new(
			    results,
			    json_pack("{s:s, s:I, s:s, s:{s:s}, s:[{s:{s:{s:s}, s:{s:I, s:I}}, "
				      "s:[{s:s}]}]}",
				      "ruleId", f->rule->id, "ruleIndex",
				      (json_int_t)assay_lint_rule_index(f->rule->id), "level",
				      sarif_level(f->severity), "message", "text", text.buf,
				      "locations", "physicalLocation", "artifactLocation", "uri",
				      furi ? furi : uri, "region", "startLine", (json_int_t)f->line,
				      "startColumn", (json_int_t)f->column, "logicalLocations",
				      "fullyQualifiedName", f->path));
			sbuf_release(&text);
			free(furi);
		}
		free(uri);
	}
	/* A file that could not be linted is a tool execution notification. */
	json_t *inv = json_pack("{s:b}", "executionSuccessful", json_array_size(notes) == 0);
	if (json_array_size(notes))
		json_object_set_new(inv, "toolExecutionNotifications", notes);
	else
		json_decref(notes);
	json_t *run =
	    json_pack("{s:{s:o}, s:[o], s:s, s:o}", "tool", "driver", driver, "invocations", inv,
		      "columnKind", "unicodeCodePoints", "results", results);
	return json_pack("{s:s, s:s, s:[o]}", "$schema",
			 "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0",
			 "runs", run);
}
