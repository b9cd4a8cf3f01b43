/* Unit tests for the linter: locating JSON paths, kind detection, rule
 * selection, allow lists, secret masking in every output format, the SARIF
 * and JSON documents, GitHub escaping, and the helpers the rules share. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "assay/json.h"
#include "assay/lint.h"
#include "lint/lint_int.h"

/* Lint text as a file named name; returns the result (caller releases). */
static assay_err lint_text(const char *text, const char *name, enum assay_lint_kind kind,
			   const struct assay_lint_allow *allow, struct assay_lint_result *r,
			   struct assay_error *e)
{
	struct assay_lint_options o;
	assay_lint_options_init(&o);
	o.kind = kind;
	return assay_lint_buffer(text, strlen(text), name, &o, allow, r, e);
}

static char *human(const struct assay_lint_result *r)
{
	struct sbuf sb = SBUF_INIT;
	assay_lint_format_human(&sb, r);
	return sbuf_detach(&sb, NULL);
}

static void locate_is(const char *text, const char *path, long line, long col)
{
	long l, c;
	size_t off = lint_locate(text, strlen(text), path);
	lint_line_col(text, strlen(text), off, &l, &c);
	if (l != line || c != col)
		fail_msg("%s: at %ld:%ld, want %ld:%ld", path, l, c, line, col);
}

static void test_locate(void **state)
{
	(void)state;
	const char *t = "{\n"
			"  \"a\": {\"b\": [10, {\"c\": 1}, \"x\"]},\n"
			"  \"odd key\": {\"q\\\"r\": true},\n"
			"  \"é\": \"ü\", \"z\": [[1], [2, 3]]\n"
			"}\n";
	locate_is(t, "$", 1, 1);
	locate_is(t, "$.a", 2, 3);
	locate_is(t, "$.a.b", 2, 9);
	locate_is(t, "$.a.b[0]", 2, 15);
	locate_is(t, "$.a.b[1].c", 2, 20);
	locate_is(t, "$.a.b[2]", 2, 29);
	locate_is(t, "$[\"odd key\"]", 3, 3);
	locate_is(t, "$[\"odd key\"][\"q\\\"r\"]", 3, 15);
	locate_is(t, "$[\"é\"]", 4, 3);
	/* Columns count code points: "é": "ü", then "z". */
	locate_is(t, "$.z", 4, 13);
	locate_is(t, "$.z[1][1]", 4, 28);
	/* Missing steps stop at the deepest part that exists. */
	locate_is(t, "$.a.nope", 2, 3);
	locate_is(t, "$.a.b[7]", 2, 9);
	locate_is(t, "$.a.b[1].c.d", 2, 20);
	locate_is(t, "garbage", 1, 1);
	locate_is(t, "$[", 1, 1);
	locate_is(t, "$[\"unterminated", 1, 1);
	/* Top-level arrays. */
	locate_is("[\n {\"name\": 1},\n {\"name\": 2}\n]", "$[1].name", 3, 3);
}

