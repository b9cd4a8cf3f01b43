/* Unit tests for watching: every built-in signature on a real-looking line,
 * lines that must not match, benign suppression, user patterns, lines split
 * across reads, and following a growing file. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "assay/watch.h"

static const struct {
	const char *line;
	const char *signature;
} samples[] = {
    {"torch.distributed.DistBackendError: NCCL error in: "
     "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error",
     "nccl-error"},
    {"node3:1234:1299 [0] misc/socket.cc:49 NCCL WARN ncclSystemError: Call to connect returned "
     "Connection refused",
     "nccl-error"},
    {"RuntimeError: RCCL error: remote process exited or there was a network error", "nccl-error"},
    {"[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, "
     "Timeout(ms)=600000) ran for 600002 milliseconds before timing out.",
     "nccl-timeout"},
    {"Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA "
     "kernels",
     "nccl-timeout"},
    {"NVRM: Xid (PCI:0000:1b:00): 79, pid=1234, GPU has fallen off the bus.", "gpu-lost"},
    {"HW Exception by GPU node-2 (Agent handle: 0x55d) reason :GPU Hang", "gpu-hang"},
    {"amdgpu 0000:05:00.0: amdgpu: GPU reset begin!", "gpu-reset"},
    /* ROCm/cvs dddd914 megatron_lib.py training_err_dict: "GPU Reset",
     * "NCCL ERROR", "HW Exception by GPU" fail a run. */
    {"[rank3]: GPU Reset detected on device 3", "gpu-reset"},
    {"NCCL ERROR: unhandled system error (run with NCCL_DEBUG=INFO for details)", "nccl-error"},
    {"HW Exception by GPU 2, pid 4021", "gpu-hang"},
    {"RuntimeError: CUDA error: uncorrectable ECC error encountered", "gpu-uncorrectable"},
    {"Memory access fault by GPU node-4 (Agent handle: 0x2) on address 0x7f. Reason: Page not "
     "present or supervisor privilege.",
     "gpu-page-fault"},
    {"RuntimeError: CUDA error: an illegal memory access was encountered", "gpu-page-fault"},
    {"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", "cuda-oom"},
    {"RuntimeError: HIP out of memory. Tried to allocate 1.50 GiB", "hip-oom"},
    /* PyTorch 2.x on ROCm (issue 35): the class is CUDA's, the text HIP's. */
    {"torch.OutOfMemoryError: HIP out of memory. Tried to allocate 978.00 MiB. GPU 0 has a "
     "total capacity of 15.98 GiB of which 630.00 MiB is free.",
     "hip-oom"},
    {"torch.cuda.OutOfMemoryError: HIP out of memory. Tried to allocate 39.41 GiB", "hip-oom"},
    {"[12345.678] Out of memory: Killed process 4321 (python3) total-vm:100kB", "host-oom"},
    {"terminate called after throwing an instance of 'std::bad_alloc'", "host-oom"},
    {"torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ", "torch-elastic"},
    {"torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError", "torch-elastic"},
    {"Traceback (most recent call last):", "python-traceback"},
    {"[node1:01234] *** Process received signal ***", "abort"},
    {"bash: line 1:  4242 Segmentation fault      (core dumped) ./train", "segfault"},
    {"Aborted (core dumped)", "abort"},
    {"MPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD", "mpi-abort"},
    {"mpirun noticed that process rank 0 with PID 0 on node x exited on signal 9 (Killed).",
     "mpi-abort"},
};

static const char *const clean_lines[] = {
    "node3:1234:1234 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0",
    "NCCL_ASYNC_ERROR_HANDLING is deprecated, use TORCH_NCCL_ASYNC_ERROR_HANDLING",
    " iteration      100/    1000 | consumed samples: 6400 | lm loss: 7.12E+00 | number of nan "
    "iterations: 0 |",
    "OutOfMemoryErrorCount=0",
    "the memory error rate is 0",
    "Segmentation of experts: 256 over 8 ranks",
    "torchrun finished successfully",
    "gpu reset counter: 0",
};

static void init_builtin(struct assay_sigset *set)
{
	*set = (struct assay_sigset)ASSAY_SIGSET_INIT;
	assay_sigset_add_builtins(set);
}

