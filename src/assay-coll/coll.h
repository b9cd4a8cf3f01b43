/* assay-coll internals: the operations, data types and reduction operators
 * of nccl-tests, one call's shape, the backend table and the run. Only
 * the benchmark programs (src/assay-ep, src/assay-coll, src/mpi) link MPI. */
#ifndef ASSAY_COLL_H
#define ASSAY_COLL_H

#include <stdint.h>
#include <stdio.h>

#include "assay/json.h"

#include "bench_core.h"

enum coll_op {
	COLL_ALL_REDUCE,
	COLL_ALL_GATHER,
	COLL_REDUCE_SCATTER,
	COLL_ALLTOALL,
	COLL_BROADCAST,
	COLL_REDUCE,
	COLL_SENDRECV,
	COLL_GATHER,
	COLL_SCATTER,
	COLL_HYPERCUBE,
	COLL_ALLTOALLV,
	COLL_NOPS
};
/* "all_reduce", ... as nccl-tests names its programs without "_perf". */
extern const char *const coll_op_names[COLL_NOPS + 1];
bool coll_op_has_redop(enum coll_op op); /* else the table says "none" */
bool coll_op_has_root(enum coll_op op);  /* else the table says -1 */
/* The redop column of an operation without one: "none", hypercube's "". */
const char *coll_op_no_redop(enum coll_op op);
/* Whether nccl-tests checks the in-place placement (not alltoall, sendrecv,
 * alltoallv: their #wrong is N/A there). */
bool coll_op_checks_in_place(enum coll_op op);

/* alltoallv (alltoallv.c): nccl-tests' generated pattern, distance-weighted
 * with NCCL_TESTS_ALLTOALLV_SPREAD (0 uniform ... 1 fully weighted, the
 * default). The bytes rank i sends to rank j when count elements of elt
 * bytes go to each peer on average; the elements one rank sends (and
 * receives) in all; and the element offset of peer j's part in rank i's
 * input. */
size_t coll_v_bytes(int i, int j, int nranks, size_t count, size_t elt);
size_t coll_v_total(size_t count, size_t elt, int nranks);
size_t coll_v_offset(int i, int j, int nranks, size_t count, size_t elt);
/* The spread (the environment read once, clamped to [0, 1]). */
double coll_v_spread(void);

/* nccl-tests' -o names, in its order. mulsum is NCCL's PreMulSum with
 * nccl-tests' scalars: each rank's input times 1 (even ranks) or 2 (odd),
 * then summed; a kernel given CR_MULSUM computes a + 2 * b. */
enum coll_redop { CR_SUM, CR_PROD, CR_MAX, CR_MIN, CR_AVG, CR_MULSUM, CR_NREDOPS };
extern const char *const coll_redop_names[CR_NREDOPS + 1];

/* A data type is an index into coll_types[] (types.c), nccl-tests' -d
 * order; a row with size 0 would be one nccl-tests names but assay-coll
 * does not build (-d NAME then says so). */
enum coll_kind { COLL_SIGNED, COLL_UNSIGNED, COLL_FLOAT };
struct coll_type_info {
	const char *name; /* nccl-tests' -d name */
	size_t size;      /* bytes; 0: not built */
	enum coll_kind kind;
	/* Its MPI datatype; MPI_DATATYPE_NULL: the mpi backend moves it as
	 * words of its size and reduces it with its own operators (reduce). */
	MPI_Datatype mpi;
	/* dst[i] = a[i] OP b[i] for n elements (dst may be a or b); avg reduces
	 * as sum and divide() then divides by the rank count. */
	void (*reduce)(enum coll_redop r, void *dst, const void *a, const void *b, size_t n);
	void (*divide)(void *buf, size_t n, int nranks);
	/* COLL_FLOAT: an element as a double, and a double (exact in the type)
	 * into an element. */
	double (*get)(const void *p);
	void (*put)(double v, void *p);
	/* COLL_FLOAT: exponent and stored mantissa bits (float: 8, 23). */
	int exp_bits, mant_bits;
};
extern const struct coll_type_info coll_types[]; /* ended by a NULL name */
/* The index of the type called name, or -1. */
int coll_type_find(const char *name);
/* "int8, uint8, ... or LAST": the built types, for messages. */
void coll_type_list(struct sbuf *sb, const char *last);
static inline size_t coll_type_size(int t)
{
	return coll_types[t].size;
}

