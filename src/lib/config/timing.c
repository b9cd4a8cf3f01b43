/* The EP timing profiles (quick, reference) and the timing object shared by
 * sweeps and assay-ep --timing files. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "assay/config.h"
#include "assay/json.h"

static const struct assay_timing profiles[] = {
    {"reference", 256, 8, 32, 4, 128, 16},
    {"quick", 16, 8, 4, 2, 32, 4},
};

int assay_timing_profile(const char *name, struct assay_timing *t)
{
	for (size_t i = 0; i < ARRAY_SIZE(profiles); i++)
		if (!strcmp(profiles[i].profile, name)) {
			*t = profiles[i];
			return 0;
		}
	return -1;
}

int assay_timing_parse(struct assay_cfg *c, const json_t *v, const char *path,
		       struct assay_timing *t)
{
	static const char *const keys[] = {
	    "profile",      "trials",      "iters_per_trial", "warmups_per_trial",
	    "chain_trials", "chain_pairs", "chain_drop",      NULL};
	static const char *const names[] = {"quick", "reference", NULL};
	if (assay_cfg_object(c, v, path, keys) < 0)
		return -1;
	const char *profile = NULL;
	int rc = assay_cfg_enum(c, v, path, "profile", ASSAY_CFG_OPTIONAL, names, &profile);
	if (rc < 0)
		return -1;
	int req = ASSAY_CFG_REQUIRED;
	if (profile) {
		assay_timing_profile(profile, t);
		req = ASSAY_CFG_OPTIONAL;
	} else {
		memset(t, 0, sizeof(*t));
		snprintf(t->profile, sizeof(t->profile), "custom");
	}
	struct {
		const char *key;
		long long min;
		long long *out;
	} f[] = {
	    {"trials", 1, &t->trials},
	    {"iters_per_trial", 1, &t->iters_per_trial},
	    {"warmups_per_trial", 0, &t->warmups_per_trial},
	    {"chain_trials", 1, &t->chain_trials},
	    {"chain_pairs", 1, &t->chain_pairs},
	    {"chain_drop", 0, &t->chain_drop},
	};
	bool overridden = false;
	for (size_t i = 0; i < ARRAY_SIZE(f); i++) {
		rc = assay_cfg_int(c, v, path, f[i].key, req, f[i].min, LLONG_MAX, f[i].out);
		if (rc < 0)
			return -1;
		overridden |= rc > 0;
	}
	if (profile && overridden)
		snprintf(t->profile, sizeof(t->profile), "custom");
	if (t->chain_drop >= t->chain_pairs) {
		char p[256];
		assay_json_path_key(p, sizeof(p), path, "chain_drop");
		return assay_cfg_fail(c, p, "expected fewer than chain_pairs (%lld), got %lld",
				      t->chain_pairs, t->chain_drop);
	}
	return 0;
}

assay_err assay_timing_load_file(const char *file, struct assay_timing *t, struct assay_error *e)
{
	json_t *doc = assay_json_load_file(file, e);
	if (!doc)
		return ASSAY_USAGE;
	struct assay_cfg c = {file, e};
	int rc = assay_timing_parse(&c, doc, "$", t);
	json_decref(doc);
	return rc < 0 ? ASSAY_USAGE : ASSAY_OK;
}

json_t *assay_timing_to_json(const struct assay_timing *t)
{
	return json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I}", "profile", t->profile, "trials",
			 (json_int_t)t->trials, "iters_per_trial", (json_int_t)t->iters_per_trial,
			 "warmups_per_trial", (json_int_t)t->warmups_per_trial, "chain_trials",
			 (json_int_t)t->chain_trials, "chain_pairs", (json_int_t)t->chain_pairs,
			 "chain_drop", (json_int_t)t->chain_drop);
}
