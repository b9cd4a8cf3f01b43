#!/usr/bin/env python3
"""A stand-in for `python3 -m sglang.bench_serving` in tests/e2e/inference:
asks the server's /v1/models (as bench_serving does when no --model is
given), then prints its Namespace line and the "Serving Benchmark Result"
block (sglang_block.py: bench_serving's own format strings) to stdout and,
with --result FILE, to FILE (CVS's benchmark_results.log).

usage: client.py [--host H] --port P --random-input ISL --random-output OSL
                 --max-concurrency C --num-prompts N [--result FILE]
                 [--mode ok|crash|no-result] [--sleep S]"""
import argparse
import os
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sglang_block import block, figures  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--host", default="127.0.0.1")
ap.add_argument("--port", type=int, required=True)
ap.add_argument("--random-input", type=int, required=True)
ap.add_argument("--random-output", type=int, required=True)
ap.add_argument("--max-concurrency", type=int, required=True)
ap.add_argument("--num-prompts", type=int, default=64)
ap.add_argument("--result")
ap.add_argument("--mode", default="ok")
ap.add_argument("--sleep", type=float, default=0)
args = ap.parse_args()

with urllib.request.urlopen("http://%s:%d/v1/models" % (args.host, args.port), timeout=30) as r:
    r.read()
print("Namespace(backend='sglang', dataset_name='random', num_prompts=%d, "
      "random_input_len=%d, random_output_len=%d, max_concurrency=%d)\n"
      % (args.num_prompts, args.random_input, args.random_output, args.max_concurrency))
time.sleep(args.sleep)
if args.mode == "crash":
    print("Traceback (most recent call last):\n  File \"bench_serving.py\", line 1\n"
          "ConnectionResetError: [Errno 104] Connection reset by peer", file=sys.stderr)
    sys.exit(1)
if args.mode == "no-result":
    sys.exit(0)
text = block(figures(args.max_concurrency, args.random_input, args.random_output,
                     args.num_prompts))
sys.stdout.write(text)
if args.result:
    with open(args.result, "w") as f:
        f.write(text)
