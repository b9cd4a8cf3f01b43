/* Unit tests for training logs at real scale (issue 15) and the outcome of a
 * run that trained nothing (issue 14): streaming in pieces, \r line ends,
 * long lines, bounded step storage, format evidence across the stream,
 * Megatron-LM's exit lines and counters, world size, error signatures.
 * Lines are built from the upstream print statements: Megatron-LM
 * megatron/training/training.py (training_log(), print_datetime(),
 * checkpoint_and_decide_exit()), megatron/training/arguments.py
 * (validate_args(): "using world size"), Primus
 * primus/backends/megatron/patches/training_log/print_rank_last_patches.py
 * (ThroughputAverageExtension) and runner/primus-cli-direct.sh. Large logs
 * are generated here, never committed. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "assay/training.h"
#include "assay/util.h"

/* training_log(): " [date] iteration {:8d}/{:8d} | consumed samples: {:12d} |
 * elapsed time per iteration (ms): {:.1f} | throughput per GPU
 * (TFLOP/s/GPU): {:.1f} | learning rate: {:.6E} | global batch size: {:5d} |
 * lm loss: {:.6E} | loss scale: {:.1f} | grad norm: {:.3f} | number of
 * skipped iterations: {:3d} | number of nan iterations: {:3d} |". The loss
 * is left out when loss < 0 (as Megatron leaves out an average < 0). */
static void megatron_line(struct sbuf *sb, long long it, long long total, double ms, double loss,
			  int skipped, int nans, const char *eol)
{
	sbuf_addf(
	    sb,
	    " [2026-05-14 15:37:26.924061] iteration %8lld/%8lld | consumed samples: %12lld | "
	    "elapsed time per iteration (ms): %.1f | throughput per GPU (TFLOP/s/GPU): %.1f | "
	    "learning rate: %.6E | global batch size: %5d |",
	    it, total, it * 256, ms, 400.0 + it % 7, 1e-4, 256);
	if (loss >= 0)
		sbuf_addf(sb, " lm loss: %.6E |", loss);
	sbuf_addf(
	    sb,
	    " loss scale: 1.0 | grad norm: 0.512 | number of skipped iterations: %3d | number "
	    "of nan iterations: %3d |%s",
	    skipped, nans, eol);
}

static void parse_sb(const char *format, const struct sbuf *sb, const struct assay_train_opts *o,
		     struct assay_train_result *r)
{
	struct assay_error e;
	assert_int_equal(assay_train_parse(format, sb->buf ? sb->buf : "", sb->len, o, "t", r, &e),
			 ASSAY_OK);
}

/* Issue 15 item 1: Megatron counts NaN steps instead of printing nan. */
static void test_nan_counter(void **state)
{
	(void)state;
	struct sbuf sb = SBUF_INIT;
	for (int i = 1; i <= 10; i++)
		megatron_line(&sb, i * 10, 100, 500.0, i == 4 ? -1 : 5.0 - i * 0.1, 0,
			      i == 4 ? 5 : 0, "\n");
	struct assay_train_result r;
	parse_sb("megatron", &sb, NULL, &r);
	assert_int_equal(r.n_nonfinite, 0);
	assert_int_equal(r.nan_iters_total, 5);
	assert_int_equal(r.nan_first_step, 40);
	assert_int_equal(r.nan_first_line, 4);
	assert_int_equal(assay_train_outcome(&r), ASSAY_WORKLOAD_FAILED);
	char why[512];
	assert_string_equal(assay_train_outcome_text(&r, why, sizeof(why)),
			    "number of nan iterations is 5 over the log, the first at step 40 "
			    "(line 4)");
	assay_train_result_release(&r);

	/* Skipped iterations (loss-scale overflow) are counted, not a failure. */
	sbuf_reset(&sb);
	for (int i = 1; i <= 10; i++)
		megatron_line(&sb, i * 10, 100, 500.0, i <= 2 ? -1 : 4.0, i <= 2 ? 10 : 1, 0, "\n");
	parse_sb("megatron", &sb, NULL, &r);
	assert_int_equal(assay_train_outcome(&r), ASSAY_OK);
	assert_int_equal(r.skipped_total, 28);
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_parse_opts po = {0};
	struct assay_error e;
	assert_int_equal(assay_train_rows(&r, &po, &rows, &e), ASSAY_OK);
	bool found = false;
	for (size_t i = 0; i < rows.n; i++)
		if (!strcmp(rows.v[i].metric, "skipped_iterations")) {
			assert_true(rows.v[i].value == 28);
			found = true;
		}
	assert_true(found);
	assay_rows_release(&rows);
	assay_train_result_release(&r);
	sbuf_release(&sb);
}

