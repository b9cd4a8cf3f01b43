#!/usr/bin/env python3
"""The CVS baseline for bench/parse-speed.sh: how ROCm/cvs reads a Megatron-LM
training log (cvs/lib/megatron_training_lib.py at dddd914:
TRAINING_RESULT_PATTERNS, TRAINING_NAN_PATTERNS and training_err_dict, each
applied with re.findall / re.search over the log text, case-insensitive),
written out here as the same expressions over the whole log. CVS holds the
whole output as one string; this reads the log in blocks of whole lines
(64 MiB) so a 4 GiB log does not need 4 GiB of memory, and applies the same
expressions to each block. Prints the counts and the mean of each metric.

usage: parse_cvs_baseline.py LOG
"""
import json
import re
import sys

RESULTS = {
    "throughput_per_gpu": [rb"throughput per GPU(?:\s*\([^)]*\))?\s*:\s+([0-9\.]+)",
                           rb"throughput per GPU:\s+([0-9\.]+)"],
    "tokens_per_gpu": [rb"tokens\/GPU\/s:\s+([0-9]+)"],
    "mem_usage": [rb"mem usages:\s+([0-9\.]+)"],
    "elapsed_time_per_iteration": [rb"elapsed time per iteration \(ms\):\s+([0-9\.]+)"],
}
NAN = [rb"throughput per GPU(?:\s*\([^)]*\))?\s*:\s+(?:NaN|Inf)",
       rb"throughput per GPU:\s+(?:NaN|Inf)",
       rb"tokens\/GPU\/s:\s+(?:NaN|Inf)",
       rb"mem usages:\s+(?:NaN|Inf)"]
ERRORS = {
    "NCCL ERROR": rb"NCCL ERROR|NCCL timeout|ncclRemoteError: A call failed possibly due to a network error|NCCL error:",
    "GPU HW ERROR": rb"HW Exception by GPU|GPU Hang|Uncorrectable error|GPU Reset",
    "torch": rb"torch.distributed.elastic.multiprocessing.errors",
}


def main():
    results = {k: [re.compile(p, re.I) for p in v] for k, v in RESULTS.items()}
    nan = [re.compile(p, re.I) for p in NAN]
    errors = {k: re.compile(v) for k, v in ERRORS.items()}
    values = {k: [] for k in RESULTS}
    nan_hits = 0
    err_hits = {k: 0 for k in ERRORS}
    with open(sys.argv[1], "rb") as f:
        rest = b""
        while True:
            block = f.read(64 << 20)
            if not block:
                text = rest
            else:
                cut = block.rfind(b"\n") + 1
                text, rest = rest + block[:cut], block[cut:]
            for k, pats in results.items():
                for p in pats:
                    m = p.findall(text)
                    if m:
                        values[k].extend(float(x) for x in m)
                        break
            nan_hits += sum(1 for p in nan if p.search(text))
            for k, p in errors.items():
                if p.search(text):
                    err_hits[k] += 1
            if not block:
                break
    out = {k: {"count": len(v), "mean": sum(v) / len(v) if v else None} for k, v in values.items()}
    out["nan_blocks"] = nan_hits
    out["error_blocks"] = err_hits
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()
