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
# The low-latency mode (docs/ep.md "Low-latency mode"): its own oracle
# (calc_diff against DeepEP's tolerance), no copy ceiling, no ISA choice.
ll = case["mode"] == "low-latency"
if ll and want != "unsupported":
    if case["copy"] is not None or case["reduce"] is not None:
        fail("low-latency: copy and reduce must be null")
    lo = case["low_latency"]
    if lo["max_dispatch_tokens"] < max(case["tokens"]):
        fail(f"low-latency: max_dispatch_tokens {lo['max_dispatch_tokens']}")
    want_ll = {"recv_count", "layout_range", "src_info", "payload", "combine_diff", "combine_sum"}
    tol = 9e-4 if case["precision"] == "fp8" else 1e-5
    for p in doc["points"]:
        c = p["correctness"]
        if c["measure"] != "calc_diff" or c["gate"] != tol or set(c["before"]["checks"]) != want_ll:
            fail(f"low-latency correctness {c}")
        if p["ceiling_us"] is not None or p["efficiency"] is not None:
            fail("low-latency: no ceiling")
        if want == "success" and not (c["max_diff"] is not None and 0 <= c["max_diff"] < tol):
            fail(f"low-latency: max_diff {c['max_diff']} not below {tol}")
        r = p["routing"]
        if sum(r["recv_copies"]) != r["routed_copies"] or p["bytes"]["dispatch"] <= 0:
            fail("low-latency routing stats")
# The copy routine applies to shm only (issue 17): null for every other backend.
if not ll and (case["copy"] is None) != (case["backend"] != "shm"):
    fail(f"case.copy {case['copy']!r} for backend {case['backend']}")
