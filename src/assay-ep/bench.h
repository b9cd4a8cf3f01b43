/* assay-ep internals: the run, its ladder points, the backend table and the
 * MPI error check. Only the benchmark programs
 * (src/assay-ep, src/assay-coll, src/mpi) link MPI; only assay-ep links CUDA/NCCL. */
#ifndef ASSAY_BENCH_H
#define ASSAY_BENCH_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "assay/config.h"
#include "assay/ep.h"
#include "assay/ep_ll.h"
#include "assay/error.h"

#include "bench_core.h"
#include "opt.h"

enum ep_inject {
	EP_INJECT_NONE = 0,
	EP_INJECT_COMBINE_BITFLIP,
	EP_INJECT_DISPATCH_DROP,
	EP_INJECT_WRONG_EXPERT,
	EP_INJECT_PAYLOAD_BITFLIP,
	EP_INJECT_WEIGHT_BITFLIP,
	EP_INJECT_ID_ERASE,
	EP_INJECT_ROUTING_SKEW,
};
extern const char *const ep_inject_names[]; /* indexed by enum ep_inject, NULL-terminated */

enum ep_component { EP_DISPATCH, EP_COMBINE, EP_ROUNDTRIP, EP_PAIR, EP_COMPONENTS };
extern const char *const ep_component_names[EP_COMPONENTS];

/* Which timed calls the oracle checks (verify.c, docs/ep.md "The oracle"):
 * a random subset from the run's seed (the default), every one, or none
 * (the untimed passes only). */
enum ep_verify_mode { EP_VERIFY_SAMPLE, EP_VERIFY_ALL, EP_VERIFY_OFF };
extern const char *const ep_verify_names[]; /* indexed by the mode, NULL-terminated */

/* The timed-call checks of one point, reduced across ranks (verify.c). */
struct ep_timed_check {
	bool checked;                    /* timed calls were checked */
	struct assay_ep_verdict verdict; /* failures summed over calls and ranks */
	int64_t calls;                   /* timed calls checked */
	int64_t dispatches, combines;    /* dispatch outputs, combine outputs checked */
	int64_t failed;                  /* checked calls that failed on some rank */
	/* --mode low-latency (verify_ll.c): verdict.failures is indexed by
	 * enum assay_ep_ll_check and verdict.max_relative_error is calc_diff */
	bool ll;
};
struct ep_verify;

/* One ladder point on one rank. */
struct ep_point {
	struct assay_ep_problem p; /* tokens = this point's tokens per rank */
	struct assay_ep_layout l;
	struct assay_ep_routing r;
	struct assay_ep_route_stats rs;
	/* input: this rank's token records and where each goes */
	unsigned char *send; /* [tokens][stride] */
	int32_t *dests;      /* [tokens][topk]: destination ranks, ascending */
	int32_t *ndests;     /* [tokens] */
	int64_t *slot;       /* [tokens][topk]: index in the block sent to dests[j] */
	int *send_counts;    /* [ep] records sent to each rank */
	int64_t nrecv;       /* records this rank receives (from the routing) */
	int *recv_counts;    /* [ep], filled by dispatch */
	float *out;          /* [tokens][hidden]: combine output (host) */
	void *be;            /* backend state */
	bool valid;          /* oracle passed so far */
	struct assay_ep_verdict verdict[2]; /* before and after timing, reduced */
	bool checked[2];
	double *samples[EP_COMPONENTS][2]; /* [MAX, MIN] reduced per sample (rank 0) */
	size_t nsamples[EP_COMPONENTS];
	/* The copy routine (shm), chosen at setup on this point's own copy
	 * pattern, and the pattern timed in the trials: the ceiling (ceiling.c);
	 * copy_us < 0 when not measured. */
	enum ep_copy_kind copy;         /* what shm dispatch uses */
	enum ep_copy_kind pattern_copy; /* the faster routine on the pattern */
	double copy_us[2];     /* setup: p50 of the pattern with memcpy, nt (MAX across ranks) */
	double dispatch_us[2]; /* setup: p50 of dispatch with memcpy, nt (< 0: not timed) */
	bool copy_forced;      /* --copy chose, not the measurement */
	double *pattern;       /* [trials * iters]: pattern rounds in the trials, MAX (rank 0) */
	size_t npattern;
	struct assay_ep_ll_verdict ll_verdict[2]; /* --mode low-latency: before, after */
	struct ep_verify *verify;    /* the timed-call checks while timing (verify.c) */
	struct ep_timed_check timed; /* and their verdict */
	double seconds;              /* the point's wall time, staging to free (rank 0's) */
};

