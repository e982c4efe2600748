"""The array level of rankfair: padded rankings in, one value per ranking (or per group) out.

Each function checks its input and calls :mod:`fairconv._core` (``_core._rankfair``).
Batch axes lead; a ranking is padded to K positions and ``lengths`` gives its length
n; positions at or beyond n are padding, neither checked nor read, whatever they hold.
"""

from __future__ import annotations

import numpy as np

from .. import _core
from .._validation import (
    LMAX_LIMIT,
    as_float_array,
    check_bool_array,
    check_choice,
    check_distributions,
    check_flag,
    check_int,
    check_int_array,
    check_lengths,
    check_real,
    check_shape,
    check_values,
    fail,
    public,
)

__all__ = [
    "group_values",
    "meta",
    "arp",
    "ndkl",
    "yang",
    "fair",
    "iaa",
    "expected_exposure",
    "STATISTICS",
    "METAS",
]

STATISTICS = _core.STATISTICS
"""The per-group statistics :func:`group_values` computes: EXP, EXPU, EXPRU, ATT, ERBE,
ERBP, ERBR (ARP has its own function, :func:`arp`)."""

METAS = _core.METAS
"""The seven meta-metrics of :func:`meta`, in FairRankTune's order."""


# --------------------------------------------------------------------------- checks
def _rankings(x, name: str, extra: int) -> np.ndarray:
    """A float array with at least ``extra`` trailing axes (K, or K and G)."""
    arr = as_float_array(x, name)
    if arr.ndim < extra:
        axes = "(..., K, G)" if extra == 2 else "(..., K)"
        raise fail(name, f"be an array of shape {axes}", f"shape {arr.shape}")
    return arr


def _inside(lengths, batch: tuple, depth: int, name: str = "lengths") -> np.ndarray:
    """The (batch..., K) mask of the positions within each ranking's length."""
    n = check_lengths(lengths, batch, name, limit=depth)
    return _core.length_mask(n, depth)


def _memberships(x, name: str, inside: np.ndarray) -> np.ndarray:
    """Membership rows (..., K, G): each row within the lengths a distribution."""
    g = x.shape[-1]
    check_distributions(np.where(inside[..., None], x, 1.0 / max(g, 1)), name)
    return x


def _non_negative(x, shape: tuple, name: str, what: str) -> np.ndarray:
    """Finite numbers >= 0, broadcast to ``shape``."""
    arr = check_shape(as_float_array(x, name), shape, name, what)
    return check_values(arr, name, low=0.0)


def _open_unit(value, name: str) -> float:
    return check_real(value, name, low=0.0, high=1.0, closed="neither")


