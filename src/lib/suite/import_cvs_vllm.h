/* Shared by the CVS vLLM importer (import_cvs_vllm.c) and its multi-node
 * part (import_cvs_vllm_dist.c). Library-internal. */
#ifndef ASSAY_IMPORT_CVS_VLLM_H
#define ASSAY_IMPORT_CVS_VLLM_H

#include "assay/cfg.h"
#include "assay/import.h"
#include "assay/json.h"

struct vl {
	struct assay_cfg c;
	const struct assay_import_opts *o;
	struct assay_import *im;
	const char *dir;
	const json_t *params, *server;
	char *shared_fs;
	/* Multi-node (params.nnodes > 1, with --cluster): the nodes, the
	 * cluster file's first host (rank 0), master_addr and master_port. */
	long long nodes, pp;
	char *head;
	const char *master_addr, *master_port, *netdev;
};

/* A string setting; def when absent; NULL (with the error) when it is not
 * a string or still "<changeme>". */
const char *vl_str(struct vl *x, const json_t *obj, const char *parent, const char *key,
		   const char *def);
/* s appended to argv as a literal (cvs_literal). */
void vl_lit(json_t *argv, const char *s);

/* After the scale: a multi-node config needs --cluster (and enough hosts,
 * CVS's own checks), a single-node one refuses it; -1 with the error. */
int vl_dist_check(struct vl *x, long long nnodes, long long pp, json_t *suite);
/* CVS's NCCL variables of a multi-node server (build_server_cmd). */
void vl_dist_env(struct vl *x, json_t *env);
/* Each rank's shell: --headless above rank 0, then --node-rank. */
void vl_dist_prefix(json_t *argv);
/* The multi-node block of _server_argv, but --node-rank (the prefix's). */
void vl_dist_flags(const struct vl *x, json_t *argv);
/* What CVS does on its nodes that the suite does otherwise. */
void vl_dist_notes(struct vl *x);

#endif