# The combine reduction's instruction set: host backends only (mpi, shm);
# EP_EXPECT_REDUCE names the one --reduce chose.
host = case["backend"] in ("mpi", "shm") and not ll
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
    if not (type(p["wall_seconds"]) is float and p["wall_seconds"] > 0):
        fail(f"tokens {p['tokens']}: wall_seconds {p['wall_seconds']!r}")
    before = p["correctness"]["before"]["checks"]
    failed = {k for k, v in before.items() if not v["pass"]}
    after_doc = p["correctness"]["after"]
    failed_after = {k for k, v in after_doc["checks"].items() if not v["pass"]} if after_doc else set()
    # The timed-call checks (issue 36): null when none ran (--verify off,
    # not timed); else the calls checked, in the numbers --verify promises.
    timed = p["correctness"]["timed"]
    failed_timed = {k for k, v in timed["checks"].items() if not v["pass"]} if timed else set()
    mode = case["verify"]["calls"]
    if type(case["verify"]["seed"]) is not int or case["verify"]["seed"] < 0:
        fail(f"case.verify.seed {case['verify']['seed']!r}")
    if (timed is None) != (mode == "off" or p["components"] is None):
        fail(f"tokens {p['tokens']}: correctness.timed {timed!r} with --verify {mode}")
    if timed:
        tr, it, ct, cp = t["trials"], t["iters_per_trial"], t["chain_trials"], t["chain_pairs"]
        want_calls = (tr * it * 3 + ct * cp) if mode == "all" else (tr * 3 + ct)
        per = tr * it if mode == "all" else tr
        pairs_checked = ct * cp if mode == "all" else ct
        if (timed["calls"], timed["dispatches"], timed["combines"]) != (
                want_calls, 2 * per + pairs_checked, 2 * per + pairs_checked):
            fail(f"tokens {p['tokens']}: timed checks {timed['calls']} calls, "
                 f"{timed['dispatches']} dispatches, {timed['combines']} combines with --verify {mode}")
        if (timed["failed_calls"] > 0) != bool(failed_timed) or "routing_identical" in timed["checks"]:
            fail(f"tokens {p['tokens']}: timed checks inconsistent: {timed}")
        # Low-latency (verify_ll.c): its own checks and calc_diff.
        if ll and (set(timed["checks"]) != want_ll or "diff" not in timed):
            fail(f"tokens {p['tokens']}: low-latency timed checks {timed}")
    if any(v["pass"] != (v["failures"] == 0) for v in before.values()):
        fail("pass and failures disagree")
    if want == "success":
        if p["verdict"] != "valid" or failed:
            fail(f"tokens {p['tokens']}: {p['verdict']}, failed {failed}")
        after = p["correctness"]["after"]["checks"]
        if any(not v["pass"] for v in after.values()):
            fail(f"tokens {p['tokens']}: a check failed after timing")
        if failed_timed:
            fail(f"tokens {p['tokens']}: a timed call failed {failed_timed}")
        if not ll and not p["correctness"]["max_relative_error"] < p["correctness"]["gate"]:
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
        # Honest ceiling (issue 36): efficiency = ceiling / dispatch p50 for
        # host backends, the ceiling the copy pattern's p50, never clipped;
        # above 1 exactly when efficiency_note says so.
        if case["backend"] in ("mpi", "shm") and not ll:
            eff, ceil = p["efficiency"], p["ceiling_us"]
            if eff is None or ceil is None or not eff > 0:
                fail(f"tokens {p['tokens']}: efficiency {eff}, ceiling {ceil}")
            if abs(ceil / comps["dispatch"]["latency_us"]["p50"] - eff) > 1e-9:
                fail("efficiency is not ceiling_us / dispatch p50")
            if ceil != p["copy_pattern_us"]:
                fail(f"ceiling_us {ceil}, expected copy_pattern_us {p['copy_pattern_us']}")
            if (p["efficiency_note"] is not None) != (eff > 1):
                fail(f"tokens {p['tokens']}: efficiency {eff}, note {p['efficiency_note']!r}")
        if case["backend"] == "shm" and not ll:
            cp = p["copy"]
            if cp["routine"] not in ("memcpy", "nt") or cp["memcpy_us"] is None or cp["nt_us"] is None:
                fail(f"copy {cp}")
            # The routine is chosen on dispatch's own p50s (harness.c
            # ep_choose_routine), not timed when --copy forces one.
            if cp["chosen_by"] == "measurement":
                if cp["dispatch_memcpy_us"] is None or cp["dispatch_nt_us"] is None:
                    fail(f"copy {cp}: measured without dispatch p50s")
                best = "nt" if cp["dispatch_nt_us"] < cp["dispatch_memcpy_us"] else "memcpy"
                if cp["routine"] != best:
                    fail(f"copy {cp}: the measurement chose {best}")
            elif cp["routine"] != case["copy"] or cp["dispatch_memcpy_us"] is not None:
                fail(f"copy {cp} but --copy {case['copy']}")
        r = p["routing"]
        if sum(r["recv_copies"]) != r["routed_copies"] or not ((0 if ll else 1) <= r["fanout_min"] <= r["fanout_mean"] <= r["fanout_max"]):
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
        if not failed and (p["components"] is None or not (failed_after | failed_timed)):
            fail(f"tokens {p['tokens']}: invalid, but no check failed before, during or after timing")
        if not want_failing <= failed | failed_after | failed_timed:
            fail(f"tokens {p['tokens']}: failed {sorted(failed)} before, {sorted(failed_timed)} in "
                 f"timed calls and {sorted(failed_after)} after timing, expected at least "
                 f"{sorted(want_failing)}")
        # EP_EXPECT_TIMED_ONLY=1: the untimed passes must pass (the fault is
        # in timed calls only) and the timed checks must have caught it.
        if os.environ.get("EP_EXPECT_TIMED_ONLY") == "1" and (failed or failed_after or not failed_timed):
            fail(f"tokens {p['tokens']}: expected failures in timed calls only, got {sorted(failed)} "
                 f"before, {sorted(failed_timed)} timed, {sorted(failed_after)} after")
text = open(stdout).read()
if f"outcome: {want}" not in text:
    fail("the table does not end with the outcome")
