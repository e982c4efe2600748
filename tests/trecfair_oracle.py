"""A plain implementation of the TREC Fair measures, written from docs/trecfair.md.

Per topic, per page, per cell: dictionaries of cells and loops, the outer products
materialised. Slow on purpose; only for small inputs. Also: random cases in "id form"
(page ids, a table of alignment rows) and their conversion to the padded arrays that
fairconv.trecfair takes.

A case is a dict: ``sizes`` (categories per dimension), ``table`` (page -> list of one
row per dimension), ``topics`` (list of dicts with ``relevant`` (list of page ids),
``ranking`` (Task 1) or ``rankings`` (Task 2, a list of lists, [] for padding),
``levels`` (page -> code 0..5, Task 2), ``target`` (flat list over the cells, or None
to build it)), ``backgrounds`` (None, or per dimension None or a list over categories
1..G-1), ``edition``, ``task``, ``target_len`` (None for the default).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

LN2 = math.log(2.0)
DEFAULT_LEN = {(1, 2022): 500, (1, 2021): 1000, (2, 2022): 20, (2, 2021): 50}


# --------------------------------------------------------------------------- spec 2
def delta(k: int) -> float:
    """1 / log2(max(k, 2)) with every step in float32 (spec 2)."""
    x = np.maximum(np.float32(k), np.float32(2))
    return float(np.reciprocal(np.log2(x)))


def z_of(n: int) -> float:
    """The exposure of a full ranking: numpy's float32 sum of the discounts (spec 2)."""
    return float(np.sum(np.array([delta(k) for k in range(1, n + 1)], dtype=np.float32)))


# --------------------------------------------------------------------------- spec 1
def cells(sizes):
    return list(itertools.product(*[range(g) for g in sizes]))


def outer(rows, sizes):
    """A(d) as a dict cell -> value (spec 1)."""
    out = {}
    for c in cells(sizes):
        v = 1.0
        for j, cj in enumerate(c):
            v *= rows[j][cj]
        out[c] = v
    return out


def js(p: dict, q: dict) -> float:
    """Jensen-Shannon divergence in nats of the renormalised p and q (spec 3)."""
    sp = sum(p.values())
    sq = sum(q.values())
    total = 0.0
    for c in p:
        pc = p[c] / sp
        qc = q[c] / sq
        mc = (pc + qc) / 2
        if pc > 0:
            total += pc * math.log(pc / mc)
        if qc > 0:
            total += qc * math.log(qc / mc)
    return max(total / 2, 0.0)


# --------------------------------------------------------------------------- spec 3
def task1_topic(ranking, relevant, table, tau, sizes, edition, target_len=None):
    """nDCG, AWRF, nDCG*AWRF of one ranking (a list of page ids); tau a dict or None."""
    n_target = target_len or DEFAULT_LEN[(1, edition)]
    assert len(ranking) <= n_target
    rel = set(relevant)
    dcg = sum(delta(k) for k, d in enumerate(ranking, 1) if d in rel)
    idcg = sum(delta(k) for k in range(1, min(n_target, len(rel)) + 1))
    ndcg = dcg / idcg
    all_cells = cells(sizes)
    exposure = {c: 0.0 for c in all_cells}
    for k, d in enumerate(ranking, 1):
        if d in table:
            for c, v in outer(table[d], sizes).items():
                exposure[c] += delta(k) * v
    if tau is None:
        awrf = math.nan
    elif edition == 2022:
        if sum(exposure.values()) == 0:
            awrf = math.nan
        else:
            awrf = 1 - js(exposure, tau)
    else:
        u = tuple(0 for _ in sizes)
        exposure.pop(u)
        tau = {c: v for c, v in tau.items() if c != u}
        if sum(exposure.values()) == 0:
            exposure = {c: 1.0 for c in exposure}
        awrf = 1 - js(exposure, tau)
    return {"nDCG": ndcg, "AWRF": awrf, "nDCG*AWRF": ndcg * awrf}


