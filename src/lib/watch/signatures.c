/* The built-in error signatures, their families' priorities, and signature
 * sets: named PCRE2 patterns, compiled once with JIT. This table is the one
 * source of truth for what a signature is and how it ranks. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "assay/watch.h"

/* Each pattern matches inside one line; lines end at \n or \r. Keep them
 * specific: a signature ends a case at once, so a false match costs a run.
 * Each lists anchors: literals one of which is in every match (the unit
 * tests check every sample line through them). */
#define A(...) ((const char *const[]){__VA_ARGS__, NULL})
const struct assay_builtin_signature assay_builtin_signatures[] = {
    {"nccl", "nccl-error",
     "\\b[NR]CCL error\\b|\\bnccl(InternalError|SystemError|UnhandledCudaError|InvalidUsage|"
     "InvalidArgument|RemoteError)\\b|DistBackendError|NCCL communicator was aborted|"
     "\\bNCCL ERROR\\b",
     A("NCCL error", "RCCL error", "ncclInternalError", "ncclSystemError", "ncclUnhandledCudaError",
       "ncclInvalidUsage", "ncclInvalidArgument", "ncclRemoteError", "DistBackendError",
       "NCCL communicator was aborted", "NCCL ERROR"),
     ASSAY_SIG_LINE},
    {"nccl", "nccl-timeout",
     "Watchdog caught collective operation timeout|"
     "Some NCCL operations have failed or timed out|\\b[NR]CCL (watchdog )?timeout\\b",
     A("Watchdog caught collective operation timeout", "Some NCCL operations have failed",
       "NCCL timeout", "RCCL timeout", "NCCL watchdog timeout", "RCCL watchdog timeout"),
     ASSAY_SIG_LINE},
    {"gpu", "gpu-lost", "GPU has fallen off the bus|\\bGPU is lost\\b|NVRM: Xid \\(",
     A("GPU has fallen off the bus", "GPU is lost", "NVRM: Xid ("), ASSAY_SIG_LINE},
    {"gpu", "gpu-hang",
     "\\b(GPU|gpu) (Hang|hang|HANG)\\b|HW Exception by GPU|amdgpu: ring \\S+ timeout",
     A("GPU Hang", "GPU hang", "GPU HANG", "gpu Hang", "gpu hang", "gpu HANG",
       "HW Exception by GPU", "amdgpu: ring "),
     ASSAY_SIG_LINE},
    {"gpu", "gpu-reset",
     "\\b(GPU|gpu) (reset|recovery) (begin|started|succeeded|failed)\\b|"
     "\\bamdgpu\\b.*\\bGPU reset\\b|\\bGPU Reset\\b",
     A("GPU reset", "gpu reset", "GPU recovery", "gpu recovery", "GPU Reset"), ASSAY_SIG_LINE},
    {"gpu", "gpu-uncorrectable",
     "\\b[Uu]ncorrectable (ECC |memory )?error|UNCORRECTABLE ECC ERROR|"
     "CUDA_ERROR_ECC_UNCORRECTABLE",
     A("ncorrectable ", "UNCORRECTABLE"), ASSAY_SIG_LINE},
    {"gpu", "gpu-page-fault",
     "Memory access fault by GPU|\\b(GPU|gpu) page fault\\b|\\bamdgpu\\b.*\\bpage fault\\b|"
     "illegal memory access was encountered|hipErrorIllegalAddress|cudaErrorIllegalAddress",
     A("Memory access fault by GPU", "page fault", "illegal memory access was encountered",
       "ErrorIllegalAddress"),
     ASSAY_SIG_LINE},
    /* Before cuda-oom: PyTorch on ROCm raises torch.OutOfMemoryError with
     * "HIP out of memory", and a tie goes to the first in this order. */
    {"oom", "hip-oom", "HIP out of memory|HIP error: out of memory|hipErrorOutOfMemory",
     A("HIP out of memory", "HIP error: out of memory", "hipErrorOutOfMemory"), ASSAY_SIG_LINE},
    {"oom", "cuda-oom",
     "CUDA out of memory|CUDA error: out of "
     "memory|\\bOutOfMemoryError\\b|cudaErrorMemoryAllocation",
     A("CUDA out of memory", "CUDA error: out of memory", "OutOfMemoryError",
       "cudaErrorMemoryAllocation"),
     ASSAY_SIG_LINE},
    {"oom", "host-oom",
     "Out of memory: Kill(ed)? process|\\boom-kill(er)?\\b|\\bKilled process \\d+ \\(|"
     "std::bad_alloc|^\\s*MemoryError\\b",
     A("Out of memory: Kill", "oom-kill", "Killed process ", "std::bad_alloc", "MemoryError"),
     ASSAY_SIG_LINE},
    {"torch-elastic", "torch-elastic",
     "torch\\.distributed\\.elastic\\.[A-Za-z_.]*(Error|Exception)\\b|\\bChildFailedError\\b|"
     "\\bRendezvous(Timeout|Closed|Connection)?Error\\b",
     A("torch.distributed.elastic.", "ChildFailedError", "RendezvousError",
       "RendezvousTimeoutError", "RendezvousClosedError", "RendezvousConnectionError"),
     ASSAY_SIG_LINE},
    {"python", "python-traceback", "Traceback \\(most recent call last\\):",
     A("Traceback (most recent call last):"), ASSAY_SIG_PY_TRACEBACK},
    {"crash", "segfault", "Segmentation fault|\\bSIGSEGV\\b", A("Segmentation fault", "SIGSEGV"),
     ASSAY_SIG_LINE},
    {"crash", "abort",
     "Aborted \\(core dumped\\)|\\bSIGABRT\\b|terminate called after throwing|"
     "Fatal Python error|\\*\\*\\* Process received signal \\*\\*\\*|\\bBus error\\b|\\bSIGBUS\\b",
     A("Aborted (core dumped)", "SIGABRT", "terminate called after throwing", "Fatal Python error",
       "*** Process received signal ***", "Bus error", "SIGBUS"),
     ASSAY_SIG_LINE},
    {"mpi", "mpi-abort",
     "MPI_ABORT was invoked|\\bMPI_Abort\\(|MPI_ERRORS_ARE_FATAL|"
     "(mpirun|mpiexec|prterun) noticed that process rank \\d+|"
     "(mpirun|mpiexec|prterun) has exited due to process rank|"
     "ORTE has lost communication",
     A("MPI_ABORT was invoked", "MPI_Abort(", "MPI_ERRORS_ARE_FATAL", " noticed that process rank ",
       " has exited due to process rank", "ORTE has lost communication"),
     ASSAY_SIG_LINE},
    {NULL, NULL, NULL, NULL, ASSAY_SIG_LINE},
};
#undef A