/* The element counts of one size, as nccl-tests' <Op>GetCollByteCount:
 * count is what the call is given; the in-place offsets are per rank. */
struct coll_shape {
	size_t count, send_count, recv_count, send_inplace, recv_inplace;
};
void coll_shape_of(enum coll_op op, size_t bytes, size_t elt, int nranks, struct coll_shape *s);

/* One collective call on one rank. In place, rank r's send region starts
 * send_stride * r bytes into its receive buffer and its receive region
 * recv_stride * r bytes into it; out of place both strides are 0 and send
 * is the send buffer. */
struct coll_call {
	enum coll_op op;
	int type; /* coll_types[] index */
	enum coll_redop redop;
	int root;
	size_t count;
	bool in_place;
	size_t send_stride, recv_stride;
	size_t shift; /* -u: both buffers start this many bytes in */
	void *send, *recv;
	/* The bytes from the start of the send and the receive buffer that the
	 * call reads or writes (the shift included; in place the input is in
	 * the receive buffer): what a GPU backend copies. */
	size_t send_span, recv_span;
};

struct coll_run;
/* A backend: one file each, one row in coll_backends[]. setup() gets the
 * largest send and receive buffers of the sweep, sets run->sendbuf and
 * run->recvbuf, and returns ASSAY_OK, or ASSAY_NO_METRICS with a reason
 * when it cannot run here. Every hook runs on every rank. */
struct coll_backend {
	const char *name;
	assay_err (*setup)(struct coll_run *run, size_t send_bytes, size_t recv_bytes, char *reason,
			   size_t len);
	void (*call)(struct coll_run *run, const struct coll_call *c);
	void (*teardown)(struct coll_run *run);
	/* GPU backends (NULL on the CPU backends): run->sendbuf and recvbuf
	 * are host mirrors of device buffers, and the check (coll_fill,
	 * coll_poison, coll_wrong) runs on them. to_device copies the call's
	 * spans of both mirrors to the device after they are filled and
	 * poisoned; to_host copies the receive span back before it is checked.
	 * Neither is inside a timed loop. */
	void (*to_device)(struct coll_run *run, const struct coll_call *c);
	void (*to_host)(struct coll_run *run, const struct coll_call *c);
};
/* nccl and rccl (backend_nccl.c): whichever this build has runs on one GPU
 * per rank; the other (and both without a toolkit) says why it cannot. */
extern const struct coll_backend coll_backend_mpi, coll_backend_shm;
extern const struct coll_backend coll_backend_nccl, coll_backend_rccl;
extern const struct coll_backend *const coll_backends[]; /* NULL-terminated */

struct coll_run {
	MPI_Comm comm;
	int rank, size;
	const struct coll_backend *be;
	void *be_state;
	unsigned char *sendbuf, *recvbuf;
};

/* Element arithmetic of type t (types.c): coll_types[t].reduce, and avg's
 * division after the sum (a no-op for the other operators). */
void coll_reduce(int t, enum coll_redop r, void *dst, const void *a, const void *b, size_t n);
/* Test-only wrong accumulators (--inject): every partial result of a
 * floating sum (sum, avg, mulsum) rounded to bfloat16's 8 significant bits
 * (float, double, half), or to one bit fewer than the type has. */
enum { COLL_MUTANT_NONE, COLL_MUTANT_BF16, COLL_MUTANT_SHORT };
extern int coll_mutant;
void coll_finish(int t, enum coll_redop r, void *buf, size_t n, int nranks);

/* The check (nccl-tests' InitData / CheckData). fill: rank's input of the
 * call from seed (element index i of the input is element base + i of the
 * rank's stream); poison: the receive region with 0xFF bytes; wrong: the
 * elements of this rank's output that differ bit for bit from the expected
 * result. */
void coll_fill(const struct coll_call *c, int rank, int nranks, uint64_t seed);
void coll_poison(const struct coll_call *c, int rank, int nranks);
int64_t coll_wrong(const struct coll_call *c, int rank, int nranks, uint64_t seed);
/* Elements of the rank's output region (what coll_wrong compares). */
size_t coll_out_count(const struct coll_call *c, int nranks);

