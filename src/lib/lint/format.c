/* Renderings of lint findings: human lines, GitHub workflow annotations,
 * the assay.lint/1 JSON document and a SARIF 2.1.0 log for code scanning.
 * All go into buffers or JSON values; the lint command prints them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint_int.h"

void assay_lint_format_human(struct sbuf *out, const struct assay_lint_result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct assay_lint_finding *f = &r->v[i];
		sbuf_addf(out, "%s:%s: %s: %s: %s\n", r->file, f->path,
			  assay_lint_severity_name(f->rule->severity), f->rule->id, f->message);
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

void assay_lint_format_github(struct sbuf *out, const struct assay_lint_result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct assay_lint_finding *f = &r->v[i];
		sbuf_addf(out, "::%s file=", assay_lint_severity_name(f->rule->severity));
		gh_escape(out, r->file, true);
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
			json_array_append_new(
			    findings,
			    json_pack("{s:s, s:s, s:s, s:I, s:I, s:s}", "rule", f->rule->id,
				      "severity", assay_lint_severity_name(f->rule->severity),
				      "path", f->path, "line", (json_int_t)f->line, "column",
				      (json_int_t)f->column, "message", f->message));
		}
		char *file = lint_utf8_dup(r[i].file);
		json_array_append_new(files,
				      json_pack("{s:s, s:s, s:I, s:I, s:o}", "file", file, "kind",
						assay_lint_kind_name(r[i].kind), "errors",
						(json_int_t)r[i].errors, "warnings",
						(json_int_t)r[i].warnings, "findings", findings));
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
	json_t *results = json_array();
	for (size_t i = 0; i < n; i++) {
		char *uri = path_uri(r[i].file); /* percent-encoded: plain ASCII */
		for (size_t j = 0; j < r[i].n; j++) {
			const struct assay_lint_finding *f = &r[i].v[j];
			struct sbuf text = SBUF_INIT;
			sbuf_addf(&text, "%s: %s", f->path, f->message);
			json_array_append_new(
			    results,
			    json_pack("{s:s, s:I, s:s, s:{s:s}, s:[{s:{s:{s:s}, s:{s:I, s:I}}, "
				      "s:[{s:s}]}]}",
				      "ruleId", f->rule->id, "ruleIndex",
				      (json_int_t)assay_lint_rule_index(f->rule->id), "level",
				      sarif_level(f->rule->severity), "message", "text", text.buf,
				      "locations", "physicalLocation", "artifactLocation", "uri",
				      uri, "region", "startLine", (json_int_t)f->line,
				      "startColumn", (json_int_t)f->column, "logicalLocations",
				      "fullyQualifiedName", f->path));
			sbuf_release(&text);
		}
		free(uri);
	}
	json_t *run = json_pack("{s:{s:o}, s:s, s:o}", "tool", "driver", driver, "columnKind",
				"unicodeCodePoints", "results", results);
	return json_pack("{s:s, s:s, s:[o]}", "$schema",
			 "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0",
			 "runs", run);
}