/* Highest first. Hardware faults are the cause the other lines report;
 * out of memory and NCCL failures are specific; a suite's own patterns
 * rank above the generic ones; crashes, MPI aborts and a bare traceback
 * header say only that something died. */
const struct assay_signature_family assay_signature_families[] = {
    {"gpu", 80},   {"oom", 70}, {"nccl", 60},   {"user", 50}, {"torch-elastic", 40},
    {"crash", 30}, {"mpi", 20}, {"python", 10}, {NULL, 0},
};

int assay_signature_family_priority(const char *family)
{
	for (const struct assay_signature_family *f = assay_signature_families; f->name; f++)
		if (!strcmp(f->name, family))
			return f->priority;
	return 0;
}

static pcre2_code *compile(const char *pattern, struct assay_error *e)
{
	pcre2_compile_context *cc = pcre2_compile_context_create(NULL);
	if (!cc)
		abort();
	pcre2_set_newline(cc, PCRE2_NEWLINE_ANYCRLF);
	int code;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_MULTILINE,
				       &code, &off, cc);
	pcre2_compile_context_free(cc);
	if (!re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(code, msg, sizeof(msg));
		assay_error_set(e, ASSAY_USAGE, "invalid pattern at offset %zu: %s", (size_t)off,
				(const char *)msg);
		return NULL;
	}
	/* Without JIT support (some architectures) pcre2_match() interprets. */
	pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	return re;
}

const struct assay_signature *assay_sigset_find(const struct assay_sigset *set, const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->v[i].name, name))
			return &set->v[i];
	return NULL;
}