# --------------------------------------------------------------------------- section 3
@public
def group_values(
    memberships,
    sizes,
    relevance,
    /,
    *,
    lengths,
    statistic: str,
    decay: float = 0.5,
    attention: float = 0.5,
    population_utility=None,
) -> np.ndarray:
    r"""FairRankTune's per-group statistic of padded rankings (EXP, ATT, ERB*, ...).

    Parameters
    ----------
    memberships : array_like, shape (..., K, G)
        The membership vector of the doc at each rank (hard one-hot or soft rows, each
        summing to 1 within 1e-5), padded to K ranks.
    sizes : array_like, shape (..., G) (broadcastable)
        n_g, each group's size in the topic's population (the sum of its members'
        memberships): finite, >= 0.
    relevance : array_like, shape (..., K), or None
        u, the [0, 1] relevance of the doc at each rank. Used by EXPU, EXPRU and ERBR
        (and the utility's sum); may be None for the others.
    lengths : array_like of int, shape (...) (broadcastable)
        Each ranking's length n, in 0..K.
    statistic : {'EXP', 'EXPU', 'EXPRU', 'ATT', 'ERBE', 'ERBP', 'ERBR'}
        The per-group value V_g (see Notes).
    decay : float
        gamma of the RBP weight gamma^(k-1) (ERBE, ERBP, ERBR), in (0, 1).
    attention : float
        p of the attention 100 p (1 - p)^(k-1) (ATT), in (0, 1).
    population_utility : array_like, shape (..., G) (broadcastable), optional
        U_g over the population (``group_utility="population"``): the sum of each
        group's members' memberships times their relevance. None (default): U_g over
        the ranked docs.

    Returns
    -------
    ndarray of float, shape (..., G)
        V_g, >= 0; NaN where it is undefined (a denominator n_g or U_g of 0). Their
        spread, not their size, is what :func:`meta` turns into a fairness score.

    Raises
    ------
    ValueError
        For arrays of the wrong shape, a membership row that is not a distribution,
        relevance outside [0, 1], negative sizes, an unknown statistic (the message
        lists the seven), ``decay`` or ``attention`` outside (0, 1), or no
        ``relevance`` for a statistic that needs it.
    TypeError
        For non-numeric arrays.

    Notes
    -----
    With m_kg the membership of the doc at rank k in group g, u_k its relevance,
    w(k) = 1 / log2(k + 1), a(k) = 100 p (1 - p)^(k - 1), r(k) = gamma^(k - 1) and sums
    over the ranks 1..n:

    .. math::
        E_g = \sum_k m_{kg} w(k),\quad C_g = \sum_k m_{kg} u_k w(k),\quad
        R_g = (1 - \gamma) \sum_k m_{kg} r(k),\quad A_g = \sum_k m_{kg} a(k),\quad
        U_g = \sum_k m_{kg} u_k

    EXP = E_g / n_g (Singh and Joachims' demographic parity), EXPU = (E_g / n_g) /
    (U_g / n_g) (disparate treatment), EXPRU = (C_g / n_g) / (U_g / n_g) (disparate
    impact, with the click model u_k w(k)), ATT = A_g / n_g (FairRankTune's ``AWRF``),
    ERBE = R_g, ERBP = R_g / n_g, ERBR = R_g / U_g (Kirnap et al.). EXP, ATT and ERBP
    divide by the group's size in the whole population, not in the ranking.

    References
    ----------
    A. Singh and T. Joachims, "Fairness of Exposure in Rankings", KDD 2018, Eqs. 4,
    6, 7. O. Kirnap et al., "Estimation of Fair Ranking Metrics with Incomplete
    Judgments", WWW 2021, Eq. 2. P. Sapiezynski et al., WWW 2019 companion
    (attention). Reference implementation: FairRankTune 0.0.7 (``EXP``, ``EXPU``,
    ``EXPRU``, ``AWRF``, ``ERBE``, ``ERBP``, ``ERBR``); docs/rankfair.md, section 3.1.

    Examples
    --------
    A ranking (a, c, b) of a population of four docs: a and b in group 0, c and d in
    group 1 (FairRankTune's mean exposure per group member):

    >>> m = [[1, 0], [0, 1], [1, 0]]
    >>> group_values(m, [2, 2], None, lengths=3, statistic="EXP").round(4).tolist()
    [0.75, 0.3155]
    """
    x = _rankings(memberships, "memberships", 2)
    batch, depth, g = x.shape[:-2], x.shape[-2], x.shape[-1]
    inside = _inside(lengths, batch, depth)
    x = _memberships(x, "memberships", inside)
    statistic = check_choice(statistic, "statistic", STATISTICS)
    decay = _open_unit(decay, "decay")
    attention = _open_unit(attention, "attention")
    n_g = _non_negative(sizes, batch + (g,), "sizes", "one size per group")
    needs = statistic in ("EXPU", "EXPRU", "ERBR")
    u = None
    if relevance is not None:
        u = check_shape(
            as_float_array(relevance, "relevance"),
            batch + (depth,),
            "relevance",
            "the relevance of each ranked doc",
        )
        u = check_values(u, "relevance", low=0.0, high=1.0, inside=inside)
    elif needs:
        raise fail("relevance", f"be given for {statistic} (it divides by utility)", "None")
    utility = None
    if population_utility is not None:
        utility = _non_negative(
            population_utility, batch + (g,), "population_utility", "one utility per group"
        )
    return _core.group_statistic(x, n_g, u, inside, statistic, decay, attention, utility)


