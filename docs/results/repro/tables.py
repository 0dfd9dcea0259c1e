#!/usr/bin/env python3
# docs/results/repro/tables.py speed|repro FILE.json[.xz]: the tables of docs/results/h200.md
# (the best row against the pattern and CUB at each n) and of the repro page (repro against
# the fastest other sum, CUB and the pattern; every run's reproducibility levels).
import json, sys, lzma
def load(p):
    o = lzma.open if p.endswith('.xz') else open
    with o(p, 'rt') as f: return json.load(f)
def size(n):
    for s, u in ((1 << 30, 'G'), (1 << 20, 'M'), (1 << 10, 'K')):
        if n >= s and n % s == 0: return '%d%s' % (n // s, u)
    return str(n)
def us(r): return r['median_ns'] / 1e3
def layout(r): return '`%s %s`' % (r['run'], r['params_text']) if r.get('params_text') else '`%s`' % r['run']
def speed(p):
    d = load(p); rows = [r for r in d['results'] if r['status'] == 'ok']
    print('| n | dtype | pattern us | best | best us | best/pattern | CUB us | best/CUB |')
    print('|---|---|--:|---|--:|--:|--:|--:|')
    for dt in ('f32', 'i32'):
        for n in sorted({r['n'] for r in rows if r['dtype'] == dt and r['run'] != 'floor'}):
            g = [r for r in rows if r['n'] == n and r['dtype'] == dt]
            pat = [r for r in g if r['run'] == 'pattern']; cub = [r for r in g if r['run'] == 'cub']
            oth = [r for r in g if r['run'] not in ('pattern', 'cub', 'floor')]
            if not (pat and cub and oth): continue
            b = min(oth, key=us); P = us(pat[0]); C = us(cub[0])
            print('| %s | %s | %.2f | %s | %.2f | %.3f | %.2f | %.3f |' % (size(n), dt, P, layout(b), us(b), P / us(b), C, C / us(b)))
    fl = [r for r in rows if r['run'] == 'floor']
    for r in fl: print('floor', r['dtype'], '%.2f us' % us(r))
def repro(p):
    d = load(p); rows = d['results']
    bad = [r for r in rows if r['status'] != 'ok']
    for r in bad: print('NOT OK', r['run'], r['params_text'], r['dtype'], r['n'], r['status'], r['reason'][:100])
    print('| n | dtype | repro best | us | fastest other | us | repro/fastest time | CUB us | CUB/repro | pattern us | pattern/repro |')
    print('|---|---|---|--:|---|--:|--:|--:|--:|--:|--:|')
    for dt in ('f32', 'bf16'):
        for n in sorted({r['n'] for r in rows if r['dtype'] == dt}):
            g = [r for r in rows if r['n'] == n and r['dtype'] == dt and r['status'] == 'ok']
            rep = [r for r in g if r['plugin'] == 'repro']
            oth = [r for r in g if r['plugin'] not in ('repro', 'repro-twin')]
            if not rep or not oth: continue
            b = min(rep, key=us); o = min(oth, key=us)
            cub = [r for r in g if r['run'] == 'cub']; pat = [r for r in g if r['run'] == 'pattern']
            print('| %s | %s | %s | %.2f | %s | %.2f | %.3f | %s | %s | %s | %s |' % (size(n), dt, layout(b), us(b), layout(o), us(o), us(b) / us(o),
                  '%.2f' % us(cub[0]) if cub else '-', '%.3f' % (us(cub[0]) / us(b)) if cub else '-',
                  '%.2f' % us(pat[0]) if pat else '-', '%.3f' % (us(pat[0]) / us(b)) if pat else '-'))
    print()
    print('| run | plugin | dtype | n | layouts | repro levels | det |')
    print('|---|---|---|--:|--:|---|---|')
    keys = []
    for r in rows:
        k = (r['run'], r['plugin'], r['dtype'], r['n'])
        if k not in keys: keys.append(k)
    for k in keys:
        g = [r for r in rows if (r['run'], r['plugin'], r['dtype'], r['n']) == k]
        lv = sorted({str(r.get('repro')) for r in g}); de = sorted({str(r.get('deterministic')) for r in g})
        print('| %s | %s | %s | %s | %d | %s | %s |' % (k[0], k[1], k[2], size(k[3]), len(g), ', '.join(lv), ', '.join(de)))
if __name__ == '__main__':
    {'speed': speed, 'repro': repro}[sys.argv[1]](sys.argv[2])