struct ep_run;
struct ep_pattern;

/* A backend: one file each, one row in ep_backends[]. Every hook runs on
 * every rank. setup() returns ASSAY_OK, or ASSAY_NO_METRICS with a reason
 * when it cannot run this case (unsupported). */
struct ep_backend {
	const char *name;
	assay_err (*setup)(struct ep_run *run, char *reason, size_t size);
	void (*point_init)(struct ep_run *run, struct ep_point *pt);
	void (*dispatch)(struct ep_run *run, struct ep_point *pt);
	void (*combine)(struct ep_run *run, struct ep_point *pt);
	/* Host view of the received records, in receive order. */
	unsigned char *(*received)(struct ep_run *run, struct ep_point *pt);
	/* Host buffer [nrecv][hidden] for the staged combine input, and commit. */
	uint16_t *(*staged)(struct ep_run *run, struct ep_point *pt);
	void (*commit)(struct ep_run *run, struct ep_point *pt);
	/* Make pt->out hold the combine output on the host. */
	void (*output)(struct ep_run *run, struct ep_point *pt);
	void (*point_release)(struct ep_run *run, struct ep_point *pt);
	void (*teardown)(struct ep_run *run);
	/* Fill every buffer the next oracle pass reads or the backend writes
	 * (receive, staging, output, packing) with 0xFF bytes: NaN in BF16, FP8
	 * e4m3 and float32, -1 as an expert id. A pattern no workload produces. */
	void (*poison)(struct ep_run *run, struct ep_point *pt);
	/* Every rank's receive region, where dispatch writes, when they share
	 * one window (shm); NULL (or no function) when the backend has none. The
	 * ceiling's copy pattern is timed into them. */
	unsigned char *const *(*recv_regions)(struct ep_run *run, struct ep_point *pt);
	/* Fill with 0xFF what one dispatch call writes (the received records,
	 * packing) or one combine call writes (rows coming back, the output),
	 * on this rank, leaving the staged combine input alone: the timed-call
	 * checks (verify.c). Every rank calls it between barriers. */
	void (*poison_dispatch)(struct ep_run *run, struct ep_point *pt);
	void (*poison_combine)(struct ep_run *run, struct ep_point *pt);
	/* Optional, after a checked dispatch's check, between barriers: put
	 * the lines the check read back where an unchecked call leaves them. */
	void (*reown_dispatch)(struct ep_run *run, struct ep_point *pt);
	bool host_copy; /* the copy routine (--copy) applies: shm */
	bool host_data; /* data moves in host memory: a host copy ceiling applies */
};
extern const struct ep_backend ep_backend_mpi, ep_backend_shm, ep_backend_nccl, ep_backend_rccl;
/* The one backend table, NULL-terminated: --backend's values are the names
 * of its rows, in this order. */
extern const struct ep_backend *const ep_backends[];
const struct ep_backend *ep_backend_find(const char *name);
/* The names of the table's rows in words: "mpi, shm, nccl or rccl". */
void ep_backend_words(struct sbuf *sb);

/* The dispatch precisions: assay_known_precisions (include/assay/config.h,
 * the list a sweep's precisions are checked against), indexed by enum
 * assay_ep_precision. parse returns -1 for a name not in the list. */
