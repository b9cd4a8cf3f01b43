#!/usr/bin/env python3
# Checks an assay-ep case artifact (schema assay.ep.case/1) for run-ep.sh:
# the outcome, the exit code it records, and per point the oracle verdicts:
# on success every check passed before and after timing and every component
# has the contract's sample count with ordered statistics; on invalid the
# named checks failed.
import json, math, os, sys

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
case = doc["case"]
# The copy routine applies to shm only (issue 17): null for every other backend.
if (case["copy"] is None) != (case["backend"] != "shm"):
    fail(f"case.copy {case['copy']!r} for backend {case['backend']}")
# The combine reduction's instruction set: host backends only (mpi, shm);
# EP_EXPECT_REDUCE names the one --reduce chose.
host = case["backend"] in ("mpi", "shm")
if host and case["reduce"] not in ("avx512", "avx2", "sse2", "scalar"):
    fail(f"case.reduce {case['reduce']!r} for backend {case['backend']}")
if not host and case.get("reduce") is not None:
    fail(f"case.reduce {case['reduce']!r} for backend {case['backend']}")
want_reduce = os.environ.get("EP_EXPECT_REDUCE")
if want_reduce and case["reduce"] != want_reduce:
    fail(f"case.reduce {case['reduce']!r}, expected {want_reduce!r}")
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
    for key, v in p["bytes"].items():
        if type(v) is not int:
            fail(f"bytes.{key} is {v!r}, not an integer")
    before = p["correctness"]["before"]["checks"]
    failed = {k for k, v in before.items() if not v["pass"]}
    after_doc = p["correctness"]["after"]
    failed_after = {k for k, v in after_doc["checks"].items() if not v["pass"]} if after_doc else set()
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
            if type(c["bytes"]) is not int:
                fail(f"{name}: bytes {c['bytes']!r} is not an integer")
        # The cross-rank median of a pair is the lower median (CollectiveX's
        # torch.median): at 2 ranks it is the faster rank, the MIN.
        pp = comps["pair_period"]
        if doc["host"]["ranks"] == 2 and pp["latency_us"] != pp["cross_rank_min_us"]:
            fail("pair_period at 2 ranks: the lower median must equal the cross-rank min")
        if doc["host"]["ranks"] > 2 and not pp["cross_rank_min_us"]["p50"] <= pp["latency_us"]["p50"]:
            fail("pair_period: median below the cross-rank min")
        # Honest ceiling: efficiency = ceiling / dispatch p50 <= 1, for host backends.
        if case["backend"] in ("mpi", "shm"):
            eff, ceil = p["efficiency"], p["ceiling_us"]
            if eff is None or ceil is None or not (0 < eff <= 1):
                fail(f"tokens {p['tokens']}: efficiency {eff}, ceiling {ceil}")
            if abs(ceil / comps["dispatch"]["latency_us"]["p50"] - eff) > 1e-9:
                fail("efficiency is not ceiling_us / dispatch p50")
            # The ceiling is the pattern's p50, or dispatch's own p50 when
            # the protocol beat the bare pattern (docs/ep.md "The ceiling").
            ceil_want = min(p["copy_pattern_us"], comps["dispatch"]["latency_us"]["p50"])
            if abs(ceil - ceil_want) > 1e-9 * ceil_want:
                fail(f"ceiling_us {ceil}, expected min(copy_pattern_us, dispatch p50) = {ceil_want}")
        if case["backend"] == "shm":
            cp = p["copy"]
            if cp["routine"] not in ("memcpy", "nt") or cp["memcpy_us"] is None or cp["nt_us"] is None:
                fail(f"copy {cp}")
            if cp["chosen_by"] == "measurement":
                best = "nt" if cp["nt_us"] < cp["memcpy_us"] else "memcpy"
                if cp["routine"] != best:
                    fail(f"copy {cp}: the measurement chose {best}")
            elif cp["routine"] != case["copy"]:
                fail(f"copy {cp} but --copy {case['copy']}")
        r = p["routing"]
        if sum(r["recv_copies"]) != r["routed_copies"] or not (1 <= r["fanout_min"] <= r["fanout_mean"] <= r["fanout_max"]):
            fail("routing stats inconsistent")
        # The imbalance (docs/ep.md): max / mean per expert and per rank.
        load_mean = p["global_tokens"] * case["topk"] / case["experts"]
        rank_want = max(r["recv_copies"]) / (r["routed_copies"] / case["ep"])
        if abs(r["expert_load_mean"] - load_mean) > 1e-9 * load_mean \
                or abs(r["imbalance_expert"] - r["expert_load_max"] / load_mean) > 1e-9 * r["imbalance_expert"] \
                or abs(r["imbalance_rank"] - rank_want) > 1e-9 * rank_want or r["imbalance_expert"] < 1:
            fail(f"routing imbalance inconsistent: {r}")
        if os.environ.get("EP_EXPECT_ROUTING") and case["routing"] != os.environ["EP_EXPECT_ROUTING"]:
            fail(f"case.routing {case['routing']}, expected {os.environ['EP_EXPECT_ROUTING']}")
    else:
        if p["verdict"] != "invalid":
            fail(f"tokens {p['tokens']}: verdict {p['verdict']}")
        if failed and p["components"] is not None:
            fail(f"tokens {p['tokens']}: a point invalid before timing must not be timed")
        if not failed and (p["components"] is None or not failed_after):
            fail(f"tokens {p['tokens']}: invalid, but no check failed before or after timing")
        if not want_failing <= failed | failed_after:
            fail(f"tokens {p['tokens']}: failed {sorted(failed)} before and {sorted(failed_after)} "
                 f"after timing, expected at least {sorted(want_failing)}")
text = open(stdout).read()
if f"outcome: {want}" not in text:
    fail("the table does not end with the outcome")
