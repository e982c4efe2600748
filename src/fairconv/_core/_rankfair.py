"""The classic fair-ranking measures (rankfair): exposure, NDKL, rND/rKL/rRD, FAIR, IAA, EE.

Arithmetic only: the caller (:mod:`fairconv.rankfair`) has checked every input. Rankings
are padded along their last axis (the doc axis, or the doc and group axes) with a
boolean ``inside`` mask (or the lengths) saying which positions are real; what a padding
position holds is never read, only replaced. Undefined values are NaN, never inf, and
no numpy warning is raised (divisions are guarded by ``where=``). docs/rankfair.md is
the specification; the section numbers below are its own.
"""

from __future__ import annotations

import numpy as np

from ._divergences import _LN2

STATISTICS = ("EXP", "EXPU", "EXPRU", "ATT", "ERBE", "ERBP", "ERBR")
"""The per-group statistics of section 3.1 that :func:`group_statistic` computes (ARP,
the eighth, has its own kernel: :func:`pair_representation`)."""

METAS = ("MinMaxRatio", "MaxMinRatio", "MaxMinDiff", "MaxAbsDiff", "MeanAbsDev", "LTwo", "Variance")
"""The seven meta-metrics of section 3.2, in FairRankTune's order."""

YANG = ("rND", "rKL", "rRD")
"""Yang and Stoyanovich's three measures (section 4.2)."""

ALL_PROTECTED = 1e-9
"""rRD: a prefix is all protected when its protected mass is within this of its length
(soft memberships whose sum is i up to rounding count as all protected; section 4.2)."""


# --------------------------------------------------------------------------- helpers
def quotient(num, den) -> np.ndarray:
    """The quotient num / den, NaN where den is 0 or it is beyond the float range."""
    num, den = np.broadcast_arrays(np.asarray(num, np.float64), np.asarray(den, np.float64))
    out = np.full(num.shape, np.nan)
    with np.errstate(over="ignore"):  # a quotient beyond the float range: NaN below
        np.divide(num, den, out=out, where=den != 0)
    out[np.isinf(out)] = np.nan
    return out


def log_weights(depth: int) -> np.ndarray:
    r"""w(k) = 1 / log2(k + 1) of ranks 1..depth (section 2)."""
    return 1.0 / np.log2(np.arange(2, depth + 2, dtype=np.float64))


def rbp_weights(depth: int, decay: float) -> np.ndarray:
    r"""r(k) = gamma^(k - 1) of ranks 1..depth (section 2)."""
    return np.power(decay, np.arange(depth, dtype=np.float64))


def attention_weights(depth: int, attention: float) -> np.ndarray:
    r"""a(k) = 100 p (1 - p)^(k - 1) of ranks 1..depth (section 2), as FairRankTune."""
    return 100.0 * np.power(1.0 - attention, np.arange(depth, dtype=np.float64)) * attention