int ep_precision_parse(const char *name);
const char *ep_precision_name(enum assay_ep_precision p);

struct ep_run {
	/* arguments */
	const char *backend_name, *phase, *mode, *workload, *out_file;
	struct assay_ep_problem base; /* tokens unused; base.dist = &dist */
	struct assay_ep_dist dist;    /* --routing, prepared */
	int64_t *ladder;
	size_t npoints;
	struct assay_timing timing;
	enum ep_inject inject;
	enum ep_copy_kind copy;
	bool copy_set;
	enum ep_verify_mode verify; /* --verify */
	bool verify_seed_set;       /* --verify-seed given */
	uint64_t verify_seed;       /* picks the checked timed calls (the artifact records it) */
	bool stop; /* a point could not be run as asked (inject_error says why): exit 2 */
	/* --mode low-latency (lowlat.c) */
	bool ll, ll_round_scale;
	int64_t ll_max_tokens, ll_masked;
	char inject_error[512];
	/* MPI */
	MPI_Comm comm;
	int rank, size;
	/* state */
	const struct ep_backend *be;
	void *be_state;
	struct ep_point *points;
	double started, finished;
	char started_at[32], finished_at[32];
};

/* The untimed oracle pass (pass 0 before timing, 1 after): poison, a fresh
 * dispatch and combine, the checks on every rank. */
void ep_oracle(struct ep_run *run, struct ep_point *pt, int pass);
/* The timing contract over one valid point; with a pattern, each trial
 * also times iters_per_trial rounds of it (the ceiling). */
void ep_time_point(struct ep_run *run, struct ep_point *pt, struct ep_pattern *pa);
/* shm's copy routine for the point unless --copy forced one: reps dispatches
 * with each routine, in blocks of one routine (memcpy, nt, nt, memcpy), the
 * one with the lower p50 (MAX across ranks); fills pt->dispatch_us and
 * pt->copy. */
void ep_choose_routine(struct ep_run *run, struct ep_point *pt, int reps);
/* The timed-call checks (verify.c). ep_verify_seed: after MPI_Init, rank 0
 * draws the seed unless --verify-seed gave one; every rank gets it.
 * capture: after a valid pass before timing (recs: what it received), keep
 * what the oracle accepted. pick: whether the timed call `it` of component
 * comp in trial (for EP_PAIR: chain trial, pair) is checked, the same on
 * every rank. before/after: around a checked call (comp EP_PAIR checks as a
 * roundtrip), poison what it writes and compare what it wrote. finish: after
 * the point, reduce the verdict into pt->timed (pt->valid false on a
 * failure). reasons: one line per failed check. */
void ep_verify_seed(struct ep_run *run);
void ep_verify_capture(struct ep_run *run, struct ep_point *pt, const unsigned char *recs);
bool ep_verify_pick(const struct ep_run *run, const struct ep_point *pt, int comp, long long trial,
		    long long it);
void ep_verify_before(struct ep_run *run, struct ep_point *pt, int comp);
void ep_verify_after(struct ep_run *run, struct ep_point *pt, int comp);
void ep_verify_finish(struct ep_run *run, struct ep_point *pt);
void ep_verify_free(struct ep_point *pt);
void ep_verify_reasons(const struct ep_point *pt, bool with_tokens, struct strlist *out);
/* The artifact's correctness.timed of a point (a new reference), null when
 * no timed call was checked. */
struct json_t *ep_verify_json(const struct ep_point *pt);
/* For a mode with its own buffers and oracle (verify_ll.c), verify.c's
 * machinery: hash, the 64-bit hash of n bytes the checks compare; open,
 * start the point's checks (err: the error of the accepted pass, what an
 * identical call has); count, after a checked call's comparison, add its
 * verdict (call: failures per check, the error of what it combined), count
 * it as a dispatch, a combine or both by comp, and meet in the barrier that
 * ends every checked call. pick, before (which calls the mode's own, see
 * below), after, finish, reasons and json work as in normal mode. */
