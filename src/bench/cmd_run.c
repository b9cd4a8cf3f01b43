/* `assay-ep run`: one case (a ladder of token counts) under mpirun -np EP:
 * stage every point, run the oracle, time the points per the contract, run
 * the oracle again, and write the artifact and the table on rank 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/json.h"
#include "assay/util.h"
#include "bench.h"

const char ep_run_help[] =
    "usage: mpirun -np EP assay-ep run --backend mpi|shm|nccl --ep EP --phase decode|prefill\n"
    "           --precision bf16|fp8 --tokens LADDER [options]\n"
    "\n"
    "Runs one case: every token count of LADDER (tokens per rank, comma-separated)\n"
    "is staged, checked by the oracle, timed per the timing contract, and checked\n"
    "again (docs/ep.md). Rank 0 prints a table and writes the artifact.\n"
    "\n"
    "  --backend B            mpi, shm or nccl (required)\n"
    "  --ep E                 EP ranks; must equal the number of MPI ranks (required)\n"
    "  --phase P              decode or prefill, a label of the ladder (required)\n"
    "  --precision P          bf16 or fp8: the dispatch payload (required)\n"
    "  --tokens LADDER        tokens per rank, e.g. 1,8,64,128 or 1024,2048 (required)\n"
    "  --mode M               normal (default; low-latency is reported unsupported)\n"
    "  --profile NAME         timing profile: quick (default) or reference\n"
    "  --timing FILE          timing profile from a JSON file (docs/config.md)\n"
    "  --hidden N             columns per token (default 7168, at least 32)\n"
    "  --experts N            routed experts (default 256, a multiple of EP)\n"
    "  --topk N               experts per token (default 8)\n"
    "  --seed N               routing and activation seed (default 67)\n"
    "  --scale-up-domain N    ranks per scale-up domain (default EP: one domain)\n"
    "  --workload NAME        workload label (default deepseek-v3 for the reference\n"
    "                         sizes, custom otherwise)\n"
    "  --copy memcpy|nt       shm copy routine (default nt: non-temporal stores)\n"
    "  --inject FAULT         corrupt one value on the last rank before the first\n"
    "                         oracle pass: combine-bitflip, dispatch-drop, wrong-expert,\n"
    "                         payload-bitflip, weight-bitflip, id-erase, routing-skew\n"
    "  --out FILE             write the artifact (schema assay.ep.case/1) to FILE\n"
    "\n"
    "exit: 0 every point valid, 2 bad arguments, 3 a point invalid, 4 unsupported\n"
    "(the artifact says why), 5 MPI/CUDA setup failure.\n"
    "\n"
    "example:\n"
    "  mpirun -np 2 assay-ep run --backend shm --ep 2 --phase decode --precision bf16 \\\n"
    "      --tokens 1,8,64,128 --hidden 7168 --out shm-decode.json\n";

static int lookup(const char *const *names, const char *s)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

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

static int parse_args(int argc, char **argv, struct ep_run *run)
{
	long long ep = 0, hidden = 7168, experts = 256, topk = 8, seed = 67, sud = 0;
	const char *tokens = NULL, *profile = NULL, *timing_file = NULL, *precision = NULL;
	run->mode = "normal";
	run->copy = EP_COPY_NT;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool num = true;
		long long *dst = NULL, min = 1, max = 1 << 20;
		if (!strcmp(a, "--ep"))
			dst = &ep, max = 1 << 16;
		else if (!strcmp(a, "--hidden"))
			dst = &hidden, min = 32;
		else if (!strcmp(a, "--experts"))
			dst = &experts;
		else if (!strcmp(a, "--topk"))
			dst = &topk;
		else if (!strcmp(a, "--seed"))
			dst = &seed, min = 0, max = (long long)(~0ull >> 1);
		else if (!strcmp(a, "--scale-up-domain"))
			dst = &sud, max = 1 << 16;
		else
			num = false;
		if (num) {
			if (!ep_parse_int("run", a, v, min, max, dst))
				return ASSAY_USAGE;
			i++;
			continue;
		}
		const char **sdst = NULL;
		if (!strcmp(a, "--backend"))
			sdst = &run->backend_name;
		else if (!strcmp(a, "--phase"))
			sdst = &run->phase;
		else if (!strcmp(a, "--mode"))
			sdst = &run->mode;
		else if (!strcmp(a, "--precision"))
			sdst = &precision;
		else if (!strcmp(a, "--tokens"))
			sdst = &tokens;
		else if (!strcmp(a, "--profile"))
			sdst = &profile;
		else if (!strcmp(a, "--timing"))
			sdst = &timing_file;
		else if (!strcmp(a, "--workload"))
			sdst = &run->workload;
		else if (!strcmp(a, "--out"))
			sdst = &run->out_file;
		else if (!strcmp(a, "--copy") || !strcmp(a, "--inject")) {
			if (!v)
				return ep_usage("run", "%s needs a value", a);
			bool copy = !strcmp(a, "--copy");
			int k = lookup(copy ? ep_copy_names : ep_inject_names + 1, v);
			if (k < 0)
				return ep_usage(
				    "run",
				    copy ? "--copy: expected memcpy or nt, got '%s'"
					 : "--inject: expected combine-bitflip, dispatch-drop, "
					   "wrong-expert, payload-bitflip, weight-bitflip, "
					   "id-erase or routing-skew, got '%s'",
				    v);
			if (copy)
				run->copy = (enum ep_copy_kind)k, run->copy_set = true;
			else
				run->inject = (enum ep_inject)(k + 1);
			i++;
			continue;
		} else
			return ep_usage("run", "unknown option '%s' (see assay-ep run --help)", a);
		if (!v || !*v)
			return ep_usage("run", "%s needs a value", a);
		*sdst = v;
		i++;
	}
	static const char *const required[] = {"--backend", "--ep", "--phase", "--precision",
					       "--tokens"};
	const void *have[] = {run->backend_name, ep ? "" : NULL, run->phase, precision, tokens};
	for (size_t i = 0; i < ARRAY_SIZE(required); i++)
		if (!have[i])
			return ep_usage("run", "%s is required (see assay-ep run --help)",
					required[i]);
	if (lookup(ep_backend_names, run->backend_name) < 0)
		return ep_usage("run", "--backend: expected mpi, shm or nccl, got '%s'",
				run->backend_name);
	static const char *const phases[] = {"decode", "prefill", NULL};
	if (lookup(phases, run->phase) < 0)
		return ep_usage("run", "--phase: expected decode or prefill, got '%s'", run->phase);
	static const char *const modes[] = {"normal", "low-latency", NULL};
	if (lookup(modes, run->mode) < 0)
		return ep_usage("run", "--mode: expected normal or low-latency, got '%s'",
				run->mode);
	static const char *const precs[] = {"bf16", "fp8", NULL};
	int prec = lookup(precs, precision);
	if (prec < 0)
		return ep_usage("run", "--precision: expected bf16 or fp8, got '%s'", precision);
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
	int rc = parse_ladder(tokens, run);
	if (rc)
		return rc;
	struct assay_ep_problem *p = &run->base;
	p->ep = ep;
	p->hidden = hidden;
	p->experts = experts;
	p->topk = topk;
	p->seed = (uint64_t)seed;
	p->scale_up_domain = sud ? sud : ep;
	p->precision = prec ? ASSAY_EP_FP8 : ASSAY_EP_BF16;
	for (size_t i = 0; i < run->npoints; i++) {
		struct assay_error e;
		p->tokens = run->ladder[i];
		if (assay_ep_problem_check(p, &e) != ASSAY_OK)
			return ep_usage("run", "%s", e.message);
	}
	if (!run->workload)
		run->workload = hidden == 7168 && experts == 256 && topk == 8 && seed == 67
				    ? "deepseek-v3"
				    : "custom";
	if (run->out_file) {
		char *dir = xstrdup(run->out_file), *slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		if (access(slash ? (*dir ? dir : "/") : ".", W_OK) != 0) {
			rc = ep_usage("run", "--out: cannot write to directory of '%s'",
				      run->out_file);
		}
		free(dir);
	}
	return rc;
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
		if (run->out_file) {
			struct assay_error e;
			if (ep_write_artifact(run, outcome, reasons, code, &e) != ASSAY_OK) {
				char buf[2048];
				fprintf(stderr, "assay-ep: %s\n",
					assay_error_format(&e, buf, sizeof(buf)));
				code = ASSAY_INFRA;
			}
		}
		printf("outcome: %s%s%s\n", outcome, run->out_file ? ", artifact " : "",
		       run->out_file ? run->out_file : "");
		fflush(stdout);
	}
	MPI_CHECK(MPI_Bcast(&code, 1, MPI_INT, 0, run->comm));
	return code;
}

int ep_cmd_run(int argc, char **argv)
{
	struct ep_run run;
	memset(&run, 0, sizeof(run));
	ep_quiet = !ep_env_rank0();
	int rc = parse_args(argc, argv, &run);
	if (rc) {
		free(run.ladder);
		return ep_usage_done(rc);
	}
	run.started = assay_monotonic();
	assay_now_rfc3339(run.started_at);
	if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
		fprintf(stderr, "assay-ep: MPI_Init failed\n");
		free(run.ladder);
		return ASSAY_INFRA;
	}
	run.comm = MPI_COMM_WORLD;
	MPI_CHECK(MPI_Comm_set_errhandler(run.comm, MPI_ERRORS_RETURN));
	MPI_CHECK(MPI_Comm_rank(run.comm, &run.rank));
	MPI_CHECK(MPI_Comm_size(run.comm, &run.size));
	ep_quiet = run.rank != 0;
	struct strlist reasons = STRLIST_INIT;
	int code = ASSAY_OK;
	if (run.size != run.base.ep) {
		ep_usage("run",
			 "--ep %lld but %d MPI ranks: run it as mpirun -np %lld assay-ep run ...",
			 (long long)run.base.ep, run.size, (long long)run.base.ep);
		code = ASSAY_USAGE;
		goto out;
	}
	run.be = ep_backend_find(run.backend_name);
	char reason[512] = "";
	assay_err setup = ASSAY_OK;
	if (!strcmp(run.mode, "low-latency")) {
		snprintf(reason, sizeof(reason), "assay-ep implements the normal mode only");
		setup = ASSAY_NO_METRICS;
	} else {
		setup = run.be->setup(&run, reason, sizeof(reason));
	}
	if (setup != ASSAY_OK) {
		/* Rank 0 reports; any rank's reason is gathered from the lowest such rank. */
		int has = reason[0] != '\0', who = has ? run.rank : run.size, first = 0;
		MPI_CHECK(MPI_Allreduce(&who, &first, 1, MPI_INT, MPI_MIN, run.comm));
		if (first < run.size)
			MPI_CHECK(MPI_Bcast(reason, sizeof(reason), MPI_CHAR, first, run.comm));
		strlist_push(&reasons, reason);
		code = finish(&run, "unsupported", &reasons, ASSAY_NO_METRICS);
		goto out;
	}

	run.points = xcalloc(run.npoints, sizeof(*run.points));
	for (size_t i = 0; i < run.npoints; i++) {
		ep_point_stage(&run, &run.points[i], run.ladder[i]);
		run.be->point_init(&run, &run.points[i]);
	}
	for (size_t i = 0; i < run.npoints; i++)
		ep_oracle(&run, &run.points[i], 0);
	ep_time(&run);
	for (size_t i = 0; i < run.npoints; i++)
		if (run.points[i].valid)
			ep_oracle(&run, &run.points[i], 1);
	for (size_t i = 0; i < run.npoints; i++) {
		struct ep_point *pt = &run.points[i];
		for (int pass = 0; pass < 2; pass++)
			for (int c = 0; c < ASSAY_EP_CHECK_COUNT && pt->checked[pass]; c++)
				if (pt->verdict[pass].failures[c]) {
					char *m = xasprintf(
					    "tokens %lld: %s timing: %s failed (%lld)",
					    (long long)pt->p.tokens, pass ? "after" : "before",
					    assay_ep_check_name((enum assay_ep_check)c),
					    (long long)pt->verdict[pass].failures[c]);
					strlist_push(&reasons, m);
					free(m);
				}
	}
	code = finish(&run, reasons.n ? "invalid" : "success", &reasons,
		      reasons.n ? ASSAY_WORKLOAD_FAILED : ASSAY_OK);
	for (size_t i = 0; i < run.npoints; i++) {
		run.be->point_release(&run, &run.points[i]);
		ep_point_unstage(&run.points[i]);
	}
	free(run.points);
	if (run.be->teardown)
		run.be->teardown(&run);
out:
	strlist_clear(&reasons);
	free(run.ladder);
	MPI_Finalize();
	return code;
}
