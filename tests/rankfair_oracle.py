"""rankfair written plainly from docs/rankfair.md: one Python loop per ranking, prefix, group.

Slow on purpose and obviously right: each function scores ONE ranking (lists of
numbers, dicts of docs) with the equations of the spec, section by section, and the
vectorised array level (fairconv.rankfair) must agree with it on random inputs to
1e-12. Means are taken exactly (fractions), so that equal values have their fair
value exactly; the binomial CDF of FAIR is summed exactly from its terms.
"""

import math
from fractions import Fraction

NAN = float("nan")


# --------------------------------------------------------------------------- section 2
def log_weight(k):
    """w(k) = 1 / log2(k + 1), k 1-based."""
    return 1 / math.log2(k + 1)


def rbp_weight(k, decay):
    return decay ** (k - 1)


def attention_weight(k, p):
    return 100 * (1 - p) ** (k - 1) * p


def _div(a, b):
    """a / b, NaN where b is 0 (the undefined values of sections 3-6)."""
    return NAN if b == 0 else a / b


# --------------------------------------------------------------------------- section 3.1
def group_values(rows, sizes, relevance, statistic, decay=0.5, attention=0.5, utility=None):
    """V_g of one ranking: ``rows[k]`` the membership vector of rank k + 1."""
    G = len(sizes)
    out = []
    for g in range(G):
        E = C = R = A = U = 0.0
        for k, row in enumerate(rows, start=1):
            m = row[g]
            u = relevance[k - 1] if relevance is not None else 0.0
            E += m * log_weight(k)
            C += m * (u * log_weight(k))
            R += m * rbp_weight(k, decay)
            A += m * attention_weight(k, attention)
            U += m * u
        R = (1 - decay) * R
        if utility is not None:
            U = utility[g]
        n = sizes[g]
        if statistic == "EXP":
            v = _div(E, n)
        elif statistic == "EXPU":
            v = _div(_div(E, n), _div(U, n)) if n else NAN
        elif statistic == "EXPRU":
            v = _div(_div(C, n), _div(U, n)) if n else NAN
        elif statistic == "ATT":
            v = _div(A, n)
        elif statistic == "ERBE":
            v = R
        elif statistic == "ERBP":
            v = _div(R, n)
        elif statistic == "ERBR":
            v = _div(R, U)
        else:
            raise ValueError(statistic)
        out.append(v)
    return out


def arp(groups, n_groups):
    """Favoured pair representation of each group over one ranking (group ids)."""
    n = len(groups)
    out = []
    for g in range(n_groups):
        members = sum(1 for x in groups if x == g)
        wins = 0
        for i in range(n):
            for j in range(i + 1, n):
                if groups[i] == g and groups[j] != g:
                    wins += 1
        out.append(_div(wins, members * (n - members)))
    return out


# --------------------------------------------------------------------------- section 3.2
def meta(values, present, word):
    v = [x for x, p in zip(values, present, strict=True) if p]
    if not v or any(math.isnan(x) for x in v):
        return NAN
    exact = [Fraction(x) for x in v]
    mean = sum(exact) / len(exact)
    if word == "MinMaxRatio":
        return _div(min(v), max(v))
    if word == "MaxMinRatio":
        return _div(max(v), min(v))
    if word == "MaxMinDiff":
        return max(v) - min(v)
    if word == "MaxAbsDiff":
        return float(max(abs(x - mean) for x in exact))
    if word == "MeanAbsDev":
        return float(sum(abs(x - mean) for x in exact) / len(exact))
    if word == "LTwo":
        return math.sqrt(sum(x * x for x in v))
    if word == "Variance":
        return float(sum((x - mean) ** 2 for x in exact) / len(exact))
    raise ValueError(word)


# --------------------------------------------------------------------------- section 4.1
def ndkl(rows, target, epsilon=1e-7):
    n = len(rows)
    if n == 0:
        return NAN
    G = len(target)
    total, Z = 0.0, 0.0
    for i in range(1, n + 1):
        p = [sum(rows[k][g] for k in range(i)) / i for g in range(G)]
        d = 0.0
        for g in range(G):
            a, b = p[g] + epsilon, target[g] + epsilon
            if a == 0:
                continue  # 0 ln 0 = 0
            if b == 0:
                return NAN  # the exact divergence is infinite
            d += a * math.log(a / b)
        total += log_weight(i) * d
        Z += log_weight(i)
    return (1 / Z) * total


# --------------------------------------------------------------------------- section 4.2
def _kl_bits(p, q):
    """KL((p, 1 - p) || (q, 1 - q)) in bits, 0 log 0 = 0, in float as FairRank writes it
    (1 - p and 1 - q rounded: the terms of p close to q cancel)."""
    out = 0.0
    for a, b in ((p, q), (1 - p, 1 - q)):
        if a > 0:
            out += a * math.log(a / b)
    return out / math.log(2)