@public
def meta(values, /, *, present, meta: str) -> np.ndarray:
    r"""One of FairRankTune's seven meta-metrics over the present groups' values.

    Parameters
    ----------
    values : array_like, shape (..., G)
        V_g per group (:func:`group_values`, :func:`arp`): >= 0, or NaN where undefined.
        Entries of groups that are not present are ignored, whatever they hold.
    present : array_like of bool, shape (..., G) (broadcastable)
        The groups that count: those with members in the topic's population (n_g > 0;
        for ARP, those with ranked docs).
    meta : str
        How the values are compared, one of :data:`METAS`: 'MinMaxRatio',
        'MaxMinRatio', 'MaxMinDiff', 'MaxAbsDiff', 'MeanAbsDev', 'LTwo', 'Variance'
        (see Notes).

    Returns
    -------
    ndarray of float, shape (...)
        MinMaxRatio in [0, 1], higher is fairer (1: equal); MaxMinRatio in [1, inf),
        lower is fairer; MaxMinDiff, MaxAbsDiff, MeanAbsDev, Variance in [0, inf), lower
        is fairer (0: equal); LTwo in [0, inf), with no direction (equal values give
        sqrt(G') V). NaN where no group is present, a present value is NaN, a ratio
        divides by 0 (MinMaxRatio when max V = 0; MaxMinRatio when min V = 0) or the
        value leaves the float range.

    Raises
    ------
    ValueError
        For values that are negative or infinite, shapes that do not match, or an
        unknown meta-metric (the message lists the seven).
    TypeError
        For non-numeric values or a ``present`` that is not boolean.

    Notes
    -----
    Over the G' present groups, with mean V-bar = (1/G') sum_g V_g:

    .. math::
        MinMaxRatio = \frac{\min V}{\max V},\quad MaxMinRatio = \frac{\max V}{\min V},
        \quad MaxMinDiff = \max V - \min V,\quad
        MaxAbsDiff = \max_g |V_g - \bar V|,

        MeanAbsDev = \frac{1}{G'} \sum_g |V_g - \bar V|,\quad
        LTwo = \sqrt{\sum_g V_g^2},\quad
        Variance = \frac{1}{G'} \sum_g (V_g - \bar V)^2

    LTwo is the Euclidean norm (FairRankTune's table says squared) and Variance
    divides by G' (its documentation says G' - 1): both as its code computes them.
    A deviation V_g - V-bar is computed as (1/G') sum_h (V_g - V_h), so that equal
    values give exactly 0 (and ratios exactly 1) where a rounded mean would not.
    Where a value is undefined FairRankTune returns inf, nan or a finite number
    computed from them (MinMaxRatio 0.0); here it is NaN.

    References
    ----------
    K. Cachel and E. Rundensteiner, FairRankTune (documentation, ``docs/metrics.md``);
    reference implementation FairRankTune 0.0.7, ``Metrics/ComboUtil.py``;
    docs/rankfair.md, section 3.2.

    Examples
    --------
    FairRankTune's worked example (docs/rankfair.md, section 13):

    >>> v = [0.75, 0.48281970629313076, 0.3562071871080222]
    >>> round(float(meta(v, present=[True] * 3, meta="MinMaxRatio")), 12)
    0.474942916144
    >>> float(meta([0.2, 0.2], present=[True, True], meta="Variance"))
    0.0
    """
    v = as_float_array(values, "values")
    if v.ndim < 1:
        raise fail("values", "be an array of shape (..., G)", f"shape {v.shape}")
    p = check_shape(check_bool_array(present, "present"), v.shape, "present", "one flag per group")
    bad = p & ~np.isnan(v) & ~((v >= 0) & np.isfinite(v))
    if bad.any():
        first = tuple(np.argwhere(bad)[0])
        raise fail(
            "values",
            "hold finite numbers >= 0 (or NaN: undefined) for the present groups",
            f"{float(v[first])!r} at index {tuple(int(i) for i in first)}",
        )
    meta = check_choice(meta, "meta", METAS)
    return _core.meta_metric(v, p, meta)


@public
def arp(groups, /, *, lengths, n_groups: int) -> np.ndarray:
    r"""Favoured pair representation per group (ARP) of padded rankings, hard groups.

    Parameters
    ----------
    groups : array_like of int, shape (..., K)
        The group (0..n_groups - 1) of the doc at each rank.
    lengths : array_like of int, shape (...) (broadcastable)
        Each ranking's length n, in 0..K.
    n_groups : int
        G, at least 2.

    Returns
    -------
    ndarray of float, shape (..., G)
        The share of the mixed pairs of each group that it wins (its doc ranked
        above), in [0, 1]; NaN for a group with no ranked doc (not among ARP's groups:
        give ``present`` = counts > 0 to :func:`meta`) and for a group holding every
        ranked doc. Equal shares are fair.

    Raises
    ------
    ValueError
        For a group outside 0..n_groups - 1 within the lengths, bad lengths or
        ``n_groups`` below 2.
    TypeError
        For ``groups`` that are not integers.

    Notes
    -----
    Over the ranked docs only: n'_g ranked docs of g, W_g the pairs i < j with d_i in
    g and d_j not in g:

    .. math::
        FPR_g = \frac{W_g}{n'_g (n - n'_g)},\quad
        W_g = \sum_{k:\, d_k \in g} (n - k) - \frac{n'_g (n'_g - 1)}{2}

    FairRankTune takes its items from the whole item dictionary and raises unless the
    ranking holds every listed item; on such full rankings the two agree.

    References
    ----------
    K. Cachel, E. Rundensteiner and L. Harrison, "MANI-Rank: Multiple Attribute and
    Intersectional Group Fairness for Consensus Ranking", ICDE 2022 (ARP). Reference
    implementation: FairRankTune 0.0.7, ``Metrics/ARP.py``; docs/rankfair.md, section
    3.1.

    Examples
    --------
    >>> arp([0, 1, 0, 1], lengths=4, n_groups=2).tolist()
    [0.75, 0.25]
    """
    n_groups = check_int(n_groups, "n_groups", minimum=2)
    g = check_int_array(groups, "groups")
    if g.ndim < 1:
        raise fail("groups", "be an array of shape (..., K)", f"shape {g.shape}")
    inside = _inside(lengths, g.shape[:-1], g.shape[-1])
    bad = inside & ((g < 0) | (g >= n_groups))
    if bad.any():
        first = tuple(np.argwhere(bad)[0])
        raise fail(
            "groups",
            f"hold groups in 0..{n_groups - 1} within the lengths",
            f"{int(g[first])} at index {tuple(int(i) for i in first)}",
        )
    return _core.pair_representation(g, inside, n_groups)


