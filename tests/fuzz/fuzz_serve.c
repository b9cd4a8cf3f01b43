/* libFuzzer target: assay serve's request handling without a socket. The
 * input is one request: a method letter (G GET, H HEAD, P POST, else the
 * byte as a method), the target up to a newline, the Authorization value
 * up to a newline, the body; it goes through the route parser, the token
 * check and the whole handler on an empty store made at start-up (with a
 * write and a read token). Invariants: a parsed route is sane, a status is
 * a real one, an error has a body. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/serve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct assay_serve srv;

static void setup(void)
{
	static char dir[] = "/tmp/assay-fuzz-serve.XXXXXX";
	struct assay_error e;
	if (!mkdtemp(dir))
		abort();
	char *path = xasprintf("%s/s.db", dir);
	if (assay_store_open(path, ASSAY_STORE_CREATE, &srv.store, &e) != ASSAY_OK ||
	    assay_serve_tokens_parse("alice:write:0123456789abcdef0123 bob:read:fedcba9876543210fe",
				     &srv.tokens, &e) != ASSAY_OK)
		abort();
	srv.store_name = "fuzz";
	srv.store_path = path; /* kept: the run pages open the store by it */
}

static void check_route(const char *method, const char *target)
{
	struct assay_serve_route r;
	struct assay_error e;
	int st = assay_serve_route_parse(method, target, &r, &e);
	if (st == 200 && (r.page_no < 1 || r.per < 1 || r.per > 500 || r.last < 0 ||
			  strlen(r.key) > 64 || r.match.n > ASSAY_SERVE_MAX_MATCH || !r.sort))
		abort();
	if (st != 200 && st != 400 && st != 404 && st != 405 && st != 414)
		abort();
	assay_serve_route_release(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!srv.store)
		setup();
	if (!size)
		return 0;
	char *text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	char *auth = strchr(text, '\n'), *body = NULL;
	if (auth) {
		*auth++ = '\0';
		body = strchr(auth, '\n');
		if (body)
			*body++ = '\0';
	}
	char m[2] = {(char)data[0], 0};
	const char *method = data[0] == 'G'   ? "GET"
			     : data[0] == 'H' ? "HEAD"
			     : data[0] == 'P' ? "POST"
					      : m;
	check_route(method, text);
	struct assay_serve_request rq = {.method = method,
					 .target = text,
					 .authorization = auth,
					 .body = body,
					 .body_len = body ? strlen(body) : 0};
	struct assay_serve_response rs = {0};
	assay_serve_handle(&srv, &rq, &rs);
	if (rs.status < 200 || rs.status > 599 || (rs.status >= 400 && !rs.body.len))
		abort();
	if (rs.fd >= 0)
		close(rs.fd);
	assay_serve_response_release(&rs);
	free(text);
	return 0;
}
