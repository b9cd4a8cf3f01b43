/* `assay import cvs` for ROCm/cvs disaggregated SGLang configurations
 * (cvs/input/config_file/inference/sglang/NAME_disaggregated.json at
 * dddd914, run by cvs/tests/inference/sglang/sglang_disagg_distributed.py):
 * an inference suite with role servers (docs/inference.md, "Role
 * servers") on the cluster file's hosts through the ssh launcher: prefill
 * and decode as cvs/lib/inference/sglang/sglang_disagg_lib.py's
 * launch_prefill_servers and launch_decode_servers write
 * sglang.launch_server, then launch_proxy_router's sglang_router; the
 * client (benchserv_test_random) against the router, once per threshold
 * cell, as the other SGLang importers do (import_cvs_sglang.c).
 * Placement: prefill on the first len(prefill_node_list) hosts, decode on
 * the next len(decode_node_list), the router on the host proxy_router_node
 * names. docs/import.md. */
#include <stdlib.h>
#include <string.h>

#include "assay/launch.h"
#include "import_cvs_sglang.h"
#include "suite_int.h"

struct dg {
	struct sg s;
	struct strlist hosts; /* the cluster file's */
	long long np, nd;     /* prefill, decode nodes */
	size_t router;        /* the router's host index */
	char *model, *tp, *pp, *prompts, *mem, *level, *hca, *client;
	char *port[3];             /* prefill, decode, router */
	char *coord[2], *cport[2]; /* prefill, decode coordinators */
};

static void dg_release(struct dg *d)
{
	strlist_clear(&d->hosts);
	char **f[] = {&d->model,   &d->tp,       &d->pp,       &d->prompts,  &d->mem,
		      &d->level,   &d->hca,      &d->client,   &d->port[0],  &d->port[1],
		      &d->port[2], &d->coord[0], &d->coord[1], &d->cport[0], &d->cport[1]};
	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		free(*f[i]);
	free(d->s.dist_init);
}

/* A role's node list (CVS's as_node_list: a list of host names, or one):
 * its length; a name still "<changeme>" refused as CVS's loader does. */
static int role_count(struct dg *d, const char *key, long long *n)
{
	char path[128], ip[160];
	const json_t *v = json_object_get(d->s.cfg, key);
	assay_json_path_key(path, sizeof(path), "$.config", key);
	if (!v)
		return assay_cfg_fail(&d->s.c, path,
				      "missing key (CVS's disaggregated test starts a server "
				      "per node it lists)");
	if (json_is_string(v))
		v = json_pack("[O]", v);
	else if (json_is_array(v) && json_array_size(v))
		json_incref((json_t *)v);
	else
		return assay_cfg_expected(&d->s.c, path, "a non-empty list of host names", v);
	int rc = 0;
	for (size_t i = 0; !rc && i < json_array_size(v); i++) {
		const char *h = json_string_value(json_array_get(v, i));
		assay_json_path_index(ip, sizeof(ip), path, i);
		if (!h || !*h)
			rc = assay_cfg_expected(&d->s.c, ip, "a host name", json_array_get(v, i));
		else if (strstr(h, "<changeme>"))
			rc = assay_cfg_fail(&d->s.c, ip,
					    "unfilled placeholder \"<changeme>\": the suite needs "
					    "this value");
	}
	*n = (long long)json_array_size(v);
	json_decref((json_t *)v);
	return rc;
}

/* Where the roles run: refused without --cluster, with too few hosts, or
 * with a router on a host the file does not list. */
