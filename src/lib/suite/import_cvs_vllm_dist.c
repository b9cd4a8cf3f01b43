/* `assay import cvs` of a multi-node ROCm/cvs vLLM config (params.nnodes
 * > 1), as CVS's vllm_job.py runs it at dddd914: `vllm serve` on every
 * node of the cluster file in rank order (_server_argv: --node-rank,
 * --master-addr, --master-port, --nnodes, --pipeline-parallel-size,
 * --distributed-executor-backend mp, --headless above rank 0), its env
 * script with NCCL_IB_HCA and the ib_netdev interfaces (build_server_cmd),
 * the client on the head (run_client). The suite's server runs on the
 * ssh launcher's first nnodes hosts (docs/inference.md "A server on
 * nodes"); each rank's shell adds what depends on NODE_RANK. The checks
 * are vllm_config_loader.py's (_check_distributed_consistency). */
#include <string.h>

#include "assay/launch.h"
#include "import_cvs_vllm.h"
#include "suite_int.h"

static bool ray_backend(const struct vl *x)
{
	const json_t *b = json_object_get(json_object_get(x->server, "serve_args"),
					  "distributed-executor-backend");
	return json_is_string(b) && !strcmp(json_string_value(b), "ray");
}

/* ib_hca_devices as CVS's loader takes it: absent, null, "auto" or a list
 * of device names. */
static bool hca_ok(const json_t *hca)
{
	size_t i;
	const json_t *h;
	if (!hca || json_is_null(hca))
		return true;
	if (json_is_string(hca))
		return !strcmp(json_string_value(hca), "auto");
	if (!json_is_array(hca))
		return false;
	json_array_foreach(hca, i, h)
	{
		if (!json_is_string(h))
			return false;
	}
	return true;
}

/* CVS's loader checks for a multi-node config, and what the suite cannot
 * run (a Ray cluster). */
static int dist_consistency(struct vl *x, long long nnodes, long long pp)
{
	if (ray_backend(x))
		return assay_cfg_fail(
		    &x->c, "$.roles.server.serve_args.distributed-executor-backend",
		    "\"ray\" on %lld nodes: CVS starts a Ray cluster (ray start on "
		    "every node) and vllm serve on the head only; an assay suite "
		    "starts no Ray cluster",
		    nnodes);
	if (pp == 1)
		return assay_cfg_fail(
		    &x->c, "$.params.pipeline_parallel_size",
		    "1 on %lld nodes: CVS refuses it (its multi-node server splits "
		    "the model into pipeline stages across the nodes: > 1 expected)",
		    nnodes);
	if (!hca_ok(json_object_get(x->server, "ib_hca_devices")))
		return assay_cfg_expected(&x->c, "$.roles.server.ib_hca_devices",
					  "\"auto\" or an array of device names (strings)",
					  json_object_get(x->server, "ib_hca_devices"));
	if (!json_object_get(x->server, "ib_netdev"))
		return assay_cfg_fail(
		    &x->c, "$.roles.server",
		    "missing key \"ib_netdev\": CVS requires it on %lld nodes (the "
		    "interface for NCCL_SOCKET_IFNAME and GLOO_SOCKET_IFNAME)",
		    nnodes);
	return 0;
}

/* The cluster file's hosts: at least nnodes; the first is rank 0. */
static int dist_hosts(struct vl *x, long long nnodes)
{
	struct strlist hosts = STRLIST_INIT;
	if (assay_ssh_cluster_hosts(x->o->cluster_file, &hosts, x->c.err) != ASSAY_OK)
		return -1;
	size_t n = hosts.n;
	x->head = n ? xstrdup(hosts.v[0]) : NULL;
	strlist_clear(&hosts);
	if ((long long)n < nnodes)
		return assay_cfg_fail(&x->c, "$.params.nnodes",
				      "%lld nodes, but %s lists %zu: CVS starts vllm serve on one "
				      "node per rank and has none for the rest",
				      nnodes, x->o->cluster_file, n);
	return 0;
}

