#!/usr/bin/env python3
"""Run Apache Otava's change-point detection on series for bench/detect-compare.sh.

usage: otava_detect.py OTAVA_DIR SERIES.ndjson WINDOW MAX_PVALUE
Imports Otava's own `otava.analysis.compute_change_points` from a checkout
(OTAVA_DIR; nothing of it is copied here) and runs it on every series of
SERIES.ndjson (one JSON list of values per line), as `otava analyze` does
per metric. Prints the change-point count and the seconds spent in
detection alone (after the imports) on stderr.
"""
import json, sys, time

otava_dir, path, window, max_p = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
sys.path.insert(0, otava_dir)
from otava.analysis import compute_change_points  # noqa: E402

series = [json.loads(line) for line in open(path)]
t0 = time.perf_counter()
found = 0
for values in series:
    cps, _ = compute_change_points(values, window_len=window, max_pvalue=max_p, min_magnitude=0.0)
    found += len(cps)
t1 = time.perf_counter()
print(found)
print("%.6f" % (t1 - t0), file=sys.stderr)