uint64_t ep_verify_hash(const void *p, size_t n);
void ep_verify_open(struct ep_run *run, struct ep_point *pt, double err);
void ep_verify_count(struct ep_run *run, struct ep_point *pt, int comp,
		     const struct assay_ep_verdict *call);
/* Reduce one rank's verdict across ranks: failures summed, the error the
 * maximum (NaN on any rank stays NaN). */
void ep_verdict_reduce(struct ep_run *run, const struct assay_ep_verdict *mine,
		       struct assay_ep_verdict *out);
/* Bytes per direction of a component (docs/ep.md). */
int64_t ep_point_bytes(const struct ep_point *pt, int comp);

/* The point's copy pattern without protocol (ceiling.c): every rank copies
 * each record to its destination's receive region at dispatch's offsets:
 * regions (the backend's recv_regions) when given, else an MPI-3 shared
 * window of its own. open() returns NULL when the ranks do not share a node. round() is one barrier
 * then the timed copies (this rank's microseconds). choose() times reps rounds per routine, fills
 * pt->copy_us and pt->pattern_copy (the ceiling's routine; dispatch's is
 * ep_choose_routine's). */
struct ep_pattern *ep_pattern_open(MPI_Comm comm, int rank, int size, const struct ep_point *pt,
				   unsigned char *const *regions);
double ep_pattern_round(struct ep_pattern *pa, enum ep_copy_kind kind);
void ep_pattern_choose(struct ep_pattern *pa, struct ep_point *pt, int reps);
void ep_pattern_close(struct ep_pattern *pa);
/* Bytes each rank needs for one point of run (host memory, an upper bound),
 * without building anything. */
double ep_point_memory(const struct ep_run *run, int64_t tokens);
/* Shared combine reduction: rows of local token i from destination d start
 * at bases[d] + slot * hidden; writes pt->out with the domain rule. */
void ep_reduce(const struct ep_point *pt, const uint16_t *const *bases);
/* The instruction sets of ep_reduce, widest first: "avx512", "avx2", "sse2",
 * "scalar" (NULL-terminated); every one gives the same sums. */
extern const char *const ep_reduce_names[];
/* Whether this build and CPU have ep_reduce_names[isa]. */
bool ep_reduce_available(int isa);
/* Use ep_reduce_names[isa] from now on; false (and no change) when not
 * available. */
bool ep_reduce_select(int isa);
/* The index into ep_reduce_names in use: the selected one, else the widest
 * available. */
int ep_reduce_isa(void);
/* Copy each local token's record once per destination into dst, the block
 * for rank d starting at record displ[d] (the per-destination packing). */
void ep_pack(const struct ep_point *pt, const int *displ, unsigned char *dst);
/* Per-point staging shared by backends (dests, slots, send records). */
void ep_point_stage(struct ep_run *run, struct ep_point *pt, int64_t tokens);
/* Free the point's buffers and routing, keeping what the artifact reports. */
void ep_point_drop_buffers(struct ep_point *pt);
void ep_point_unstage(struct ep_point *pt);

/* ceiling_us and efficiency of a timed point (-1 when not measured). */
void ep_point_ceiling(const struct ep_point *pt, double *ceiling, double *efficiency);
/* The artifact and the table (rank 0). */
assay_err ep_write_artifact(struct ep_run *run, const char *outcome, const struct strlist *reasons,
			    int exit_code, struct assay_error *e);
void ep_print_table(struct ep_run *run);

/* --mode low-latency (lowlat.c): the low-latency variant of a host backend
 * (NULL for the others); one point staged, checked, timed, checked again
 * and freed; its memory bound; the artifact's and table's parts. */