int vl_dist_check(struct vl *x, long long nnodes, long long pp, json_t *suite)
{
	x->nodes = nnodes;
	x->pp = pp;
	if (nnodes == 1 && pp > 1)
		return assay_cfg_fail(&x->c, "$.params.pipeline_parallel_size",
				      "%lld on one node: CVS refuses it (pipeline stages split the "
				      "model across nodes: nnodes > 1 expected)",
				      pp);
	if (nnodes == 1)
		return x->o->cluster_file
			   ? assay_cfg_fail(&x->c, "$",
					    "--cluster %s: an inference suite starts its server on "
					    "the host assay runs on; run the suite there, without "
					    "--cluster",
					    x->o->cluster_file)
			   : 0;
	if (!x->o->cluster_file)
		return assay_cfg_fail(&x->c, "$.params.nnodes",
				      "%lld nodes: give the CVS cluster file it runs on (--cluster "
				      "FILE): each node's vllm serve takes its node rank from the "
				      "ssh launcher (docs/import.md)",
				      nnodes);
	long long port;
	if (dist_consistency(x, nnodes, pp) < 0 ||
	    !(x->netdev = vl_str(x, x->server, "$.roles.server", "ib_netdev", NULL)) ||
	    !(x->master_addr = vl_str(x, x->params, "$.params", "master_addr", "localhost")) ||
	    !(x->master_port = vl_str(x, x->params, "$.params", "master_port", "29501")) ||
	    cvs_count(&x->c, "$.params.master_port", x->master_port, &port) < 0 ||
	    dist_hosts(x, nnodes) < 0)
		return -1;
	json_object_set_new(
	    suite, "launcher",
	    json_pack("{s:s, s:s}", "type", "ssh", "cluster_file", x->o->cluster_file));
	return 0;
}

void vl_dist_env(struct vl *x, json_t *env)
{
	const json_t *hca = json_object_get(x->server, "ib_hca_devices");
	if (json_is_array(hca)) {
		struct sbuf sb = SBUF_INIT;
		size_t i;
		const json_t *h;
		sbuf_adds(&sb, "");
		json_array_foreach(hca, i, h)
		{
			if (i)
				sbuf_addch(&sb, ',');
			sbuf_adds(&sb, json_is_string(h) ? json_string_value(h) : "");
		}
		char *s = sbuf_detach(&sb, NULL);
		cvs_env_set(env, "NCCL_IB_HCA", s);
		free(s);
	}
	static const char *const ifs[] = {"NCCL_SOCKET_IFNAME", "GLOO_SOCKET_IFNAME",
					  "TP_SOCKET_IFNAME"};
	for (size_t i = 0; i < ARRAY_SIZE(ifs); i++)
		cvs_env_set(env, ifs[i], x->netdev);
}

void vl_dist_prefix(json_t *argv)
{
	vl_lit(argv, "bash");
	vl_lit(argv, "-c");
	vl_lit(argv, "if [ \"$NODE_RANK\" -gt 0 ]; then set -- \"$@\" --headless; fi; "
		     "exec \"$@\" --node-rank \"$NODE_RANK\"");
	vl_lit(argv, "vllm-node");
}

void vl_dist_flags(const struct vl *x, json_t *argv)
{
	char *nn = xasprintf("%lld", x->nodes), *pp = xasprintf("%lld", x->pp);
	const char *const d[] = {"--master-addr",
				 x->master_addr,
				 "--master-port",
				 x->master_port,
				 "--nnodes",
				 nn,
				 "--pipeline-parallel-size",
				 pp,
				 "--distributed-executor-backend",
				 "mp"};
	for (size_t i = 0; i < ARRAY_SIZE(d); i++)
		vl_lit(argv, d[i]);
	free(nn);
	free(pp);
}

void vl_dist_notes(struct vl *x)
{
	cvs_note(x->im, "$.params.nnodes",
		 "vllm serve runs on the first %lld node(s) of %s, in its order (rank 0 on %s, "
		 "--headless on the others), as the ssh launcher takes them; the client runs on "
		 "%s against base_url, as CVS's runs on its head; assay asks "
		 "http://%s:PORT/health from its own host",
		 x->nodes, x->o->cluster_file, x->head, x->head, x->head);
	const json_t *hca = json_object_get(x->server, "ib_hca_devices");
	if (!json_is_array(hca))
		cvs_note(x->im, "$.roles.server.ib_hca_devices",
			 "CVS sets NCCL_IB_HCA to every device ibv_devinfo -l lists; the suite "
			 "leaves it unset (set it in $.env to name them)");
}