static int placement(struct dg *d, json_t *suite)
{
	struct sg *x = &d->s;
	if (!x->o->cluster_file)
		return assay_cfg_fail(&x->c, "$.config.prefill_node_list",
				      "prefill and decode servers and a router "
				      "(sglang_disagg_distributed): give the CVS cluster file "
				      "they run on (--cluster FILE): each role runs on its hosts "
				      "through the ssh launcher (docs/import.md)");
	char *router = NULL;
	if (role_count(d, "prefill_node_list", &d->np) < 0 ||
	    role_count(d, "decode_node_list", &d->nd) < 0 ||
	    sg_text(x, x->cfg, "$.config", "proxy_router_node", NULL, &router) < 0)
		return -1;
	if (!router)
		return assay_cfg_fail(&x->c, "$.config",
				      "missing key \"proxy_router_node\" (CVS starts the router "
				      "there)");
	int rc = assay_ssh_cluster_hosts(x->o->cluster_file, &d->hosts, x->c.err) != ASSAY_OK;
	if (!rc && (long long)d->hosts.n < d->np + d->nd)
		rc = assay_cfg_fail(&x->c, "$.config.decode_node_list",
				    "%lld prefill and %lld decode nodes, but %s lists %zu: the "
				    "suite starts prefill on its first %lld hosts and decode on "
				    "the next %lld",
				    d->np, d->nd, x->o->cluster_file, d->hosts.n, d->np, d->nd);
	for (d->router = 0; !rc && d->router < d->hosts.n; d->router++)
		if (!strcmp(d->hosts.v[d->router], router))
			break;
	if (!rc && d->router == d->hosts.n)
		rc = assay_cfg_fail(&x->c, "$.config.proxy_router_node",
				    "\"%s\" is not a host of %s: the router runs on the host it "
				    "names",
				    router, x->o->cluster_file);
	free(router);
	if (!rc)
		json_object_set_new(
		    suite, "launcher",
		    json_pack("{s:s, s:s}", "type", "ssh", "cluster_file", x->o->cluster_file));
	return rc ? -1 : 0;
}

/* The settings the roles and the client need (CVS's defaults from
 * _apply_inf_defaults and _apply_bp_defaults); CVS has none for the
 * coordinator addresses. */
static int settings(struct dg *d)
{
	struct sg *x = &d->s;
	static const char *const what[] = {"prefill", "decode"};
	long long tp, np;
	char tpp[384], npp[384], ppp[384];
	if (sg_text(x, x->bp, x->bp_path, "model", "openai/gpt-oss-120b", &d->model) < 0 ||
	    sg_text(x, x->bp, x->bp_path, "tensor_parallelism", "8", &d->tp) < 0 ||
	    sg_text(x, x->bp, x->bp_path, "pipeline_parallelism", "1", &d->pp) < 0 ||
	    sg_text(x, x->bench, x->bench_path, "num_prompts", NULL, &d->prompts) < 0 ||
	    sg_text(x, x->bp, x->bp_path, "memory_fraction", "0.85", &d->mem) < 0 ||
	    sg_text(x, x->cfg, "$.config", "log_level", "info", &d->level) < 0 ||
	    sg_text(x, x->cfg, "$.config", "nccl_ib_hca",
		    "rdma0,rdma1,rdma2,rdma3,rdma4,rdma5,rdma6,rdma7", &d->hca) < 0 ||
	    sg_text(x, x->cfg, "$.config", "prefill_serv_port", "30001", &d->port[0]) < 0 ||
	    sg_text(x, x->cfg, "$.config", "decode_serv_port", "30002", &d->port[1]) < 0 ||
	    sg_text(x, x->cfg, "$.config", "proxy_router_serv_port", "8000", &d->port[2]) < 0 ||
	    sg_text(x, x->cfg, "$.config", "client_host", NULL, &d->client) < 0)
		return -1;
	if (!d->prompts)
		return assay_cfg_fail(&x->c, x->bench_path,
				      "missing key \"num_prompts\" (CVS's client needs it)");
	for (size_t i = 0; i < 2; i++) {
		char k[64], pk[64];
		snprintf(k, sizeof(k), "%s_coordinator_addr", what[i]);
		snprintf(pk, sizeof(pk), "%s_coordinator_port", what[i]);
		if (sg_text(x, x->cfg, "$.config", k, NULL, &d->coord[i]) < 0 ||
		    sg_text(x, x->cfg, "$.config", pk, i ? "40002" : "40001", &d->cport[i]) < 0)
			return -1;
		if (!d->coord[i] || !*d->coord[i])
			return assay_cfg_fail(&x->c, "$.config",
					      "missing key \"%s\" (CVS's %s servers meet there and "
					      "its router sends %s requests there)",
					      k, what[i], what[i]);
	}
	assay_json_path_key(tpp, sizeof(tpp), x->bp_path, "tensor_parallelism");
	assay_json_path_key(npp, sizeof(npp), x->bench_path, "num_prompts");
	assay_json_path_key(ppp, sizeof(ppp), x->bp_path, "pipeline_parallelism");
	if (cvs_count(&x->c, tpp, d->tp, &tp) < 0 || cvs_count(&x->c, npp, d->prompts, &np) < 0 ||
	    cvs_count(&x->c, ppp, d->pp, &x->pp) < 0)
		return -1;
	return 0;
}

