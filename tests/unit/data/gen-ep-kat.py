#!/usr/bin/env python3
# Derives the known-answer vectors in ep-kat.json from the definition in
# docs/ep.md with Python integers and exact fractions (no C, no numpy), so
# tests/unit/test_ep.c checks assay's EP library against an independent
# implementation. Run once: python3 gen-ep-kat.py > ep-kat.json
import json, struct
from fractions import Fraction as F

M = (1 << 64) - 1

def counter(seed, token, slot, attempt, stream):
    v = seed ^ ((token + 1) * 0xD2B74407B1CE6E93 & M) ^ ((slot + 1) * 0xCA5A826395121157 & M) \
        ^ ((attempt + 1) * 0x9E3779B185EBCA87 & M) ^ ((stream + 1) * 0xA24BAED4963EE407 & M)
    v = (v + 0x9E3779B97F4A7C15) & M
    v = ((v ^ (v >> 30)) * 0xBF58476D1CE4E5B9) & M
    v = ((v ^ (v >> 27)) * 0x94D049BB133111EB) & M
    return v ^ (v >> 31)

def f32bits(x):  # a double that is exactly a float32 -> its bits
    return struct.unpack('<I', struct.pack('<f', x))[0]

def route(seed, experts, topk, t):
    ex = []
    for k in range(topk):
        a = 0
        while True:
            e = counter(seed, t, k, a, 0) % experts
            if e not in ex:
                ex.append(e); break
            a += 1
    raw = [1 + counter(seed, t, k, 0, 1) % 65535 for k in range(topk)]
    s = float(sum(raw))
    w = [struct.unpack('<f', struct.pack('<f', r / s))[0] for r in raw]
    return ex, w

def rne(fr):  # nearest integer, ties to even
    n = fr.numerator // fr.denominator
    rem = fr - n
    if rem > F(1, 2) or (rem == F(1, 2) and n % 2): n += 1
    return n

def round_to(fr, mbits, emin, maxval=None):
    # Round a rational to a binary format with mbits significant bits
    # (implicit bit included) and minimum normal exponent emin.
    if fr == 0: return F(0)
    s = -1 if fr < 0 else 1
    a = abs(fr)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if F(2) ** e > a: e -= 1
    e = max(e, emin)
    ulp = F(2) ** (e - mbits + 1)
    r = rne(a / ulp) * ulp
    if maxval is not None and r > maxval: r = maxval
    return s * r

def f32(fr): return round_to(fr, 24, -126)
def bf16(fr): return round_to(fr, 8, -126)
def bf16bits(fr): return f32bits(float(bf16(fr))) >> 16
def e4m3(fr): return round_to(fr, 4, -6, F(448))

def e4m3_code(fr):
    v = e4m3(fr)
    for code in range(256):
        if e4m3_value(code) is not None and e4m3_value(code) == v and (code >> 7) == (1 if fr < 0 else 0):
            return code
    raise ValueError(fr)

def e4m3_value(code):
    e, m = (code >> 3) & 15, code & 7
    if e == 15 and m == 7: return None
    v = F(m, 512) if e == 0 else (1 + F(m, 8)) * F(2) ** (e - 7)
    return -v if code & 0x80 else v

def act(seed, t, c):
    if c < 32: return F(1 if (t >> c) & 1 else -1)
    return F((t * 131 + c * 17 + seed * 19) % 257 - 128, 64)

def fbits(fr): return f32bits(float(fr))

out = {}
out['counter'] = [[str(s), str(t), k, a, st, str(counter(s, t, k, a, st))] for (s, t, k, a, st) in
                  [(0, 0, 0, 0, 0), (67, 0, 0, 0, 0), (67, 5, 3, 1, 0), (67, 123456, 7, 0, 1),
                   (M, M - 1, 2, 9, 1), (1 << 63, 4294967295, 255, 3, 0)]]
out['routing'] = []
for (seed, experts, topk, tokens) in [(67, 256, 8, [0, 1, 2, 3, 1000, 65535]), (5, 8, 8, [0, 7]), (9, 16, 3, [0, 11])]:
    for t in tokens:
        ex, w = route(seed, experts, topk, t)
        out['routing'].append({'seed': seed, 'experts': experts, 'topk': topk, 'token': t,
                               'ids': ex, 'weight_bits': [f32bits(x) for x in w]})
out['activation'] = [[s, t, c, fbits(act(s, t, c))] for (s, t, c) in
                     [(67, 0, 0), (67, 5, 0), (67, 5, 2), (67, 5, 31), (67, 0, 32), (67, 1, 32),
                      (67, 3, 7167), (0, 257, 100), (67, 4294967295, 31), (67, 99, 5000)]]
# BF16: float32 inputs (as bits) -> bf16 bits, exact RNE.
bf_in = [0x3f800000, 0x3f808000, 0x3f818000, 0x3f808001, 0x3f80ffff, 0x7f7fffff, 0x00000001,
         0x807fffff, 0xc0490fdb, 0x3eaaaaab, 0x00400000, 0x7f7f8000]
def fr_of_bits(b):
    x = struct.unpack('<f', struct.pack('<I', b))[0]
    return F(x)
