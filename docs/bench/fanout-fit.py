#!/usr/bin/env python3
"""Fits time = a + b * N to each column of fanout.sh's table (docs/bench/fanout.md, docs/scale.md).

The fit uses every host count but the largest, then predicts the largest: its error on that
held-out N is what the model is worth for extrapolating. Also prints the fit on all counts, which
docs/scale.md extrapolates to 100 and 1,000 hosts.
Usage: docs/bench/fanout-fit.py WORKDIR/fanout.tsv
"""
import sys


def fit(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return my - b * mx, b


rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
head, rows = rows[0], rows[1:]
hosts = [float(r[0]) for r in rows]
print("%-16s %8s %8s %10s %10s %7s %9s %9s" % (
    "column", "a (s)", "b (s/N)", "held-out", "predicted", "error", "N=100", "N=1000"))
for i, name in enumerate(head[1:], 1):
    if not name.endswith("_s") or name.endswith("cpu_s") and name.startswith("solr"):
        continue
    ys = [float(r[i]) for r in rows]
    a, b = fit(hosts[:-1], ys[:-1])
    pred = a + b * hosts[-1]
    A, B = fit(hosts, ys)
    print("%-16s %8.2f %8.3f %10.2f %10.2f %+6.1f%% %9.1f %9.1f" % (
        name, A, B, ys[-1], pred, 100 * (pred - ys[-1]) / ys[-1], A + B * 100, A + B * 1000))
