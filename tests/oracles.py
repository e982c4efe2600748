"""Plain-loop implementations written straight from the formulas (docs/measures.md).

Slow on purpose: the vectorised code must agree with them on random inputs.
"""

import math


def jsd(p, q):
    m = [(a + b) / 2 for a, b in zip(p, q)]
    kl = lambda x, y: sum(a * math.log2(a / b) for a, b in zip(x, y) if a > 0)  # noqa: E731
    return max(0.0, (kl(p, m) + kl(q, m)) / 2)


def nmd(p, q):
    total, cp, cq = 0.0, 0.0, 0.0
    for a, b in zip(p, q):
        cp += a
        cq += b
        total += abs(cp - cq)
    return total / (len(p) - 1)


def rnod(p, q):
    g = len(p)
    dws = []
    for i in range(g):
        if q[i] > 0:
            dws.append(sum(abs(i - j) * (p[j] - q[j]) ** 2 for j in range(g)))
    return math.sqrt(sum(dws) / len(dws) / (g - 1))


DIVERGENCES = {"JSD": jsd, "NMD": nmd, "RNOD": rnod}


def sim(p, q, divergence):
    return 1.0 - DIVERGENCES[divergence](p, q)