# --------------------------------------------------------------------------- section 4
@public
def ndkl(memberships, target, /, *, lengths, epsilon: float = 1e-7) -> np.ndarray:
    r"""Normalised discounted KL divergence (NDKL) of padded rankings from a target.

    Parameters
    ----------
    memberships : array_like, shape (..., K, G)
        The membership vector of the doc at each rank (rows sum to 1 within 1e-5).
    target : array_like, shape (..., G) (broadcastable)
        q: the population's distribution n_g / N (the default of ``evaluate``) or a
        desired distribution, summing to 1 within 1e-5.
    lengths : array_like of int, shape (...) (broadcastable)
        Each ranking's length n, in 0..K.
    epsilon : float
        Added to both distributions inside the KL divergence (FairRankTune's 1e-7);
        0 gives the exact KL divergence, >= 0.

    Returns
    -------
    ndarray of float, shape (...)
        In [0, inf); lower is fairer, 0 when every prefix matches q. NaN for an empty
        ranking, and with ``epsilon=0`` where a prefix puts mass on a group q gives
        none (the divergence is infinite).

    Raises
    ------
    ValueError
        For rows or a target that are not distributions, shapes that do not match,
        bad lengths or a negative ``epsilon``.
    TypeError
        For non-numeric arrays.

    Notes
    -----
    With p_i the mean membership of the top i and w(i) = 1 / log2(i + 1):

    .. math::
        NDKL = \frac{1}{Z} \sum_{i=1}^{n} w(i)\, D(p_i \| q),\quad
        Z = \sum_{i=1}^{n} w(i),\quad
        D(p \| q) = \sum_g (p_g + \epsilon) \ln \frac{p_g + \epsilon}{q_g + \epsilon}

    Natural logarithm, as FairRankTune; epsilon is added to both vectors and not
    renormalised. FairRankTune's q is the ranked list's own distribution; it equals
    the population's when the ranking holds the whole population.

    References
    ----------
    S. C. Geyik, S. Ambler and K. Kenthapadi, "Fairness-Aware Ranking in Search &
    Recommendation Systems with Application to LinkedIn Talent Search", KDD 2019,
    Eq. 4. Reference implementation: FairRankTune 0.0.7, ``Metrics/NDKL.py``;
    docs/rankfair.md, section 4.1.

    Examples
    --------
    FairRankTune's worked example (docs/rankfair.md, section 13): ranking (a, c, b, d,
    e, f) with a, b in group 0, c, d, e in group 1 and f in group 2:

    >>> m = [[1, 0, 0], [0, 1, 0], [1, 0, 0], [0, 1, 0], [0, 1, 0], [0, 0, 1]]
    >>> round(float(ndkl(m, [2 / 6, 3 / 6, 1 / 6], lengths=6)), 12)
    0.468377610777
    """
    x = _rankings(memberships, "memberships", 2)
    batch, depth, g = x.shape[:-2], x.shape[-2], x.shape[-1]
    inside = _inside(lengths, batch, depth)
    x = _memberships(x, "memberships", inside)
    q = check_shape(
        check_distributions(target, "target"),
        batch + (g,),
        "target",
        "one distribution over the G groups per ranking",
    )
    epsilon = check_real(epsilon, "epsilon", low=0.0)
    return _core.ndkl(x, q, inside, epsilon)


