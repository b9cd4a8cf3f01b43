#!/usr/bin/env python3
"""Writes a synthetic mixed Megatron-LM/Primus training log of about SIZE bytes
for bench/parse-speed.sh: blocks of 1000 steps alternate between the plain
Megatron line (with a timestamp) and the Primus line (logger prefix, ANSI
colours, X/Y values, HIP/ROCm memory), with memory reports, timer, checkpoint
and noise lines in between, and the completion marker at the end.

usage: gen-training-log.py SIZE_BYTES OUT
"""
import random
import sys

ESC = "\x1b"


def megatron(step, total, rnd):
    ms = 515.0 + rnd.random() * 10
    return (
        f"[2026-05-14 15:37:{step % 60:02d}] iteration {step:8d}/{total:8d} | consumed samples: {step * 256:12d} | "
        f"elapsed time per iteration (ms): {ms:.1f} | throughput per GPU (TFLOP/s/GPU): {520.0 - (ms - 515):.1f} | "
        f"learning rate: {1e-4 * (1 - step / total):.6E} | global batch size:   256 | "
        f"lm loss: {2.0 + 8.0 / (1 + step / 1000):.6E} | loss scale: 1.0 | grad norm: {0.5 + rnd.random():.3f} | "
        f"number of skipped iterations:   0 | number of nan iterations:   0 |\n"
    )


def primus(step, total, rnd):
    ms = 515.0 + rnd.random() * 10
    tf = 520.0 - (ms - 515)
    tok = 7950.0 - (ms - 515) * 15
    return (
        f"[{ESC}[32m20260514 15:37:26{ESC}[0m][{ESC}[36mrank-7/8{ESC}[0m]{ESC}[34m{ESC}[1m[DEBUG]    {ESC}[0m"
        f"{ESC}[34m{ESC}[1m[---------------utils.py:425] : [2026-05-14 15:37:26.924061] iteration {step:8d}/{total:8d} | "
        f"consumed samples: {step * 256:12d} | elapsed time per iteration (ms): {ms:.1f}/{ms + 20:.1f} | "
        f"throughput per GPU (TFLOP/s/GPU): {tf:.1f}/{tf - 15:.1f}  | tokens per GPU (tokens/s/GPU): {tok:.1f}/{tok - 200:.1f} | "
        f"learning rate: {1e-4 * (1 - step / total):.6E} | global batch size:   256 | lm loss: {2.0 + 8.0 / (1 + step / 1000):.6E} | "
        f"loss scale: 1.0 | grad norm: {0.5 + rnd.random():.3f} | number of skipped iterations:   0 | "
        f"number of nan iterations:   0 | hip mem usage/free/total/usage_ratio: 170.86GB/117.12GB/287.98GB/59.33%  | "
        f"rocm mem usage/free/total/usage_ratio: 172.22GB/115.77GB/287.98GB/59.80% | "
        f"rank-7 rocm max mem usage/usage_ratio: 172.22GB/59.80%{ESC}[0m\n"
    )


NOISE = [
    "/opt/venv/lib/python3.12/site-packages/torch/distributed/c10d_logger.py:83: UserWarning: barrier(): using the device under current context.\n",
    "  warnings.warn(\n",
    f"[{ESC}[32m20260514 15:37:22{ESC}[0m][{ESC}[36mrank-0/8{ESC}[0m]{ESC}[1m[INFO]     {ESC}[0m{ESC}[1m[----------print_rank_last_patches.py:268] : total_r_used: [169.21, 171.6, 170.2, 172.16, 171.62, 171.75, 171.11, 172.22]{ESC}[0m\n",
    "WARNING: AMD GPU device(s) is/are in a low-power state. Check power control/runtime_status\n",
]


def main():
    size, out = int(sys.argv[1]), sys.argv[2]
    rnd = random.Random(42)
    # Bytes per step (its line plus its share of the others), measured on a sample.
    sample = sum(len(megatron(s, 10**7, rnd)) + len(primus(s, 10**7, rnd)) for s in range(1, 201)) / 400
    avg_step_bytes = sample + 170 / 10 + 100 / 5
    total = max(20, int(size // avg_step_bytes))
    rnd = random.Random(42)
    written = 0
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        buf = []
        for step in range(1, total + 1):
            line = megatron(step, total, rnd) if (step // 1000) % 2 == 0 else primus(step, total, rnd)
            buf.append(line)
            if step % 10 == 0:
                buf.append(f"[Rank 0] (after {step} iterations) memory (MB) | allocated: 72780.93 | max allocated: 121964.93 | reserved: 159578.00 | max reserved: 159578.00\n")
            if step % 5 == 0:
                buf.append(NOISE[step % len(NOISE)])
            if step % 5000 == 0:
                buf.append(f"saving checkpoint at iteration {step:7d} to /ckpt in torch_dist format\n")
                buf.append(f"  successfully saved checkpoint from iteration {step:7d} to /ckpt [ t 1/1, p 1/1 ]\n")
                buf.append("(min, max) time across ranks (ms):\n")
                buf.append(f"    save-checkpoint ................................: ({24000 + step % 97:.2f}, {24100 + step % 89:.2f})\n")
            if len(buf) >= 4096:
                s = "".join(buf)
                written += len(s)
                f.write(s)
                buf = []
        buf.append("[2026-05-14 15:37:44] [NODE-0(mi355-gpu-8)] [INFO] [direct] torchrun finished successfully (code 0)\n")
        f.write("".join(buf))


if __name__ == "__main__":
    main()
