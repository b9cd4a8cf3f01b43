/* Image rules for madengine manifests: built_images and built_models pair
 * up by key (madengine runs an image only with the model entry of the same
 * key), and the images a run pulls are pinned to a tag other than latest. */
#include <stdlib.h>
#include <string.h>

#include "lint_int.h"

static const struct assay_lint_rule rules[] = {
    {"model-without-image", "images", ASSAY_LINT_ERROR, true, KIND(MANIFEST),
     "a built_models entry whose key names no built_images entry: it never runs"},
    {"image-without-model", "images", ASSAY_LINT_ERROR, true, KIND(MANIFEST),
     "a built_images entry without a built_models entry of the same key: it is skipped"},
    {"image-tag", "images", ASSAY_LINT_WARNING, true, KIND(MANIFEST) | KIND(SUITE),
     "an image reference without a tag or with the moving \"latest\" tag"},
    {"image-tag-reused", "images", ASSAY_LINT_ERROR, true, KIND(MANIFEST),
     "two local images built from different dockerfiles under one docker_image tag"},
};
#define R_NO_IMAGE (&rules[0])
#define R_NO_MODEL (&rules[1])
#define R_TAG      (&rules[2])
#define R_REUSED   (&rules[3])

/* Report each key of from (at from_path) that other lacks. */
static void unpaired(struct lint_ctx *c, const struct assay_lint_rule *rule, const json_t *from,
		     const json_t *other, const char *from_path, const char *what)
{
	const char *k;
	json_t *v;
	char b[96];
	json_object_foreach((json_t *)from, k, v)
	{
		if (json_is_object(other) && json_object_get(other, k))
			continue;
		char *p = lint_path_key(from_path, k);
		lint_report(c, rule, p, "%s entry %s %s", from_path + 2,
			    lint_brief(k, b, sizeof(b)), what);
		free(p);
	}
}

static void pair_keys(struct lint_ctx *c, const json_t *images, const json_t *models)
{
	/* Without model entries madengine discovers models itself: no pairing. */
	if (!json_is_object(models) || !json_object_size(models))
		return;
	unpaired(c, R_NO_IMAGE, models, images, "$.built_models",
		 "names no image in built_images: madengine never runs it");
	if (json_is_object(images))
		unpaired(c, R_NO_MODEL, images, models, "$.built_images",
			 "has no built_models entry of the same key: madengine skips it");
}

/* The tag of an image reference: "" when it has none, NULL when it is
 * pinned by digest. */
static const char *image_tag(const char *ref)
{
	if (strchr(ref, '@'))
		return NULL;
	const char *slash = strrchr(ref, '/');
	const char *last = slash ? slash + 1 : ref;
	const char *colon = strchr(last, ':');
	return colon ? colon + 1 : "";
}

static void check_ref(struct lint_ctx *c, const json_t *entry, const char *entry_path,
		      const char *field)
{
	const json_t *v = json_object_get(entry, field);
	if (!json_is_string(v) || !json_string_length(v))
		return;
	const char *ref = json_string_value(v);
	/* madengine's own build-phase images (ci-<model>_<dockerfile>) are local
	 * names identified by docker_sha; they are only pulled in local-image mode. */
	if (!strcmp(field, "docker_image") && assay_starts_with(ref, "ci-") && !strchr(ref, '/') &&
	    !json_is_true(json_object_get(entry, "local_image")))
		return;
	const char *tag = image_tag(ref);
	if (!tag || (*tag && strcmp(tag, "latest")))
		return;
	char *p = lint_path_key(entry_path, field);
	char b[96];
	if (!*tag)
		lint_report(
		    c, R_TAG, p,
		    "%s %s has no tag: docker resolves it to \"latest\", which moves; pin a "
		    "version tag or a digest",
		    field, lint_brief(ref, b, sizeof(b)));
	else
		lint_report(c, R_TAG, p,
			    "%s %s uses the moving \"latest\" tag; pin a version tag or a digest",
			    field, lint_brief(ref, b, sizeof(b)));
	free(p);
}

/* madengine's container runner runs a local_image entry's docker_image as
 * found by `docker image inspect`: the tag is the cache key, so two entries
 * built from different dockerfiles under one tag both run whichever image
 * holds the tag. */
static void check_reused(struct lint_ctx *c, const json_t *images)
{
	const char *k, *k2;
	json_t *e, *e2;
	json_object_foreach((json_t *)images, k, e)
	{
		const json_t *img = json_object_get(e, "docker_image");
		const json_t *df = json_object_get(e, "dockerfile");
		if (!json_is_true(json_object_get(e, "local_image")) || !json_is_string(img) ||
		    !json_is_string(df))
			continue;
		json_object_foreach((json_t *)images, k2, e2)
		{
			if (e2 == e)
				break;
			const json_t *img2 = json_object_get(e2, "docker_image");
			const json_t *df2 = json_object_get(e2, "dockerfile");
			if (!json_is_true(json_object_get(e2, "local_image")) ||
			    !json_equal(img, img2) || !json_is_string(df2) || json_equal(df, df2))
				continue;
			char *p = lint_path_key("$.built_images", k);
			char *pp = lint_path_key(p, "docker_image");
			char b1[96], b2[96];
			lint_report(
			    c, R_REUSED, pp,
			    "%s is also the local image of %s, built from another dockerfile: "
			    "madengine finds a local image by its tag, so both entries run "
			    "whichever was built last; give each build its own tag",
			    lint_brief(json_string_value(img), b1, sizeof(b1)),
			    lint_brief(k2, b2, sizeof(b2)));
			free(pp);
			free(p);
			break;
		}
	}
}

static void check(struct lint_ctx *c)
{
	if (c->kind == ASSAY_LINT_SUITE && json_is_object(c->doc)) {
		/* A suite's container image (docs/containers.md). */
		const json_t *ctr = json_object_get(c->doc, "container");
		if (json_is_object(ctr) && lint_on(c, R_TAG))
			check_ref(c, ctr, "$.container", "image");
		return;
	}
	if (c->kind != ASSAY_LINT_MANIFEST || !json_is_object(c->doc))
		return;
	const json_t *images = json_object_get(c->doc, "built_images");
	const json_t *models = json_object_get(c->doc, "built_models");
	pair_keys(c, images, models);
	if (!json_is_object(images))
		return;
	const char *k;
	json_t *entry;
	json_object_foreach((json_t *)images, k, entry)
	{
		if (!json_is_object(entry))
			continue;
		char *ep = lint_path_key("$.built_images", k);
		check_ref(c, entry, ep, "docker_image");
		check_ref(c, entry, ep, "registry_image");
		free(ep);
	}
	if (lint_on(c, R_REUSED))
		check_reused(c, images);
}

const struct lint_family lint_family_images = {"images", rules, ARRAY_SIZE(rules), check};