static const char *scan_line(const struct assay_sigset *set, const char *line,
			     struct assay_scanner *s)
{
	assay_scanner_init(s, set, "stdout");
	assay_scanner_feed(s, line, strlen(line));
	assay_scanner_feed(s, "\n", 1);
	return s->matched ? s->match.signature : NULL;
}

static void test_builtins(void **state)
{
	(void)state;
	struct assay_sigset set;
	init_builtin(&set);
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		struct assay_scanner s;
		const char *got = scan_line(&set, samples[i].line, &s);
		if (!got || strcmp(got, samples[i].signature))
			fail_msg("line %zu \"%s\": got %s, want %s", i, samples[i].line,
				 got ? got : "(none)", samples[i].signature);
		assert_string_equal(s.match.line, samples[i].line);
		assert_string_equal(s.match.source, "stdout");
		assay_scanner_release(&s);
	}
	for (size_t i = 0; i < sizeof(clean_lines) / sizeof(clean_lines[0]); i++) {
		struct assay_scanner s;
		const char *got = scan_line(&set, clean_lines[i], &s);
		if (got)
			fail_msg("clean line \"%s\" matched %s", clean_lines[i], got);
		assay_scanner_release(&s);
	}
	/* Every built-in has a sample, and anchors the prefilter can use. */
	for (const struct assay_builtin_signature *b = assay_builtin_signatures; b->name; b++) {
		assert_non_null(b->anchors);
		assert_non_null(b->anchors[0]);
		for (const char *const *a = b->anchors; *a; a++)
			if (strlen(*a) < 2)
				fail_msg("anchor \"%s\" of %s is shorter than two bytes", *a,
					 b->name);
	}
	for (const struct assay_builtin_signature *b = assay_builtin_signatures; b->name; b++) {
		bool found = false;
		for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
			found |= !strcmp(samples[i].signature, b->name);
		if (!found)
			fail_msg("built-in signature %s has no sample line", b->name);
	}
	assay_sigset_release(&set);
}

/* A matching line split at every byte offset across two reads, after some
 * clean lines, is found, and the recorded line is whole. */
static void test_split_reads(void **state)
{
	(void)state;
	struct assay_sigset set;
	init_builtin(&set);
	const char *text =
	    "step 1 ok\nstep 2 ok\r\nrank 1: NCCL error: unhandled system error\nafter\n";
	size_t n = strlen(text);
	for (size_t cut = 0; cut <= n; cut++) {
		struct assay_scanner s;
		assay_scanner_init(&s, &set, "stderr");
		assay_scanner_feed(&s, text, cut);
		assay_scanner_feed(&s, text + cut, n - cut);
		assert_true(s.matched);
		assert_string_equal(s.match.signature, "nccl-error");
		assert_string_equal(s.match.line, "rank 1: NCCL error: unhandled system error");
		assay_scanner_release(&s);
	}
	/* One byte at a time. */
	struct assay_scanner s;
	assay_scanner_init(&s, &set, "stderr");
	for (size_t i = 0; i < n; i++)
		assay_scanner_feed(&s, text + i, 1);
	assert_true(s.matched);
	assert_string_equal(s.match.line, "rank 1: NCCL error: unhandled system error");
	assay_scanner_release(&s);
	assay_sigset_release(&set);
}

static void test_unterminated_last_line(void **state)
{
	(void)state;
	struct assay_sigset set;
	init_builtin(&set);
	struct assay_scanner s;
	assay_scanner_init(&s, &set, "stdout");
	assert_false(assay_scanner_feed(&s, "ok\nSegmentation fault", 21));
	assert_true(assay_scanner_finish(&s));
	assert_string_equal(s.match.signature, "segfault");
	assay_scanner_release(&s);
	assay_sigset_release(&set);
}

/* Issue 14, defect 2: the traceback header opens a settle window; the
 * exception line becomes the match's line, and a more specific family in
 * the window (the HIP illegal memory access) wins. Chained tracebacks give
 * the last exception; lines of other ranks are passed over. */
