/* `assay-ep run`: one case (a ladder of token counts) under mpirun -np EP:
 * check the memory every point needs, then one point at a time stage it,
 * measure its copy pattern, run the oracle, time it per the contract, run
 * the oracle again and free it; write the artifact and the table on rank 0. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/json.h"
#include "assay/util.h"
#include "bench.h"

/* The command line of `assay-ep run`, read by ep_parse_opts (main.c) at
 * the offsets of run_opts; --backend, --phase, --mode and --precision are
 * checked after, with the rest (check_choices). */
struct run_args {
	long long ep, sud;
	struct ep_shape_opts sh;
	const char *backend, *phase, *mode, *precision, *tokens, *profile, *timing, *workload, *out,
	    *copy, *reduce, *inject;
	bool round_scale;           /* --mode low-latency */
	long long max_disp, masked; /* --mode low-latency */
	const char *verify;
	long long verify_seed;
};

static const char *const phases[] = {"decode", "prefill", NULL};
static const char *const modes[] = {"normal", "low-latency", NULL};
static const char *const profiles[] = {"quick", "reference", NULL};

static void backends_required(struct sbuf *sb)
{
	ep_backend_words(sb);
	sbuf_addf(sb, " (required)");
}

static void precisions_required(struct sbuf *sb)
{
	ep_choice_words(sb, assay_known_precisions);
	sbuf_addf(sb, " (required)");
}

#define A struct run_args
static const struct cli_opt run_opts[] = {
    {.type = CLI_STRING,
     .name = "backend",
     .arg = "B",
     .off = offsetof(A, backend),
     .min = 1,
     .help = "the backend:",
     .help_more = backends_required,
     .choices = (const char *const *)ep_backend_names},
    {.type = CLI_INT,
     .name = "ep",
     .arg = "E",
     .off = offsetof(A, ep),
     .min = 1,
     .max = 1 << 16,
     .help = "EP ranks; must equal the number of MPI ranks (required)"},
    {.type = CLI_STRING,
     .name = "phase",
     .arg = "P",
     .off = offsetof(A, phase),
     .min = 1,
     .help = "decode or prefill, a label of the ladder (required)",
     .choices = phases},
    {.type = CLI_STRING,
     .name = "precision",
     .arg = "P",
     .off = offsetof(A, precision),
     .min = 1,
     .help = "the dispatch payload:",
     .help_more = precisions_required,
     .choices = assay_known_precisions},
    {.type = CLI_STRING,
     .name = "tokens",
     .arg = "LADDER",
     .off = offsetof(A, tokens),
     .min = 1,
     .help = "tokens per rank, e.g. 1,8,64,128 or 1024,2048 (required)"},
    {.type = CLI_STRING,
     .name = "mode",
     .arg = "M",
     .off = offsetof(A, mode),
     .min = 1,
     .help = "normal or low-latency (DeepEP's low-latency kernels;\nhost backends mpi and shm)",
     .def = "normal",
     .choices = modes},
    {.type = CLI_STRING,
     .name = "profile",
     .arg = "NAME",
     .off = offsetof(A, profile),
     .min = 1,
     .help = "timing profile: quick or reference",
     .def = "quick",
     .choices = profiles},
    {.type = CLI_STRING,
     .name = "timing",
     .arg = "FILE",
     .off = offsetof(A, timing),
     .min = 1,
     .help = "timing profile from a JSON file (docs/config.md)"},
    CLI_OPT_TABLE(ep_shape_cli, A, sh),
    {.type = CLI_INT,
     .name = "scale-up-domain",
     .arg = "N",
     .off = offsetof(A, sud),
     .min = 1,
     .max = 1 << 16,
     .help = "ranks per scale-up domain",
     .def = "EP: one domain"},
    {.type = CLI_STRING,
     .name = "workload",
     .arg = "NAME",
     .off = offsetof(A, workload),
     .min = 1,
     .help = "workload label (default deepseek-v3 for the reference\nsizes, custom otherwise)"},
    {.type = CLI_CHOICE,
     .name = "copy",
     .arg = "memcpy|nt",
     .off = offsetof(A, copy),
     .help = "shm copy routine (default: the one whose dispatch is\nfaster, timed on each "
	     "point at setup)",
     .choices = ep_copy_names},
    {.type = CLI_CHOICE,
     .name = "reduce",
     .arg = "ISA",
     .off = offsetof(A, reduce),
     .help = "combine reduction of the host backends: avx512, avx2,\nsse2 or scalar (default: "
	     "the widest this CPU has)",
     .choices = ep_reduce_names},
    {.type = CLI_CHOICE,
     .name = "inject",
     .arg = "FAULT",
     .off = offsetof(A, inject),
     .help = "corrupt one value on one rank before the first\noracle pass: combine-bitflip, "
	     "dispatch-drop, wrong-expert,\npayload-bitflip, weight-bitflip, id-erase, "
	     "routing-skew",
     .choices = ep_inject_names + 1},
    {.type = CLI_INT,
     .name = "max-dispatch-tokens",
     .arg = "N",
     .off = offsetof(A, max_disp),
     .min = 1,
     .max = 1ll << 31,
     .help = "low-latency: receive slots per rank and expert\n(num_max_dispatch_tokens_per_rank)",
     .def = "the largest ladder entry"},
    {.type = CLI_INT,
     .name = "masked-slots",
     .arg = "N",
     .off = offsetof(A, masked),
     .min = 0,
     .max = 1 << 20,
     .help = "low-latency: top-k ids set to -1 per rank (DeepEP's\ntest masks 10)",
     .def = "0"},
    {.type = CLI_FLAG,
     .name = "round-scale",
     .off = offsetof(A, round_scale),
     .help = "low-latency FP8: power-of-two scales (DeepEP round_scale)"},
    {.type = CLI_CHOICE,
     .name = "verify",
     .arg = "WHICH",
     .off = offsetof(A, verify),
     .help = "timed calls the oracle checks: sample (one random call\nper component per "
	     "trial, the default), all, or off",
     .choices = ep_verify_names},
    {.type = CLI_INT,
     .name = "verify-seed",
     .arg = "N",
     .off = offsetof(A, verify_seed),
     .min = 0,
     .help = "seed of the random subset (default: drawn each run;\nthe artifact records it)"},
    {.type = CLI_STRING,
     .name = "out",
     .arg = "FILE",
     .off = offsetof(A, out),
     .min = 1,
     .help = "write the artifact (schema assay.ep.case/1) to FILE"},
    CLI_OPT_END,
};
#undef A

