"""Plain-loop implementations written straight from the formulas (docs/measures.md).

Slow on purpose: the vectorised code must agree with them on random inputs.
"""

import math


def jsd(p, q):
    m = [(a + b) / 2 for a, b in zip(p, q, strict=False)]
    kl = lambda x, y: sum(a * math.log2(a / b) for a, b in zip(x, y, strict=False) if a > 0)  # noqa: E731
    return max(0.0, (kl(p, m) + kl(q, m)) / 2)


def nmd(p, q):
    total, cp, cq = 0.0, 0.0, 0.0
    for a, b in zip(p, q, strict=False):
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


def gfr_topic(
    ranked,
    levels,
    memberships,
    targets,
    divergences,
    gains=(1, 3),
    phi=0.99,
    cutoff=None,
    listed_nonrelevant=(),
):
    """ERR, iRBU and one GF per attribute set for one ranked list, from the formulas.

    ranked: doc ids in rank order; levels: {doc: level}; memberships: list of
    {doc: vector} per set; a nonrelevant, unjudged or unlisted doc counts as uniform,
    except the judged-nonrelevant docs in ``listed_nonrelevant``, which keep their
    listed vector (the organisers' tool).
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
        irbu += decay * phi**k
        for m, target in enumerate(targets):
            g = len(target)
            own = level > 0 or doc in listed_nonrelevant
            vec = memberships[m].get(doc) if own else None
            if vec is None:
                vec = [1.0 / g] * g
            for i in range(g):
                sums[m][i] += vec[i]
            achieved = [x / k for x in sums[m]]
            gf[m] += decay * sim(achieved, target, divergences[m])
    return err, irbu, gf


def _dedupe(nuggets, dedupe):
    """Levels after crediting each entity once (nuggets in position order)."""
    seen, levels = set(), []
    for n in nuggets:
        level = n.get("level", 0) or 0
        key = n.get("entity")
        if dedupe and level > 0 and key is not None:
            if key in seen:
                level = 0
            seen.add(key)
        levels.append(level)
    return levels


def gfrc(
    nuggets,
    system_turns,
    sets,
    *,
    L,
    variant,
    gain,
    lmax,
    method,
    empty,
    weights=None,
    dedupe=True,
):
    """R, {set: GF}, GF, GFRC of one conversation, straight from the formulas.

    nuggets: dicts with start, end, level, entity, groups, turn (1-based system turn);
    sets: list of (name, target, divergence); system_turns: count or None.
    """
    nuggets = sorted(nuggets, key=lambda n: n["start"])
    levels = _dedupe(nuggets, dedupe)
    big_n = (L - 1) / 2 if variant == "eq9" else (L + 1) / 2
    r = 0.0
    for n, level in zip(nuggets, levels, strict=False):
        if level > 0:
            wc = n["end"]
            pw = max(0.0, 1 - (wc - 1) / L) if variant == "eq6" else max(0.0, 1 - wc / L)
            g = (2**level - 1) / 2**lmax if gain == "exp" else level / lmax
            r += pw * g
    r /= big_n
    gf = {}
    for name, target, divergence in sets:
        sims, so_far = [], []
        turns = sorted({n["turn"] for n, lv in zip(nuggets, levels, strict=False) if lv > 0})
        for t in turns:
            in_turn = [
                n["groups"][name]
                for n, lv in zip(nuggets, levels, strict=False)
                if lv > 0 and n["turn"] == t
            ]
            so_far += in_turn
            vecs = in_turn if method == "independent" else so_far
            achieved = [sum(v[i] for v in vecs) / len(vecs) for i in range(len(target))]
            sims.append(sim(achieved, target, divergence))
        if empty == "uniform":
            g = len(target)
            sims += [sim([1 / g] * g, target, divergence)] * (system_turns - len(turns))
        gf[name] = sum(sims) / len(sims) if sims else 0.0
    m = len(sets)
    w = weights or [1 / (m + 1)] * (m + 1)  # w_0 for R, then one per set
    total = sum(wi * gf[name] for wi, (name, _, _) in zip(w[1:], sets, strict=False)) / sum(w[1:])
    score = w[0] * r + sum(wi * gf[name] for wi, (name, _, _) in zip(w[1:], sets, strict=False))
    return r, gf, total, score


def gfrc2(nuggets, sets, *, L=1000, weights=None, dedupe=True):
    """Per-cluster rows and (EGNP, {set: EGF}, GFRC2) of one conversation, word by word."""
    nuggets = sorted(nuggets, key=lambda n: n["start"])
    levels = _dedupe(nuggets, dedupe)
    relevant = [(n, lv) for n, lv in zip(nuggets, levels, strict=False) if lv > 0]
    m = len(sets)
    w = weights or [1 / (m + 1)] * (m + 1)
    rows, egnp, egf, total = [], 0.0, {s[0]: 0.0 for s in sets}, 0.0
    for k, (n, _) in enumerate(relevant):
        wc = n["end"]
        level_of_word = {}
        for other, lv in relevant[: k + 1]:
            for word in range(other["start"], other["end"] + 1):
                level_of_word[word] = lv
        gwc = sum(level_of_word.get(word, 0) for word in range(1, wc + 1))
        nonrel = sum(1 for word in range(1, wc + 1) if word not in level_of_word)
        gnp = gwc / (nonrel + gwc)
        experience = w[0] * gnp
        sims = {}
        for i, (name, target, divergence) in enumerate(sets):
            vecs = [o["groups"][name] for o, _ in relevant[: k + 1]]
            achieved = [sum(v[j] for v in vecs) / len(vecs) for j in range(len(target))]
            sims[name] = sim(achieved, target, divergence)
            experience += w[i + 1] * sims[name]
        prob = 1 / L if wc <= L else 0.0
        rows.append((wc, gwc, nonrel, gnp, sims, experience, prob))
        egnp += prob * gnp
        for name in sims:
            egf[name] += prob * sims[name]
        total += prob * experience
    return rows, (egnp, egf, total)


def ragfair_topic(
    ranked, levels, memberships, target, divergence, answer, cutoff=None, gains=(1, 3)
):
    """GF_Re, GF_Gen, RIGF (percent or None) and ADsim (or None) for one list and answer.

    answer: list of (level, vector) entities.
    """
    g = len(target)
    _, _, gf = gfr_topic(
        ranked, levels, [memberships], [target], [divergence], gains=gains, cutoff=cutoff
    )
    gf_re = gf[0]
    relevant = [v for lv, v in answer if lv > 0]
    if relevant:
        d_a = [sum(v[i] for v in relevant) / len(relevant) for i in range(g)]
        gf_gen = sim(d_a, target, divergence)
    else:
        d_a, gf_gen = None, 0.0
    rigf = None if gf_re == 0 else (gf_gen - gf_re) / gf_re * 100
    exposure = [0.0] * g
    docs = ranked if cutoff is None else ranked[:cutoff]
    for k, doc in enumerate(docs, start=1):
        if levels.get(doc, 0) > 0:
            vec = memberships.get(doc) or [1 / g] * g
            for i in range(g):
                exposure[i] += vec[i] / math.log2(k + 1)
    total = sum(exposure)
    d_l = [x / total for x in exposure] if total > 0 else None
    ad = None if d_l is None or d_a is None else sim(d_l, d_a, divergence)
    return gf_re, gf_gen, rigf, ad