static assay_err add(struct assay_sigset *set, const char *family, const char *name,
		     const char *pattern, bool benign, const char *const *anchors,
		     enum assay_sig_context context, struct assay_error *e)
{
	const struct assay_signature *old = assay_sigset_find(set, name);
	if (old)
		return assay_error_set(e, ASSAY_USAGE, "signature \"%s\" is already defined%s",
				       name, strcmp(old->family, "user") ? " (built in)" : "");
	pcre2_code *re = compile(pattern, e);
	if (!re)
		return ASSAY_USAGE;
	ALLOC_GROW(set->v, set->n + 1, set->alloc);
	struct assay_signature *s = &set->v[set->n++];
	s->name = xstrdup(name);
	s->family = xstrdup(family);
	s->pattern = xstrdup(pattern);
	s->benign = benign;
	s->code = re;
	s->anchors = anchors;
	s->priority = assay_signature_family_priority(family);
	s->settle_s = ASSAY_SETTLE_S;
	s->settle_lines = ASSAY_SETTLE_LINES;
	s->context = context;
	return ASSAY_OK;
}

void assay_sigset_add_builtins(struct assay_sigset *set)
{
	for (const struct assay_builtin_signature *b = assay_builtin_signatures; b->name; b++) {
		struct assay_error e;
		/* The table is fixed and tested; a pattern that does not compile is a bug. */
		if (add(set, b->family, b->name, b->pattern, false, b->anchors, b->context, &e) !=
		    ASSAY_OK)
			abort();
	}
}

assay_err assay_sigset_add(struct assay_sigset *set, const char *name, const char *pattern,
			   bool benign, struct assay_error *e)
{
	return add(set, "user", name, pattern, benign, NULL, ASSAY_SIG_LINE, e);
}

size_t assay_sigset_tune(struct assay_sigset *set, const char *name, double settle_s,
			 unsigned settle_lines, int priority)
{
	size_t n = 0;
	for (size_t i = 0; i < set->n; i++) {
		struct assay_signature *s = &set->v[i];
		if (s->benign || (strcmp(s->name, name) && strcmp(s->family, name)))
			continue;
		s->settle_s = settle_s;
		s->settle_lines = settle_lines;
		if (priority >= 0)
			s->priority = priority;
		n++;
	}
	return n;
}

static void signature_release(struct assay_signature *s)
{
	free(s->name);
	free(s->family);
	free(s->pattern);
	pcre2_code_free(s->code);
}

size_t assay_sigset_disable(struct assay_sigset *set, const char *name)
{
	size_t kept = 0, removed = 0;
	for (size_t i = 0; i < set->n; i++) {
		struct assay_signature *s = &set->v[i];
		if (!s->benign && (!strcmp(s->name, name) || !strcmp(s->family, name))) {
			signature_release(s);
			removed++;
		} else {
			set->v[kept++] = *s;
		}
	}
	set->n = kept;
	return removed;
}

void assay_sigset_release(struct assay_sigset *set)
{
	for (size_t i = 0; i < set->n; i++)
		signature_release(&set->v[i]);
	free(set->v);
	memset(set, 0, sizeof(*set));
}

void assay_match_release(struct assay_match *m)
{
	free(m->signature);
	free(m->family);
	free(m->source);
	free(m->line);
	memset(m, 0, sizeof(*m));
}

/* A standalone pattern (provenance expectations): compiled as a signature
 * is, searched in a whole block. */
void *assay_pattern_compile(const char *pattern, struct assay_error *e)
{
	return compile(pattern, e);
}

bool assay_pattern_search(const void *code, const char *data, size_t len, size_t *start,
			  size_t *end)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(code, NULL);
	if (!md)
		abort();
	int rc = pcre2_match(code, (PCRE2_SPTR)(data ? data : ""), len, 0, 0, md, NULL);
	if (rc >= 0) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		*start = ov[0];
		*end = ov[1] >= ov[0] ? ov[1] : ov[0];
	}
	pcre2_match_data_free(md);
	return rc >= 0;
}

void assay_pattern_free(void *code)
{
	pcre2_code_free(code);
}
