#!/usr/bin/env python3
# docs/results/shaped/tables.py FILE.json[.xz]...: the tables of
# docs/results/shaped-h100.md from results of conf/shaped.ini (or
# hard-cells.ini): for each axis, each cell of rows x n with CUB's
# segmented reduce (cuda/segmented: the faster of its variants in the
# cell, iterators or CUB's fixed-size segments) and redbench's best other
# strategy,
# their ratio, the winner and its share of the measured peak; then the
# issue's targets (best/CUB at least 1.0 in every cell, median at least
# 1.5; 85% of the measured peak in every cell of 256 MiB or more), and the
# most best/CUB could be in each cell: CUB's time over the larger of the
# shortest call and the cell's bytes at the measured peak, with the median
# of those bounds, which no strategy's median cell can pass. The shortest
# call is the row of run `floor` (docs/results/shaped/floor.ini, which
# batch-grid.sh runs beside the grid) where a file has one, else FLOOR_US
# (default 3.26 us, docs/results/h100-1207.md's one-element call). A later
# file's row replaces an earlier one's of the same configuration.
import json, lzma, os, statistics, sys

def load(p):
    o = lzma.open if p.endswith('.xz') else open
    with o(p, 'rt') as f:
        return json.load(f)

def size(n):
    for s, u in ((1 << 20, 'M'), (1 << 10, 'K')):
        if n >= s and n % s == 0:
            return '%d%s' % (n // s, u)
    return str(n)

def short(r):
    p = dict(kv.split('=', 1) for kv in (r.get('params_text') or '').split())
    s = p.get('strategy', r['plugin'].split('/')[-1])
    if s == 'subwarp':
        s += ' %s' % p.get('lanes')
    if p.get('block') not in (None, '256') and s in ('block', 'blocks', 'tile', 'split'):
        s += ' b%s' % p['block']
    if p.get('finish') == 'last-block':
        s += ' last'
    if p.get('order') == 'alternate':
        s += ' alt'
    if p.get('grid') == 'waves':
        s += ' waves'
    if p.get('vector') == 'no':
        s += ' v1'
    return s

floor_ns = float(os.environ.get('FLOOR_US', '3.26')) * 1000
rows, peak = {}, {}
for path in sys.argv[1:]:
    d = load(path)
    for dev in d.get('devices', []):
        if dev.get('measured_peak_gbs'):
            peak[dev.get('backend')] = dev['measured_peak_gbs']
    for r in d['results']:
        if r['run'] == 'floor':
            if r['status'] == 'ok':
                floor_ns = r['median_ns']
            continue
        key = (r['run'], r.get('params_text'), r['op'], r['dtype'], r.get('rows') or 1, r['n'],
               r.get('axis') or 'row')
        rows[key] = r
cells = {}
for key, r in rows.items():
    if r['status'] == 'ok':
        cells.setdefault((key[6], key[4], key[5]), []).append(r)

for axis in ('row', 'column'):
    ns = sorted({c[2] for c in cells if c[0] == axis})
    rs = sorted({c[1] for c in cells if c[0] == axis})
    if not ns:
        continue
    print('\n%s axis: best/CUB (winner, %% of measured peak)\n' % axis)
    print('| rows \\ n | ' + ' | '.join(size(n) for n in ns) + ' |')
    print('|---|' + '--:|' * len(ns))
    ratios, short_cells, bounds, cub_fixed = [], [], [], 0
    for nr in rs:
        line = []
        for n in ns:
            g = cells.get((axis, nr, n))
            if not g:
                line.append('')
                continue
            cub = [r for r in g if r['plugin'].endswith('segmented')]
            ours = [r for r in g if not r['plugin'].endswith('segmented')]
            if not ours:
                line.append('CUB only')
                continue
            b = min(ours, key=lambda r: r['median_ns'])
            pct = b.get('pct_measured_peak') or 0
            nbytes = nr * n * 4  # f32
            big = nbytes >= 256 << 20
            if big and pct < 85:
                short_cells.append('%s x %s at %.1f%%' % (size(nr), size(n), pct))
            if cub:
                cub = [min(cub, key=lambda r: r['median_ns'])]
                if 'variant=fixed' in (cub[0].get('params_text') or ''):
                    cub_fixed += 1
                ratio = cub[0]['median_ns'] / b['median_ns']
                ratios.append((ratio, '%s x %s' % (size(nr), size(n))))
                if peak.get('cuda'):
                    at_peak = nbytes / peak['cuda']  # bytes / (GB/s) = ns
                    bounds.append(cub[0]['median_ns'] / max(floor_ns, at_peak))
                text = ('%.3fx' if ratio < 1 else '%.2fx') % ratio
                line.append(('**%s**' if ratio < 1 else '%s') % text + ' (%s, %.0f%%)' % (short(b), pct))
            else:
                line.append('- (%s, %.0f%%)' % (short(b), pct))
        print('| %s | %s |' % (size(nr), ' | '.join(line)))
    if ratios:
        below = sorted(c for c in ratios if c[0] < 1)
        print('\n%d cells with CUB: best/CUB from %.2fx (%s) to %.2fx, median %.2fx; %d below 1.0x%s'
              % (len(ratios), min(ratios)[0], min(ratios)[1], max(ratios)[0],
                 statistics.median(r for r, _ in ratios), len(below),
                 (': ' + ', '.join('%s %.3fx' % (c, r) for r, c in below)) if below else ''))
    if cub_fixed:
        print("CUB's faster variant: its fixed-size segments in %d of %d cells, iterators in the rest"
              % (cub_fixed, len(ratios)))
    print('cells of 256 MiB or more below 85%% of the measured peak: %s'
          % (', '.join(short_cells) if short_cells else 'none'))
    if bounds:
        print('the most best/CUB can be (CUB over the larger of a %.2f us call and the bytes at the '
              'measured peak): below 1.5x in %d of %d cells, median %.2fx'
              % (floor_ns / 1000, sum(b < 1.5 for b in bounds), len(bounds), statistics.median(bounds)))