def yang_raw(mass, P, N, measure, step=10, discount="code"):
    """Unnormalised rND/rKL/rRD of one ranking; NaN where undefined.

    The protected masses are summed exactly (fractions): the top N of a ranking of the
    whole population holds exactly P, as it must. Each f(i) is then computed in float
    from x_i and P as FairRank writes it.
    """
    n = len(mass)
    if not 0 < P < N or n < step:
        return NAN
    P = float(P)
    raw, x = 0.0, Fraction(0)
    for i in range(1, n + 1):
        x += Fraction(mass[i - 1])
        if i % step:
            continue
        xi = float(x)
        if measure == "rND":
            f = abs(xi / i - P / N)
        elif measure == "rKL":
            f = _kl_bits(xi / i, P / N)
        else:
            R = P / (N - P)
            c = 0.0 if abs(i - x) <= Fraction(1e-9) else xi / (i - xi)
            f = abs(min(R, c) - R)
        delta = math.log2(i + 1) if discount == "code" else math.log2(i)
        raw += f / delta
    return raw


def yang(mass, population, measure, step=10, discount="code", normalize=True):
    """rND/rKL/rRD of one ranking against its population (m_pi of each member)."""
    P, N, n = sum(map(Fraction, population)), len(population), len(mass)
    raw = yang_raw(mass, P, N, measure, step, discount)
    if not normalize or math.isnan(raw):
        return raw
    desc = sorted(population, reverse=True)[:n]
    asc = sorted(population)[:n]
    Z = max(
        yang_raw(desc, P, N, measure, step, discount), yang_raw(asc, P, N, measure, step, discount)
    )
    return _div(raw, Z)


# --------------------------------------------------------------------------- section 4.3
def binomial_cdf(x, k, p):
    """F(x; k, p), summed exactly."""
    p = Fraction(p)
    return float(sum(math.comb(k, j) * p**j * (1 - p) ** (k - j) for j in range(int(x) + 1)))


def fair(protected, p):
    n = len(protected)
    if n == 0:
        return NAN
    total, x = 0.0, 0
    for k in range(1, n + 1):
        x += protected[k - 1]
        total += binomial_cdf(x, k, p)
    return total / n


# --------------------------------------------------------------------------- section 5
def iaa(relevance):
    return sum(abs(log_weight(k) - u) for k, u in enumerate(relevance, start=1))


# --------------------------------------------------------------------------- section 6
def expected_exposure(
    samples,
    levels,
    memberships=None,
    model="gerr",
    patience=0.5,
    stop=0.5,
    complete=False,
    binarize=False,
):
    """(EE-L, EE-D, EE-R) of one topic.

    ``samples``: lists of doc ids in rank order; ``levels``: {doc: level >= 0} of the
    judged docs; ``memberships``: {doc: vector} (per group) or None (per doc).
    """
    p, u = patience, stop
    lev = {d: (min(v, 1) if binarize else v) for d, v in levels.items()}
    target_docs = [d for d, v in lev.items() if v > 0 or (complete and v >= 0)]
    if not target_docs or not samples:
        return NAN, NAN, NAN
    S = len(samples)
    run = {}
    for ranking in samples:
        relevant_above = 0
        for i, d in enumerate(ranking):
            e = p**i if model == "rbp" else p**i * (1 - u) ** relevant_above
            run[d] = run.get(d, 0.0) + e / S
            if lev.get(d, 0) > 0:
                relevant_above += 1
    target = {}
    b = 0
    for level in sorted({lev[d] for d in target_docs}, reverse=True):
        docs = [d for d in target_docs if lev[d] == level]
        m = len(docs)
        if model == "rbp":
            te = (p**b - p ** (b + m)) / (m * (1 - p))
        elif level > 0:
            pp = p * (1 - u)
            te = (pp**b - pp ** (b + m)) / (m * (1 - pp))
        else:
            te = (1 - u) ** b * (p**b - p ** (b + m)) / (m * (1 - p))
        for d in docs:
            target[d] = te
        b += m
    if memberships is not None:
        G = len(next(iter(memberships.values())))
        zero = [0.0] * G
        run_g = [
            sum(memberships.get(d, zero)[g] * run.get(d, 0.0) for d in target_docs)
            for g in range(G)
        ]
        target_g = [
            sum(memberships.get(d, zero)[g] * target[d] for d in target_docs) for g in range(G)
        ]
        run = dict(enumerate(run_g))
        target = dict(enumerate(target_g))
    keys = set(run) | set(target)
    loss = sum((run.get(k, 0.0) - target.get(k, 0.0)) ** 2 for k in keys)
    disparity = sum(v * v for v in run.values())
    relevance = sum(run[k] * target[k] for k in keys if k in run and k in target)
    return loss, disparity, relevance