# --------------------------------------------------------------------------- spec 4
def task2_topic(rankings, relevant, table, tau, sizes, edition, target_len=None):
    """EE-L, EE-D, EE-R of a list of rankings ([] entries are padding, not rankings)."""
    seqs = [r for r in rankings if len(r) > 0]
    if not seqs:
        return {"EE-L": math.nan, "EE-D": math.nan, "EE-R": math.nan}
    z = z_of(target_len or DEFAULT_LEN[(2, edition)])
    rel = set(relevant)
    eps = {c: 0.0 for c in cells(sizes)}
    for ranking in seqs:
        for k, d in enumerate(ranking, 1):
            counts = (d in rel) if edition == 2022 else (d in table)
            if counts:
                assert d in table, "2022: a relevant page must be listed"
                for c, v in outer(table[d], sizes).items():
                    eps[c] += delta(k) * v / len(seqs)
    if tau is None:  # an undefined target: only the disparity is defined
        return {"EE-L": math.nan, "EE-D": sum(v * v for v in eps.values()), "EE-R": math.nan}
    star = {c: z * tau[c] for c in eps}
    return {
        "EE-L": sum((eps[c] - star[c]) ** 2 for c in eps),
        "EE-D": sum(eps[c] ** 2 for c in eps),
        "EE-R": sum(eps[c] * star[c] for c in eps),
    }


# --------------------------------------------------------------------------- spec 6
def work_weights(relevant, levels, edition):
    """Page -> weight from work levels (6.1); 2021 leaves pages without a level out."""
    pages = [d for d in relevant if levels.get(d, -1) >= 0]
    assert edition == 2021 or len(pages) == len(relevant)
    counts = [sum(1 for d in pages if levels[d] == lev) for lev in range(6)]
    out = {}
    for d in pages:
        lev = levels[d]
        before = sum(counts[:lev])
        positions = range(before + 1, before + counts[lev] + 1)
        out[d] = sum(delta(k) for k in positions) / counts[lev]
    return out


def build_target(relevant, table, sizes, task, edition, levels=None, backgrounds=None):
    """The built target tau of one topic as a dict cell -> value, or None if undefined."""
    all_cells = cells(sizes)
    if task == 1:
        weights = {d: 1.0 for d in relevant}
    else:
        weights = work_weights(relevant, levels, edition)
    T = {c: 0.0 for c in all_cells}
    if edition == 2022:
        assert all(d in table for d in relevant)
        for d, w in weights.items():
            for c, v in outer(table[d], sizes).items():
                T[c] += w * v
        norm = sum(weights.values())
    else:
        for d, w in weights.items():
            if d in table:
                for c, v in outer(table[d], sizes).items():
                    T[c] += w * v
        if task == 1:
            T[tuple(0 for _ in sizes)] = 0.0
        norm = sum(T.values())
    if not sum(T.values()) > 0:
        return None
    T = {c: v / norm for c, v in T.items()}
    bgs = backgrounds or [None] * len(sizes)
    bg = [j for j in range(len(sizes)) if bgs[j] is not None]
    if not bg:
        return T
    other = [j for j in range(len(sizes)) if j not in bg]

    def a_of(c):
        return tuple(c[j] for j in bg)

    def r_of(c):
        return tuple(c[j] for j in other)

    M, mu = {}, {}
    for c, v in T.items():
        M[a_of(c)] = M.get(a_of(c), 0.0) + v
        mu[r_of(c)] = mu.get(r_of(c), 0.0) + v
    Tt = {c: (T[c] if M[a_of(c)] > 0 else mu[r_of(c)]) for c in all_cells}
    row = {}
    for c, v in Tt.items():
        row[a_of(c)] = row.get(a_of(c), 0.0) + v
    theta = {c: Tt[c] / row[a_of(c)] for c in all_cells}
    out = dict(T)
    for K in itertools.product([False, True], repeat=len(bg)):
        if not any(K):
            continue

        def in_block(c, K=K):
            return all((c[j] > 0) == k for j, k in zip(bg, K, strict=True))

        block = [c for c in all_cells if in_block(c)]
        cK = sum(T[c] for c in block)
        for c in block:
            beta = 1.0
            for j, k in zip(bg, K, strict=True):
                if k:
                    beta *= bgs[j][c[j] - 1]
            out[c] = T[c] / 2 + cK * beta * theta[c] / 2
    return out