const struct cli_spec ep_run_spec = {
    .name = "run",
    .usage = "mpirun -np EP assay-ep run --backend mpi|shm|nccl|rccl --ep EP --phase "
	     "decode|prefill\n    --precision bf16|fp8 --tokens LADDER [options]",
    .about = "Runs one case: every token count of LADDER (tokens per rank, comma-separated)\n"
	     "is staged, checked by the oracle, timed per the timing contract, and checked\n"
	     "again (docs/ep.md). Rank 0 prints a table and writes the artifact.\n",
    .opts = run_opts,
    .examples = "mpirun -np 2 assay-ep run --backend shm --ep 2 --phase decode --precision "
		"bf16 \\\n    --tokens 1,8,64,128 --hidden 7168 --out shm-decode.json",
    .exits = "exit: 0 every point valid, 2 bad arguments, 3 a point invalid, 4 unsupported\n"
	     "(the artifact says why), 5 MPI/CUDA setup failure.\n",
};

static int parse_ladder(const char *s, struct ep_run *run)
{
	struct strlist parts = STRLIST_INIT;
	const char *p = s;
	int rc = 0;
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		char *item = xstrndup(p, n);
		strlist_push(&parts, item);
		free(item);
		p += n + (comma ? 1 : 0);
	}
	run->ladder = xcalloc(parts.n ? parts.n : 1, sizeof(*run->ladder));
	for (size_t i = 0; i < parts.n && !rc; i++) {
		long long v;
		if (!assay_parse_long(parts.v[i], &v) || v < 1 || v > (1ll << 31)) {
			rc = ep_usage(
			    "run",
			    "--tokens: expected positive integers separated by commas, got '%s'",
			    s);
			break;
		}
		for (size_t j = 0; j < i; j++)
			if (run->ladder[j] == v)
				rc = ep_usage("run", "--tokens: %lld appears twice", v);
		run->ladder[i] = v;
	}
	if (!parts.n && !rc)
		rc = ep_usage(
		    "run", "--tokens: expected positive integers separated by commas, got '%s'", s);
	run->npoints = parts.n;
	strlist_clear(&parts);
	return rc;
}