def relative_entropy(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Elementwise a ln(a / b) as the references write it; 0 where a is 0, inf where b is 0 < a."""
    ok = (a > 0) & (b > 0)
    safe_b = np.where(ok, b, 1.0)
    out = a * np.log(np.where(ok, a, 1.0) / safe_b)
    out = np.where(ok, out, 0.0)
    return np.where((a > 0) & (b <= 0), np.inf, out)


def _group_sums(per_rank: np.ndarray, memberships: np.ndarray) -> np.ndarray:
    """sum_k per_rank_k m_kg: (..., K) and (..., K, G) to (..., G)."""
    return np.einsum("...k,...kg->...g", per_rank, memberships)


# --------------------------------------------------------------------------- section 3
def group_statistic(
    memberships: np.ndarray,
    sizes: np.ndarray,
    relevance: np.ndarray | None,
    inside: np.ndarray,
    statistic: str,
    decay: float,
    attention: float,
    population_utility: np.ndarray | None,
) -> np.ndarray:
    r"""V_g of one statistic of section 3.1 per group: (..., K, G) rankings to (..., G).

    With m_k the membership row of rank k, u_k its relevance (``relevance``, needed by
    EXPU, EXPRU and ERBR only) and n_g = ``sizes``:

    .. math::
        E_g = \sum_k m_{kg} w(k),\ C_g = \sum_k m_{kg} u_k w(k),\
        R_g = (1 - \gamma) \sum_k m_{kg} \gamma^{k-1},\ A_g = \sum_k m_{kg} a(k),\
        U_g = \sum_k m_{kg} u_k

    EXP = E/n, EXPU = (E/n)/(U/n), EXPRU = (C/n)/(U/n), ATT = A/n, ERBE = R,
    ERBP = R/n, ERBR = R/U; U_g is ``population_utility`` when given. NaN where a
    denominator is 0 (or a quotient leaves the float range).
    """
    depth = memberships.shape[-2]
    m = np.where(inside[..., None], memberships, 0.0)
    u = np.where(inside, relevance, 0.0) if relevance is not None else np.zeros(inside.shape)
    if statistic in ("EXP", "EXPU", "EXPRU"):
        w = log_weights(depth)
    elif statistic == "ATT":
        w = attention_weights(depth, attention)
    else:
        w = rbp_weights(depth, decay)
    weight = np.broadcast_to(w, inside.shape)
    if statistic in ("EXPU", "EXPRU", "ERBR"):
        utility = _group_sums(u, m) if population_utility is None else population_utility
    if statistic in ("EXP", "ATT"):
        return quotient(_group_sums(weight, m), sizes)
    if statistic == "EXPU":
        return quotient(quotient(_group_sums(weight, m), sizes), quotient(utility, sizes))
    if statistic == "EXPRU":
        clicks = _group_sums(u * w, m)
        return quotient(quotient(clicks, sizes), quotient(utility, sizes))
    rbp = (1.0 - decay) * _group_sums(weight, m)
    if statistic == "ERBE":
        return rbp
    if statistic == "ERBP":
        return quotient(rbp, sizes)
    return quotient(rbp, utility)  # ERBR


def meta_metric(values: np.ndarray, present: np.ndarray, meta: str) -> np.ndarray:
    r"""One meta-metric of section 3.2 over the present groups: (..., G) to (...).

    NaN where no group is present, where a present group's value is NaN, where a
    ratio divides by 0, or where the value leaves the float range. A deviation from the
    mean is taken as a mean of differences, V_g - V-bar = (1/G') sum_h (V_g - V_h)
    (O(G^2) per row: G is small), so that equal values give their fair value exactly
    and close values their deviation to about an ulp.

    .. math::
        \bar V = \frac{1}{G'} \sum_g V_g,\ MaxAbsDiff = \max_g |V_g - \bar V|,\
        MeanAbsDev = \frac{1}{G'} \sum_g |V_g - \bar V|,\
        Variance = \frac{1}{G'} \sum_g (V_g - \bar V)^2,\ LTwo = \sqrt{\sum_g V_g^2}
    """
    count = present.sum(axis=-1)
    defined = (count > 0) & ~(present & np.isnan(values)).any(axis=-1)
    valid = present & defined[..., None]
    v = np.where(valid, values, 0.0)
    vmax = np.where(defined, np.max(np.where(valid, values, -np.inf), axis=-1), 0.0)
    vmin = np.where(defined, np.min(np.where(valid, values, np.inf), axis=-1), 0.0)
    n = np.maximum(count, 1)
    with np.errstate(over="ignore"):  # beyond the float range: NaN below
        if meta == "MinMaxRatio":
            out = quotient(vmin, vmax)
        elif meta == "MaxMinRatio":
            out = quotient(vmax, vmin)
        elif meta == "MaxMinDiff":
            out = vmax - vmin
        elif meta == "LTwo":
            # scaled by the largest value, so that the squares cannot overflow
            scaled = quotient(v, vmax[..., None])
            scaled[~valid] = 0.0
            out = np.where(vmax > 0, vmax * np.sqrt((scaled * scaled).sum(axis=-1)), 0.0)
        else:
            # V_g - V-bar = S_g / G' with S_g = sum_h (V_g - V_h): the differences of
            # close values are exact, so equal values deviate by exactly 0 and values
            # a few ulps apart by their exact deviation (V_g minus a rounded mean would
            # not); each result is then one division of a sum of S_g
            pairs = np.where(valid[..., None, :], v[..., :, None] - v[..., None, :], 0.0)
            spread = np.where(valid, pairs.sum(axis=-1), 0.0)
            if meta == "MaxAbsDiff":
                out = np.abs(spread).max(axis=-1) / n
            elif meta == "MeanAbsDev":
                out = np.abs(spread).sum(axis=-1) / (n * n)
            else:  # Variance
                out = (spread * spread).sum(axis=-1) / (n * n * n)
    out = np.where(defined & np.isfinite(out), out, np.nan)
    return out


def pair_representation(groups: np.ndarray, inside: np.ndarray, n_groups: int) -> np.ndarray:
    r"""ARP's favoured pair representation per group: (..., K) int to (..., G).

    With n the ranking's length, n'_g the ranked docs of g and W_g the pairs i < j with
    d_i in g and d_j not in g:

    .. math::
        W_g = \sum_{k: d_k \in g} (n - k) - \frac{n'_g (n'_g - 1)}{2},\quad
        FPR_g = \frac{W_g}{n'_g (n - n'_g)}

    NaN where n'_g = 0 or n'_g = n. Counts are exact (integers below 2^53 in float64).
    """
    lead, depth = groups.shape[:-1], groups.shape[-1]
    rows = int(np.prod(lead, dtype=np.int64))
    g = groups.reshape(rows, depth)
    live = inside.reshape(rows, depth)
    n = live.sum(axis=-1)
    later = (n[:, None] - 1 - np.arange(depth)).astype(np.float64)  # docs ranked below
    key = (np.arange(rows)[:, None] * n_groups + np.where(live, g, 0))[live]
    count = np.bincount(key, minlength=rows * n_groups).reshape(rows, n_groups)
    won = np.bincount(key, weights=later[live], minlength=rows * n_groups)
    count_f = count.astype(np.float64)
    wins = won.reshape(rows, n_groups) - count_f * (count_f - 1.0) / 2.0
    mixed = count_f * (n[:, None] - count_f)
    return quotient(wins, mixed).reshape(lead + (n_groups,))


# --------------------------------------------------------------------------- section 4
def ndkl(
    memberships: np.ndarray, target: np.ndarray, inside: np.ndarray, epsilon: float
) -> np.ndarray:
    r"""NDKL of (..., K, G) rankings against (..., G) targets (section 4.1).

    .. math::
        NDKL = \frac{1}{Z} \sum_{i=1}^{n} w(i) D(p_i \| q),\quad
        Z = \sum_{i=1}^{n} w(i),\quad
        D(p \| q) = \sum_g (p_g + \epsilon) \ln \frac{p_g + \epsilon}{q_g + \epsilon}

    p_i the mean membership of the top i. NaN for an empty ranking, and where
    ``epsilon`` is 0 and some prefix puts mass on a group q gives none.
    """
    depth = memberships.shape[-2]
    m = np.where(inside[..., None], memberships, 0.0)
    prefix = np.cumsum(m, axis=-2) / np.arange(1, depth + 1, dtype=np.float64)[:, None]
    divergence = relative_entropy(prefix + epsilon, target[..., None, :] + epsilon).sum(axis=-1)
    infinite = (np.isinf(divergence) & inside).any(axis=-1)
    w = np.where(inside, log_weights(depth), 0.0)
    total = (w * np.where(inside, divergence, 0.0)).sum(axis=-1)
    out = quotient(1.0, w.sum(axis=-1)) * total  # (1/Z) sum, as FairRankTune
    return np.where(infinite, np.nan, out)


def _cut_points(depth: int, step: int) -> np.ndarray:
    """The cut-offs s, 2s, ... that fit in ``depth`` positions."""
    return np.arange(step, depth + 1, step, dtype=np.int64)


def yang_raw(
    mass: np.ndarray,
    lengths: np.ndarray,
    protected: np.ndarray,
    population: np.ndarray,
    measure: str,
    step: int,
    discount: str,
) -> np.ndarray:
    r"""Unnormalised rND, rKL or rRD: (..., K) protected mass to (...) (section 4.2).

    ``mass`` is zero beyond each ranking's length; ``protected`` (P) and
    ``population`` (N) are the population's protected mass and size. With x_i the
    protected mass of the top i and I = {s, 2s, ...} within the length n:

    .. math::
        raw = \sum_{i \in I} \frac{f(i)}{\delta(i)},\quad
        f_{ND}(i) = \left|\frac{x_i}{i} - \frac{P}{N}\right|,\quad
        f_{KL}(i) = KL\left(\left(\tfrac{x_i}{i}, 1 - \tfrac{x_i}{i}\right) \|
        \left(\tfrac{P}{N}, 1 - \tfrac{P}{N}\right)\right),\quad
        f_{RD}(i) = \left|\min(R, c_i) - R\right|

    KL in bits (0 log 0 = 0); R = P / (N - P), c_i = x_i / (i - x_i), 0 for an
    all-protected prefix; delta(i) = log2(i + 1) (``"code"``) or log2(i)
    (``"paper"``); x_N is P (a ranking of N docs of a population of N is all of it).
    NaN unless 0 < P < N (P as summed in float64), and where no cut-off fits in n.
    """
    cuts = _cut_points(mass.shape[-1], step)
    i = cuts.astype(np.float64)
    live = cuts <= lengths[..., None]
    defined = (protected > 0) & (protected < population) & (lengths >= step)
    P = np.where(defined, protected, 1.0)[..., None]
    N = np.where(defined, population, 2.0)[..., None]
    # the top N of a ranking of the whole population holds P: exactly, not up to the
    # rounding of two sums in different orders (whose difference would be all of raw,
    # and of Z, for a ranking whose only cut-off is N)
    x = np.where(cuts == N, P, np.cumsum(mass, axis=-1)[..., cuts - 1])
    if measure == "rND":
        f = np.abs(x / i - P / N)
    elif measure == "rKL":
        share, q = x / i, P / N
        f = (relative_entropy(share, q) + relative_entropy(1.0 - share, 1.0 - q)) / _LN2
    else:  # rRD
        ratio = P / (N - P)
        rest = i - x
        all_protected = np.abs(rest) <= ALL_PROTECTED
        current = np.divide(
            x, rest, out=np.zeros(np.broadcast(x, rest).shape), where=~all_protected
        )
        f = np.abs(np.minimum(ratio, current) - ratio)
    delta = np.log2(i + 1.0) if discount == "code" else np.log2(i)
    terms = np.where(live, f / delta, 0.0)
    # added in cut-off order (a running sum), as FairRank's loop adds them
    raw = np.cumsum(terms, axis=-1)[..., -1] if terms.shape[-1] else np.zeros(terms.shape[:-1])
    return np.where(defined, raw, np.nan)


def yang(
    mass: np.ndarray,
    lengths: np.ndarray,
    population_mass: np.ndarray,
    population_lengths: np.ndarray,
    measure: str,
    step: int,
    discount: str,
    normalize: bool,
    population_ids: np.ndarray | None = None,
) -> np.ndarray:
    r"""rND, rKL or rRD of (..., K) rankings, normalised by the exact Z (section 4.2).

    .. math::
        value = raw(L) / Z,\quad Z = \max(raw(L_{desc}), raw(L_{asc}))

    L_desc and L_asc are the population sorted by protected mass, descending and
    ascending, cut at the ranking's length n (:func:`yang_raw`). Z is computed once per
    distinct (population, n): rows sharing one share its computation. The populations
    are one per ranking (``population_mass`` (..., N_max), ``population_lengths``
    (...)), told apart by their sorted masses; or, with ``population_ids`` (...), the
    rows of ``population_mass`` (P, N_max) and ``population_lengths`` (P,) that each
    ranking's id names (the rankings of one topic's runs). P is the sum of the
    population's sorted protected masses, for the ranking and its Z alike. NaN where
    raw is, and where Z is 0.
    """
    lead, depth = mass.shape[:-1], mass.shape[-1]
    width = population_mass.shape[-1]
    rows = int(np.prod(lead, dtype=np.int64))
    n = lengths.reshape(rows)
    pops = population_mass.reshape(-1, width)
    size = population_lengths.reshape(-1)
    real = np.arange(width) < size[:, None]
    ascending = np.sort(np.where(real, pops, np.inf), axis=-1)
    ascending[~real] = 0.0
    if population_ids is None:  # rows of equal populations (as multisets) share one
        keys = np.concatenate([size[:, None], ascending], axis=1, dtype=np.float64)
        _, first_pop, pid = np.unique(keys, axis=0, return_index=True, return_inverse=True)
        ascending, size, real = ascending[first_pop], size[first_pop], real[first_pop]
        pid = pid.reshape(-1)
    else:
        pid = population_ids.reshape(rows)
    protected = ascending.sum(axis=-1)
    raw = yang_raw(mass.reshape(rows, depth), n, protected[pid], size[pid], measure, step, discount)
    if not normalize:
        return raw.reshape(lead)
    key = pid.astype(np.int64) * (depth + 1) + n
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    u_pop, u_n = pid[first], n[first]
    asc, u_size, u_real = ascending[u_pop], size[u_pop], real[u_pop]
    descending = np.where(u_real, -np.sort(np.where(u_real, -asc, np.inf), axis=-1), 0.0)
    cut = np.arange(width) < u_n[:, None]
    args = (u_n, protected[u_pop], u_size, measure, step, discount)
    z = np.maximum(
        yang_raw(np.where(cut, descending, 0.0), *args),
        yang_raw(np.where(cut, asc, 0.0), *args),
    )
    return quotient(raw, z[inverse.reshape(-1)]).reshape(lead)


def fair_prefix(protected: np.ndarray, p: np.ndarray, inside: np.ndarray) -> np.ndarray:
    r"""FA*IR's prefix score (section 4.3): (..., K) 0/1 to (...).

    .. math::
        FAIR = \frac{1}{n} \sum_{k=1}^{n} F(x_k; k, p)

    F the binomial CDF and x_k the protected docs in the top k. NaN for an empty
    ranking. F is evaluated once per distinct (p, k, x_k) of the real positions: the
    rankings of a topic's runs, and topics of one share, repeat most of them.
    """
    from scipy.special import bdtr  # scipy loads on first use (importing fairconv is quick)

    depth = protected.shape[-1]
    x = np.cumsum(np.where(inside, protected, 0), axis=-1).astype(np.int64)
    rate = np.broadcast_to(np.asarray(p, np.float64), x.shape[:-1])
    rates, rate_id = np.unique(rate, return_inverse=True)
    trials = np.broadcast_to(np.arange(depth, dtype=np.int64), x.shape)  # k - 1
    key = (rate_id.reshape(x.shape[:-1])[..., None] * depth + trials) * (depth + 1) + x
    distinct, where = np.unique(key[inside], return_inverse=True)
    x_u = distinct % (depth + 1)
    k_u = distinct // (depth + 1) % depth + 1
    cdf = np.zeros(x.shape)
    cdf[inside] = bdtr(x_u.astype(np.float64), k_u, rates[distinct // (depth + 1) // depth])[
        where.reshape(-1)
    ]
    n = inside.sum(axis=-1)
    return quotient(cdf.sum(axis=-1), n)


# --------------------------------------------------------------------------- section 5
def inequity_of_attention(relevance: np.ndarray, inside: np.ndarray) -> np.ndarray:
    r"""IAA = sum_k |w(k) - u_k| over each ranking (section 5): (..., K) to (...)."""
    w = log_weights(relevance.shape[-1])
    return np.where(inside, np.abs(w - np.where(inside, relevance, 0.0)), 0.0).sum(axis=-1)


# --------------------------------------------------------------------------- section 6
def target_exposure(
    levels: np.ndarray, in_target: np.ndarray, model: str, patience: float, stop: float
) -> np.ndarray:
    r"""eps*_d of each slot (section 6): (rows, D) levels to (rows, D), 0 outside the target.

    The m target docs of a level with b target docs of higher levels share the mean
    exposure of positions b..b+m-1: RBP (p^b - p^{b+m}) / (m (1 - p)); gERR,
    level > 0, with pp = p (1 - u): (pp^b - pp^{b+m}) / (m (1 - pp)); gERR, level 0:
    (1 - u)^b (p^b - p^{b+m}) / (m (1 - p)).
    """
    rows, width = levels.shape
    top = int(levels.max(initial=0)) + 1
    level = np.where(in_target, levels, 0)
    code = np.arange(rows)[:, None] * top + level
    count = np.bincount(code[in_target], minlength=rows * top).reshape(rows, top)
    higher = np.cumsum(count[:, ::-1], axis=1)[:, ::-1] - count  # docs of higher levels
    m = np.take_along_axis(count, level, axis=1).astype(np.float64)
    b = np.take_along_axis(higher, level, axis=1).astype(np.float64)
    m = np.where(in_target, m, 1.0)
    p = patience
    if model == "rbp":
        value = (np.power(p, b) - np.power(p, b + m)) / (m * (1.0 - p))
    else:
        pp = p * (1.0 - stop)
        relevant = (np.power(pp, b) - np.power(pp, b + m)) / (m * (1.0 - pp))
        judged = np.power(1.0 - stop, b) * (np.power(p, b) - np.power(p, b + m)) / (m * (1.0 - p))
        value = np.where(level > 0, relevant, judged)
    return np.where(in_target, value, 0.0)


def run_exposure(
    doc_index: np.ndarray,
    relevant: np.ndarray,
    inside: np.ndarray,
    n_samples: np.ndarray,
    model: str,
    patience: float,
    stop: float,
) -> np.ndarray:
    r"""eps_d of each slot (section 6): the mean over samples of each doc's exposure.

    ``doc_index`` (rows, S, K) slots, ``relevant`` (rows, D) and ``inside`` (rows, S,
    K) the real positions of the real samples. At 0-based rank i of sample s, with r
    relevant docs strictly above: e = p^i (RBP) or p^i (1 - u)^r (gERR); 0 where a
    doc is not ranked. Each term is divided by S before it is added, as expeval does.
    """
    rows, samples, depth = doc_index.shape
    width = relevant.shape[1]
    slot = np.where(inside, doc_index, 0)
    flat = slot.reshape(rows, samples * depth)
    hit = np.take_along_axis(relevant, flat, axis=1).reshape(slot.shape)
    hit &= inside
    rank = np.arange(depth, dtype=np.float64)
    e = np.broadcast_to(np.power(patience, rank), slot.shape)
    if model == "gerr":
        above = np.cumsum(hit, axis=-1) - hit  # relevant docs strictly above
        e = e * np.power(1.0 - stop, above)
    samples_of = np.maximum(n_samples, 1).astype(np.float64)[:, None, None]
    weights = (e / samples_of)[inside]
    key = (np.arange(rows)[:, None, None] * width + slot)[inside]
    return np.bincount(key, weights=weights, minlength=rows * width).reshape(rows, width)


def expected_exposure_metrics(
    run: np.ndarray, target: np.ndarray, in_target: np.ndarray, memberships: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""(EE-L, EE-D, EE-R) of run and target exposures (rows, D), per doc or per group.

    Per doc: EE-D = sum_d eps_d^2, EE-R = sum_d eps_d eps*_d, EE-L = sum_d (eps_d -
    eps*_d)^2. Per group (``memberships`` (rows, D, G)): E_g = sum_{d in D*} m_dg
    eps_d and E*_g likewise, then the same three sums over g.
    """
    if memberships is not None:
        m = np.where(in_target[..., None], memberships, 0.0)
        run = np.einsum("rd,rdg->rg", run, m)
        target = np.einsum("rd,rdg->rg", target, m)
    diff = run - target
    return (diff * diff).sum(axis=-1), (run * run).sum(axis=-1), (run * target).sum(axis=-1)


