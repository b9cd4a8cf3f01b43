/* Shared by the platform registry readers (platforms.c for assay's format,
 * collectivex.c for CollectiveX's): what every registry does with its
 * platforms object, whichever format describes one platform. */
#ifndef ASSAY_CONFIG_INT_H
#define ASSAY_CONFIG_INT_H

#include "assay/cfg.h"
#include "assay/config.h"

/* One platform of a registry: the object v at JSON path `path` into p (its
 * sku already set); -1 after a located error in c. */
typedef int (*config_platform_fn)(struct assay_cfg *c, const json_t *v, const char *path,
				  struct assay_platform *p);

/* The $.platforms object plats into reg (at least one platform, each read
 * by parse), sorted by SKU, and reg's digest of doc; -1 on an error. */
int config_platforms(struct assay_cfg *c, const json_t *doc, const json_t *plats,
		     struct assay_registry *reg, config_platform_fn parse);

#endif