static void test_settle_window(void **state)
{
	(void)state;
	struct assay_sigset set;
	init_builtin(&set);
	struct assay_scanner s;
	/* CPython's format (Lib/traceback.py), a generic exception. */
	const char *plain = "step 3\nTraceback (most recent call last):\n"
			    "  File \"train.py\", line 12, in <module>\n    main()\n"
			    "ValueError: shapes (4,) and (5,) not aligned\nafter\n";
	assay_scanner_init(&s, &set, "stderr");
	assert_true(assay_scanner_feed(&s, plain, strlen(plain)));
	assert_string_equal(s.match.signature, "python-traceback");
	assert_string_equal(s.match.line, "ValueError: shapes (4,) and (5,) not aligned");
	assert_false(s.closed);
	assay_scanner_release(&s);

	/* The exception line of a GPU fault: gpu outranks python. */
	const char *hip = "Traceback (most recent call last):\n"
			  "  File \"train.py\", line 12, in <module>\n"
			  "RuntimeError: HIP error: an illegal memory access was encountered\n";
	for (size_t cut = 0; cut <= strlen(hip); cut++) {
		assay_scanner_init(&s, &set, "stderr");
		assay_scanner_feed(&s, hip, cut);
		assay_scanner_feed(&s, hip + cut, strlen(hip) - cut);
		assert_true(s.matched);
		assert_string_equal(s.match.signature, "gpu-page-fault");
		assert_string_equal(s.match.family, "gpu");
		assert_string_equal(
		    s.match.line,
		    "RuntimeError: HIP error: an illegal memory access was encountered");
		assay_scanner_release(&s);
	}

	/* torchrun's rank prefix; another rank's lines in between; chained. */
	const char *ranks = "[rank0]: Traceback (most recent call last):\n"
			    "[rank1]: step 5 ok\n"
			    "[rank0]:   File \"a.py\", line 1, in f\n"
			    "[rank0]: KeyError: 'x'\n"
			    "[rank0]: \n"
			    "[rank0]: During handling of the above exception, another exception "
			    "occurred:\n"
			    "[rank0]: \n"
			    "[rank0]: Traceback (most recent call last):\n"
			    "[rank0]:   File \"a.py\", line 3, in f\n"
			    "[rank0]: RuntimeError: loader died\n";
	assay_scanner_init(&s, &set, "stderr");
	assay_scanner_feed(&s, ranks, strlen(ranks));
	assert_string_equal(s.match.signature, "python-traceback");
	assert_string_equal(s.match.line, "[rank0]: RuntimeError: loader died");
	assay_scanner_release(&s);

	/* A lower priority later changes nothing; the window ends after
	 * settle_lines lines, and what follows is not read. */
	struct sbuf text = SBUF_INIT;
	sbuf_adds(&text,
		  "x NCCL error: unhandled system error\nTraceback (most recent call last):\n");
	for (int i = 0; i < ASSAY_SETTLE_LINES; i++)
		sbuf_addf(&text, "line %d\n", i);
	sbuf_adds(&text, "GPU has fallen off the bus\n");
	assay_scanner_init(&s, &set, "stderr");
	assay_scanner_feed(&s, text.buf, text.len);
	assert_string_equal(s.match.signature, "nccl-error");
	assert_true(s.closed);
	assay_scanner_release(&s);
	/* The same GPU line inside the window wins. */
	assay_scanner_init(&s, &set, "stderr");
	assay_scanner_feed(&s, text.buf, 80);
	assay_scanner_feed(&s, "GPU has fallen off the bus\n", 27);
	assert_string_equal(s.match.signature, "gpu-lost");
	assay_scanner_release(&s);
	/* A window closed by its owner (time) reads nothing more. */
	assay_scanner_init(&s, &set, "stderr");
	assay_scanner_feed(&s, text.buf, 80);
	assay_scanner_close(&s);
	assay_scanner_feed(&s, "GPU has fallen off the bus\n", 27);
	assert_string_equal(s.match.signature, "nccl-error");
	assay_scanner_release(&s);
	sbuf_release(&text);

	/* Priorities: the families' table, in the set. */
	assert_true(assay_signature_family_priority("gpu") >
		    assay_signature_family_priority("oom"));
	assert_true(assay_signature_family_priority("oom") >
		    assay_signature_family_priority("nccl"));
	assert_true(assay_signature_family_priority("nccl") >
		    assay_signature_family_priority("python"));
	assert_int_equal(assay_signature_family_priority("nope"), 0);
	for (size_t i = 0; i < set.n; i++) {
		assert_int_equal(set.v[i].priority,
				 assay_signature_family_priority(set.v[i].family));
		assert_true(set.v[i].priority > 0);
	}
	/* Tuning a family's window: other ranks' lines count, its frames not. */
	assert_int_equal(assay_sigset_tune(&set, "python", 5, 3, -1), 1);
	assay_scanner_init(&s, &set, "stderr");
	const char *tb = "[r0]: Traceback (most recent call last):\n[r1]: a\n[r1]: b\n[r1]: c\n"
			 "[r0]: E: x\n";
	assay_scanner_feed(&s, tb, strlen(tb));
	assert_true(s.closed);
	assert_string_equal(s.match.line, "[r0]: Traceback (most recent call last):");
	assay_scanner_release(&s);
	assay_sigset_release(&set);
}