/* Issue 15 item 2: runs that ended without an "iteration N/N" line. */
static void test_exit_paths(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		enum assay_train_exit kind;
		long long it;
	} cases[] = {
	    /* print_datetime('after training is done'): f'[{string}] datetime: {time_str} ' */
	    {"[after training is done] datetime: 2026-05-14 15:40:01.123456 \n",
	     ASSAY_TRAIN_EXIT_DONE, -1},
	    /* print_datetime(f'exiting program at iteration {iteration}') */
	    {"[exiting program at iteration 30] datetime: 2026-05-14 15:40:01.123456 \n",
	     ASSAY_TRAIN_EXIT_INTERVAL, 30},
	    /* print_datetime(f'exiting program after {train_time} minutes') */
	    {"[exiting program after 240.01873 minutes] datetime: 2026-05-14 15:40:01.123456 \n",
	     ASSAY_TRAIN_EXIT_DURATION, -1},
	    /* print_datetime('exiting program after receiving SIGTERM.') */
	    {"[exiting program after receiving SIGTERM.] datetime: 2026-05-14 15:40:01.123456 \n",
	     ASSAY_TRAIN_EXIT_SIGNAL, -1},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sbuf sb = SBUF_INIT;
		/* train_iters 35, log_interval 10: no "iteration 35/35" line. */
		for (int it = 10; it <= 30; it += 10)
			megatron_line(&sb, it, 35, 500.0, 4.0, 0, 0, "\n");
		sbuf_adds(&sb, cases[i].line);
		struct assay_train_result r;
		parse_sb("megatron", &sb, NULL, &r);
		assert_int_equal(r.exit_kind, cases[i].kind);
		assert_int_equal(r.exit_iteration, cases[i].it);
		assert_int_equal(r.exit_line, 4);
		assert_false(assay_train_incomplete(&r));
		assert_int_equal(assay_train_outcome(&r), ASSAY_OK);
		assay_train_result_release(&r);
		sbuf_release(&sb);
	}
	/* A line that only looks like one is not an exit. */
	struct sbuf sb = SBUF_INIT;
	megatron_line(&sb, 10, 35, 500.0, 4.0, 0, 0, "\n");
	sbuf_adds(&sb, "exiting program after a while\n");
	struct assay_train_result r;
	parse_sb("megatron", &sb, NULL, &r);
	assert_true(assay_train_incomplete(&r));
	assert_int_equal(assay_train_outcome(&r), ASSAY_WORKLOAD_FAILED);
	assay_train_result_release(&r);
	sbuf_release(&sb);
}

/* Issue 14 item 6: a workload that printed no training line has no
 * metrics; it did not fail to finish a training it never started. */
