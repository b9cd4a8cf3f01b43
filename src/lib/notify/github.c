/* The GitHub target, through the REST API with a token
 * (https://docs.github.com/en/rest): a commit status ("mode": "status",
 * POST /repos/{owner}/{repo}/statuses/{sha}) or a check run ("check",
 * POST /repos/{owner}/{repo}/check-runs) on the revision under test, and
 * optionally a comment on the pull request (POST
 * /repos/{owner}/{repo}/issues/{number}/comments). A status description
 * is cut to GitHub's 140 characters. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "notify_int.h"

#define GITHUB_DESCRIPTION 140
#define GITHUB_ROWS        50

static const char *const github_keys[] = {"repo",         "mode",   "context", "api_url",
					  "revision_env", "pr_env", "comment", NULL};
static const char *const modes[] = {"status", "check", NULL};

static bool repo_valid(const char *r)
{
	const char *slash = strchr(r, '/');
	if (!slash || slash == r || !slash[1] || strchr(slash + 1, '/'))
		return false;
	for (; *r; r++)
		if (!isalnum((unsigned char)*r) && !strchr("-_./", *r))
			return false;
	return true;
}

static int github_pr(struct assay_cfg *c, const json_t *o, const char *path,
		     struct assay_notify_target *t)
{
	char *name = NULL, *value = NULL, kp[256];
	int rc = notify_env_value(c, o, path, "pr_env", false, &name, &value);
	long long pr = 0;
	if (rc > 0 && (!assay_parse_long(value, &pr) || pr < 1)) {
		assay_json_path_key(kp, sizeof(kp), path, "pr_env");
		rc = assay_cfg_fail(c, kp, "%s holds \"%.40s\": expected a pull request number",
				    name, value);
	}
	t->pr = pr;
	free(name);
	free(value);
	return rc < 0 ? -1 : 0;
}

static int github_parse(struct assay_cfg *c, const json_t *o, const char *path,
			struct assay_notify_target *t)
{
	const char *repo = NULL, *mode = "status", *ctx = "assay", *api = getenv("GITHUB_API_URL");
	if (!api || !*api)
		api = "https://api.github.com"; /* GitHub Actions sets GITHUB_API_URL */
	char *sha_name = NULL, kp[256];
	if (assay_cfg_string(c, o, path, "repo", ASSAY_CFG_REQUIRED, &repo) < 0 ||
	    assay_cfg_enum(c, o, path, "mode", ASSAY_CFG_OPTIONAL, modes, &mode) < 0 ||
	    assay_cfg_string(c, o, path, "context", ASSAY_CFG_OPTIONAL, &ctx) < 0 ||
	    assay_cfg_string(c, o, path, "api_url", ASSAY_CFG_OPTIONAL, &api) < 0 ||
	    assay_cfg_bool(c, o, path, "comment", ASSAY_CFG_OPTIONAL, &t->pr_comment) < 0 ||
	    notify_env_value(c, o, path, "revision_env", false, &sha_name, &t->sha) < 0 ||
	    github_pr(c, o, path, t) < 0) {
		free(sha_name);
		return -1;
	}
	free(sha_name);
	assay_json_path_key(kp, sizeof(kp), path, "repo");
	if (!repo_valid(repo))
		return assay_cfg_fail(c, kp, "expected OWNER/NAME, got \"%s\"", repo);
	assay_json_path_key(kp, sizeof(kp), path, "api_url");
	if (notify_check_url(c, kp, "api_url", api) < 0)
		return -1;
	assay_json_path_key(kp, sizeof(kp), path, "comment");
	if (t->pr_comment && !t->pr)
		return assay_cfg_fail(c, kp, "a comment needs pr_env (the pull request's number)");
	t->repo = xstrdup(repo);
	t->mode = xstrdup(mode);
	t->context = xstrdup(ctx);
	t->api = xstrdup(api);
	size_t n = strlen(t->api);
	while (n > 0 && t->api[n - 1] == '/')
		t->api[--n] = 0;
	return 0;
}