static void test_detect(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		enum assay_lint_kind kind;
	} cases[] = {
	    {"{\"built_images\": {}}", ASSAY_LINT_MANIFEST},
	    {"{\"deployment_config\": {}}", ASSAY_LINT_MANIFEST},
	    {"[{\"name\": \"x\", \"scripts\": \"s\"}]", ASSAY_LINT_MODELS},
	    {"{\"name\": \"x\", \"dockerfile\": \"d\"}", ASSAY_LINT_MODELS},
	    {"{\"platforms\": {}}", ASSAY_LINT_PLATFORMS},
	    /* An ep suite names its registry by path: a suite, not a registry. */
	    {"{\"kind\": \"ep\", \"platforms\": \"p.json\", \"sweep\": \"s.json\"}",
	     ASSAY_LINT_SUITE},
	    {"{\"kind\": \"command\", \"argv\": [\"x\"]}", ASSAY_LINT_SUITE},
	    {"{\"kind\": \"Deployment\", \"platforms\": {}}", ASSAY_LINT_PLATFORMS},
	    {"{\"kind\": \"ep\", \"built_images\": {}}", ASSAY_LINT_MANIFEST},
	    {"{\"suite\": \"s\", \"workload\": {}}", ASSAY_LINT_SWEEP},
	    {"{\"suite\": \"s\"}", ASSAY_LINT_AUTO},
	    {"[]", ASSAY_LINT_AUTO},
	    {"[1]", ASSAY_LINT_AUTO},
	    {"\"x\"", ASSAY_LINT_AUTO},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		json_error_t je;
		json_t *doc = json_loads(cases[i].text, JSON_DECODE_ANY, &je);
		assert_non_null(doc);
		assert_int_equal(assay_lint_detect(doc), cases[i].kind);
		json_decref(doc);
	}
	assert_string_equal(assay_lint_kind_name(ASSAY_LINT_MODELS), "models");
	assert_int_equal(assay_lint_kind_from_name("sweep"), ASSAY_LINT_SWEEP);
	assert_int_equal(assay_lint_kind_from_name("suite"), ASSAY_LINT_SUITE);
	assert_string_equal(assay_lint_kind_name(ASSAY_LINT_SUITE), "suite");
	assert_int_equal(assay_lint_kind_from_name("nope"), -1);
}

static void test_bad_input(void **state)
{
	(void)state;
	struct assay_lint_result r;
	struct assay_error e;
	char buf[2048];
	assert_int_equal(
	    lint_text("{\n  \"a\": 1,\n  \"a\": 2\n}", "m.json", ASSAY_LINT_AUTO, NULL, &r, &e),
	    ASSAY_USAGE);
	assert_string_equal(assay_error_format(&e, buf, sizeof(buf)),
			    "m.json:3:5: $.a: duplicate key \"a\"");
	assert_int_equal(r.n, 0);
	assay_lint_result_release(&r);
	assert_int_equal(lint_text("{\"a\": [1,}", "m.json", ASSAY_LINT_AUTO, NULL, &r, &e),
			 ASSAY_USAGE);
	assert_true(e.line == 1 && e.column > 0);
	assay_lint_result_release(&r);
	assert_int_equal(lint_text("{\"x\": 1}", "m.json", ASSAY_LINT_AUTO, NULL, &r, &e),
			 ASSAY_USAGE);
	assert_non_null(strstr(e.message, "cannot tell what kind of file this is"));
	assay_lint_result_release(&r);
	/* The same file with its kind given is linted. */
	assert_int_equal(lint_text("{\"x\": 1}", "m.json", ASSAY_LINT_MANIFEST, NULL, &r, &e),
			 ASSAY_OK);
	assert_int_equal(r.n, 0);
	assay_lint_result_release(&r);
}

/* Lint text written to a temporary file (assay_lint_file). */
static void lint_on_disk(const char *text, const struct assay_lint_options *o,
			 struct assay_lint_result *r)
{
	char path[] = "/tmp/assay-lint-suite-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	struct assay_error e;
	assert_int_equal(assay_lint_file(path, o, NULL, r, &e), ASSAY_OK);
	unlink(path);
}

/* A suite is loaded as assay run loads it only from a file on disk; the
 * suite rules work on any text, and a {NAME} template is not a leftover
 * placeholder there. */