static void test_no_training_line(void **state)
{
	(void)state;
	static const char *const logs[] = {
	    "",
	    "NCCL INFO Bootstrap : Using eth0\nusing world size: 8, data-parallel size: 8, "
	    "context-parallel size: 1\nbuilding megatron model ...\n",
	};
	static const char *const formats[] = {"megatron", "primus"};
	for (size_t i = 0; i < ARRAY_SIZE(logs); i++)
		for (size_t f = 0; f < ARRAY_SIZE(formats); f++) {
			struct assay_train_result r;
			struct assay_error e;
			assert_int_equal(assay_train_parse(formats[f], logs[i], strlen(logs[i]),
							   NULL, "t", &r, &e),
					 ASSAY_OK);
			assert_int_equal(assay_train_outcome(&r), ASSAY_NO_METRICS);
			char why[256];
			assert_string_equal(assay_train_outcome_text(&r, why, sizeof(why)),
					    "no metrics: the log has no iteration line");
			assay_train_result_release(&r);
		}
	/* An error signature in such a log is a failure, though. */
	const char *log = "Traceback (most recent call last):\nRuntimeError: NCCL error in: "
			  "ProcessGroupNCCL.cpp:1331, unhandled system error\n";
	struct assay_train_result r;
	struct assay_error e;
	assert_int_equal(assay_train_parse("megatron", log, strlen(log), NULL, "t", &r, &e),
			 ASSAY_OK);
	assert_int_equal(assay_train_outcome(&r), ASSAY_WORKLOAD_FAILED);
	assert_false(r.format_unknown);
	assay_train_result_release(&r);
	/* Issue 35, item 10: so it is with format auto, where no line tells
	 * the format (it crashed before training): not "cannot tell". */
	assert_int_equal(assay_train_parse("auto", log, strlen(log), NULL, "t", &r, &e), ASSAY_OK);
	assert_true(r.format_unknown);
	assert_int_equal(assay_train_outcome(&r), ASSAY_WORKLOAD_FAILED);
	assert_int_equal(r.n_errors, 2);
	assert_string_equal(r.errors[0].family, "python");
	assert_string_equal(r.errors[1].family, "nccl");
	assay_train_result_release(&r);
	/* Without an error signature it still cannot be told. */
	const char *quiet = "NCCL INFO Bootstrap : Using eth0\n";
	assert_int_equal(assay_train_parse("auto", quiet, strlen(quiet), NULL, "t", &r, &e),
			 ASSAY_USAGE);
	assay_train_result_release(&r);
}

/* Feeding in pieces of any size gives what one block gives. */
static void test_pieces(void **state)
{
	(void)state;
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, "using world size: 16, data-parallel size: 16, context-parallel size: 1\n");
	for (int it = 1; it <= 40; it++)
		megatron_line(&sb, it, 40, 500.0 + it, 5.0 - it * 0.01, 0, 0,
			      it % 3 ? "\n" : "\r\n");
	sbuf_adds(&sb, "[after training is done] datetime: 2026-05-14 15:40:01.123456 \n");
	struct assay_train_result whole;
	parse_sb("megatron", &sb, NULL, &whole);
	static const size_t sizes[] = {1, 2, 7, 100, 4096};
	for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
		struct assay_train_result r;
		struct assay_train_stream *st = assay_train_stream_new("auto", NULL, &r);
		for (size_t off = 0; off < sb.len; off += sizes[k])
			assay_train_stream_feed(st, sb.buf + off,
						sb.len - off < sizes[k] ? sb.len - off : sizes[k]);
		struct assay_error e;
		assert_int_equal(assay_train_stream_end(st, "t", &e), ASSAY_OK);
		assert_string_equal(r.format, "megatron");
		assert_int_equal(r.n_steps, whole.n_steps);
		assert_int_equal(r.world_size, 16);
		assert_int_equal(r.world_line, 1);
		assert_int_equal(r.exit_kind, ASSAY_TRAIN_EXIT_DONE);
		assert_int_equal(r.exit_line, 42);
		for (size_t i = 0; i < r.n_steps; i++) {
			assert_int_equal(r.steps[i].step, whole.steps[i].step);
			assert_int_equal(r.steps[i].line, whole.steps[i].line);
			assert_true(r.steps[i].v[ASSAY_TM_ELAPSED_MS] ==
				    whole.steps[i].v[ASSAY_TM_ELAPSED_MS]);
		}
		assay_train_result_release(&r);
	}
	assay_train_result_release(&whole);
	sbuf_release(&sb);
}

/* Issue 15 item 4: \r ends a line (progress output). */
static void test_cr_lines(void **state)
{
	(void)state;
	struct sbuf sb = SBUF_INIT;
	for (int it = 1; it <= 8; it++)
		megatron_line(&sb, it, 8, 500.0, 4.0, 0, 0, "\r");
	sbuf_addch(&sb, '\n');
	struct assay_train_result r;
	parse_sb("megatron", &sb, NULL, &r);
	assert_int_equal(r.n_logged, 8);
	assert_int_equal(r.steps[7].line, 1); /* line numbers count \n only */
	assert_true(r.complete_iteration);
	assay_train_result_release(&r);
	sbuf_release(&sb);
}

/* Issue 15 item 4: long lines take linear time and are scanned in pieces.
 * (No timing is asserted; a quadratic scan made this test take minutes.) */