/* `env`, the env script's variables and the role's coordinator
 * (MASTER_PREFILL_* or MASTER_DECODE_*) onto argv. */
static void role_env(const struct dg *d, int r, const json_t *env, json_t *argv)
{
	static const char *const var[][2] = {{"MASTER_PREFILL_ADDR", "MASTER_PREFILL_PORT"},
					     {"MASTER_DECODE_ADDR", "MASTER_DECODE_PORT"}};
	json_array_append_new(argv, json_string("env"));
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)env, key, v)
	{
		char *kv = xasprintf("%s=%s", key, json_string_value(v));
		json_array_append_new(argv, json_string(kv)); /* already literal */
		free(kv);
	}
	for (size_t i = 0; i < 2; i++) {
		char *kv = xasprintf("%s=%s", var[r][i], i ? d->cport[r] : d->coord[r]);
		sg_lit(argv, kv);
		free(kv);
	}
}

/* A prefill (r 0) or decode (r 1) role: each node's sglang.launch_server
 * as CVS's launch script writes it (its decode script has
 * --trust-remote-code before --dtype), its rank from the ssh launcher's
 * NODE_RANK, after role_env. */
static json_t *pd_role(struct dg *d, int r, const json_t *env)
{
	static const char *const role[] = {"prefill", "decode"};
	struct sg *x = &d->s;
	free(x->dist_init);
	x->dist_init = xasprintf("%s:%s", d->coord[r], d->cport[r]);
	json_t *argv = json_array();
	sg_dist_prefix(x, argv);
	role_env(d, r, env, argv);
	const char *const a[] = {"python3",
				 "-m",
				 "sglang.launch_server",
				 "--model",
				 d->model,
				 "--disaggregation-mode",
				 role[r],
				 "--disaggregation-ib-device",
				 d->hca,
				 "--host",
				 "0.0.0.0",
				 "--port",
				 d->port[r]};
	const char *const dt[] = {"--dtype", "auto", "--kv-cache-dtype", "auto"};
	for (size_t i = 0; i < ARRAY_SIZE(a); i++)
		sg_lit(argv, a[i]);
	if (r)
		sg_lit(argv, "--trust-remote-code");
	for (size_t i = 0; i < ARRAY_SIZE(dt); i++)
		sg_lit(argv, dt[i]);
	if (!r)
		sg_lit(argv, "--trust-remote-code");
	char nn[24];
	snprintf(nn, sizeof(nn), "%lld", r ? d->nd : d->np);
	const char *const b[] = {"--tp-size",
				 d->tp,
				 "--pp-size",
				 d->pp,
				 "--nnodes",
				 nn,
				 "--dist-init-addr",
				 x->dist_init,
				 "--disable-radix-cache",
				 "--disable-cuda-graph",
				 "--mem-fraction-static",
				 d->mem};
	for (size_t i = 0; i < ARRAY_SIZE(b); i++)
		sg_lit(argv, b[i]);
	if (sg_add_flags(x, argv) < 0) {
		json_decref(argv);
		return NULL;
	}
	sg_lit(argv, "--log-level");
	sg_lit(argv, d->level);
	return argv;
}

/* A role server: argv, health on its first host from assay's host. */
static json_t *role_server(const struct dg *d, const char *role, json_t *argv, size_t first,
			   long long nodes, const char *port, int timeout_s)
{
	char *url = xasprintf("http://%s:%s/health", d->hosts.v[first], port);
	char *l = cvs_literal(url);
	json_t *sv = json_pack("{s:s, s:o, s:s, s:i, s:I, s:I}", "role", role, "argv", argv,
			       "health", l, "health_timeout_s", timeout_s, "nodes",
			       (json_int_t)nodes, "first_host", (json_int_t)first);
	free(l);
	free(url);
	return sv;
}

/* The router, as launch_proxy_router writes it: prefill and decode at their
 * coordinator addresses and serving ports; CVS waits 120 s for it. */
