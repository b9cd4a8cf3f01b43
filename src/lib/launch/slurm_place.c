/* Where a Slurm case runs: the launcher's options with the registry's site
 * defaults, the case's shape (nodes, tasks, GPUs), and whether it runs in
 * place inside the allocation assay runs in or as a job of its own (or its
 * shard's). */
#include <stdio.h>
#include <string.h>

#include "assay/config.h"
#include "assay/slurm.h"
#include "slurm_int.h"

extern char **environ;

assay_err slurm_place(const struct slurm_launcher *l, const struct assay_launch_spec *s,
		      struct assay_slurm_options *o, struct assay_slurm_shape *shape,
		      struct assay_error *e)
{
	assay_slurm_options_copy(o, &l->o);
	if (s->platform)
		assay_slurm_options_apply_operator(o, s->platform->op);
	if (s->mpi_ranks > 0 && s->platform) {
		if (assay_slurm_shape_ep(s->platform, s->registry_file, o, l->where, s->mpi_ranks,
					 shape, e) != ASSAY_OK)
			return ASSAY_USAGE;
		if (s->nodes && shape->nodes != s->nodes)
			return assay_error_set(
			    e, ASSAY_USAGE,
			    "%s: case %s: EP %lld needs %lld node(s) of platform %s, "
			    "but the matrix planned %lld",
			    l->where, s->case_id, s->mpi_ranks, shape->nodes, s->platform->sku,
			    s->nodes);
		return ASSAY_OK;
	}
	long long nodes = s->nodes > 0 ? s->nodes : 1;
	long long tasks = o->ntasks_per_node ? o->ntasks_per_node : 1;
	if (s->mpi_ranks > 0)
		tasks = (s->mpi_ranks + nodes - 1) / nodes;
	if (!s->platform && o->gpus_per_node && s->gpus_per_node &&
	    o->gpus_per_node != s->gpus_per_node)
		return assay_error_set(e, ASSAY_USAGE,
				       "%s: gpus_per_node %lld disagrees with the suite's "
				       "gpus_per_node (%lld)",
				       l->where, o->gpus_per_node, s->gpus_per_node);
	if (assay_slurm_shape_nodes(s->platform, s->registry_file, o, l->where, nodes, tasks, shape,
				    e) != ASSAY_OK)
		return ASSAY_USAGE;
	if (!s->platform)
		shape->gpus_per_node = o->gpu_gres == 0 ? 0 : s->gpus_per_node;
	return ASSAY_OK;
}

assay_err slurm_check(struct assay_launcher *base, const struct assay_launch_spec *s,
		      struct assay_error *e)
{
	struct assay_slurm_options o;
	struct assay_slurm_shape shape;
	assay_err rc = slurm_place((struct slurm_launcher *)base, s, &o, &shape, e);
	assay_slurm_options_release(&o);
	return rc;
}

/* Inside an allocation that can hold the case: run it there. */
void slurm_choose_mode(struct slurm_launcher *l, struct assay_job *j)
{
	j->mode = l->o.job_per == ASSAY_SLURM_PER_CASE || !j->group ? PER_CASE : PER_SHARD;
	/* The variants and repeats of one case share a job whatever job_per says. */
	if (j->mode == PER_CASE && j->share) {
		free(j->group);
		j->group = xstrdup(j->share);
		j->mode = PER_SHARD;
		j->shared = true;
	}
	if (!l->alloc_known) {
		struct assay_error ae;
		l->alloc_known = true;
		if (assay_slurm_alloc_detect(environ, &l->alloc, &ae) != ASSAY_OK)
			snprintf(l->alloc_error, sizeof(l->alloc_error), "%s", ae.message);
	}
	if (l->alloc_error[0]) {
		snprintf(j->why, sizeof(j->why), "the allocation cannot be used: %s",
			 l->alloc_error);
		return;
	}
	if (!l->alloc.inside)
		return;
	struct strlist use = STRLIST_INIT;
	if (!assay_slurm_alloc_fits(&l->alloc, j->shape.nodes, j->o.nodelist, j->o.exclude, &use,
				    j->why, sizeof(j->why))) {
		strlist_clear(&use);
		return;
	}
	if (l->alloc.cpus_per_node > 0 && j->shape.ntasks_per_node > l->alloc.cpus_per_node) {
		snprintf(j->why, sizeof(j->why),
			 "the case runs %lld task(s) per node; allocation %s has %lld CPU(s) on "
			 "its smallest node",
			 j->shape.ntasks_per_node, l->alloc.job_id, l->alloc.cpus_per_node);
		strlist_clear(&use);
		return;
	}
	j->mode = IN_PLACE;
	j->hosts = use;
}