/* ---- the program (main.c, args.c, timing.c, table.c) ---- */

/* The command line (args.c). */
struct coll_opts {
	int op, backend;
	size_t minb, maxb, stepb, stepf;
	long long iters, warmup, check, root, average, blocking;
	long long agg, cycles, cputime, timeout, per_iter, skip, unalign;
	long long reg, graph; /* -R, -G: refused above 0 */
	int type, redop;      /* -1: all */
	const char *json;
	bool inject, inject_hang;
};
/* -T (watchdog.c): with secs > 0 a thread ends the process (exit 5, after
 * nccl-tests' "HOST: Test timeout (Ns)" line on stdout) when one call has
 * run longer than secs; enter and leave bracket every call. */
void coll_watch_start(long long secs);
void coll_watch_enter(void);
void coll_watch_leave(void);
/* No messages: set on every rank but 0 before the arguments are read. */
extern bool coll_quiet;
/* "assay-coll: message" on stderr (unless coll_quiet); returns ASSAY_USAGE. */
int coll_usage(const char *fmt, ...) ASSAY_PRINTF(1, 2);
/* nccl-tests' sizes: a number with an optional K, M or G (binary). */
bool coll_parse_size(const char *s, size_t *out);
/* Read the command line into o: 0, an exit code, or -1 after --help. */
int coll_parse_args(int argc, char **argv, struct coll_opts *o);
/* The command line's table (args.c), for --help and `--generate`. */
struct cli_program;
extern const struct cli_program coll_program;

/* The sweep and what it prints: rank 0 writes the table (and the rows of
 * the -J JSON into results). */
struct coll_table {
	struct coll_opts *o;
	struct coll_run run;
	double bw_sum;
	int bw_count, errors;
	json_t *results; /* rank 0 with -J */
	int rep;
};

/* One placement's point of a row: the time column, bandwidths, the check
 * (report false: N/A) and the samples of the -J JSON (MAX across ranks per
 * iteration, rank 0 only). */
struct coll_point {
	double time, algbw, busbw;
	double cputime;  /* -C: this rank's loop time per call */
	bool is_cputime; /* time is cputime (-C) */
	bool report;
	long long per_iter; /* -I: i_min, i_max, i_p99, i_cv% columns */
	size_t skip;        /* -K: samples the statistics leave out */
	int64_t wrong;
	double *samples; /* sorted in place when printed */
	size_t n;
};

/* nccl-tests' TimeTest for one type, operator and root: one row per size
 * (timing.c). */
void coll_time_test(struct coll_table *t, int type, enum coll_redop redop, int root);

/* The output (table.c). coll_device_report (every rank): nccl-tests'
 * writeDeviceReport, the options line and one line per rank, returning the
 * devices of the -J JSON on rank 0. The others run on rank 0 only: the
 * table's header, each row (its start, a point per placement, its end) and
 * the footer, with the rows of the -J JSON where row is not NULL. */
json_t *coll_device_report(struct coll_table *t, const char *prog);
void coll_table_header(const struct coll_opts *o);
json_t *coll_row_start(struct coll_table *t, size_t bytes, size_t count, int type,
		       const char *redop_name, int root);
void coll_row_point(const struct coll_call *c, const struct coll_point *pt, json_t *row);
void coll_row_end(const struct coll_table *t, json_t *row);
void coll_table_footer(int errors, double avg, double min_bw, const char *prog);
/* NCCL_TESTS_MIN_BW (GB/s) as nccl-tests reads it (src/common.cu): unset
 * is -1, not judged; else the run fails (exit COLL_EXIT_MIN_BW, nccl-tests'
 * testNumResults) when the average busbw is below 90% of it. */
#define COLL_EXIT_MIN_BW 7
int coll_min_bw(double *min_bw); /* 0, or ASSAY_USAGE after saying why */
/* The -J JSON: opened (F, or F.0, F.1 ... when F exists) with its head in
 * *doc, then completed and written; coll_json_finish returns the exit code
 * (rc, or ASSAY_INFRA when the file cannot be written). */
FILE *coll_json_open(struct coll_table *t, int argc, char **argv, json_t **doc);
int coll_json_finish(FILE *jf, json_t *doc, struct coll_table *t, json_t *devs, int errors,
		     double avg, double min_bw, int rc);

#endif
