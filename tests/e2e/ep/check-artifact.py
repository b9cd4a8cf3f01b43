#!/usr/bin/env python3
# Checks an assay-ep case artifact (schema assay.ep.case/1) for run-ep.sh:
# the outcome, the exit code it records, and per point the oracle verdicts:
# on success every check passed before and after timing and every component
# has the contract's sample count with ordered statistics; on invalid the
# named checks failed.
import json, math, sys

path, want, failing, stdout = sys.argv[1:5]
doc = json.load(open(path))

def fail(msg):
    sys.exit(f"check-artifact: {path}: {msg}")

if doc.get("schema") != "assay.ep.case/1":
    fail("wrong schema")
if doc["outcome"] != want:
    fail(f"outcome {doc['outcome']}, expected {want} (reasons: {doc['reasons']})")
codes = {"success": 0, "invalid": 3, "unsupported": 4}
if doc["exit_code"] != codes[want]:
    fail(f"exit_code {doc['exit_code']}")
if want == "unsupported":
    if not doc["reasons"] or doc["points"]:
        fail("unsupported needs reasons and no points")
    sys.exit(0)
t = doc["timing"]
n = t["trials"] * t["iters_per_trial"]
pairs = t["chain_trials"] * (t["chain_pairs"] - t["chain_drop"])
if len(doc["points"]) != len(doc["case"]["tokens"]):
    fail("one point per ladder entry expected")
want_failing = set() if failing == "-" else set(failing.split(","))
for p in doc["points"]:
    before = p["correctness"]["before"]["checks"]
    failed = {k for k, v in before.items() if not v["pass"]}
    if any(v["pass"] != (v["failures"] == 0) for v in before.values()):
        fail("pass and failures disagree")
    if want == "success":
        if p["verdict"] != "valid" or failed:
            fail(f"tokens {p['tokens']}: {p['verdict']}, failed {failed}")
        after = p["correctness"]["after"]["checks"]
        if any(not v["pass"] for v in after.values()):
            fail(f"tokens {p['tokens']}: a check failed after timing")
        if not p["correctness"]["max_relative_error"] < p["correctness"]["gate"]:
            fail("max_relative_error not below the gate")
        comps = p["components"]
        if sorted(comps) != ["combine", "dispatch", "pair_period", "roundtrip"]:
            fail(f"components {sorted(comps)}")
        for name, c in comps.items():
            want_n = pairs if name == "pair_period" else n
            if c["samples"] != want_n:
                fail(f"{name}: {c['samples']} samples, expected {want_n}")
            for key in ("latency_us", "cross_rank_min_us"):
                s = c[key]
                order = [s["min"], s["p50"], s["p90"], s["p95"], s["p99"], s["max"]]
                if order != sorted(order) or s["min"] <= 0:
                    fail(f"{name}.{key}: statistics out of order {order}")
            if not (c["cross_rank_min_us"]["p50"] <= c["latency_us"]["p50"]) and name != "pair_period":
                fail(f"{name}: cross-rank min above max")
            if not (c["gbps_per_rank"] > 0 and c["tokens_per_s"] > 0):
                fail(f"{name}: rates must be positive")
        r = p["routing"]
        if sum(r["recv_copies"]) != r["routed_copies"] or not (1 <= r["fanout_min"] <= r["fanout_mean"] <= r["fanout_max"]):
            fail("routing stats inconsistent")
    else:
        if p["verdict"] != "invalid" or p["components"] is not None:
            fail(f"tokens {p['tokens']}: an invalid point must not be timed")
        if not want_failing <= failed:
            fail(f"tokens {p['tokens']}: failed {sorted(failed)}, expected at least {sorted(want_failing)}")
text = open(stdout).read()
if f"outcome: {want}" not in text:
    fail("the table does not end with the outcome")
