#!/usr/bin/env python3
# Checks one assay-coll stdout against nccl-tests' layout and assay's ingest.
#   check-output.py STDOUT ASSAY OP BACKEND NP [--wrong] [--json FILE] [--rows N]
#                   [--line TEXT]...
# --rows: the table has N data rows (-N repeats the sweep); --line: a line
# that must be in STDOUT as it is (the options line's agg iters, -z's line).
# Layout: the three table header lines must equal, byte for byte, those of
# tests/fixtures/nccl-text/all_reduce_perf-h100-2n.log (written with the
# printf formats of NVIDIA/nccl-tests a0b82b2 src/util.cu writeResultHeader,
# lines 738-766, see make-fixtures.py), and every data row must end each of
# its 13 cells at the same column as that fixture's rows do
# (writeBenchmarkLinePreamble "%12li  %12li  %8s  %6s  %6s", lines 455-457;
# writeBenchmarkLineBody "  %7s  %6s  %6s  %6g" / "    N/A" with
# getFloatStr, lines 487-511). The footer follows writeResultFooter (lines
# 777-780). Sizes and counts follow src/<op>.cu GetCollByteCount, busbw the
# factors of doc/PERFORMANCE.md. Then `assay parse` must read a row per
# measured cell, with the collective and backend in the series.
import json, os, re, subprocess, sys

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'fixtures',
                   'nccl-text', 'all_reduce_perf-h100-2n.log')
FACTOR = {'all_reduce': lambda n: 2 * (n - 1) / n, 'all_gather': lambda n: (n - 1) / n,
          'reduce_scatter': lambda n: (n - 1) / n, 'alltoall': lambda n: (n - 1) / n,
          'broadcast': lambda n: 1, 'reduce': lambda n: 1, 'sendrecv': lambda n: 1,
          # src/gather.cu, scatter.cu, alltoallv.cu GetBw: (n-1)/n; hypercube.cu: 1
          'gather': lambda n: (n - 1) / n, 'scatter': lambda n: (n - 1) / n,
          'alltoallv': lambda n: (n - 1) / n, 'hypercube': lambda n: 1}
# nccl-tests' tables with -C (cputime) and -I (per-iteration columns), written
# with the same formats (make-fixtures.py).
FIX_C = os.path.join(os.path.dirname(FIX), 'reduce_scatter-nccl-cputime.txt')
FIX_I = os.path.join(os.path.dirname(FIX), 'sendrecv-nccl-per-iter.txt')


def v_total(count, elt, n):
    """alltoallv's per-rank bytes: src/alltoallv.cu, the generated pattern
    with NCCL_TESTS_ALLTOALLV_SPREAD 1 (distance-weighted)."""
    total = count * n * elt
    return sum(int(d * total / (n * (n - 1) / 2)) & ~15 for d in range(n)) if n > 1 else total & ~15
ELT = {'int8': 1, 'uint8': 1, 'int32': 4, 'uint32': 4, 'int64': 8, 'uint64': 8, 'half': 2,
       'float': 4, 'double': 8, 'bfloat16': 2, 'f8e4m3': 1, 'f8e5m2': 1}


def fail(msg):
    sys.exit('check-output.py: ' + msg)


def ends(line):
    return [m.end() for m in re.finditer(r'\S+', line)]


def table(lines):
    """The three header lines and the data rows."""
    i = next((k for k, l in enumerate(lines) if 'out-of-place' in l and l.startswith('#')), None)
    if i is None:
        fail('no table header')
    rows = [l for l in lines[i + 3:] if l and not l.startswith(('#', 'nRanks '))]
    return lines[i:i + 3], rows