@public
def yang(
    protected_mass,
    population_mass,
    /,
    *,
    lengths,
    population_lengths,
    measure: str,
    step: int = 10,
    discount: str = "code",
    normalize: bool = True,
) -> np.ndarray:
    r"""rND, rKL or rRD (Yang and Stoyanovich) of padded rankings, with the exact normaliser.

    Parameters
    ----------
    protected_mass : array_like, shape (..., K)
        m_pi, the protected group's membership (in [0, 1]) of the doc at each rank.
    population_mass : array_like, shape (..., N_max) (broadcastable)
        m_pi of each doc of the topic's population, in any order, padded to the
        largest population.
    lengths : array_like of int, shape (...) (broadcastable)
        Each ranking's length n, in 0..K and at most its population's size.
    population_lengths : array_like of int, shape (...) (broadcastable)
        Each population's size N, in 0..N_max (entries at or beyond N are padding).
    measure : {'rND', 'rKL', 'rRD'}
        Normalised difference, KL divergence (in bits) or ratio difference.
    step : int
        s: the cut-offs are s, 2s, 3s, ... up to n (FairRank: 10), >= 1.
    discount : {'code', 'paper'}
        delta(i) = log2(i + 1) (FairRank's code, which reproduces the authors'
        published numbers) or log2(i) (the arXiv paper; needs ``step`` >= 2).
    normalize : bool
        Divide by Z, the larger raw value of the population sorted by protected mass
        descending or ascending (True); or return the raw value, which FairRank's demo
        prints (False).

    Returns
    -------
    ndarray of float, shape (...)
        Lower is fairer. Normalised, rND and rKL lie in [0, 1] for hard memberships
        (1: the protected group ranked first or last), rRD in [0, 1] when the
        protected group is the minority (P <= N / 2; above that it can exceed 1).
        NaN where the population's protected mass P is 0 or N, where no cut-off fits
        in n (n < step) and where Z is 0.

    Raises
    ------
    ValueError
        For masses outside [0, 1] within the lengths, a ranking longer than its
        population, bad lengths, an unknown measure or discount, ``step`` below 1,
        or ``discount="paper"`` with ``step=1``.
    TypeError
        For non-numeric arrays.

    Notes
    -----
    With x_i the protected mass of the top i, P = sum of the population's m_pi, N its
    size and I = {s, 2s, ...} within n:

    .. math::
        raw = \sum_{i \in I} \frac{f(i)}{\delta(i)},\quad
        f_{ND}(i) = \left|\frac{x_i}{i} - \frac{P}{N}\right|,\quad
        f_{RD}(i) = \left|\min\left(\frac{P}{N - P}, c_i\right) - \frac{P}{N - P}\right|,

        f_{KL}(i) = KL\left(\left(\tfrac{x_i}{i}, 1 - \tfrac{x_i}{i}\right) \middle\|
        \left(\tfrac{P}{N}, 1 - \tfrac{P}{N}\right)\right),\quad
        value = \frac{raw(L)}{\max(raw(L_{desc}), raw(L_{asc}))}

    c_i = x_i / (i - x_i), and 0 for an all-protected prefix (abs(i - x_i) <= 1e-9), as
    FairRank's code (so only under-representation counts). rKL is the exact KL
    divergence with 0 log 0 = 0 (FairRank replaces a share of 0 or 1 by 0.001). Z is
    the paper's "highest possible value": for hard memberships the maximum of rND and
    rKL over all arrangements is one of the two sorted ones (and rRD's when P <= N/2);
    FairRank's Z is the mean of random rankings instead. Z is computed once per
    distinct (population, n) in the call, not once per ranking.

    References
    ----------
    K. Yang and J. Stoyanovich, "Measuring Fairness in Ranked Outputs", SSDBM 2017
    (arXiv:1610.08559), Eqs. 1-3. Reference implementation: FairRank (github.com/
    DataResponsibly/FairRank, ``measures.py``); docs/rankfair.md, section 4.2.

    Examples
    --------
    FairRank's demo: N = 100 docs, the 50 protected ranked first, step 10:

    >>> top = [1.0] * 50 + [0.0] * 50
    >>> raw = yang(top, top, lengths=100, population_lengths=100, measure="rND",
    ...            normalize=False)
    >>> round(float(raw), 12)
    0.660066334446
    >>> float(yang(top, top, lengths=100, population_lengths=100, measure="rND"))
    1.0
    """
    x = _rankings(protected_mass, "protected_mass", 1)
    batch, depth = x.shape[:-1], x.shape[-1]
    pop = _rankings(population_mass, "population_mass", 1)
    width = pop.shape[-1]
    n = check_lengths(lengths, batch, "lengths", limit=depth)
    size = check_lengths(population_lengths, batch, "population_lengths", limit=width)
    pop = check_shape(pop, batch + (width,), "population_mass", "one population per ranking")
    inside = _core.length_mask(n, depth)
    x = check_values(x, "protected_mass", low=0.0, high=1.0, inside=inside)
    pop = check_values(
        pop, "population_mass", low=0.0, high=1.0, inside=_core.length_mask(size, width)
    )
    over = n > size
    if over.any():
        first = tuple(int(i) for i in np.argwhere(over)[0])
        raise fail(
            "lengths",
            "be at most the population's size (population_lengths): a ranking holds "
            "docs of its population, each once",
            f"{int(n[first])} > {int(size[first])} at index {first}",
        )
    measure = check_choice(measure, "measure", _core.YANG)
    step = check_int(step, "step", minimum=1)
    discount = check_choice(discount, "discount", ("code", "paper"))
    if discount == "paper" and step == 1:
        raise fail("step", "be at least 2 with discount='paper' (log2(1) = 0)", "1")
    normalize = check_flag(normalize, "normalize")
    mass = np.where(inside, x, 0.0)
    return _core.yang(mass, n, pop, size, measure, step, discount, normalize)


