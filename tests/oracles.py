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


def gfr_topic(ranked, levels, memberships, targets, divergences, gains=(1, 3), phi=0.99,
              cutoff=None):
    """ERR, iRBU and one GF per attribute set for one ranked list, from the formulas.

    ranked: doc ids in rank order; levels: {doc: level}; memberships: list of
    {doc: vector} per set; a nonrelevant, unjudged or unlisted doc counts as uniform.
    """
    top = gains[-1] + 1.0
    survive, err, irbu = 1.0, 0.0, 0.0
    gf = [0.0] * len(targets)
    sums = [[0.0] * len(t) for t in targets]
    docs = ranked if cutoff is None else ranked[:cutoff]
    for k, doc in enumerate(docs, start=1):
        level = levels.get(doc, 0)
        p = 0.0 if level == 0 else gains[level - 1] / top
        decay = p * survive
        survive *= 1.0 - p
        err += decay / k
        irbu += decay * phi ** k
        for m, target in enumerate(targets):
            g = len(target)
            vec = memberships[m].get(doc) if level > 0 else None
            if vec is None:
                vec = [1.0 / g] * g
            for i in range(g):
                sums[m][i] += vec[i]
            achieved = [x / k for x in sums[m]]
            gf[m] += decay * sim(achieved, target, divergences[m])
    return err, irbu, gf