const struct ep_backend *ep_ll_backend(const struct ep_backend *be);
void ep_ll_run_point(struct ep_run *run, struct ep_point *pt, int64_t tokens);
double ep_ll_point_memory(const struct ep_run *run, int64_t tokens);
void ep_ll_failure_reasons(const struct ep_run *run, struct strlist *reasons);
struct json_t;
void ep_ll_point_json(const struct ep_run *run, const struct ep_point *pt, struct json_t *doc);
void ep_ll_case_json(const struct ep_run *run, struct json_t *c);
void ep_ll_print_point(const struct ep_run *run, const struct ep_point *pt);
/* Its timed-call checks (verify_ll.c): capture what the pass before timing
 * accepted (after a valid pass 0; nothing with --verify off); before/after
 * a checked call, which ep_verify_before/after hand over to in this mode. */
void ep_ll_verify_capture(struct ep_run *run, struct ep_point *pt);
void ep_ll_verify_before(struct ep_run *run, struct ep_point *pt, int comp);
void ep_ll_verify_after(struct ep_run *run, struct ep_point *pt, int comp);

/* Subcommands, each with its option table (opt.h, shared with assay): the
 * help, man page and completion come from it. */
int ep_cmd_run(int argc, char **argv);
int ep_cmd_routing(int argc, char **argv);
int ep_cmd_probe(int argc, char **argv);
extern const struct cli_spec ep_run_spec, ep_routing_spec, ep_probe_spec;

/* Shared argument helpers. Usage errors print "assay-ep CMD: message"
 * unless ep_quiet (set on ranks other than 0, known from the launcher's
 * environment before MPI starts); they return ASSAY_USAGE. */
extern bool ep_quiet;
int ep_usage(const char *cmd, const char *fmt, ...) ASSAY_PRINTF(2, 3);
bool ep_parse_int(const char *cmd, const char *flag, const char *s, long long min, long long max,
		  long long *out);
/* "a, b or c" from a NULL-terminated list, for "expected ..." messages. */
void ep_choice_words(struct sbuf *sb, const char *const *names);
/* The names of ep_backends[], NULL-terminated (filled by main before any
 * table is read): --backend's values for the completion. */
extern const char *ep_backend_names[];
void ep_backend_names_fill(void);

/* The problem-shape options of run and probe, with their defaults (the
 * deepseek-v3 reference sizes): ep_shape_cli is their table. */
struct ep_shape_opts {
	long long hidden, experts, topk, seed;
	const char *routing; /* --routing SPEC; NULL: uniform */
};
#define EP_SHAPE_DEFAULTS                                                                          \
	{                                                                                          \
		.hidden = 7168, .experts = 256, .topk = 8, .seed = 67                              \
	}
extern const struct cli_opt ep_shape_cli[];
/* The shape is the deepseek-v3 reference (hidden, experts, topk, seed). */
bool ep_shape_is_reference(const struct ep_shape_opts *sh);
/* --routing SPEC (NULL: uniform) parsed and checked against the shape into
 * d, a routing file read: 0, or ASSAY_USAGE after "assay-ep CMD: ...". */
int ep_routing_prepare(const char *cmd, const char *spec, int64_t experts, int64_t topk,
		       struct assay_ep_dist *d);
/* The memory check of run and probe: the largest point of run's ladder,
 * summed over the ranks of each node, against the node's MemAvailable
 * (collective over run->comm): 0, or ASSAY_USAGE after "assay-ep CMD:
 * --tokens T needs ..." naming the most tokens per rank that fit. */
int ep_memory_check(struct ep_run *run, const char *cmd);
/* Parse argv[1..argc) by the table opts into args (assay-ep's rules: each
 * option is "--name VALUE", CLI_INT within [min, max], CLI_STRING at least
 * min characters, CLI_CHOICE one of choices): 0, or ASSAY_USAGE after
 * "assay-ep CMD: ..." (a missing or bad value, an unknown option). */
int ep_parse_opts(const char *cmd, int argc, char **argv, const struct cli_opt *opts, void *args);

#endif
