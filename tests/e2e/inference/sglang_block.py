"""The "Serving Benchmark Result" block as sglang's bench_serving prints it
(sgl-project/sglang python/sglang/bench_serving.py at
50a613687fe1ffc6f1bb630c684a24c428a54a74, benchmark(): the same format
strings, in the same order). Used by the stand-in client and to write
tests/fixtures/sglang/*.log."""


def block(m):
    """m: the figures; returns the lines as bench_serving prints them."""
    out = []
    p = out.append
    p("\n{s:{c}^{n}}".format(s=" Serving Benchmark Result ", n=50, c="="))
    p("{:<40} {:<10}".format("Backend:", m["backend"]))
    p("{:<40} {:<10}".format("Traffic request rate:", m["request_rate"]))
    p("{:<40} {:<10}".format("Successful requests:", m["completed"]))
    p("{:<40} {:<10.2f}".format("Benchmark duration (s):", m["duration"]))
    p("{:<40} {:<10}".format("Total input tokens:", m["total_input"]))
    p("{:<40} {:<10}".format("Total generated tokens:", m["total_output"]))
    p("{:<40} {:<10}".format("Total generated tokens (retokenized):", m["total_output"]))
    p("{:<40} {:<10.2f}".format("Request throughput (req/s):", m["request_throughput"]))
    p("{:<40} {:<10.2f}".format("Input token throughput (tok/s):", m["input_throughput"]))
    p("{:<40} {:<10.2f}".format("Output token throughput (tok/s):", m["output_throughput"]))
    p("{s:{c}^{n}}".format(s="End-to-End Latency", n=50, c="-"))
    p("{:<40} {:<10.2f}".format("Mean E2E Latency (ms):", m["mean_e2e"]))
    p("{:<40} {:<10.2f}".format("Median E2E Latency (ms):", m["median_e2e"]))
    p("{s:{c}^{n}}".format(s="Time to First Token", n=50, c="-"))
    p("{:<40} {:<10.2f}".format("Mean TTFT (ms):", m["mean_ttft"]))
    p("{:<40} {:<10.2f}".format("Median TTFT (ms):", m["median_ttft"]))
    p("{:<40} {:<10.2f}".format("P99 TTFT (ms):", m["p99_ttft"]))
    p("{s:{c}^{n}}".format(s="Time per Output Token (excl. 1st token)", n=50, c="-"))
    p("{:<40} {:<10.2f}".format("Mean TPOT (ms):", m["mean_tpot"]))
    p("{:<40} {:<10.2f}".format("Median TPOT (ms):", m["median_tpot"]))
    p("{:<40} {:<10.2f}".format("P99 TPOT (ms):", m["p99_tpot"]))
    p("{s:{c}^{n}}".format(s="Inter-token Latency", n=50, c="-"))
    p("{:<40} {:<10.2f}".format("Mean ITL (ms):", m["mean_itl"]))
    p("{:<40} {:<10.2f}".format("Median ITL (ms):", m["median_itl"]))
    p("{:<40} {:<10.2f}".format("P99 ITL (ms):", m["p99_itl"]))
    p("=" * 50)
    return "\n".join(out) + "\n"


def figures(conc, isl, osl, prompts, scale=1.0):
    """Plausible figures for a cell: throughput grows with concurrency."""
    dur = 20.0 + prompts * osl / (conc * 20.0)
    out_tok = prompts * osl
    out_tput = out_tok / dur * scale
    return {
        "backend": "sglang", "request_rate": "inf", "completed": prompts,
        "duration": dur, "total_input": prompts * isl, "total_output": out_tok,
        "request_throughput": prompts / dur, "input_throughput": prompts * isl / dur,
        "output_throughput": out_tput, "mean_e2e": 900.0 + 40 * conc,
        "median_e2e": 850.0 + 40 * conc, "mean_ttft": 50.0 + 3 * conc,
        "median_ttft": 45.0 + 3 * conc, "p99_ttft": 120.0 + 6 * conc,
        "mean_tpot": 12.0 + conc / 8.0, "median_tpot": 11.5 + conc / 8.0,
        "p99_tpot": 20.0 + conc / 4.0, "mean_itl": 12.0 + conc / 8.0,
        "median_itl": 11.0 + conc / 8.0, "p99_itl": 30.0 + conc / 2.0,
    }