def bf16_of_bits(b):
    fr = fr_of_bits(b)
    r = bf16(fr)
    if abs(r) >= F(2) ** 128: return (0xff80 if fr < 0 else 0x7f80)  # rounds to infinity
    bits = f32bits(float(r)) >> 16
    if r == 0 and fr < 0: bits |= 0x8000
    return bits
out['bf16'] = [[b, bf16_of_bits(b)] for b in bf_in]
# FP8 e4m3: float32 inputs -> code, RNE, saturating.
fp_vals = [0.0, 1.0, -1.0, 448.0, 449.0, 464.0, 1e6, -1e6, 240.0, 0.0009765625, 0.001953125,
           0.00146484375, 0.0029296875, 0.013671875, 0.015625, 1.0625, 1.1875, 3.14159, -0.3,
           1e-10, 2 ** -10 * 0.5, 2 ** -10 * 1.5, 0.0146484375]
out['fp8'] = [[f32bits(v), e4m3_code(F(struct.unpack('<f', struct.pack('<f', v))[0]))] for v in fp_vals]
out['fp8_decode'] = [[c, f32bits(-float(abs(e4m3_value(c))) if c & 0x80 else float(e4m3_value(c)))] for c in [0, 1, 7, 8, 0x38, 0x7e, 0xfe, 0x80, 0x41]]
# FP8 rows: bf16 row -> codes and scales (scale = f32(amax/448), q = e4m3(f32(x/scale))).
def quant_row(vals):
    codes, scales = [], []
    for b0 in range(0, len(vals), 128):
        blk = vals[b0:b0 + 128]
        amax = max(abs(v) for v in blk)
        sc = f32(amax / 448) if amax else F(1)
        scales.append(fbits(sc))
        codes += [e4m3_code(f32(v / sc)) if v else (0x80 if False else 0) for v in blk]
    return codes, scales
rows = []
r1 = [bf16(F(((i * 37) % 101) - 50, 7)) for i in range(200)]  # mixed, partial last block
r2 = [F(0)] * 128 + [bf16(F(3, 1000))] * 5 + [F(0)] * 3        # zero block, tiny values
r3 = [act(67, 12, c) for c in range(256)]
for r in (r1, r2, r3):
    codes, scales = quant_row(r)
    rows.append({'bf16': [bf16bits(v) for v in r], 'codes': codes, 'scale_bits': scales})
out['fp8_rows'] = rows

# Combine expectation: float32 emulated op by op.
def transform(x, ex, w, rank, per, hidden):
    S = A = B = F(0)
    for e, wk in zip(ex, w):
        if e // per != rank: continue
        wk = F(wk)
        S = f32(S + f32(wk * F((e * 17 + 5) % 31 + 1, 32)))
        A = f32(A + f32(wk * F((e * 29 + 7) % 37 - 18, 64)))
        B = f32(B + f32(wk * F((e * 43 + 11) % 41 - 20, 128)))
    y = []
    for c in range(hidden):
        pat = F((c * 13) % 17 - 8, 8)
        v = f32(f32(x[c] * S) + A)
        y.append(bf16(f32(v + f32(B * pat))))
    return y

def expect(seed, ep, experts, topk, hidden, sud, t, fp8):
    ex, w = route(seed, experts, topk, t)
    per = experts // ep
    x = [bf16(act(seed, t, c)) for c in range(hidden)]
    if fp8:
        codes, scales = quant_row(x)
        x = [f32(e4m3_value(codes[c]) * F(struct.unpack('<f', struct.pack('<I', scales[c // 128]))[0]))
             for c in range(hidden)]
    dests = sorted(set(e // per for e in ex))
    ndom = (ep + sud - 1) // sud
    outv = [F(0)] * hidden
    doms = sorted(set(d // sud for d in dests))
    for dom in doms:
        acc = [F(0)] * hidden
        for d in dests:
            if d // sud != dom: continue
            y = transform(x, ex, w, d, per, hidden)
            acc = [f32(a + b) for a, b in zip(acc, y)]
        if ndom > 1: acc = [bf16(a) for a in acc]
        outv = [f32(o + a) for o, a in zip(outv, acc)]
    return [fbits(v) for v in outv]

out['combine'] = []
for (seed, ep, experts, topk, hidden, sud, fp8, tokens) in [
        (67, 4, 16, 4, 40, 4, False, [0, 5, 7]),
        (67, 4, 16, 4, 40, 2, False, [0, 5, 7]),
        (67, 4, 16, 4, 160, 2, True, [3]),
        (11, 2, 8, 8, 33, 1, False, [1])]:
    for t in tokens:
        out['combine'].append({'seed': seed, 'ep': ep, 'experts': experts, 'topk': topk,
                               'hidden': hidden, 'scale_up_domain': sud, 'fp8': fp8, 'token': t,
                               'out_bits': expect(seed, ep, experts, topk, hidden, sud, t, fp8)})
print(json.dumps(out, separators=(',', ':')))

# The NDJSON of `assay-ep routing --tokens-per-rank 2 --ep 2` (defaults:
# experts 256, topk 8, seed 67), weights with 9 significant digits.
with open('../../e2e/ep/routing-t2-ep2.ndjson', 'w') as f:
    for t in range(4):
        ex, w = route(67, 256, 8, t)
        f.write('{"token":%d,"experts":[%s],"weights":[%s]}\n' % (
            t, ','.join(map(str, ex)), ','.join('%.9g' % x for x in w)))