static void test_suite(void **state)
{
	(void)state;
	const char *text =
	    "{\"kind\": \"command\", \"combos\": {\"a\": {\"X\": 1}},"
	    " \"runs\": [\"a\", \"b\"], \"argv\": [\"echo\", \"{X}\", \"{Y}\", \"{user-id}\"],"
	    " \"parser\": \"none\", \"timeout_s\": \"9\"}";
	struct assay_lint_result r;
	struct assay_error e;
	assert_int_equal(lint_text(text, "s.json", ASSAY_LINT_AUTO, NULL, &r, &e), ASSAY_OK);
	assert_int_equal(r.kind, ASSAY_LINT_SUITE);
	char *out = human(&r);
	assert_string_equal(
	    out, "s.json:$.runs[1]: error: suite-unknown-run: unknown combo \"b\" (combos: a)\n"
		 "s.json:$.argv[2]: error: suite-unfilled-placeholder: placeholder {Y} has "
		 "no value: no combo that runs sets it (combos: a), and it is not one of "
		 "assay's own (RUN_ID, CASE_ID, CASE_DIR, OUT, NODE, HOST)\n"
		 "s.json:$.argv[3]: error: placeholder: leftover placeholder \"{user-id}\" in "
		 "the value\n");
	free(out);
	assay_lint_result_release(&r);

	/* On disk, the loader's own verdict joins them. */
	struct assay_lint_options o;
	assay_lint_options_init(&o);
	lint_on_disk(text, &o, &r);
	assert_int_equal(r.n, 4);
	out = human(&r);
	assert_non_null(strstr(out, ":$.timeout_s: error: assay-config: expected a number"));
	free(out);
	assay_lint_result_release(&r);
	/* The loader stops at $.argv[2], which the suite rule reports already:
	 * not twice. With that rule off, the loader's message stands. */
	const char *fixed = "{\"kind\": \"command\", \"combos\": {\"a\": {\"X\": 1}},"
			    " \"argv\": [\"echo\", \"{X}\", \"{Y}\"], \"parser\": \"none\"}";
	lint_on_disk(fixed, &o, &r);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.v[0].rule->id, "suite-unfilled-placeholder");
	assay_lint_result_release(&r);
	assay_lint_options_set(&o, "suite-unfilled-placeholder", false, NULL);
	lint_on_disk(fixed, &o, &r);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.v[0].rule->id, "assay-config");
	assert_string_equal(r.v[0].path, "$.argv[2]");
	assert_non_null(strstr(r.v[0].message, "placeholder {Y} has no value in combo \"a\""));
	assay_lint_result_release(&r);
}

