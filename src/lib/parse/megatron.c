/* Format "megatron": Megatron-LM training logs. Iteration lines with or
 * without a timestamp (and the ROCm fork's "mem usages"), memory reports,
 * checkpoint, timer and evaluation lines, appended summary lines. The
 * scanning itself is shared with primus.c (train_scan.c). */
#include "train_scan.h"

const struct train_dialect train_megatron = {"megatron", TRAIN_LABELS_MEGATRON, NULL};

const char *const assay_megatron_metrics[] = {TRAIN_LOG_METRICS, NULL};

bool assay_detect_megatron(const char *data, size_t len)
{
	static const char *const marks[] = {
	    "elapsed time per iteration (ms)",
	    "consumed samples:",
	    "------------------------ arguments ------------------------",
	    "successfully loaded checkpoint",
	    "Megatron",
	    "megatron",
	};
	return train_has_mark(data, len, 4u << 20, marks, ARRAY_SIZE(marks));
}

assay_err assay_parse_megatron(const char *data, size_t len, const struct assay_parse_opts *o,
			       struct assay_rows *out, struct assay_error *e)
{
	return train_table_parse("megatron", data, len, o, out, e);
}