@public
def fair(protected, p, /, *, lengths) -> np.ndarray:
    r"""FA*IR's prefix test as a score (Raj and Ekstrand): the mean binomial CDF of prefixes.

    Parameters
    ----------
    protected : array_like, shape (..., K)
        1 where the doc at each rank is in the protected group, else 0 (hard groups).
    p : array_like, shape (...) (broadcastable)
        The protected group's expected share, in [0, 1]: P / N of the population, or
        the target's share.
    lengths : array_like of int, shape (...) (broadcastable)
        Each ranking's length n, in 0..K.

    Returns
    -------
    ndarray of float, shape (...)
        In [0, 1]; higher means the protected group is at least as present in every
        prefix as a binomial draw with rate p would be (1 when p = 0). NaN for an
        empty ranking.

    Raises
    ------
    ValueError
        For entries other than 0 and 1 within the lengths, p outside [0, 1] or bad
        lengths.
    TypeError
        For non-numeric arrays.

    Notes
    -----
    With x_k the protected docs in the top k and F the binomial CDF:

    .. math::
        FAIR = \frac{1}{n} \sum_{k=1}^{n} F(x_k; k, p)

    References
    ----------
    M. Zehlike et al., "FA*IR: A Fair Top-k Ranking Algorithm", CIKM 2017. A. Raj
    and M. D. Ekstrand, "Measuring Fairness in Ranked Results: An Analytical and
    Empirical Comparison", SIGIR 2022. Reference implementation: github.com/
    BoiseState/rank-fairness-metrics, ``zehlike.avg_prefix``; docs/rankfair.md,
    section 4.3.

    Examples
    --------
    >>> round(float(fair([1, 0], 0.5, lengths=2)), 6)
    0.875
    """
    x = _rankings(protected, "protected", 1)
    batch, depth = x.shape[:-1], x.shape[-1]
    inside = _inside(lengths, batch, depth)
    bad = inside & (x != 0) & (x != 1)
    if bad.any():
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        raise fail(
            "protected",
            "hold 0 or 1 within the lengths (hard groups)",
            f"{float(x[first])!r} at index {first}",
        )
    rate = check_shape(as_float_array(p, "p"), batch, "p", "one share per ranking")
    rate = check_values(rate, "p", low=0.0, high=1.0)
    return _core.fair_prefix(np.where(inside, x, 0.0), rate, inside)


# --------------------------------------------------------------------------- section 5
@public
def iaa(relevance, /, *, lengths) -> np.ndarray:
    r"""Inequity of attention (FairRankTune's IAA) of padded rankings.

    Parameters
    ----------
    relevance : array_like, shape (..., K)
        u, the [0, 1] relevance of the doc at each rank.
    lengths : array_like of int, shape (...) (broadcastable)
        Each ranking's length n, in 0..K.

    Returns
    -------
    ndarray of float, shape (...)
        In [0, n]; lower is fairer (attention proportional to relevance). 0 for an
        empty ranking.

    Raises
    ------
    ValueError
        For relevance outside [0, 1] within the lengths or bad lengths.
    TypeError
        For a non-numeric array.

    Notes
    -----
    .. math::
        IAA = \sum_{k=1}^{n} \left| w(k) - u_k \right|,\quad w(k) = \frac{1}{\log_2(k + 1)}

    Over one ranking: unranked relevant docs add nothing (Biega et al.'s amortised
    measure, over items and sequences of rankings, is not this one).

    References
    ----------
    A. J. Biega, K. P. Gummadi and G. Weikum, "Equity of Attention: Amortizing
    Individual Fairness in Rankings", SIGIR 2018, Eq. 1. Reference implementation:
    FairRankTune 0.0.7, ``Metrics/IAA.py``; docs/rankfair.md, section 5.

    Examples
    --------
    Ranks 1 and 3 relevant: abs(1 - 1) + abs(0.631 - 0) + abs(0.5 - 1):

    >>> round(float(iaa([1, 0, 1], lengths=3)), 4)
    1.1309
    """
    u = _rankings(relevance, "relevance", 1)
    inside = _inside(lengths, u.shape[:-1], u.shape[-1])
    u = check_values(u, "relevance", low=0.0, high=1.0, inside=inside)
    return _core.inequity_of_attention(u, inside)