static void test_options(void **state)
{
	(void)state;
	assert_true(assay_lint_rule_count() <= ASSAY_LINT_MAX_RULES);
	struct assay_lint_options o;
	struct assay_error e;
	assay_lint_options_init(&o);
	int unknown = assay_lint_rule_index("unknown-key");
	int tag = assay_lint_rule_index("image-tag");
	assert_true(unknown >= 0 && tag >= 0);
	assert_false(o.on[unknown]);
	assert_true(o.on[tag]);
	assert_int_equal(assay_lint_options_set(&o, "image-tag", false, &e), ASSAY_OK);
	assert_false(o.on[tag]);
	assert_int_equal(assay_lint_options_set(&o, "all", true, &e), ASSAY_OK);
	assert_true(o.on[unknown] && o.on[tag]);
	assert_int_equal(assay_lint_options_set(&o, "imagetag", true, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "unknown rule \"imagetag\" (see 'assay lint --list-rules')");
	/* Ids are unique and every rule names a family and kinds. */
	for (size_t i = 0; i < assay_lint_rule_count(); i++) {
		const struct assay_lint_rule *r = assay_lint_rule_at(i);
		assert_int_equal(assay_lint_rule_index(r->id), (int)i);
		assert_true(r->kinds != 0 && r->family && r->summary);
	}
	assert_null(assay_lint_rule_at(assay_lint_rule_count()));
}

static const char *allow_error(const char *text)
{
	static char buf[2048];
	struct assay_error e;
	struct assay_lint_allow a;
	json_error_t je;
	json_t *doc = json_loads(text, 0, &je);
	assert_non_null(doc);
	assay_err rc = assay_lint_allow_parse(doc, "d/.assay-lint.json", &a, &e);
	json_decref(doc);
	if (rc == ASSAY_OK) {
		assay_lint_allow_release(&a);
		return "ok";
	}
	return assay_error_format(&e, buf, sizeof(buf));
}

#define TWO_TRAPS                                                                                  \
	"{\"deployment_config\": {\"slurm\": {\"account\": \"<changeme>\", \"qos\": \"TODO\"}},"   \
	" \"built_images\": {\"i\": {\"docker_image\": \"rocm/x:latest\"}},"                       \
	" \"built_models\": {\"i\": {\"name\": \"m\", \"dockerfile\": \"d\", \"scripts\": "        \
	"\"s\"}}, \"context\": {}}"

static void test_allow(void **state)
{
	(void)state;
	assert_string_equal(allow_error("{\"allow\": {\"*.json\": [\"image-tag\"]}}"), "ok");
	assert_string_equal(
	    allow_error("{\"allow\": {}, \"deny\": 1}"),
	    "d/.assay-lint.json: $.deny: unknown key (expected one of: allow, severity)");
	assert_string_equal(
	    allow_error("{\"allow\": {\"m.json\": \"image-tag\"}}"),
	    "d/.assay-lint.json: $.allow[\"m.json\"]: expected an array of rule ids, "
	    "got \"image-tag\"");
	assert_string_equal(
	    allow_error("{\"allow\": {\"m.json\": [\"image-tags\"]}}"),
	    "d/.assay-lint.json: $.allow[\"m.json\"][0]: unknown rule \"image-tags\" "
	    "(see 'assay lint --list-rules')");
	assert_string_equal(allow_error("{\"allow\": {\"m.json\": [\"placeholder deployment\"]}}"),
			    "d/.assay-lint.json: $.allow[\"m.json\"][0]: expected a JSON path "
			    "starting with $ after the rule id, got \"deployment\"");

	json_error_t je;
	json_t *doc = json_loads("{\"allow\": {\"m*.json\": [\"image-tag\", "
				 "\"placeholder $.deployment_config.slurm.qos\", "
				 "\"placeholder $.deployment_config.slurm.acc\"]}}",
				 0, &je);
	struct assay_lint_allow a;
	struct assay_error e;
	assert_int_equal(assay_lint_allow_parse(doc, "x", &a, &e), ASSAY_OK);
	json_decref(doc);
	struct assay_lint_result r;
	assert_int_equal(lint_text(TWO_TRAPS, "dir/m1.json", ASSAY_LINT_AUTO, &a, &r, &e),
			 ASSAY_OK);
	char *out = human(&r);
	/* image-tag and the qos placeholder are allowed; "acc" is not a path prefix of "account".
	 */
	assert_string_equal(out,
			    "dir/m1.json:$.deployment_config.slurm.account: error: placeholder: "
			    "leftover placeholder \"<changeme>\" in the value\n");
	assert_int_equal(r.allowed, 2);
	assert_int_equal(r.errors, 1);
	free(out);
	assay_lint_result_release(&r);
	/* Another file name: nothing allowed. */
	assert_int_equal(lint_text(TWO_TRAPS, "n.json", ASSAY_LINT_AUTO, &a, &r, &e), ASSAY_OK);
	assert_int_equal(r.n, 3);
	assert_int_equal(r.allowed, 0);
	assay_lint_result_release(&r);
	assay_lint_allow_release(&a);
}

#define HF  "hf_QwErTyUiOpAsDfGhJkLzXcVbNm0123456789"
#define GHP "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
#define AWS "AKIAABCDEFGHIJKLMNOP"

static void test_secrets_never_printed(void **state)
{
	(void)state;
	/* Secrets in values, in a key, and in a key path that other rules print. */
	const char *text = "{\"built_images\": {\"img\": {\"docker_image\": \"r/x:" GHP "\"}},"
			   " \"built_models\": {\"img\": {\"name\": \"m\", \"dockerfile\": \"d\","
			   " \"scripts\": \"s\", \"args\": \"--model_repo " HF "\"}},"
			   " \"context\": {\"docker_env_vars\": {\"HF_TOKEN\": \"" HF "\","
			   " \"PASSWORD\": \"pa$sword\"},"
			   " \"docker_mounts\": {\"/x/" AWS "\": \"/y\"}}}";
	struct assay_lint_result r;
	struct assay_error e;
	assert_int_equal(lint_text(text, "m.json", ASSAY_LINT_AUTO, NULL, &r, &e), ASSAY_OK);
	assert_true(r.n >= 5);
	struct sbuf all = SBUF_INIT;
	assay_lint_format_human(&all, &r);
	assay_lint_format_github(&all, &r);
	json_t *j = assay_lint_to_json(&r, 1);
	json_t *s = assay_lint_to_sarif(&r, 1, "0.1");
	char *js = assay_json_dumps(j, 0), *ss = assay_json_dumps(s, 0);
	sbuf_adds(&all, js);
	sbuf_adds(&all, ss);
	assert_null(strstr(all.buf, HF));
	assert_null(strstr(all.buf, GHP));
	assert_null(strstr(all.buf, AWS));
	assert_null(strstr(all.buf, "sword"));
	assert_non_null(strstr(all.buf, "[redacted]"));
	assert_non_null(strstr(all.buf, "secret-literal"));
	assert_non_null(strstr(all.buf, "secret-pattern"));
	free(js);
	free(ss);
	json_decref(j);
	json_decref(s);
	sbuf_release(&all);
	assay_lint_result_release(&r);
}

/* A config loader's message quotes a value cut at about 60 bytes: the token
 * is masked before the cut (assay_json_brief), so no part of it survives. */
static void test_secret_cut_in_loader_message(void **state)
{
	(void)state;
	const char *text =
	    "{\"suite\": \"s\", \"workload\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaa " HF "\"}";
	struct assay_lint_result r;
	struct assay_error e;
	assert_int_equal(lint_text(text, "sweep.json", ASSAY_LINT_AUTO, NULL, &r, &e), ASSAY_OK);
	char *out = human(&r);
	assert_non_null(strstr(out, "assay-config: expected an object, got \"aaaa"));
	assert_non_null(strstr(out, " [redacted]\""));
	assert_null(strstr(out, "hf_"));
	free(out);
	assay_lint_result_release(&r);
}

static void test_key_is_secret(void **state)
{
	(void)state;
	static const char *const yes[] = {"HF_TOKEN", "MAD_SECRETS_HFTOKEN",   "GITHUB_TOKEN",
					  "hfToken",  "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD",
					  "password", "WANDB_API_KEY",         "openai-api-key",
					  "apikey",   "SSH_PRIVATE_KEY",       "MAD_SECRETS_X"};
	static const char *const no[] = {"MAX_TOKENS",
					 "TOKENIZERS_PARALLELISM",
					 "HF_TOKEN_PATH",
					 "SECRET_NAME",
					 "image_pull_secret_names",
					 "NUM_TOKENS",
					 "AWS_ACCESS_KEY_ID",
					 "KEY",
					 "tokenizer",
					 "",
					 "___",
					 "MONKEY",
					 "secrets"};
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
		if (!lint_key_is_secret(yes[i]))
			fail_msg("%s should be secret-named", yes[i]);
	for (size_t i = 0; i < ARRAY_SIZE(no); i++)
		if (lint_key_is_secret(no[i]))
			fail_msg("%s should not be secret-named", no[i]);
}

static void test_placeholder_and_ints(void **state)
{
	(void)state;
	static const char *const yes[] = {
	    "<changeme>", "/a/<USER>/b", "{user-id}",           "x TODO y",
	    "FIXME",      "ChangeMe",    "<FILL_ROOT see x.md>"};
	static const char *const no[] = {"${HOME}", "{{ jinja }}", "TODOS",  "todo", "a < b > c",
					 "{1,2}",   "<>",          "%j.out", ""};
	size_t s, e;
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
		if (!lint_find_placeholder(yes[i], strlen(yes[i]), &s, &e))
			fail_msg("%s should be a placeholder", yes[i]);
	for (size_t i = 0; i < ARRAY_SIZE(no); i++)
		if (lint_find_placeholder(no[i], strlen(no[i]), &s, &e))
			fail_msg("%s should not be a placeholder", no[i]);
	long long v;
	json_t *j = json_string("-1");
	assert_true(lint_int_value(j, true, &v) && v == -1);
	assert_false(lint_int_value(j, false, &v));
	json_decref(j);
	j = json_string("8x");
	assert_false(lint_int_value(j, true, &v));
	json_decref(j);
	j = json_string("99999999999999999999999");
	assert_false(lint_int_value(j, true, &v));
	json_decref(j);
}

static void test_hostlist(void **state)
{
	(void)state;
	static const struct {
		const char *nodelist;
		const char *want; /* "" when the count is 4 and agrees, or the list is empty */
	} cases[] = {
	    {"\"n[1-3,5]\"", ""},
	    {"\"a,b, c,d\"", ""},
	    {"\"r[1-2]-n[1-2]\"", ""},
	    {"[\"n1\", \"n[2-4]\"]", ""},
	    {"\"n[1-3]\"", "names 3 nodes"},
	    {"\"n[01-05]\"", "names 5 nodes"},
	    {"\"n[9-1]\"", "count-invalid: hostlist \"n[9-1]\": reversed range"},
	    {"\"n[1-1000000000]\"", "count-invalid: hostlist \"n[1-1000000000]\": more than"},
	    {"\"n[\"", "count-invalid: hostlist \"n[\": unmatched '['"},
	    {"\" , \"", ""},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *text =
		    xasprintf("{\"deployment_config\": {\"slurm\": {\"nodes\": 4, "
			      "\"network_interface\": \"eth0\", \"nodelist\": %s}, "
			      "\"env_vars\": {\"NCCL_IB_DISABLE\": \"0\"}}, \"context\": {}}",
			      cases[i].nodelist);
		struct assay_lint_result r;
		struct assay_error e;
		assert_int_equal(lint_text(text, "m.json", ASSAY_LINT_AUTO, NULL, &r, &e),
				 ASSAY_OK);
		char *out = human(&r);
		if (!*cases[i].want ? *out != '\0' : !strstr(out, cases[i].want))
			fail_msg("%s: got \"%s\"", cases[i].nodelist, out);
		free(out);
		free(text);
		assay_lint_result_release(&r);
	}
}

/* The SARIF 2.1.0 properties code scanning requires, checked on a real log. */
static void test_sarif(void **state)
{
	(void)state;
	struct assay_lint_result r[2];
	struct assay_error e;
	assert_int_equal(lint_text(TWO_TRAPS, "dir/a b,c.json", ASSAY_LINT_AUTO, NULL, &r[0], &e),
			 ASSAY_OK);
	assert_int_equal(lint_text("[{\"name\": \"x\", \"scripts\": \"s\"}]", "models.json",
				   ASSAY_LINT_AUTO, NULL, &r[1], &e),
			 ASSAY_OK);
	json_t *log = assay_lint_to_sarif(r, 2, "1.2.3");
	assert_string_equal(json_string_value(json_object_get(log, "version")), "2.1.0");
	assert_non_null(json_string_value(json_object_get(log, "$schema")));
	json_t *runs = json_object_get(log, "runs");
	assert_int_equal(json_array_size(runs), 1);
	json_t *run = json_array_get(runs, 0);
	json_t *driver = json_object_get(json_object_get(run, "tool"), "driver");
	assert_string_equal(json_string_value(json_object_get(driver, "name")), "assay");
	assert_string_equal(json_string_value(json_object_get(driver, "version")), "1.2.3");
	json_t *rules = json_object_get(driver, "rules");
	assert_int_equal(json_array_size(rules), assay_lint_rule_count());
	json_t *results = json_object_get(run, "results");
	assert_int_equal(json_array_size(results), r[0].n + r[1].n);
	size_t i;
	json_t *res;
	json_array_foreach(results, i, res)
	{
		const char *id = json_string_value(json_object_get(res, "ruleId"));
		json_int_t idx = json_integer_value(json_object_get(res, "ruleIndex"));
		assert_non_null(id);
		assert_string_equal(
		    json_string_value(json_object_get(json_array_get(rules, (size_t)idx), "id")),
		    id);
		const char *level = json_string_value(json_object_get(res, "level"));
		assert_true(!strcmp(level, "error") || !strcmp(level, "warning"));
		assert_true(strlen(json_string_value(
				json_object_get(json_object_get(res, "message"), "text"))) > 0);
		json_t *pl = json_object_get(json_array_get(json_object_get(res, "locations"), 0),
					     "physicalLocation");
		const char *uri = json_string_value(
		    json_object_get(json_object_get(pl, "artifactLocation"), "uri"));
		assert_true(!strcmp(uri, "dir/a%20b,c.json") || !strcmp(uri, "models.json"));
		json_t *region = json_object_get(pl, "region");
		assert_true(json_integer_value(json_object_get(region, "startLine")) >= 1);
		assert_true(json_integer_value(json_object_get(region, "startColumn")) >= 1);
	}
	json_decref(log);

	json_t *doc = assay_lint_to_json(r, 2);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), "assay.lint/1");
	assert_int_equal(json_integer_value(json_object_get(doc, "errors")), 3);
	assert_int_equal(json_integer_value(json_object_get(doc, "warnings")), 1);
	json_t *f1 = json_array_get(json_object_get(doc, "files"), 1);
	assert_string_equal(json_string_value(json_object_get(f1, "kind")), "models");
	json_decref(doc);
	assay_lint_result_release(&r[0]);
	assay_lint_result_release(&r[1]);
}