/* Issue 35, item 7: a traceback deeper than the settle window's lines (a
 * framework's 40 frames, two lines each, CPython 3.11's caret lines among
 * them) still ends at its exception line: the window counts no frame. */
static void test_deep_traceback(void **state)
{
	(void)state;
	struct assay_sigset set;
	init_builtin(&set);
	struct sbuf text = SBUF_INIT;
	sbuf_adds(&text, "[rank3]: Traceback (most recent call last):\n");
	for (int i = 0; i < 40; i++)
		sbuf_addf(&text,
			  "[rank3]:   File \"/opt/lib/mod%d.py\", line %d, in f%d\n"
			  "[rank3]:     return f%d(x)\n%s",
			  i, 10 + i, i, i + 1, i % 10 ? "" : "[rank3]:            ^^^^^^^^\n");
	sbuf_adds(&text, "[rank3]: ValueError: batch 7 has no labels\nlater\n");
	struct assay_scanner s;
	assay_scanner_init(&s, &set, "stderr");
	assay_scanner_feed(&s, text.buf, text.len);
	assert_string_equal(s.match.signature, "python-traceback");
	assert_string_equal(s.match.line, "[rank3]: ValueError: batch 7 has no labels");
	assert_false(s.closed);
	assert_int_equal(s.lines_after, 2);
	assay_scanner_release(&s);
	sbuf_release(&text);
	assay_sigset_release(&set);
}

/* Issue 14, defect 7: a signature line without its line end is matched
 * once no byte came for ASSAY_PARTIAL_WAIT_S, and its rest completes it. */
static void test_partial_line(void **state)
{
	(void)state;
	struct assay_sigset set;
	init_builtin(&set);
	struct assay_scanner s;
	assay_scanner_init(&s, &set, "stdout");
	assert_false(assay_scanner_feed(&s, "ok\nSegmentation fau", 19));
	assert_false(assay_scanner_tick(&s, s.fed_at));     /* too soon */
	assert_false(assay_scanner_tick(&s, s.fed_at + 1)); /* no match yet */
	assert_false(assay_scanner_feed(&s, "lt", 2));
	assert_false(assay_scanner_tick(&s, s.fed_at + ASSAY_PARTIAL_WAIT_S / 2));
	assert_true(assay_scanner_tick(&s, s.fed_at + ASSAY_PARTIAL_WAIT_S + 0.01));
	assert_string_equal(s.match.signature, "segfault");
	assert_string_equal(s.match.line, "Segmentation fault");
	assert_true(assay_scanner_feed(&s, " (core dumped)\n", 15));
	assert_string_equal(s.match.line, "Segmentation fault (core dumped)");
	assert_true(assay_scanner_finish(&s));
	assay_scanner_release(&s);
	assay_sigset_release(&set);
}