# --------------------------------------------------------------------------- section 6
@public
def expected_exposure(
    doc_index,
    levels,
    /,
    *,
    n_samples,
    lengths,
    memberships=None,
    model: str = "gerr",
    patience: float = 0.5,
    stop: float = 0.5,
    complete: bool = False,
    binarize: bool = False,
) -> dict[str, np.ndarray]:
    r"""Expected exposure (Diaz et al.) of sampled rankings: loss, disparity, relevance.

    Parameters
    ----------
    doc_index : array_like of int, shape (..., S, K)
        For sample s and 0-based rank i, the slot (0..D - 1) of the doc ranked there.
        Each topic's docs (ranked or judged) occupy the first slots of a doc axis of
        size D. Positions at or beyond a sample's length, and samples at or beyond the
        topic's count, are padding (-1 by convention).
    levels : array_like of int, shape (..., D)
        Each slot's qrels level (>= 0), -1 for an unjudged doc and for a padding slot.
    n_samples : array_like of int, shape (...) (broadcastable)
        Each topic's number of samples S' (0..S); the run exposure is the mean over
        them.
    lengths : array_like of int, shape (..., S) (broadcastable)
        Each sample's length, in 0..K (read for the real samples only).
    memberships : array_like, shape (..., D, G), optional
        Each slot's membership vector (a distribution, or zeros for a padding slot or
        a doc the attribute set does not list). Given, the values are per group;
        None (default), per doc.
    model : {'gerr', 'rbp'}
        The browsing model: gERR (patience p, stop probability u at a relevant doc)
        or RBP (patience p).
    patience : float
        p, in (0, 1).
    stop : float
        u, gERR's stop probability at a relevant doc, in (0, 1).
    complete : bool
        The target is every judged doc (True), not only the relevant ones.
    binarize : bool
        Every level above 0 counts as 1.

    Returns
    -------
    dict of str to ndarray of float, each of shape (...)
        ``EE-L`` (loss; lower is better), ``EE-D`` (disparity; lower is better) and
        ``EE-R`` (relevance; higher is better), all in [0, inf) and unnormalised
        (expeval's ``-U``). NaN for a topic without a target doc (no relevant doc, or
        no judged doc with ``complete``) or without a sample.

    Raises
    ------
    ValueError
        For slots outside 0..D - 1 or given twice in one sample, levels below -1 or
        above 100, bad counts or lengths, a target doc's membership row that is
        neither a distribution nor zeros, an unknown model, or ``patience`` or
        ``stop`` outside (0, 1).
    TypeError
        For arrays that are not integers (``doc_index``, ``levels``, counts) or not
        numeric (``memberships``), and flags that are not True or False.

    Notes
    -----
    At 0-based rank i of sample s, a doc is exposed e = p^i (RBP) or p^i (1 - u)^r
    (gERR, r the relevant docs strictly above); eps_d is the mean over the S' samples.
    The target eps*_d gives the m target docs of a level with b target docs of higher
    levels the mean exposure of positions b..b+m-1: RBP (p^b - p^{b+m}) / (m (1 -
    p)); gERR, level > 0, with pp = p (1 - u): (pp^b - pp^{b+m}) / (m (1 - pp));
    gERR, level 0 (``complete``): (1 - u)^b (p^b - p^{b+m}) / (m (1 - p)).

    .. math::
        EE\text{-}D = \sum_d \epsilon_d^2,\quad
        EE\text{-}R = \sum_d \epsilon_d \epsilon^*_d,\quad
        EE\text{-}L = \sum_d (\epsilon_d - \epsilon^*_d)^2

    Per group, E_g = sum over target docs of m_dg eps_d (E*_g likewise) replace eps_d
    and eps*_d: only target docs carry exposure to groups. When no target doc is
    ranked every E_g is 0 and EE-D = 0 (expeval prints inf).

    References
    ----------
    F. Diaz, B. Mitra, M. D. Ekstrand, A. J. Biega and B. Carterette, "Evaluating
    Stochastic Rankings with Expected Exposure", CIKM 2020, Eqs. 3-7. Reference
    implementation: github.com/diazf/expeval (``exposure.py``, ``metrics.py``,
    ``group.py``); docs/rankfair.md, section 6.

    Examples
    --------
    expeval's worked example (docs/rankfair.md, section 6): slots a, b, c, d, e, x
    with levels 2, 1, 0, 1, 1 and x unjudged; samples (a, x, b, d) and (d, b, a):

    >>> index = [[0, 5, 1, 3], [3, 1, 0, -1]]
    >>> ee = expected_exposure(index, [2, 1, 0, 1, 1, -1], n_samples=2, lengths=[4, 3])
    >>> [round(float(ee[k]), 6) for k in ("EE-D", "EE-R", "EE-L")]
    [0.598877, 0.608154, 0.418457]
    """
    idx = check_int_array(doc_index, "doc_index")
    if idx.ndim < 2:
        raise fail("doc_index", "be an array of shape (..., S, K)", f"shape {idx.shape}")
    batch, samples, depth = idx.shape[:-2], idx.shape[-2], idx.shape[-1]
    lev = check_int_array(levels, "levels", low=-1, high=LMAX_LIMIT)
    if lev.ndim < 1 or lev.shape[:-1] != batch:
        raise fail(
            "levels",
            f"have shape {batch} + (D,) (one level per doc slot of each topic)",
            f"shape {lev.shape}",
        )
    width = lev.shape[-1]
    count = check_lengths(n_samples, batch, "n_samples", limit=samples)
    real = _core.length_mask(count, samples)  # (..., S)
    n = check_int_array(lengths, "lengths")
    n = check_shape(n, batch + (samples,), "lengths", "one length per sample")
    bad = real & ((n < 0) | (n > depth))
    if bad.any():
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        raise fail("lengths", f"hold integers in 0..{depth}", f"{int(n[first])} at index {first}")
    inside = _core.length_mask(np.where(real, n, 0), depth)
    outside = inside & ((idx < 0) | (idx >= width))
    if outside.any():
        first = tuple(int(i) for i in np.argwhere(outside)[0])
        raise fail(
            "doc_index",
            f"hold slots in 0..{width - 1} within the lengths",
            f"{int(idx[first])} at index {first}",
        )
    _check_once_per_sample(idx, inside, width)
    model = check_choice(model, "model", ("gerr", "rbp"))
    patience = _open_unit(patience, "patience")
    stop = _open_unit(stop, "stop")
    complete = check_flag(complete, "complete")
    binarize = check_flag(binarize, "binarize")
    memb = None
    if memberships is not None:
        memb = as_float_array(memberships, "memberships")
        if memb.ndim != lev.ndim + 1 or memb.shape[:-1] != lev.shape:
            raise fail(
                "memberships",
                f"have shape {lev.shape} + (G,) (one vector per doc slot)",
                f"shape {memb.shape}",
            )
        target = lev >= 0 if complete else lev > 0
        g = memb.shape[-1]
        zero = (memb == 0).all(axis=-1) | ~target
        check_distributions(np.where(zero[..., None], 1.0 / max(g, 1), memb), "memberships")
    loss, disparity, relevance = _core.expected_exposure(
        idx, lev, inside, count, memb, model, patience, stop, complete, binarize
    )
    return {"EE-L": loss, "EE-D": disparity, "EE-R": relevance}


def _check_once_per_sample(idx: np.ndarray, inside: np.ndarray, width: int) -> None:
    """No slot twice in one sample (a doc is ranked once per ranking)."""
    rows = int(np.prod(idx.shape[:-1], dtype=np.int64))
    flat = idx.reshape(rows, idx.shape[-1])
    live = inside.reshape(rows, idx.shape[-1])
    key = (np.arange(rows)[:, None] * width + np.where(live, flat, 0))[live]
    order = np.sort(key)
    twice = order[1:] == order[:-1]
    if twice.any():
        dup = order[1:][twice][0]
        sample, slot = divmod(int(dup), width)
        where = np.unravel_index(sample, idx.shape[:-1])
        raise fail(
            "doc_index",
            "give each slot at most once per sample (a doc is ranked once)",
            f"slot {slot} twice in sample {tuple(int(i) for i in where)}",
        )
