/* Importers: other tools' configurations turned into assay suites
 * (docs/migrating.md). Each writes a suite as JSON and lists, one line per
 * key, what it could not carry over; none of them prints. */
#ifndef ASSAY_IMPORT_H
#define ASSAY_IMPORT_H

#include <jansson.h>

#include "assay/error.h"
#include "assay/util.h"

struct assay_import_opts {
	const char *user;         /* replaces CVS's {user-id}; required */
	long long gpus_per_node;  /* GPUs of one node (CVS assumes 8) */
	const char *cluster_file; /* a CVS cluster file: the ssh launcher on its nodes; or NULL */
	const char *gpu_type;     /* an older config's GPU type key (mi300x, mi325, ...); or NULL */
	const char *thresholds_file; /* where an older config's minimums go; or NULL */
};

struct assay_import {
	json_t *suite;        /* the suite written, in file order */
	struct strlist notes; /* "$.path: not carried over: why", one per key */
	json_t *thresholds;   /* a CVS threshold file to write at opts.thresholds_file, or NULL */
};

void assay_import_init(struct assay_import *im);
void assay_import_release(struct assay_import *im);

/* A ROCm/cvs Megatron training configuration
 * (cvs/input/config_file/training/megatron/NAME.json) as a command suite: its
 * combos and runs, the training script and environment CVS gives it, nodes
 * and GPUs, its threshold file (resolved next to the config, as CVS does)
 * and loss-curve settings. ASSAY_USAGE naming the file and JSON path for a
 * config CVS would refuse (a <changeme> left in a value the suite needs, a
 * run naming no combination, a missing threshold file, ...). An older
 * non-schema config (top-level config and model_params, each result_dict
 * value a minimum) gives its minimums in out->thresholds, a CVS threshold
 * file the suite names as opts.thresholds_file (required then). */
assay_err assay_import_cvs(const char *config_path, const struct assay_import_opts *o,
			   struct assay_import *out, struct assay_error *e);
/* The same for a document already loaded; config_path names it in errors
 * and its folder is where the threshold file is looked for. */
assay_err assay_import_cvs_json(const json_t *root, const char *config_path,
				const struct assay_import_opts *o, struct assay_import *out,
				struct assay_error *e);

#endif
