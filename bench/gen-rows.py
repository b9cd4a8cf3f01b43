#!/usr/bin/env python3
"""Generate NDJSON measurement rows for bench/store-speed.sh.

usage: gen-rows.py OUTDIR SERIES POINTS FILES [SEED]
Writes FILES files rows-NN.ndjson holding SERIES series x POINTS points in
time order (each file a slice of the runs), values Gaussian around a per-series
level with a 3% step in one series out of ten.
"""
import json, os, random, sys

out, nseries, npoints, nfiles = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
os.makedirs(out, exist_ok=True)
levels = [rng.uniform(100, 5000) for _ in range(nseries)]
series = []
for s in range(nseries):
    fields = {"cluster": "bench-%d" % (s % 4), "scale": "%dx8" % (1 + s % 3), "precision": ("bf16", "fp8")[s % 2],
              "workload": "model-%d" % (s // 12), "metric": "tokens_per_sec_per_gpu", "statistic": "mean"}
    series.append(fields)
per_file = (npoints + nfiles - 1) // nfiles
for f in range(nfiles):
    with open(os.path.join(out, "rows-%02d.ndjson" % f), "w") as fh:
        for p in range(f * per_file, min(npoints, (f + 1) * per_file)):
            ts = "2026-%02d-%02dT%02d:%02d:00Z" % (1 + p // 600 % 12, 1 + p // 24 % 28, p % 24, p % 60)
            for s in range(nseries):
                v = levels[s] * (1 + rng.gauss(0, 0.01))
                if s % 10 == 0 and p >= npoints * 3 // 4:
                    v *= 0.97
                fh.write(json.dumps({"series": series[s], "metric": "tokens_per_sec_per_gpu", "statistic": "mean",
                                     "value": round(v, 3), "unit": "tokens/s/GPU", "direction": "higher",
                                     "samples": 1, "revision": "r%05d" % p, "timestamp": ts,
                                     "run_id": None, "case_id": None}, separators=(",", ":")) + "\n")