def expected_exposure(
    doc_index: np.ndarray,
    levels: np.ndarray,
    inside: np.ndarray,
    n_samples: np.ndarray,
    memberships: np.ndarray | None,
    model: str,
    patience: float,
    stop: float,
    complete: bool,
    binarize: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""(EE-L, EE-D, EE-R) of sampled rankings of each topic (section 6), each (...).

    ``doc_index`` (..., S, K) slots, ``levels`` (..., D) (-1: unjudged or padding),
    ``inside`` (..., S, K) the real positions of the real samples, ``memberships``
    (..., D, G) or None (per doc). The target is the relevant docs (every judged doc
    with ``complete``); levels are min(l, 1) with ``binarize``. NaN for a topic without
    a target doc or without a sample.
    """
    args = (model, patience, stop, complete, binarize)
    return expected_exposures(doc_index, levels, inside, n_samples, [memberships], *args)[0]


def expected_exposures(
    doc_index: np.ndarray,
    levels: np.ndarray,
    inside: np.ndarray,
    n_samples: np.ndarray,
    memberships: list,
    model: str,
    patience: float,
    stop: float,
    complete: bool,
    binarize: bool,
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """:func:`expected_exposure` per doc or per group of several attribute sets at once.

    ``memberships`` lists None (per doc) or (..., D, G) arrays; the run and target
    exposures are computed once for all of them. Returns one triple per entry.
    """
    lead, width = levels.shape[:-1], levels.shape[-1]
    rows = int(np.prod(lead, dtype=np.int64))
    lev = levels.reshape(rows, width)
    if binarize:
        lev = np.minimum(lev, 1)
    in_target = lev >= 0 if complete else lev > 0
    shape = doc_index.shape[-2:]
    eps = run_exposure(
        doc_index.reshape((rows,) + shape),
        lev > 0,
        inside.reshape((rows,) + shape),
        n_samples.reshape(rows),
        model,
        patience,
        stop,
    )
    star = target_exposure(lev, in_target, model, patience, stop)
    undefined = ~in_target.any(axis=-1) | (n_samples.reshape(rows) == 0)
    out = []
    for m in memberships:
        if m is not None:
            m = m.reshape((rows, width, m.shape[-1]))
        values = expected_exposure_metrics(eps, star, in_target, m)
        loss, disparity, relevance = (np.where(undefined, np.nan, v).reshape(lead) for v in values)
        out.append((loss, disparity, relevance))
    return out
