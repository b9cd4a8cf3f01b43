#!/usr/bin/env python3
"""The baseline for bench/parse-speed.sh: what a user would otherwise run to
read a Megatron-LM/Primus training log, a handful of regular expressions
applied line by line (the same facts assay parse reads: iteration lines with
X, X/Y and "X (avg Y)" values, both TFLOP and both token labels, HIP/ROCm
memory, memory reports, checkpoint timers, completion, NaN/Inf), then the
steady state by the same warm-up rule, max(2, ceil(10% of the steps)).

usage: parse_baseline.py LOG   (prints one JSON object)
"""
import json
import math
import re
import statistics
import sys

NUM = rb"([-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|nan|inf|NAN|INF))"
ITER = re.compile(rb"(?<![\w])iteration\s+(\d+)\s*/\s*(\d+)\s*\|")
# One search per fact, from the end of "iteration N/M |": X, X/Y or "X (avg Y)".
PAIR = rb"\s*" + NUM + rb"(?:\s*/\s*" + NUM + rb"|\s*\(avg\s+" + NUM + rb"\))?"
FIELDS = {
    "elapsed_ms_per_iter": re.compile(rb"elapsed time per iteration \(ms\):" + PAIR),
    "tflops_per_gpu": re.compile(rb"throughput per GPU \(TFLOP/s/GPU\):" + PAIR),
    "compute": re.compile(rb"compute per GPU \(TFLOP/s/GPU\):" + PAIR),
    "tokens_per_gpu": re.compile(rb"(?:tokens per GPU \(tokens/s/GPU\)|tokens/s/GPU inst/harmonic mean):" + PAIR),
    "lm_loss": re.compile(rb"lm loss:" + PAIR),
}
MEM = re.compile(rb"(hip|rocm) mem usage/free/total/usage_ratio:\s*" + NUM + rb"GB/[^|]*?" + NUM + rb"%")
NONFINITE = re.compile(rb"[:/]\s*[-+]?(?:nan|inf|NAN|INF|NaN|Inf)(?![A-Za-z])")
MEMLINE = re.compile(rb"\(after \d+ iterations\) memory \(MB\).*max allocated:\s*" + NUM)
TIMER = re.compile(rb"(save|load)-checkpoint \.*:\s*\(" + NUM + rb",\s*" + NUM + rb"\)")
SAVED = re.compile(rb"successfully saved checkpoint from iteration\s+(\d+)")
TORCHRUN = re.compile(rb"torchrun finished successfully")


def main():
    steps = {}
    order = []
    complete = False
    nonfinite = 0
    max_alloc = None
    ckpt_ms = []
    saved = []
    with open(sys.argv[1], "rb") as f:
        for line in f:
            m = ITER.search(line)
            if m:
                step, total = int(m.group(1)), int(m.group(2))
                at = m.end()
                rec = {}
                for key, pattern in FIELDS.items():
                    v = pattern.search(line, at)
                    if v:
                        rec[key] = float(v.group(1))
                        y = v.group(2) or v.group(3)
                        if y:
                            rec[key + "_avg"] = float(y)
                for v in MEM.finditer(line, at):
                    which = "mem" if v.group(1) == b"hip" else "rocm"
                    rec[which + "_used_gb"] = float(v.group(2))
                    rec[which + "_ratio"] = float(v.group(3)) / 100
                nonfinite += len(NONFINITE.findall(line, at))
                if "tflops_per_gpu" not in rec and "compute" in rec:
                    rec["tflops_per_gpu"] = rec["compute"]
                    if "compute_avg" in rec:
                        rec["tflops_per_gpu_avg"] = rec["compute_avg"]
                if step == total:
                    complete = True
                if step not in steps:
                    steps[step] = rec
                    order.append(step)
                continue
            m = MEMLINE.search(line)
            if m:
                max_alloc = max(max_alloc or 0.0, float(m.group(1)))
                continue
            m = TIMER.search(line)
            if m:
                ckpt_ms.append(float(m.group(3)))
                continue
            m = SAVED.search(line)
            if m:
                saved.append(int(m.group(1)))
                continue
            if TORCHRUN.search(line):
                complete = True
    n = len(order)
    warm = min(n, max(2, math.ceil(n * 10 / 100 - 1e-9)))
    out = {"steps": n, "warmup": warm, "complete": complete, "nonfinite": nonfinite,
           "mem_max_allocated_mb": max_alloc, "checkpoints_saved": len(saved),
           "checkpoint_save_ms_max": max(ckpt_ms) if ckpt_ms else None}
    for metric in ("elapsed_ms_per_iter", "tflops_per_gpu", "tokens_per_gpu"):
        vals = [steps[s][metric] for s in order[warm:] if metric in steps[s]
                and math.isfinite(steps[s][metric])]
        avg = [steps[s][metric + "_avg"] for s in order if metric + "_avg" in steps[s]]
        out[metric] = {"steady_mean": statistics.fmean(vals) if vals else None,
                       "steady_median": statistics.median(vals) if vals else None,
                       "running_avg": avg[-1] if avg else None}
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()