static json_t *router_argv(const struct dg *d)
{
	char *pu = xasprintf("http://%s:%s", d->coord[0], d->port[0]);
	char *du = xasprintf("http://%s:%s", d->coord[1], d->port[1]);
	const char *const a[] = {"python3",
				 "-m",
				 "sglang_router.launch_router",
				 "--pd-disaggregation",
				 "--prefill",
				 pu,
				 "--decode",
				 du,
				 "--host",
				 "0.0.0.0",
				 "--port",
				 d->port[2]};
	json_t *argv = json_array();
	for (size_t i = 0; i < ARRAY_SIZE(a); i++)
		sg_lit(argv, a[i]);
	free(pu);
	free(du);
	return argv;
}

/* The servers in CVS's order: prefill, decode (CVS's readiness wait:
 * 120 s, then 15 polls 120 s apart), then the router. */
static int servers(struct dg *d, const json_t *env, json_t *suite)
{
	json_t *sv = json_array(), *p = pd_role(d, 0, env), *q = p ? pd_role(d, 1, env) : NULL;
	if (!p || !q) {
		json_decref(p);
		json_decref(sv);
		return -1;
	}
	json_array_append_new(sv, role_server(d, "prefill", p, 0, d->np, d->port[0], 1920));
	json_array_append_new(sv,
			      role_server(d, "decode", q, (size_t)d->np, d->nd, d->port[1], 1920));
	json_array_append_new(
	    sv, role_server(d, "router", router_argv(d), d->router, 1, d->port[2], 120));
	json_object_set_new(suite, "servers", sv);
	return 0;
}

/* The disaggregated test's own keys, as the suite carries them. */
static const char *const disagg_keys[] = {"prefill_node_list",
					  "decode_node_list",
					  "proxy_router_node",
					  "prefill_serv_port",
					  "decode_serv_port",
					  "proxy_router_port",
					  "prefill_coordinator_addr",
					  "decode_coordinator_addr",
					  "prefill_coordinator_port",
					  "decode_coordinator_port",
					  "nic_type",
					  "nccl_ib_hca_list",
					  "hca_id_prefix",
					  "mount_vol",
					  NULL};

static void role_notes(struct dg *d)
{
	struct sg *x = &d->s;
	const char *f = x->o->cluster_file;
	cvs_note(x->im, "$.config.prefill_node_list",
		 "the prefill server runs on the first %lld host(s) of %s, in its order (rank 0 "
		 "on %s), as the ssh launcher takes them; prefill_coordinator_addr must be "
		 "that host's address",
		 d->np, f, d->hosts.v[0]);
	cvs_note(x->im, "$.config.decode_node_list",
		 "the decode server runs on the next %lld host(s) of %s (rank 0 on %s); "
		 "decode_coordinator_addr must be that host's address",
		 d->nd, f, d->hosts.v[d->np]);
	if (json_object_get(x->cfg, "benchmark_serv_node"))
		cvs_note(x->im, "$.config.benchmark_serv_node",
			 "the client runs on %s (the ssh launcher's first host), against the "
			 "router at %s:%s",
			 d->hosts.v[0], d->client, d->port[2]);
	if (json_object_get(x->cfg, "proxy_router_port"))
		cvs_note(x->im, "$.config.proxy_router_port",
			 "CVS's router listens on proxy_router_serv_port; it passes this to no "
			 "command");
	static const char *const nic[] = {"nic_type", "nccl_ib_hca_list", "hca_id_prefix",
					  "mount_vol"};
	for (size_t i = 0; i < ARRAY_SIZE(nic); i++)
		if (json_object_get(x->cfg, nic[i])) {
			char p[128];
			assay_json_path_key(p, sizeof(p), "$.config", nic[i]);
			cvs_note(x->im, p,
				 "CVS's NIC setup scripts and ibv device checks read it; assay "
				 "runs neither");
		}
}

