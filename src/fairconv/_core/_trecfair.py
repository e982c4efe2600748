"""TREC Fair Ranking: the track's discount, nDCG, sparse JS divergence, exposure, EE-L."""

from __future__ import annotations

import numpy as np

from ._divergences import _LN2


# --------------------------------------------------------------------------- TREC Fair
def trec_fair_discount(n: int) -> np.ndarray:
    r"""The TREC Fair Ranking discount of ranks 1..n, in float32 as the track computes it.

    .. math::
        \delta(k) = 1 / \log_2 \max(k, 2)

    with k, the logarithm and the reciprocal in float32: delta(1) = delta(2) = 1.

    References
    ----------
    TREC Fair Ranking 2021-2022, the organisers' ``metrics.py`` (2021) and
    ``wptrec/metrics/common.py`` (2022); docs/trecfair.md, section 2.
    """
    ranks = np.arange(1, n + 1, dtype=np.float32)
    return np.reciprocal(np.log2(np.maximum(ranks, np.float32(2))))


def work_level_weights(level: np.ndarray, used: np.ndarray) -> np.ndarray:
    r"""Task 2 weights of relevant pages (..., R) from their work levels 0..5.

    With n_l of the ``used`` pages at level l, level l takes the ideal positions
    P_l = n_{<l} + 1 .. n_{<l} + n_l and each of its pages weighs

    .. math::
        w(d) = \frac{1}{n_l} \sum_{k \in P_l} \delta(k)

    (:func:`trec_fair_discount`, as doubles); pages not used weigh 0.

    References
    ----------
    docs/trecfair.md, section 6.1 (``qw_tgt_exposure`` in the track's
    ``Task2Alignment.py`` (2022) and ``Alignments.py`` (2021)).
    """
    R = level.shape[-1]
    flat = level.reshape(-1, R)
    used = used.reshape(-1, R)
    nt = flat.shape[0]
    code = np.where(used, flat, 0) + 6 * np.arange(nt)[:, None]
    counts = np.bincount(code[used], minlength=6 * nt).reshape(nt, 6)
    before = np.cumsum(counts, axis=1) - counts
    delta = trec_fair_discount(max(int(counts.sum(1).max()), 1)).astype(np.float64)
    cum = np.concatenate(([0.0], np.cumsum(delta)))
    with np.errstate(invalid="ignore", divide="ignore"):  # levels without a page: unused
        mean = (cum[before + counts] - cum[before]) / counts
    w = np.take_along_axis(mean, np.where(used, flat, 0), axis=1)
    return np.where(used, w, 0.0).reshape(level.shape)


def trec_fair_ndcg(hit: np.ndarray, delta: np.ndarray, n_relevant: np.ndarray, N: int):
    r"""Task 1 nDCG of rankings (..., K): DCG over IDCG of min(N, |R|) relevant pages.

    .. math::
        nDCG = \frac{\sum_{k \le n,\, d_k \in R} \delta(k)}{\sum_{k=1}^{\min(N, |R|)} \delta(k)}

    ``hit`` marks the relevant pages within each ranking's length; ``delta`` holds the
    discounts of ranks 1..max(K, N).

    References
    ----------
    docs/trecfair.md, section 3 (the track's ``metrics.py`` and ``wptrec/metrics``).
    """
    K = hit.shape[-1]
    cum = np.concatenate(([0.0], np.cumsum(delta)))
    dcg = (np.where(hit, delta[:K], 0.0)).sum(axis=-1)
    return dcg / cum[np.minimum(n_relevant, N)]


def sparse_js(group: np.ndarray, exposure: np.ndarray, target: np.ndarray, target_total, count):
    r"""Jensen-Shannon divergence in nats of sparse exposures against their targets.

    ``exposure`` and ``target`` hold, entry by entry, a group's exposure E_c and its
    target tau_c on the cells E exposes (``group`` says whose); ``target_total`` is each
    group's sum of tau over all cells. With p = E / sum E and q = tau / sum tau, over
    the exposed cells

    .. math::
        JS = \frac{1}{2} \Big[\sum_c p_c \ln\frac{p_c}{m_c} + q_c \ln\frac{q_c}{m_c}
             + \ln 2 \Big(1 - \sum_c q_c\Big)\Big],\qquad m = \frac{p + q}{2}

    each unexposed cell adding q_c ln 2 (0 ln 0 = 0). Clipped below at 0; NaN for a
    group without exposure.

    References
    ----------
    docs/trecfair.md, section 3 (scipy's ``jensenshannon`` squared, natural logarithm,
    as the track's code takes it).
    """
    from scipy.special import rel_entr

    mass = np.bincount(group, weights=exposure, minlength=count)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = exposure / mass[group]
        q = target / target_total[group]
        m = 0.5 * (p + q)
        inside = np.bincount(group, weights=rel_entr(p, m) + rel_entr(q, m), minlength=count)
        seen = np.bincount(group, weights=target, minlength=count)
        js = 0.5 * (inside + _LN2 * np.maximum(target_total - seen, 0.0) / target_total)
    js = np.maximum(js, 0.0)
    return np.where(mass > 0, js, np.nan)


def exposure_sums(group: np.ndarray, exposure: np.ndarray, target: np.ndarray, count, Z):
    r"""Task 2's sums over the exposed cells, per group: EE-D, EE-R and the seen parts.

    With eps the system exposure and eps* = Z tau the target exposure, over the cells
    eps exposes (``group`` says whose):

    .. math::
        EE\text{-}D = \sum_c \epsilon_c^2,\quad EE\text{-}R = Z \sum_c \epsilon_c \tau_c,\quad
        \sum_c (\epsilon_c - Z \tau_c)^2,\quad \sum_c \tau_c^2

    The last two give EE-L with :func:`expected_exposure_loss`.

    References
    ----------
    docs/trecfair.md, section 4 (``wptrec/metrics/eel.py``).
    """
    dis = np.bincount(group, weights=exposure * exposure, minlength=count)
    dot = Z * np.bincount(group, weights=exposure * target, minlength=count)
    diff = exposure - Z * target
    loss = np.bincount(group, weights=diff * diff, minlength=count)
    seen_sq = np.bincount(group, weights=target * target, minlength=count)
    return dis, dot, loss, seen_sq


def expected_exposure_loss(loss_seen, target_sumsq, seen_sq, Z):
    r"""EE-L: the loss over the exposed cells plus Z^2 tau_c^2 over the unexposed ones.

    .. math::
        EE\text{-}L = \sum_c (\epsilon_c - Z\tau_c)^2
        = \sum_{c\ \mathrm{exposed}} (\epsilon_c - Z\tau_c)^2
        + Z^2 \Big(\sum_c \tau_c^2 - \sum_{c\ \mathrm{exposed}} \tau_c^2\Big)

    References
    ----------
    docs/trecfair.md, section 4.
    """
    return loss_seen + Z * Z * np.maximum(target_sumsq - seen_sq, 0.0)