static void test_benign_and_user(void **state)
{
	(void)state;
	struct assay_sigset set;
	struct assay_error e;
	init_builtin(&set);
	assert_int_equal(
	    assay_sigset_add(&set, "ib-fallback", "NCCL error.*falling back to socket", true, &e),
	    ASSAY_OK);
	assert_int_equal(assay_sigset_add(&set, "loss-nan", "lm loss: nan\\b", false, &e),
			 ASSAY_OK);
	struct assay_scanner s;
	assay_scanner_init(&s, &set, "log");
	const char *text =
	    "NCCL error on ib0, falling back to socket\niteration 5 | lm loss: nan |\n";
	assert_true(assay_scanner_feed(&s, text, strlen(text)));
	assert_string_equal(s.match.signature, "loss-nan");
	assert_string_equal(s.match.family, "user");
	assert_string_equal(s.match.line, "iteration 5 | lm loss: nan |");
	assay_scanner_release(&s);

	/* The benign line alone ends nothing. */
	assay_scanner_init(&s, &set, "log");
	assert_false(assay_scanner_feed(&s, text, 42));
	assert_false(assay_scanner_finish(&s));
	assay_scanner_release(&s);

	assert_int_equal(assay_sigset_add(&set, "bad", "a(b", false, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "invalid pattern at offset 3: missing closing parenthesis");
	assert_int_equal(assay_sigset_add(&set, "nccl-error", "x", false, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "signature \"nccl-error\" is already defined (built in)");
	assert_int_equal(assay_sigset_add(&set, "loss-nan", "x", false, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "signature \"loss-nan\" is already defined");
	assay_sigset_release(&set);
}

/* A line with an anchor but no match (NCCL INFO ... "NCCL error" absent)
 * is passed over, and a suite pattern without anchors is still found after
 * it, in a long block. */
static void test_prefilter(void **state)
{
	(void)state;
	struct assay_sigset set;
	struct assay_error e;
	init_builtin(&set);
	assert_int_equal(assay_sigset_add(&set, "loss-spike", "lm loss: [1-9][0-9]\\.", false, &e),
			 ASSAY_OK);
	struct sbuf text = SBUF_INIT;
	for (int i = 0; i < 2000; i++)
		sbuf_addf(&text,
			  "iteration %d | lm loss: 2.3%02d | gpu reset counter 0 | page faults 0\n",
			  i, i % 100);
	sbuf_adds(&text, "iteration 2000 | lm loss: 42.0 |\n");
	struct assay_scanner s;
	assay_scanner_init(&s, &set, "log");
	assert_true(assay_scanner_feed(&s, text.buf, text.len));
	assert_string_equal(s.match.signature, "loss-spike");
	assert_string_equal(s.match.line, "iteration 2000 | lm loss: 42.0 |");
	assay_scanner_release(&s);
	/* The same in a file-sized stream of pieces, with a built-in at the end. */
	sbuf_reset(&text);
	for (int i = 0; i < 5000; i++)
		sbuf_addf(&text, "step %d ok, nccl INFO Using network IB, page size 4096\n", i);
	sbuf_adds(
	    &text,
	    "[rank7]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp\n");
	assay_scanner_init(&s, &set, "log");
	for (size_t off = 0; off < text.len; off += 4093)
		assay_scanner_feed(&s, text.buf + off,
				   text.len - off < 4093 ? text.len - off : 4093);
	assert_true(s.matched);
	assert_string_equal(s.match.signature, "nccl-error");
	assay_scanner_release(&s);
	sbuf_release(&text);
	assay_sigset_release(&set);
}

static void test_disable(void **state)
{
	(void)state;
	struct assay_sigset set;
	init_builtin(&set);
	assert_int_equal(assay_sigset_disable(&set, "python-traceback"), 1);
	assert_int_equal(assay_sigset_disable(&set, "gpu"), 5);
	assert_int_equal(assay_sigset_disable(&set, "nope"), 0);
	struct assay_scanner s;
	assert_null(scan_line(&set, "Traceback (most recent call last):", &s));
	assay_scanner_release(&s);
	assert_null(scan_line(&set, "amdgpu 0000:05:00.0: amdgpu: GPU reset begin!", &s));
	assay_scanner_release(&s);
	assert_string_equal(scan_line(&set, "CUDA out of memory", &s), "cuda-oom");
	assay_scanner_release(&s);
	assay_sigset_release(&set);
}

static void append(const char *path, const char *text, int flags)
{
	int fd = open(path, O_WRONLY | O_CREAT | flags, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void test_tail(void **state)
{
	(void)state;
	char dir[] = "/tmp/assay-test-tail-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[128], other[128];
	snprintf(path, sizeof(path), "%s/log", dir);
	snprintf(other, sizeof(other), "%s/new", dir);
	struct assay_tail t;
	struct sbuf sb = SBUF_INIT;
	assay_tail_init(&t, path);
	assert_int_equal(assay_tail_read(&t, &sb, 1 << 20), 0); /* not there yet */
	append(path, "one\ntw", O_APPEND);
	assert_int_equal(assay_tail_read(&t, &sb, 1 << 20), 6);
	assert_int_equal(assay_tail_read(&t, &sb, 1 << 20), 0);
	append(path, "o\nthree\n", O_APPEND);
	assert_int_equal(assay_tail_read(&t, &sb, 3), 3); /* at most max */
	assert_int_equal(assay_tail_read(&t, &sb, 1 << 20), 5);
	assert_string_equal(sbuf_str(&sb), "one\ntwo\nthree\n");
	/* Truncated: read again from the start. */
	sbuf_reset(&sb);
	append(path, "x\n", O_TRUNC);
	assert_int_equal(assay_tail_read(&t, &sb, 1 << 20), 2);
	assert_string_equal(sbuf_str(&sb), "x\n");
	/* Replaced by another file (log rotation): read the new one whole. */
	sbuf_reset(&sb);
	append(other, "fresh file\n", O_TRUNC);
	assert_int_equal(rename(other, path), 0);
	assert_int_equal(assay_tail_read(&t, &sb, 1 << 20), 11);
	assert_string_equal(sbuf_str(&sb), "fresh file\n");
	assay_tail_release(&t);
	/* A tail that starts at the current end reads only what comes after. */
	sbuf_reset(&sb);
	assay_tail_init(&t, path);
	assay_tail_skip_existing(&t);
	assert_int_equal(assay_tail_read(&t, &sb, 1 << 20), 0);
	append(path, "next\n", O_APPEND);
	assert_int_equal(assay_tail_read(&t, &sb, 1 << 20), 5);
	assert_string_equal(sbuf_str(&sb), "next\n");
	assay_tail_release(&t);
	sbuf_release(&sb);
	unlink(path);
	rmdir(dir);
}

/* Issue 35, item 11: terminal escapes the workload printed are not in what
 * is shown (the match's line); a coloured rank prefix still ties a
 * traceback's lines together. */
static void test_ansi(void **state)
{
	(void)state;
	char t[] = "\033[1;31mRuntimeError\033[0m: x \033]0;title\007y\033(Bz";
	size_t n = assay_ansi_strip(t, strlen(t));
	assert_string_equal(t, "RuntimeError: x yz");
	assert_int_equal(n, strlen("RuntimeError: x yz"));
	struct assay_sigset set;
	init_builtin(&set);
	struct assay_scanner s;
	const char *log = "\033[32m[rank0]\033[0m: Traceback (most recent call last):\n"
			  "\033[32m[rank0]\033[0m:   File \"a.py\", line 1, in f\n"
			  "\033[32m[rank0]\033[0m: \033[1;35mRuntimeError\033[0m: CUDA error: "
			  "\033[31mout of memory\033[0m\n";
	assay_scanner_init(&s, &set, "stderr");
	assay_scanner_feed(&s, log, strlen(log));
	assert_string_equal(s.match.signature, "python-traceback");
	assert_string_equal(s.match.line, "[rank0]: RuntimeError: CUDA error: out of memory");
	assay_scanner_release(&s);
	const char *seg = "\033[31mSegmentation fault\033[0m\n";
	assay_scanner_init(&s, &set, "stderr");
	assay_scanner_feed(&s, seg, strlen(seg));
	assert_string_equal(s.match.line, "Segmentation fault");
	assay_scanner_release(&s);
	assay_sigset_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_builtins),
	    cmocka_unit_test(test_split_reads),
	    cmocka_unit_test(test_unterminated_last_line),
	    cmocka_unit_test(test_settle_window),
	    cmocka_unit_test(test_deep_traceback),
	    cmocka_unit_test(test_ansi),
	    cmocka_unit_test(test_partial_line),
	    cmocka_unit_test(test_benign_and_user),
	    cmocka_unit_test(test_prefilter),
	    cmocka_unit_test(test_disable),
	    cmocka_unit_test(test_tail),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