/* Append s percent-encoded (all but RFC 3986's unreserved characters). */
static void url_part(struct sbuf *sb, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (isalnum(ch) || strchr("-._~", ch))
			sbuf_addch(sb, (char)ch);
		else
			sbuf_addf(sb, "%%%02X", ch);
	}
}

static const char *revision_of(const struct notify_batch *b)
{
	if (b->target->sha)
		return b->target->sha;
	if (b->ctx->revision)
		return b->ctx->revision;
	if (b->config->revision)
		return b->config->revision;
	for (size_t i = b->n; i > 0; i--)
		if (b->v[i - 1]->revision)
			return b->v[i - 1]->revision;
	return NULL;
}

static void add(const struct notify_batch *b, struct notify_requests *out, struct sbuf *url,
		json_t *doc)
{
	struct notify_request *q = notify_request_add(out, sbuf_str(url), assay_json_dumps(doc, 0));
	char *auth = xasprintf("Authorization: Bearer %s", b->target->token);
	strlist_push(&q->headers, "Accept: application/vnd.github+json");
	strlist_push(&q->headers, "X-GitHub-Api-Version: 2022-11-28");
	strlist_push(&q->headers, auth);
	memset(auth, 0, strlen(auth));
	free(auth);
	json_decref(doc);
	sbuf_release(url);
}

static json_t *check_run(const struct notify_batch *b, const char *sha, const char *title)
{
	struct sbuf md = SBUF_INIT;
	notify_markdown(b, GITHUB_ROWS, &md);
	json_t *doc = json_pack("{s:s, s:s, s:s, s:s, s:{s:s, s:s}}", "name", b->target->context,
				"head_sha", sha, "status", "completed", "conclusion",
				notify_batch_bad(b) ? "failure" : "success", "output", "title",
				title, "summary", sbuf_str(&md));
	sbuf_release(&md);
	return doc;
}

static json_t *status(const struct notify_batch *b, const char *title)
{
	bool infra = false;
	for (size_t i = 0; i < b->n; i++)
		infra |= b->v[i]->kind == ASSAY_NOTIFY_INFRA;
	char desc[GITHUB_DESCRIPTION + 1];
	snprintf(desc, sizeof(desc), "%s", title);
	notify_cut(desc, GITHUB_DESCRIPTION);
	return json_pack("{s:s, s:s, s:s}", "state",
			 infra                 ? "error"
			 : notify_batch_bad(b) ? "failure"
					       : "success",
			 "description", desc, "context", b->target->context);
}

static void github_render(const struct notify_batch *b, struct notify_requests *out)
{
	const struct assay_notify_target *t = b->target;
	const char *sha = revision_of(b);
	if (!sha) {
		out->fail = "no revision to report on (set the target's revision_env or the "
			    "file's revision)";
		return;
	}
	struct sbuf title = SBUF_INIT, url = SBUF_INIT;
	char *link = notify_report_link(b);
	notify_headline(b, &title);
	bool check = !strcmp(t->mode, "check");
	json_t *doc = check ? check_run(b, sha, sbuf_str(&title)) : status(b, sbuf_str(&title));
	if (link)
		json_object_set_new(doc, check ? "details_url" : "target_url", json_string(link));
	sbuf_addf(&url, "%s/repos/%s/%s", t->api, t->repo, check ? "check-runs" : "statuses/");
	if (!check)
		url_part(&url, sha);
	add(b, out, &url, doc);
	if (t->pr_comment) {
		struct sbuf md = SBUF_INIT;
		sbuf_addf(&md, "**%s**\n\n", sbuf_str(&title));
		notify_markdown(b, GITHUB_ROWS, &md);
		if (link)
			sbuf_addf(&md, "\n[The report](%s)\n", link);
		sbuf_addf(&url, "%s/repos/%s/issues/%lld/comments", t->api, t->repo, t->pr);
		add(b, out, &url, json_pack("{s:s}", "body", sbuf_str(&md)));
		sbuf_release(&md);
	}
	free(link);
	sbuf_release(&title);
}

const struct assay_notify_type notify_github = {
    .name = "github",
    .token = true,
    .keys = github_keys,
    .parse = github_parse,
    .render = github_render,
};