static void test_github(void **state)
{
	(void)state;
	struct assay_lint_result r;
	struct assay_error e;
	assert_int_equal(lint_text("{\"deployment_config\": {\"slurm\": {\"qos\": \"50% TODO\"}}, "
				   "\"context\": {}}",
				   "d:1,x.json", ASSAY_LINT_AUTO, NULL, &r, &e),
			 ASSAY_OK);
	struct sbuf sb = SBUF_INIT;
	assay_lint_format_github(&sb, &r);
	assert_string_equal(sb.buf, "::error file=d%3A1%2Cx.json,line=1,col=34,title=placeholder::"
				    "$.deployment_config.slurm.qos: leftover placeholder \"TODO\" "
				    "in the value\n");
	sbuf_release(&sb);
	assay_lint_result_release(&r);
}

static void test_messages_are_utf8(void **state)
{
	(void)state;
	/* lint_brief cuts long values; the cut must not split a code point. */
	struct sbuf v = SBUF_INIT;
	for (int i = 0; i < 40; i++)
		sbuf_adds(&v, "é");
	char *text =
	    xasprintf("{\"built_images\": {\"i\": {\"docker_image\": \"%s:latest\"}}}", v.buf);
	struct assay_lint_result r;
	struct assay_error e;
	assert_int_equal(lint_text(text, "m.json", ASSAY_LINT_AUTO, NULL, &r, &e), ASSAY_OK);
	assert_int_equal(r.n, 1);
	json_t *s = json_string(r.v[0].message);
	assert_non_null(s);
	json_decref(s);
	free(text);
	sbuf_release(&v);
	assay_lint_result_release(&r);
}