static void test_long_lines(void **state)
{
	(void)state;
	struct sbuf sb = SBUF_INIT;
	/* A 3 MiB \r progress line of 6000 iteration records, then a 12 MiB
	 * line of noise with a completion marker at its end. */
	for (int it = 1; it <= 6000; it++)
		megatron_line(&sb, it, 6000, 500.0, 4.0, 0, 0, "\r");
	sbuf_addch(&sb, '\n');
	size_t noise_from = sb.len;
	while (sb.len - noise_from < (12u << 20))
		sbuf_adds(&sb, "NCCL INFO Channel 00/32 : 0 1 2 3 4 5 6 7 via P2P/IPC ");
	sbuf_adds(&sb, "torchrun finished successfully (code 0)\n");
	/* In one block (the lines are whole): */
	struct assay_train_result r;
	parse_sb("auto", &sb, NULL, &r);
	assert_int_equal(r.n_logged, 6000);
	assert_true(r.complete_marker);
	assay_train_result_release(&r);
	/* Streamed in 64 KiB reads: the long line is scanned in 1 MiB pieces. */
	struct assay_train_stream *st = assay_train_stream_new("auto", NULL, &r);
	for (size_t off = 0; off < sb.len; off += 65536)
		assay_train_stream_feed(st, sb.buf + off,
					sb.len - off < 65536 ? sb.len - off : 65536);
	struct assay_error e;
	assert_int_equal(assay_train_stream_end(st, "t", &e), ASSAY_OK);
	assert_int_equal(r.n_logged, 6000);
	assert_int_equal(r.long_lines, 1); /* the \r records are lines of their own */
	assert_int_equal(r.long_line_first, 2);
	assert_true(r.complete_marker);
	assert_int_equal(r.marker_line, 2);
	assay_train_result_release(&r);
	sbuf_release(&sb);
}

/* Issue 15 item 3: step storage is bounded; the statistics are not changed
 * by it when the log is read from a file. */
static void test_bounded_steps(void **state)
{
	(void)state;
	struct sbuf sb = SBUF_INIT;
	for (int it = 1; it <= 1000; it++)
		megatron_line(&sb, it, 1000, 500.0 + (it * 37 % 101) / 10.0, 4.0, 0, 0, "\n");
	struct assay_train_result full, thin;
	parse_sb("megatron", &sb, NULL, &full);
	struct assay_train_opts o;
	assay_train_opts_init(&o);
	o.keep_steps = 64;
	parse_sb("megatron", &sb, &o, &thin);
	assert_true(thin.n_steps <= 64);
	assert_int_equal(thin.n_logged, 1000);
	assert_true(thin.stride > 1);
	assert_true(thin.complete_iteration);

	/* From a file: the warm-up read again, so mean and median are exact. */
	char path[] = "/tmp/assay-test-train-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, sb.buf, sb.len), (ssize_t)sb.len);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	struct assay_train_result fr;
	struct assay_error e;
	assert_int_equal(assay_train_parse_fd("auto", fd, -1, &o, "t", &fr, &e), ASSAY_OK);
	close(fd);
	assert_true(fr.refined);
	double m1, d1, m2, d2;
	size_t n1 = assay_train_steady(&full, ASSAY_TM_ELAPSED_MS, &m1, &d1);
	size_t n2 = assay_train_steady(&fr, ASSAY_TM_ELAPSED_MS, &m2, &d2);
	assert_int_equal(n1, 900);
	assert_int_equal(n2, n1);
	assert_true(fabs(m1 - m2) <= 1e-12 * m1);
	assert_true(d1 == d2);
	/* From a pipe: the warm-up (100 steps) from the record of the first
	 * steps, as exact as the second read. */
	assert_false(thin.refined);
	assert_int_equal(assay_train_refine(&thin, -1, &o, "t", &e), ASSAY_OK);
	assert_true(thin.refined);
	size_t n3 = assay_train_steady(&thin, ASSAY_TM_ELAPSED_MS, &m2, &d2);
	assert_int_equal(n3, n1);
	assert_true(fabs(m1 - m2) <= 1e-12 * m1);
	assert_true(d1 == d2);
	/* A warm-up longer than the record: read again from a file, and from a
	 * pipe close, the warm-up rounded to a kept step. */
	struct assay_train_result fr2, thin2;
	o.warm_record = 50;
	char path2[] = "/tmp/assay-test-train-XXXXXX";
	fd = mkstemp(path2);
	assert_true(fd >= 0);
	unlink(path2);
	assert_int_equal(write(fd, sb.buf, sb.len), (ssize_t)sb.len);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(assay_train_parse_fd("auto", fd, -1, &o, "t", &fr2, &e), ASSAY_OK);
	close(fd);
	assert_int_equal(fr2.n_warm_rec, 50);
	assert_true(fr2.refined);
	assert_int_equal(assay_train_steady(&fr2, ASSAY_TM_ELAPSED_MS, &m2, &d2), n1);
	assert_true(fabs(m1 - m2) <= 1e-12 * m1);
	assert_true(d1 == d2);
	parse_sb("megatron", &sb, &o, &thin2);
	assert_int_equal(assay_train_refine(&thin2, -1, &o, "t", &e), ASSAY_OK);
	assert_false(thin2.refined);
	size_t n4 = assay_train_steady(&thin2, ASSAY_TM_ELAPSED_MS, &m2, &d2);
	assert_true(n4 <= n1 && n4 + (size_t)thin2.stride > n1);
	assert_true(fabs(m1 - m2) < 0.1);
	assay_train_result_release(&thin2);
	assay_train_result_release(&fr2);
	assay_train_result_release(&fr);
	assay_train_result_release(&thin);
	assay_train_result_release(&full);
	sbuf_release(&sb);
}