# --------------------------------------------------------------------------- cases
def score_case(case):
    """Per-topic oracle values: a list of dicts, one per topic."""
    sizes, table = case["sizes"], case["table"]
    out = []
    for t in case["topics"]:
        tau = target_of(case, t)
        if case["task"] == 1:
            out.append(
                task1_topic(
                    t["ranking"],
                    t["relevant"],
                    table,
                    tau,
                    sizes,
                    case["edition"],
                    case["target_len"],
                )
            )
        else:
            out.append(
                task2_topic(
                    t["rankings"],
                    t["relevant"],
                    table,
                    tau,
                    sizes,
                    case["edition"],
                    case["target_len"],
                )
            )
    return out


def target_of(case, topic):
    sizes = case["sizes"]
    if topic["target"] is not None:
        return dict(zip(cells(sizes), topic["target"], strict=True))
    return build_target(
        topic["relevant"],
        case["table"],
        sizes,
        case["task"],
        case["edition"],
        topic.get("levels"),
        case["backgrounds"],
    )


def random_row(rng, g, style):
    row = np.zeros(g)
    if style == "unknown":
        row[0] = 1
    elif style == "one":
        row[rng.integers(1, g) if g > 1 else 0] = 1
    elif style == "multi":
        row[rng.choice(g, size=min(2, g), replace=False)] = 1
    elif style == "share":
        row = rng.random(g) * (rng.random(g) < 0.7)
        if row.sum() == 0:
            row[0] = 1
        row = row / row.sum()
    elif style == "dense":
        row = rng.random(g) + 0.01
    # "zero": an all-zero row (a page with no category, as get_dummies gives for a null)
    return [float(x) for x in row]


def random_case(rng, *, task, edition, explicit, m=None, n_topics=None, max_len=8):
    """A random case in id form (small enough for the oracle)."""
    m = m or int(rng.integers(1, 4))
    sizes = [int(rng.integers(2, 5)) for _ in range(m)]
    n_pages = int(rng.integers(4, 14))
    styles = ["unknown", "one", "one", "multi", "share", "dense", "zero"]
    probs = np.array([0.15, 0.3, 0.15, 0.15, 0.15, 0.05, 0.05])
    table = {
        d: [random_row(rng, g, rng.choice(styles, p=probs)) for g in sizes] for d in range(n_pages)
    }
    unlisted = list(range(100, 100 + int(rng.integers(0, 4))))
    everyone = list(range(n_pages)) + unlisted
    backgrounds = None
    if not explicit and rng.random() < 0.7:
        backgrounds = [
            (list(rng.dirichlet(np.ones(g - 1))) if rng.random() < 0.6 else None) for g in sizes
        ]
    # a work level is a property of the page (-1: none, which 2021 tolerates)
    page_level = {d: int(rng.integers(0, 6)) for d in everyone}
    if edition == 2021:
        for d in everyone:
            if rng.random() < 0.1:
                page_level[d] = -1
    topics = []
    for _ in range(n_topics or int(rng.integers(1, 5))):
        # relevant pages: listed ones (2022 needs them listed), some unlisted otherwise
        pool = list(range(n_pages))
        if edition == 2021 or (task == 1 and explicit):
            pool += unlisted
        n_rel = int(rng.integers(1, min(6, len(pool)) + 1))
        relevant = [int(x) for x in rng.choice(pool, size=n_rel, replace=False)]
        topic = {"relevant": relevant, "target": None}
        if task == 2:
            topic["levels"] = {d: page_level[d] for d in relevant}
        if task == 1:
            n = int(rng.integers(0, min(max_len, len(everyone)) + 1))
            topic["ranking"] = [int(x) for x in rng.choice(everyone, size=n, replace=False)]
        else:
            rankings = []
            for _ in range(int(rng.integers(1, 5))):
                if rng.random() < 0.2:
                    rankings.append([])
                    continue
                n = int(rng.integers(1, min(max_len, len(everyone)) + 1))
                if edition == 2022:
                    # 2022 looks every retrieved relevant page up: keep unlisted ones out
                    cand = [d for d in everyone if d in table or d not in relevant]
                else:
                    cand = everyone
                rankings.append(
                    [int(x) for x in rng.choice(cand, size=min(n, len(cand)), replace=False)]
                )
            topic["rankings"] = rankings
        if explicit:
            n_cells = math.prod(sizes)
            tgt = rng.dirichlet(np.ones(n_cells)) * (rng.random(n_cells) < 0.8)
            if tgt.sum() == 0:
                tgt[-1] = 1.0
            if edition == 2021 and task == 1:
                tgt[0] = 0.0
                if tgt.sum() == 0:
                    tgt[-1] = 1.0
            if task == 1:
                tgt = tgt / tgt.sum()
            else:
                tgt = tgt * float(rng.uniform(0.8, 1.3))
            topic["target"] = [float(x) for x in tgt]
        topics.append(topic)
    return {
        "sizes": sizes,
        "table": table,
        "topics": topics,
        "backgrounds": backgrounds,
        "edition": edition,
        "task": task,
        "target_len": None,
    }