/* --profile or --timing into run->timing, its sample counts checked before
 * anything is allocated. */
static int load_timing(struct ep_run *run, const char *profile, const char *timing_file)
{
	if (profile && timing_file)
		return ep_usage("run", "--profile and --timing exclude each other");
	if (timing_file) {
		struct assay_error e;
		if (assay_timing_load_file(timing_file, &run->timing, &e) != ASSAY_OK) {
			if (!ep_quiet) {
				char buf[2048];
				fprintf(stderr, "%s\n", assay_error_format(&e, buf, sizeof(buf)));
			}
			return ASSAY_USAGE;
		}
	} else if (assay_timing_profile(profile ? profile : "quick", &run->timing) < 0) {
		return ep_usage("run", "--profile: expected quick or reference, got '%s'", profile);
	}
	/* Sample buffers and MPI counts: checked before anything is allocated. */
	const struct assay_timing *tm = &run->timing;
	double nsamp = (double)tm->trials * (double)tm->iters_per_trial;
	double nchain = (double)tm->chain_trials * (double)(tm->chain_pairs - tm->chain_drop);
	if (nsamp > INT_MAX || nchain > INT_MAX)
		return ep_usage(
		    "run",
		    "timing: %.0f samples per component (trials * iters_per_trial) and "
		    "%.0f chained pairs (chain_trials * (chain_pairs - chain_drop)); at "
		    "most %d each",
		    nsamp, nchain, INT_MAX);
	return 0;
}

static int lookup(const char *const *names, const char *s)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

/* --backend, --phase, --mode and --precision name one of their values;
 * *prec gets the precision. */
static int check_choices(const struct ep_run *run, const char *precision, int *prec)
{
	struct sbuf words = SBUF_INIT;
	if (!ep_backend_find(run->backend_name)) {
		ep_backend_words(&words);
		ep_usage("run", "--backend: expected %s, got '%s'", sbuf_str(&words),
			 run->backend_name);
		sbuf_release(&words);
		return ASSAY_USAGE;
	}
	if (lookup(phases, run->phase) < 0)
		return ep_usage("run", "--phase: expected decode or prefill, got '%s'", run->phase);
	if (lookup(modes, run->mode) < 0)
		return ep_usage("run", "--mode: expected normal or low-latency, got '%s'",
				run->mode);
	*prec = ep_precision_parse(precision);
	if (*prec < 0) {
		ep_choice_words(&words, assay_known_precisions);
		ep_usage("run", "--precision: expected %s, got '%s'", sbuf_str(&words), precision);
		sbuf_release(&words);
		return ASSAY_USAGE;
	}
	return 0;
}

/* The problem of every ladder point, checked; the workload's name; --out's
 * folder writable. */
static int fill_problem(struct ep_run *run, const struct ep_shape_opts *sh, long long ep,
			long long sud, int prec)
{
	struct assay_ep_problem *p = &run->base;
	p->ep = ep;
	p->hidden = sh->hidden;
	p->experts = sh->experts;
	p->topk = sh->topk;
	p->seed = (uint64_t)sh->seed;
	p->scale_up_domain = sud ? sud : ep;
	p->precision = (enum assay_ep_precision)prec;
	for (size_t i = 0; i < run->npoints; i++) {
		struct assay_error e;
		p->tokens = run->ladder[i];
		if (assay_ep_problem_check(p, &e) != ASSAY_OK)
			return ep_usage("run", "%s", e.message);
	}
	if (!run->workload)
		run->workload = ep_shape_is_reference(sh) ? "deepseek-v3" : "custom";
	int rc = ep_routing_prepare("run", sh->routing, p->experts, p->topk, &run->dist);
	if (rc)
		return rc;
	p->dist = &run->dist;
	if (!rc && run->out_file) {
		char *dir = xstrdup(run->out_file), *slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		if (access(slash ? (*dir ? dir : "/") : ".", W_OK) != 0)
			rc = ep_usage("run", "--out: cannot write to directory of '%s'",
				      run->out_file);
		free(dir);
	}
	return rc;
}