def main():
    a = sys.argv[1:]
    out, assay, op, backend, n = a[0], a[1], a[2], a[3], int(a[4])
    want_wrong = '--wrong' in a
    js = a[a.index('--json') + 1] if '--json' in a else None
    lines = open(out).read().split('\n')
    for k, w in enumerate(a):
        if w == '--line' and a[k + 1] not in lines:
            fail('no line %r in the output' % a[k + 1])
    per_iter = any(l.startswith('# Per-Iteration Report') for l in lines)
    cputime = any(l.startswith('#') and ' cputime ' in l for l in lines)
    fix = open(FIX_I if per_iter else FIX_C if cputime else FIX).read().split('\n')
    head, rows = table(lines)
    validation = not any(l.startswith('# nThread') and 'validation: 0 ' in l for l in lines)
    fhead, frows = table(fix)
    for got, want in zip(head, fhead):
        # the -I fixture has -S's timestamp column, which assay-coll has not
        want = re.sub(r'  +(timestamp|%Y-%m-%d %H:%M:%S)$', ' ', want)
        if per_iter and cputime:  # writeResultHeader's timeStr, "%7s"
            want = want.replace('     time   ', '  cputime   ')
        if got != want:
            fail('header line differs from nccl-tests\':\n got  %r\n want %r' % (got, want))
    fends = ends(frows[0])[:21 if per_iter else 13]  # without -S's date and time
    if op == 'hypercube' and any(l.startswith('nRanks ') for l in lines):
        if rows:
            fail('hypercube rows on %d ranks' % n)
        rows = []
    elif not rows:
        fail('no data rows')
    if '--rows' in a and len(rows) != int(a[a.index('--rows') + 1]):
        fail('%d data rows, expected %s' % (len(rows), a[a.index('--rows') + 1]))
    wrong_cells = checked = 0
    for r in rows:
        t = r.split()
        want = list(fends)
        if op == 'hypercube':
            # its redop is "" (src/hypercube.cu): one cell fewer
            t.insert(3, '')
            want[3:4] = []
        wcols = (8, 16) if per_iter else (8, 12)
        # "    N/A" is one column narrower than "  %6g" (util.cu line 508).
        for j in wcols:
            if j < len(t) and t[j] == 'N/A':
                k = j - (op == 'hypercube')
                want[k:] = [e - 1 for e in want[k:]]
        if ends(r) != want:
            fail('row cells end at %s, nccl-tests\' at %s:\n%r' % (ends(r), want, r))
        size, count, typ, redop, root = int(t[0]), int(t[1]), t[2], t[3], int(t[4])
        if typ not in ELT:
            fail('type %s: its element size is not in ELT (docs/collectives.md, '
                 '"Adding a data type")' % typ)
        if op in ('all_gather', 'reduce_scatter', 'alltoall', 'gather', 'scatter', 'hypercube'):
            # the printed size is the buffer of count * n elements
            if size != count * n * ELT[typ]:
                fail('size %d is not count %d x %d ranks x %d bytes' % (size, count, n, ELT[typ]))
        elif op == 'alltoallv':
            if size != v_total(count, ELT[typ], n):
                fail('size %d is not alltoallv\'s total for count %d' % (size, count))
        elif size != count * ELT[typ]:
            fail('size %d is not count %d x %d bytes' % (size, count, ELT[typ]))
        copies = ('all_gather', 'alltoall', 'broadcast', 'gather', 'scatter', 'alltoallv')
        if not (redop == '' if op == 'hypercube' else
                redop == 'none' if op in copies else redop not in ('', 'none')):
            fail('redop %s for %s' % (redop, op))
        if (root == -1) != (op not in ('broadcast', 'reduce', 'gather', 'scatter')):
            fail('root %d for %s' % (root, op))
        for k in ((5, 13) if per_iter else (5, 9)):
            tm, alg, bus, wr = t[k:k + 4]
            if float(alg) >= 1:
                want = float(alg) * FACTOR[op](n)
                if abs(float(bus) - want) > 0.006 + 0.006 * FACTOR[op](n):
                    fail('busbw %s is not algbw %s x %.4f' % (bus, alg, FACTOR[op](n)))
            if wr != 'N/A':
                checked += 1
                wrong_cells += int(wr) > 0
            elif validation and not (k > 5 and op in ('alltoall', 'sendrecv', 'alltoallv')):
                fail('#wrong N/A where nccl-tests checks: %r' % r)
    oob = [l for l in lines if l.startswith('# Out of bounds values')]
    avg = [l for l in lines if l.startswith('# Avg bus bandwidth')]
    if len(oob) != 1 or not re.fullmatch(r'# Out of bounds values : \d+ (OK|FAILED)', oob[0]):
        fail('footer: %r' % oob)
    # NCCL_TESTS_MIN_BW (nccl-tests src/common.cu 1829-1853, util.cu 778):
    # unset, nothing after the average; else FAILED below 90% of it, or OK.
    min_bw = os.environ.get('NCCL_TESTS_MIN_BW')
    if len(avg) != 1 or not re.fullmatch(r'# Avg bus bandwidth    : (\S+) (|OK|FAILED)', avg[0]):
        fail('footer: %r' % avg)
    avg_bw = float(avg[0].split()[5])
    verdict = '' if min_bw is None else ('FAILED' if avg_bw < float(min_bw) * 0.9 else 'OK')
    if not avg[0].endswith(' ' + verdict):
        fail('footer %r: expected %r after the average (NCCL_TESTS_MIN_BW %s)' %
             (avg[0], verdict, min_bw))
    if ('# Collective test starting: %s_perf' % op) not in lines or \
       ('# Collective test concluded: %s_perf' % op) not in lines:
        fail('no "# Collective test starting/concluded: %s_perf"' % op)
    if want_wrong != (wrong_cells > 0) or want_wrong != oob[0].endswith('FAILED'):
        fail('expected %s, got %d cells with #wrong > 0 and %r' %
             ('#wrong > 0' if want_wrong else 'no wrong elements', wrong_cells, oob[0]))
    # assay's own ingest.
    for f, fmt in ((out, 'nccl-tests-text'),) + (((js, 'nccl-tests'),) if js else ()):
        p = subprocess.run([assay, 'parse', '--input-format', fmt, f], capture_output=True,
                           text=True)
        if not rows:  # hypercube skipped: nothing measured (exit 4, no metrics)
            if p.returncode != 4:
                fail('assay parse %s of no rows: exit %d, expected 4' % (fmt, p.returncode))
            continue
        if p.returncode != 0:
            fail('assay parse %s: exit %d: %s' % (fmt, p.returncode, p.stderr))
        got = [json.loads(l) for l in p.stdout.splitlines()]
        bus = [g for g in got if g['metric'] == 'busbw' and g['statistic'] == 'mean']
        wrong = [g for g in got if g['metric'] == 'wrong']
        if len(bus) != 2 * len(rows) or len(wrong) != checked or \
           per_iter and fmt == 'nccl-tests-text' and \
           len([g for g in got if g['statistic'] == 'p99']) != 2 * len(rows):
            fail('%s: %d busbw rows and %d wrong rows for %d table rows and %d checked cells' %
                 (fmt, len(bus), len(wrong), len(rows), checked))
        for g in got:
            s = g['series']
            if s.get('collective') != op or s.get('backend') != backend or \
               s.get('scale') != '1x%d' % n:
                fail('%s: series %s' % (fmt, s))
    if js:
        doc = json.load(open(js))
        for res in doc['results']:
            for pl in ('out_of_place', 'in_place'):
                st = res[pl + '_per_iter']
                if not (st['min_us'] <= st['p50_us'] <= st['p99_us'] <= st['max_us']):
                    fail('percentiles out of order: %s' % st)
                if len(st['times_us']) != res['actual_iterations']:
                    fail('times_us has %d samples' % len(st['times_us']))
                if st['skipped_iterations'] != doc['config']['per_iter_skip']:
                    fail('skipped_iterations %s, -K %s' % (st['skipped_iterations'],
                                                           doc['config']['per_iter_skip']))
                if ('cpu_time' in res[pl]) != cputime:
                    fail('cpu_time in the JSON: %s, cputime in the table: %s' %
                         ('cpu_time' in res[pl], cputime))
        if 'env' in doc:
            fail('the JSON must not copy the environment')
        okay = doc['average_bus_bandwidth']['okay']
        if okay != ('unchecked' if min_bw is None else verdict == 'OK'):
            fail('average_bus_bandwidth.okay %r, footer %r' % (okay, avg[0]))
    print('check-output.py: ok (%d rows, %d checked cells)' % (len(rows), checked))


main()