# --------------------------------------------------------------------------- arrays
def _rows(table, pages, sizes, j):
    return [table[d][j] if d in table else [0.0] * sizes[j] for d in pages]


def case_arrays(case):
    """The padded arrays of a case for trecfair.task1/task2 (and the target builder)."""
    sizes, table, topics = case["sizes"], case["table"], case["topics"]
    m, T = len(sizes), len(topics)
    out = {}
    if case["task"] == 1:
        K = max([len(t["ranking"]) for t in topics] + [1])
        rel = np.zeros((T, K), bool)
        known = np.zeros((T, K), bool)
        align = [np.full((T, K, g), np.nan) for g in sizes]
        lengths = np.zeros(T, np.int64)
        for i, t in enumerate(topics):
            r = t["ranking"]
            lengths[i] = len(r)
            for k, d in enumerate(r):
                rel[i, k] = d in t["relevant"]
                known[i, k] = d in table
                for j in range(m):
                    align[j][i, k] = table[d][j] if d in table else np.nan
        out.update(relevant=rel, known=known, alignments=align, lengths=lengths)
        out["n_relevant"] = np.array([len(set(t["relevant"])) for t in topics], np.int64)
    else:
        S = max([len(t["rankings"]) for t in topics] + [1])
        K = max([len(r) for t in topics for r in t["rankings"]] + [1])
        rel = np.zeros((T, S, K), bool)
        known = np.zeros((T, S, K), bool)
        align = [np.full((T, S, K, g), np.nan) for g in sizes]
        lengths = np.zeros((T, S), np.int64)
        for i, t in enumerate(topics):
            for s, r in enumerate(t["rankings"]):
                lengths[i, s] = len(r)
                for k, d in enumerate(r):
                    rel[i, s, k] = d in t["relevant"]
                    known[i, s, k] = d in table
                    for j in range(m):
                        align[j][i, s, k] = table[d][j] if d in table else np.nan
        out.update(relevant=rel, known=known, alignments=align, lengths=lengths)
    if all(t["target"] is not None for t in topics):
        out["targets"] = np.array([t["target"] for t in topics]).reshape((T, *sizes))
    # the relevant pages, for building targets
    R = max(len(t["relevant"]) for t in topics)
    ralign = [np.zeros((T, R, g)) for g in sizes]
    rknown = np.zeros((T, R), bool)
    levels = np.full((T, R), -1, np.int64)
    for i, t in enumerate(topics):
        for k, d in enumerate(t["relevant"]):
            rknown[i, k] = d in table
            if "levels" in t:
                levels[i, k] = t["levels"].get(d, -1)
            for j in range(m):
                ralign[j][i, k] = table[d][j] if d in table else 0.0
    out["build"] = dict(
        alignments=ralign,
        lengths=np.array([len(t["relevant"]) for t in topics], np.int64),
        known=rknown,
        levels=levels if case["task"] == 2 else None,
        backgrounds=case["backgrounds"],
    )
    return out