/* The low-latency options: only with --mode low-latency (and --round-scale
 * only with FP8), --max-dispatch-tokens at least every ladder entry
 * (default the largest), no fault injection (the mutants test its oracle). */
static int check_ll(struct ep_run *run, const struct run_args *a)
{
	run->ll = !strcmp(a->mode, "low-latency");
	int64_t top = 0;
	for (size_t i = 0; i < run->npoints; i++)
		top = run->ladder[i] > top ? run->ladder[i] : top;
	if (!run->ll) {
		const char *flag = a->round_scale ? "--round-scale"
				   : a->max_disp  ? "--max-dispatch-tokens"
				   : a->masked    ? "--masked-slots"
						  : NULL;
		return flag ? ep_usage("run", "%s applies to --mode low-latency only", flag) : 0;
	}
	if (a->round_scale && strcmp(a->precision, "fp8"))
		return ep_usage("run", "--round-scale applies to --precision fp8 only");
	if (run->inject)
		return ep_usage("run", "--inject applies to --mode normal only");
	if (a->max_disp && a->max_disp < top)
		return ep_usage(
		    "run", "--max-dispatch-tokens %lld is below the ladder's largest entry %lld",
		    a->max_disp, (long long)top);
	run->ll_max_tokens = a->max_disp ? a->max_disp : top;
	run->ll_masked = a->masked;
	run->ll_round_scale = a->round_scale;
	return 0;
}

static int parse_args(int argc, char **argv, struct ep_run *run)
{
	struct run_args a = {.sh = EP_SHAPE_DEFAULTS, .mode = "normal", .verify_seed = -1};
	int prec = 0;
	run->copy = EP_COPY_NT;
	if (ep_parse_opts("run", argc, argv, run_opts, &a))
		return ASSAY_USAGE;
	run->backend_name = a.backend, run->phase = a.phase, run->mode = a.mode;
	run->workload = a.workload, run->out_file = a.out;
	if (a.copy)
		run->copy = (enum ep_copy_kind)lookup(ep_copy_names, a.copy), run->copy_set = true;
	if (a.inject)
		run->inject = (enum ep_inject)(lookup(ep_inject_names + 1, a.inject) + 1);
	if (a.verify)
		run->verify = (enum ep_verify_mode)lookup(ep_verify_names, a.verify);
	if (a.verify_seed >= 0)
		run->verify_seed = (uint64_t)a.verify_seed, run->verify_seed_set = true;
	int reduce = a.reduce ? lookup(ep_reduce_names, a.reduce) : -1;
	if (reduce >= 0 && !ep_reduce_select(reduce))
		return ep_usage("run",
				"--reduce %s: this CPU or build does not have it (it has %s)",
				ep_reduce_names[reduce], ep_reduce_names[ep_reduce_isa()]);
	static const char *const required[] = {"--backend", "--ep", "--phase", "--precision",
					       "--tokens"};
	const void *have[] = {a.backend, a.ep ? "" : NULL, a.phase, a.precision, a.tokens};
	for (size_t i = 0; i < ARRAY_SIZE(required); i++)
		if (!have[i])
			return ep_usage("run", "%s is required (see assay-ep run --help)",
					required[i]);
	int rc = check_choices(run, a.precision, &prec);
	if (!rc)
		rc = load_timing(run, a.profile, a.timing);
	if (rc)
		return rc;
	if (run->inject == EP_INJECT_WRONG_EXPERT && a.sh.experts / a.ep < 2)
		return ep_usage(
		    "run",
		    "--inject wrong-expert needs ranks that own two experts or more, but "
		    "each rank owns %lld (--experts %lld / --ep %lld)",
		    a.sh.experts / a.ep, a.sh.experts, a.ep);
	if (run->inject == EP_INJECT_ROUTING_SKEW && a.ep < 2)
		return ep_usage("run", "--inject routing-skew needs at least 2 ranks (it compares "
				       "every rank's routing with rank 0's)");
	rc = parse_ladder(a.tokens, run);
	if (!rc)
		rc = check_ll(run, &a);
	return rc ? rc : fill_problem(run, &a.sh, a.ep, a.sud, prec);
}