/* What the disaggregated test does that the suite does otherwise. */
static void disagg_notes(struct dg *d)
{
	static const char *const skip[] = {"benchmark_serv_node", "log_dir", NULL};
	struct sg *x = &d->s;
	sg_why_notes(x, skip);
	if (json_object_get(x->cfg, "log_dir"))
		cvs_note(x->im, "$.config.log_dir",
			 "the run folder holds server-prefill/, server-decode/ and "
			 "server-router/server.log and each case's client output (CVS's "
			 "benchmark_node/benchmark_results.log is the case's stdout)");
	role_notes(d);
	cvs_note(x->im, "$.config.container_image",
		 "the prefill, decode and router processes run on their nodes, outside the "
		 "container (the client runs in it on %s): sglang.launch_server and "
		 "sglang_router must be installed on every node; CVS's env scripts also set "
		 "LD_LIBRARY_PATH for Mooncake and HF_TOKEN, and the router's only the NCCL "
		 "and gloo variables (here: none)",
		 d->hosts.v[0]);
	if (json_object_get(x->cfg, "nnodes"))
		cvs_note(
		    x->im, "$.config.nnodes",
		    "CVS's disaggregated test does not read it (the node lists give each role's "
		    "nodes); CVS starts each server with --host set to its node's name, here "
		    "--host 0.0.0.0");
	cvs_note(x->im, x->bp_path,
		 "CVS divides output throughput per GPU and MFU by (prefill + decode nodes) x "
		 "TP x PP GPUs (%lld); the sglang parser divides by the context's tp (%s)",
		 (d->np + d->nd) * strtoll(d->tp, NULL, 10) * x->pp, d->tp);
	sg_tail_notes(x, disagg_keys);
}

static void describe(json_t *suite, const char *base, const struct sg *x)
{
	char *t = xasprintf("ROCm/cvs %s (sglang_disagg_distributed, %s) as an assay suite, "
			    "written by `assay import cvs`: assay starts sglang.launch_server's "
			    "prefill and decode servers and sglang_router on their nodes, waits "
			    "for each /health and runs sglang.bench_serving against the router "
			    "once per threshold cell.",
			    base, x->bp_path + strlen("$.benchmark_params."));
	char *l = cvs_literal(t);
	json_object_set_new(suite, "description", json_string(l));
	free(l);
	free(t);
}

static int import_all(struct dg *d, const json_t *root, const char *base, json_t *suite,
		      json_t *env)
{
	struct sg *x = &d->s;
	x->cfg = json_object_get(root, "config");
	int rc = sg_pick_variant(x, root);
	if (!rc)
		rc = placement(d, suite);
	if (!rc)
		rc = settings(d);
	if (!rc && !d->client)
		d->client = xstrdup(d->router ? d->hosts.v[d->router] : "127.0.0.1");
	long long tp = rc ? 0 : strtoll(d->tp, NULL, 10);
	if (!rc)
		rc = sg_import_gates(x, tp, suite);
	if (!rc)
		rc = sg_import_env(x, d->model, d->tp, d->pp, env);
	if (!rc)
		rc = servers(d, env, suite);
	if (!rc)
		rc = sg_client_argv(x, d->client, d->port[2], d->prompts, suite);
	if (!rc)
		rc = sg_import_context(x, d->model, d->tp, d->prompts, suite);
	if (!rc)
		rc = sg_import_container(x, suite);
	if (!rc) {
		describe(suite, base, x);
		json_object_set(suite, "env", env);
		json_object_set_new(suite, "secrets", json_pack("[s]", "HF_TOKEN"));
		json_object_set_new(suite, "parser", json_string("sglang"));
		json_object_set_new(suite, "gpus_per_node", json_integer(tp));
		disagg_notes(d);
	}
	return rc;
}

assay_err cvs_import_sglang_disagg(const json_t *root, const char *config_path,
				   const struct assay_import_opts *o, struct assay_import *out,
				   struct assay_error *e)
{
	char *dir = cvs_config_dir(config_path);
	const char *base = strrchr(config_path, '/') ? strrchr(config_path, '/') + 1 : config_path;
	struct dg d = {.s = {.c = {config_path, e}, .o = o, .im = out, .dir = dir, .dist = true},
		       .hosts = STRLIST_INIT};
	json_t *suite = json_object(), *env = json_object();
	cvs_suite_name(suite, base);
	json_object_set_new(suite, "kind", json_string("inference"));
	assay_err err = cvs_inference_done(import_all(&d, root, base, suite, env), suite, out, e);
	json_decref(suite);
	json_decref(env);
	dg_release(&d);
	free(dir);
	return err;
}