/* Issue 15 item 5: the format is told by evidence anywhere in the stream. */
static void test_detection(void **state)
{
	(void)state;
	struct sbuf sb = SBUF_INIT;
	/* A Primus log behind 1.5 MB of preamble: its fields are read. */
	while (sb.len < 1500000)
		sbuf_adds(&sb,
			  "[W socket.cpp:663] [c10d] The client socket has failed to connect.\n");
	for (int it = 1; it <= 4; it++)
		sbuf_addf(
		    &sb,
		    "[\x1b[32m20260514 15:37:26\x1b[0m][\x1b[36mrank-7/8\x1b[0m][INFO] "
		    "[-----utils.py:425] : iteration %8d/%8d | consumed samples: %12d | "
		    "elapsed time per iteration (ms): 520.0/530.0 | throughput per GPU "
		    "(TFLOP/s/GPU): 500.0/490.0 | tokens per GPU (tokens/s/GPU): "
		    "7900.0/7800.0 | lm loss: 4.0E+00 | hip mem usage/free/total/usage_ratio: "
		    "170.86GB/117.12GB/287.98GB/59.33%% |\n",
		    it, 4, it * 256);
	struct assay_train_result r;
	parse_sb("auto", &sb, NULL, &r);
	assert_string_equal(r.format, "primus");
	assert_int_equal(r.world_size, 8);
	assert_true(r.steps[0].has & (1u << ASSAY_TM_TOKENS));
	assert_true(r.steps[0].has & (1u << ASSAY_TM_MEM_GB));
	assay_train_result_release(&r);
	/* Read as megatron, the Primus-only fields are dropped, and said so. */
	parse_sb("megatron", &sb, NULL, &r);
	assert_false(r.steps[0].has & (1u << ASSAY_TM_MEM_GB));
	assert_true(r.other_family_line > 0);
	assay_train_result_release(&r);

	/* A Megatron log behind 4 MiB of NCCL INFO lines. */
	sbuf_reset(&sb);
	while (sb.len < (4u << 20) + 100)
		sbuf_adds(&sb, "node1:123:456 [0] NCCL INFO Channel 00/32 : 0 1 2 3 via P2P/IPC\n");
	megatron_line(&sb, 1, 1, 500.0, 4.0, 0, 0, "\n");
	parse_sb("auto", &sb, NULL, &r);
	assert_string_equal(r.format, "megatron");
	assert_int_equal(r.n_logged, 1);
	assay_train_result_release(&r);

	/* Nothing of either: auto cannot tell. */
	const char *text = "hello\nworld\n";
	struct assay_error e;
	assert_int_equal(assay_train_parse("auto", text, strlen(text), NULL, "t", &r, &e),
			 ASSAY_USAGE);
	assay_train_result_release(&r);
	sbuf_release(&sb);
}