/* Exit code and outcome; reasons collected for the artifact. */
static int finish(struct ep_run *run, const char *outcome, struct strlist *reasons, int code)
{
	run->finished = assay_monotonic();
	assay_now_rfc3339(run->finished_at);
	if (run->rank == 0) {
		if (strcmp(outcome, "unsupported"))
			ep_print_table(run);
		for (size_t i = 0; i < reasons->n; i++)
			fprintf(stderr, "assay-ep: %s: %s\n", outcome, reasons->v[i]);
		bool written = true;
		if (run->out_file) {
			struct assay_error e;
			if (ep_write_artifact(run, outcome, reasons, code, &e) != ASSAY_OK) {
				char buf[2048];
				fprintf(stderr, "assay-ep: %s\n",
					assay_error_format(&e, buf, sizeof(buf)));
				code = ASSAY_INFRA;
				written = false;
			}
		}
		if (written)
			printf("outcome: %s%s%s\n", outcome, run->out_file ? ", artifact " : "",
			       run->out_file ? run->out_file : "");
		else
			printf("outcome: error: the artifact %s could not be written (exit %d; "
			       "the points measured %s)\n",
			       run->out_file, code, outcome);
		fflush(stdout);
	}
	MPI_CHECK(MPI_Bcast(&code, 1, MPI_INT, 0, run->comm));
	return code;
}

/* The backend's setup; on failure the reason (from the lowest rank that has
 * one) is in reason on every rank. */
static assay_err setup_backend(struct ep_run *run, char *reason, size_t size)
{
	assay_err setup;
	if (run->ll && !ep_ll_backend(run->be)) {
		snprintf(reason, size,
			 "the low-latency mode runs on the host backends (mpi, shm); %s runs the "
			 "normal mode only",
			 run->be->name);
		setup = ASSAY_NO_METRICS;
	} else {
		setup = run->be->setup(run, reason, size);
		if (setup == ASSAY_OK && run->ll)
			run->be = ep_ll_backend(run->be);
	}
	if (setup != ASSAY_OK) {
		int has = reason[0] != '\0', who = has ? run->rank : run->size, first = 0;
		MPI_CHECK(MPI_Allreduce(&who, &first, 1, MPI_INT, MPI_MIN, run->comm));
		if (first < run->size)
			MPI_CHECK(MPI_Bcast(reason, (int)size, MPI_CHAR, first, run->comm));
	}
	return setup;
}

/* One ladder point: staged, its ceiling's pattern and shm's routine chosen,
 * checked by the oracle, timed, checked again, and freed. */
static void run_point(struct ep_run *run, struct ep_point *pt, int64_t tokens)
{
	double t0 = assay_monotonic();
	ep_point_stage(run, pt, tokens);
	run->be->point_init(run, pt);
	/* The pattern after point_init: it copies into the backend's own
	 * receive regions where it has them (the oracle's pass then poisons
	 * them and dispatches afresh). */
	struct ep_pattern *pa = NULL;
	unsigned char *const *regions =
	    run->be->recv_regions ? run->be->recv_regions(run, pt) : NULL;
	if (run->be->host_data &&
	    (pa = ep_pattern_open(run->comm, run->rank, run->size, pt, regions)))
		ep_pattern_choose(pa, pt, 10);
	ep_choose_routine(run, pt, 10);
	ep_oracle(run, pt, 0);
	if (pt->valid && !run->stop)
		ep_time_point(run, pt, pa);
	if (pt->valid && !run->stop)
		ep_oracle(run, pt, 1);
	ep_verify_finish(run, pt);
	ep_pattern_close(pa);
	run->be->point_release(run, pt);
	ep_point_drop_buffers(pt);
	pt->seconds = assay_monotonic() - t0;
}

