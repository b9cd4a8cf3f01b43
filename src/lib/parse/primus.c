/* Format "primus": Primus (Megatron backend) training logs. The Megatron
 * iteration line behind a logger prefix "[YYYYMMDD HH:MM:SS][rank-R/W][LEVEL]
 * [---file.py:N] :" with ANSI colours (also with the ESC byte lost), values
 * as X, X/Y or "X (avg Y)", both TFLOP labels, both token labels, HIP/ROCm
 * memory, and the launcher's "torchrun finished successfully" marker. */
#include <string.h>

#include "train_scan.h"

/* W of "rank-R/W" at h, or 0. */
static long long rank_world_at(const char *h, const char *end)
{
	const char *q = h + 5;
	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (q == h + 5 || q >= end || *q != '/')
		return 0;
	long long w = 0;
	int digits = 0;
	for (q++; q < end && *q >= '0' && *q <= '9' && digits < 9; q++, digits++)
		w = w * 10 + (*q - '0');
	return digits ? w : 0;
}

/* "rank-R/W" in the logger prefix: W is the world size. */
static long long primus_world(const char *p, size_t n)
{
	const char *end = p + n;
	for (const char *h = p; (h = memmem(h, (size_t)(end - h), "rank-", 5)); h += 5) {
		long long w = rank_world_at(h, end);
		if (w > 0)
			return w;
	}
	return 0;
}

const struct train_dialect train_primus = {"primus", TRAIN_LABELS_MEGATRON | TRAIN_LABELS_PRIMUS,
					   primus_world};

const char *const assay_primus_metrics[] = {
    TRAIN_LOG_METRICS, "mem_used_gb/max", "rocm_mem_usage_ratio/max", "rocm_mem_used_gb/max", NULL};

bool assay_detect_primus(const char *data, size_t len)
{
	static const char *const marks[] = {
	    "torchrun finished successfully",       "tokens/s/GPU inst/harmonic mean",
	    "compute per GPU (TFLOP/s/GPU)",        "tokens per GPU (tokens/s/GPU)",
	    "hip mem usage/free/total/usage_ratio", "[direct] python3 finished successfully",
	};
	size_t n = len < (1u << 20) ? len : (1u << 20);
	if (train_has_mark(data, n, n, marks, ARRAY_SIZE(marks)))
		return true;
	/* The logger prefix: "][rank-R/W]" (or with colour codes around it). */
	const char *end = data + n;
	for (const char *h = data; (h = memmem(h, (size_t)(end - h), "rank-", 5)); h += 5)
		if (h > data && (h[-1] == '[' || h[-1] == 'm') && rank_world_at(h, end) > 0)
			return true;
	return false;
}

assay_err assay_parse_primus(const char *data, size_t len, const struct assay_parse_opts *o,
			     struct assay_rows *out, struct assay_error *e)
{
	return train_table_parse("primus", data, len, o, out, e);
}