/* Issue 15 item 6: the world size a log states derives tokens. */
static void test_world_size(void **state)
{
	(void)state;
	struct assay_train_opts o;
	assay_train_opts_init(&o);
	o.seq_len = 4096;
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, "using world size: 16, data-parallel size: 16, context-parallel size: 1, "
		       "hierarchical context-parallel sizes: None, tensor-model-parallel size: 1, "
		       "pipeline-model-parallel size: 1\n");
	megatron_line(&sb, 1, 1, 1000.0, 4.0, 0, 0, "\n");
	struct assay_train_result r;
	parse_sb("megatron", &sb, &o, &r);
	assert_int_equal(r.world_size, 16);
	/* 256 * 4096 * 1000 / (1000 ms * 16) */
	assert_true(r.steps[0].v[ASSAY_TM_TOKENS] == 65536.0);
	assert_true(r.steps[0].derived & (1u << ASSAY_TM_TOKENS));
	assay_train_result_release(&r);

	/* Primus's training-log patch states it too; an option wins over both. */
	sbuf_reset(&sb);
	sbuf_adds(&sb, "[Patch:megatron.training_log] ThroughputAverageExtension initialized with "
		       "seq_len: 4096 world_size: 32 log_avg_skip_iterations: 2 "
		       "log_avg_reset_interval: 1000\n");
	megatron_line(&sb, 1, 1, 1000.0, 4.0, 0, 0, "\n");
	parse_sb("auto", &sb, &o, &r);
	assert_string_equal(r.format, "primus");
	assert_int_equal(r.world_size, 32);
	assay_train_result_release(&r);
	o.world_size = 8;
	parse_sb("auto", &sb, &o, &r);
	assert_int_equal(r.world_size, 8);
	assay_train_result_release(&r);
	sbuf_release(&sb);
}

/* Issue 15 item 7: error signatures from the watcher's table. */
static void test_errors(void **state)
{
	(void)state;
	struct sbuf sb = SBUF_INIT;
	megatron_line(&sb, 1, 2, 500.0, 4.0, 0, 0, "\n");
	sbuf_adds(&sb, "[rank3]:[E ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective "
		       "operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE) ran for 600000 "
		       "milliseconds before timing out.\n");
	sbuf_adds(&sb, "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 GiB\n");
	sbuf_adds(&sb, "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 4.00 GiB\n");
	megatron_line(&sb, 2, 2, 500.0, 4.0, 0, 0, "\n");
	struct assay_train_result r;
	parse_sb("megatron", &sb, NULL, &r);
	assert_int_equal(r.n_errors, 2);
	assert_string_equal(r.errors[0].signature, "nccl-timeout");
	assert_string_equal(r.errors[0].family, "nccl");
	assert_int_equal(r.errors[0].line, 2);
	assert_string_equal(r.errors[1].family, "oom");
	assert_string_equal(r.errors[1].signature, "hip-oom"); /* issue 35, item 11 */
	assert_int_equal(r.errors[1].count, 2);
	assert_int_equal(r.errors[1].line, 3);
	assert_int_equal(assay_train_outcome(&r), ASSAY_WORKLOAD_FAILED);
	assay_train_result_release(&r);
	/* Issue 35, item 11: a coloured error line is shown without its escapes. */
	struct sbuf col = SBUF_INIT;
	sbuf_adds(&col, "\033[1;31mtorch.OutOfMemoryError\033[0m: HIP out of memory.\n");
	parse_sb("megatron", &col, NULL, &r);
	assert_string_equal(r.errors[0].signature, "hip-oom");
	assert_string_equal(r.errors[0].text, "torch.OutOfMemoryError: HIP out of memory.");
	assay_train_result_release(&r);
	sbuf_release(&col);
	/* The runner's watcher already looked: no_errors skips them. */
	struct assay_train_opts o;
	assay_train_opts_init(&o);
	o.no_errors = true;
	parse_sb("megatron", &sb, &o, &r);
	assert_int_equal(r.n_errors, 0);
	assert_int_equal(assay_train_outcome(&r), ASSAY_OK);
	assay_train_result_release(&r);
	sbuf_release(&sb);
}

/* Issue 35, item 8: a last line without its line end was cut: "80" of
 * "80.4", "1.234567" of "1.234567E+01". Its values are not read, the run is
 * not complete by it, and the cut is flagged; a last line that closes with
 * its "|" is whole by its grammar and read. */