/* Every failed oracle check of every point, one line each. */
static void failure_reasons(const struct ep_run *run, struct strlist *reasons)
{
	for (size_t i = 0; i < run->npoints; i++) {
		const struct ep_point *pt = &run->points[i];
		for (int pass = 0; pass < 2; pass++)
			for (int c = 0; c < ASSAY_EP_CHECK_COUNT && pt->checked[pass]; c++)
				if (pt->verdict[pass].failures[c]) {
					char *m = xasprintf(
					    "tokens %lld: %s timing: %s failed (%lld)",
					    (long long)pt->p.tokens, pass ? "after" : "before",
					    assay_ep_check_name((enum assay_ep_check)c),
					    (long long)pt->verdict[pass].failures[c]);
					strlist_push(reasons, m);
					free(m);
				}
		ep_verify_reasons(pt, true, reasons);
	}
}

int ep_cmd_run(int argc, char **argv)
{
	struct ep_run run;
	memset(&run, 0, sizeof(run));
	ep_quiet = !ep_env_rank0();
	int rc = parse_args(argc, argv, &run);
	if (rc) {
		free(run.ladder);
		assay_ep_dist_release(&run.dist);
		return ep_usage_done(rc);
	}
	run.started = assay_monotonic();
	assay_now_rfc3339(run.started_at);
	if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
		fprintf(stderr, "assay-ep: MPI_Init failed\n");
		free(run.ladder);
		assay_ep_dist_release(&run.dist);
		return ASSAY_INFRA;
	}
	run.comm = MPI_COMM_WORLD;
	MPI_CHECK(MPI_Comm_set_errhandler(run.comm, MPI_ERRORS_RETURN));
	MPI_CHECK(MPI_Comm_rank(run.comm, &run.rank));
	MPI_CHECK(MPI_Comm_size(run.comm, &run.size));
	ep_quiet = run.rank != 0;
	ep_verify_seed(&run);
	struct strlist reasons = STRLIST_INIT;
	int code = ASSAY_OK;
	char reason[512] = "";
	if (run.size != run.base.ep) {
		ep_usage("run",
			 "--ep %lld but %d MPI ranks: run it as mpirun -np %lld assay-ep run ...",
			 (long long)run.base.ep, run.size, (long long)run.base.ep);
		code = ASSAY_USAGE;
	} else if (ep_memory_check(&run, "run")) {
		code = ASSAY_USAGE;
	} else if ((run.be = ep_backend_find(run.backend_name)),
		   setup_backend(&run, reason, sizeof(reason)) != ASSAY_OK) {
		strlist_push(&reasons, reason);
		code = finish(&run, "unsupported", &reasons, ASSAY_NO_METRICS);
	} else {
		run.points = xcalloc(run.npoints, sizeof(*run.points));
		for (size_t i = 0; i < run.npoints && !run.stop; i++)
			if (run.ll) {
				double t0 = assay_monotonic();
				ep_ll_run_point(&run, &run.points[i], run.ladder[i]);
				run.points[i].seconds = assay_monotonic() - t0;
			} else
				run_point(&run, &run.points[i], run.ladder[i]);
		if (run.stop) {
			ep_usage("run", "%s", run.inject_error);
			code = ASSAY_USAGE;
		} else {
			if (run.ll)
				ep_ll_failure_reasons(&run, &reasons);
			else
				failure_reasons(&run, &reasons);
			code = finish(&run, reasons.n ? "invalid" : "success", &reasons,
				      reasons.n ? ASSAY_WORKLOAD_FAILED : ASSAY_OK);
		}
		for (size_t i = 0; i < run.npoints; i++)
			ep_point_unstage(&run.points[i]);
		free(run.points);
		if (run.be->teardown)
			run.be->teardown(&run);
	}
	strlist_clear(&reasons);
	free(run.ladder);
	assay_ep_dist_release(&run.dist);
	MPI_Finalize();
	return code;
}