/* lint_json_fast reads what jansson reads, to the same values, or gives up
 * (then jansson reads it and words the error). */
static void test_fast_json(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		bool fast; /* the fast reader must take it */
	} cases[] = {
	    {"{}", true},
	    {" [ ] ", true},
	    {"{\"a\": 1, \"b\": [true, false, null], \"c\": {\"d\": \"e\"}}", true},
	    {"[-0, 0, 12, -7, 1.5, -2.5e3, 1E-2, 9223372036854775807]", true},
	    {"[\"tab\\there\", \"q\\\"\\\\\\/\", \"\\u00e9\\u20ac\", \"\\ud83d\\ude00\"]", true},
	    {"{\"caf\xc3\xa9\": \"\xe2\x82\xac\xf0\x9f\x98\x80\"}", true},
	    {"{\"k\\u0041y\": 1, \"kAz\": 2}", true},
	    {"{\"a\": 1, \"a\": 2}", false},       /* duplicate key */
	    {"{\"a\": 1, \"\\u0061\": 2}", false}, /* the same key, escaped */
	    {"[\"\\u0000\"]", false},              /* jansson refuses NUL */
	    {"[9223372036854775808]", false},      /* too big an integer */
	    {"[1e999]", false},                    /* real overflow */
	    {"[01]", false},                       /* leading zero */
	    {"[1.]", false},
	    {"[.5]", false},
	    {"[+1]", false},
	    {"[tru]", false},
	    {"[1,]", false},
	    {"{\"a\":1,}", false},
	    {"{\"a\" 1}", false},
	    {"{a: 1}", false},
	    {"\"top\"", false}, /* not an object or array */
	    {"42", false},
	    {"", false},
	    {"{} {}", false},
	    {"[\"a\nb\"]", false},
	    {"[\"\\x\"]", false},
	    {"[\"\\ud800\"]", false},
	    {"[\"\\udc00\"]", false},
	    {"[\"\xc0\xaf\"]", false},
	    {"[\"\xed\xa0\x80\"]", false},
	    {"[\"\xf4\x90\x80\x80\"]", false},
	    {"[\"\xe2\x82\"]", false},
	    {"[\"unterminated]", false},
	    {"{\"a\": [1, 2", false},
	    {"[nul]", false},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t len = strlen(cases[i].text);
		json_t *fast = lint_json_fast(cases[i].text, len);
		json_error_t je;
		json_t *slow = json_loadb(cases[i].text, len, JSON_REJECT_DUPLICATES, &je);
		if (cases[i].fast && !fast)
			fail_msg("case %zu: the fast reader gave up on %s", i, cases[i].text);
		if (fast) {
			if (!slow || !json_equal(fast, slow))
				fail_msg("case %zu: the fast reader accepts %s differently", i,
					 cases[i].text);
		}
		json_decref(fast);
		json_decref(slow);
	}
	/* Deep nesting goes the slow way, and still parses. */
	struct sbuf deep = SBUF_INIT;
	for (int i = 0; i < 1500; i++)
		sbuf_addch(&deep, '[');
	for (int i = 0; i < 1500; i++)
		sbuf_addch(&deep, ']');
	assert_null(lint_json_fast(deep.buf, deep.len));
	sbuf_release(&deep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_locate),
	    cmocka_unit_test(test_detect),
	    cmocka_unit_test(test_bad_input),
	    cmocka_unit_test(test_suite),
	    cmocka_unit_test(test_options),
	    cmocka_unit_test(test_allow),
	    cmocka_unit_test(test_secrets_never_printed),
	    cmocka_unit_test(test_secret_cut_in_loader_message),
	    cmocka_unit_test(test_key_is_secret),
	    cmocka_unit_test(test_placeholder_and_ints),
	    cmocka_unit_test(test_hostlist),
	    cmocka_unit_test(test_sarif),
	    cmocka_unit_test(test_github),
	    cmocka_unit_test(test_messages_are_utf8),
	    cmocka_unit_test(test_fast_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