static void test_cut_last_line(void **state)
{
	(void)state;
	struct sbuf sb = SBUF_INIT;
	for (int it = 1; it <= 9; it++)
		megatron_line(&sb, it, 10, 80.4, 4.0, 0, 0, "\n");
	size_t whole = sb.len;
	megatron_line(&sb, 10, 10, 80.4, 12.34567, 0, 0, "");
	static const char *const cuts[] = {"elapsed time per iteration (ms): 80",
					   "lm loss: 1.234567"};
	for (size_t k = 0; k < ARRAY_SIZE(cuts); k++) {
		const char *at = strstr(sb.buf + whole, cuts[k]);
		assert_non_null(at);
		size_t len = (size_t)(at - sb.buf) + strlen(cuts[k]);
		struct assay_train_result r;
		struct assay_error e;
		assert_int_equal(assay_train_parse("megatron", sb.buf, len, NULL, "t", &r, &e),
				 ASSAY_OK);
		assert_int_equal(r.n_logged, 9);
		assert_int_equal(r.cut_line, 10);
		assert_true(r.steps[8].v[ASSAY_TM_ELAPSED_MS] == 80.4);
		assert_int_equal(assay_train_outcome(&r), ASSAY_WORKLOAD_FAILED);
		assay_train_result_release(&r);
	}
	struct assay_train_result r;
	parse_sb("megatron", &sb, NULL, &r); /* the last line closes with "|" */
	assert_int_equal(r.n_logged, 10);
	assert_int_equal(r.cut_line, 0);
	assert_true(r.complete_iteration);
	assert_int_equal(assay_train_outcome(&r), ASSAY_OK);
	assay_train_result_release(&r);
	/* An error line cut short still names its family. */
	sb.len = whole;
	sbuf_adds(&sb, "RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1331, unhandl");
	parse_sb("megatron", &sb, NULL, &r);
	assert_int_equal(r.cut_line, 10);
	assert_int_equal(r.n_errors, 1);
	assert_string_equal(r.errors[0].family, "nccl");
	assert_int_equal(r.errors[0].line, 10);
	assay_train_result_release(&r);
	sbuf_release(&sb);
}

/* Issue 35, item 9: an iteration record across the 1 MiB piece boundary of
 * a long line is read whole, its NaN-iteration count included, wherever the
 * boundary falls in it. */
static void test_record_across_piece(void **state)
{
	(void)state;
	struct sbuf rec = SBUF_INIT;
	megatron_line(&rec, 5, 5, 500.0, 4.0, 0, 3, "\n");
	for (size_t before = 1; before < rec.len; before += 37) {
		struct sbuf sb = SBUF_INIT;
		while (sb.len < ASSAY_TRAIN_LINE_CAP - before)
			sbuf_adds(&sb, "x");
		sbuf_add(&sb, rec.buf, rec.len);
		struct assay_train_result r;
		struct assay_train_stream *st = assay_train_stream_new("megatron", NULL, &r);
		for (size_t off = 0; off < sb.len; off += 65536)
			assay_train_stream_feed(st, sb.buf + off,
						sb.len - off < 65536 ? sb.len - off : 65536);
		struct assay_error e;
		assert_int_equal(assay_train_stream_end(st, "t", &e), ASSAY_OK);
		assert_int_equal(r.long_lines, 1);
		assert_int_equal(r.n_logged, 1);
		assert_int_equal(r.steps[0].nan_iters, 3);
		assert_true(r.steps[0].v[ASSAY_TM_ELAPSED_MS] == 500.0);
		assert_int_equal(r.nan_iters_total, 3);
		assert_int_equal(assay_train_outcome(&r), ASSAY_WORKLOAD_FAILED);
		assay_train_result_release(&r);
		sbuf_release(&sb);
	}
	sbuf_release(&rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nan_counter),      cmocka_unit_test(test_exit_paths),
	    cmocka_unit_test(test_no_training_line), cmocka_unit_test(test_pieces),
	    cmocka_unit_test(test_cr_lines),         cmocka_unit_test(test_long_lines),
	    cmocka_unit_test(test_bounded_steps),    cmocka_unit_test(test_detection),
	    cmocka_unit_test(test_world_size),       cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_cut_last_line),    cmocka_unit_test(test_record_across_piece),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
