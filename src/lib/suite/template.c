/* {NAME} placeholders in command suites: argv, env, cwd, result and log
 * paths and series fields are templates filled from a combo's values and
 * the run's built-ins (RUN_ID, CASE_DIR, ...). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/suite.h"

const char *const assay_template_builtins[] = {"RUN_ID", "CASE_ID", "CASE_DIR", "OUT",
					       "NODE",   "HOST",    NULL};

static bool name_start(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static bool name_char(char c)
{
	return name_start(c) || (c >= '0' && c <= '9');
}

/* Append the text form of a combo value. */
static bool add_value(struct sbuf *out, const json_t *v)
{
	if (json_is_string(v)) {
		sbuf_add(out, json_string_value(v), json_string_length(v));
	} else if (json_is_integer(v)) {
		sbuf_addf(out, "%lld", (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		assay_json_write(out, v, 0);
	} else if (json_is_boolean(v)) {
		sbuf_adds(out, json_is_true(v) ? "true" : "false");
	} else {
		return false;
	}
	return true;
}

int assay_template_expand(const char *tmpl, const json_t *vars, struct sbuf *out, char **missing)
{
	*missing = NULL;
	for (const char *p = tmpl; *p;) {
		if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
			sbuf_addch(out, p[0]);
			p += 2;
			continue;
		}
		if (p[0] == '{' && name_start(p[1])) {
			const char *q = p + 1;
			while (name_char(*q))
				q++;
			if (*q == '}') {
				char *name = xstrndup(p + 1, (size_t)(q - p - 1));
				const json_t *v = vars ? json_object_get(vars, name) : NULL;
				if (!v || !add_value(out, v)) {
					*missing = name;
					return -1;
				}
				free(name);
				p = q + 1;
				continue;
			}
		}
		sbuf_addch(out, *p++);
	}
	return 0;
}
