"""JSD, NMD, RNOD and DistrSim over the last (group) axis."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

_LN2 = np.log(2.0)

# --------------------------------------------------------------------------- divergences
_SMALL_G = 64
"""Up to this many groups, sums over groups add them one at a time in group order, a
block of rows at a time; beyond it, each row is summed by ``sum`` (numpy's pairwise
rule). RNOD's matrix of G x G distances is used up to this size only."""

_BLOCK = 1 << 13  # rows per step of the group sums: the block stays in cache


def _lastsum(x: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """sum_j x[..., j] (* weights[..., j]) over the last (group) axis, in group order.

    The order of the additions is fixed by the groups alone, so a row's sum is the
    same bits whatever batch it comes in (a matrix product's order depends on the
    shape of the whole array). For a few groups, a column at a time over blocks of
    rows: numpy's ``x.sum(axis=-1)`` reduces a short axis row by row, several times
    slower.
    """
    if weights is not None:
        x = np.multiply(x, weights)
    x = np.asarray(x, dtype=np.float64)
    g = x.shape[-1]
    lead = x.shape[:-1]
    if g > _SMALL_G:
        return np.ascontiguousarray(x).sum(axis=-1)
    rows = x.reshape(math.prod(lead), g)
    out = np.zeros(len(rows))
    for lo in range(0, len(rows), _BLOCK):
        block, acc = rows[lo : lo + _BLOCK], out[lo : lo + _BLOCK]
        for j in range(g):
            acc += block[:, j]
    return out.reshape(lead)


# JSD, group by group. With s = p + q, t = p - q, d = t / s and m = s / 2, a group adds
#   p ln(2p/s) + q ln(2q/s) = m [2d atanh(d) + log1p(-d^2)]
#                           = |t| log1p(|d|) + min(p, q) log1p(-d^2)                (1)
#                           = t d G(d^2),  G(x) = sum_{k>=1} x^(k-1) / (2k(2k-1))    (2)
# nats to twice the divergence. (1) regroups the first line: its two terms cancel by a
# factor of 3 at most, a factor that falls to 1 as |d| -> 1 (where 2d atanh(d) alone
# diverges), and it is stationary in d, so the rounding of d costs nothing to first
# order. (2) is its power series in d: for small |d| it needs no logarithm and cancels
# nothing.
_JSD_SERIES_MAX = 2.0**-10
"""d^2 up to this (|d| <= 1/32) takes the series (2); the first term left out is below
2^-56 of the sum."""
_JSD_SERIES = tuple(1.0 / (2 * k * (2 * k - 1)) for k in range(5, 0, -1))
"""The series' coefficients 1 / (2k(2k-1)), k = 5 down to 1 (Horner's order)."""
_JSD_BLOCK = 1 << 15
"""Elements per step of :func:`jsd` (at least 1024 rows): its temporaries stay in cache."""
_BELOW_ONE = 1.0 - 2.0**-53  # the largest double below 1
_SUBNORMAL = 5e-324  # the smallest positive double


def _jsd_series(
    t: np.ndarray, d: np.ndarray, x: np.ndarray, out: np.ndarray, g: np.ndarray
) -> np.ndarray:
    """Form (2) into ``out``: t d G(x) with x = d^2, for |d| <= 1/32; g is scratch."""
    np.multiply(x, _JSD_SERIES[0], out=g)
    g += _JSD_SERIES[1]
    for a in _JSD_SERIES[2:]:
        g *= x
        g += a
    np.multiply(t, d, out=out)
    out *= g
    return out


def _jsd_logs(
    p: np.ndarray,
    q: np.ndarray,
    t: np.ndarray,
    d: np.ndarray,
    x: np.ndarray,
    out: np.ndarray,
    b: np.ndarray,
) -> np.ndarray:
    """Form (1) into ``out``: |t| log1p(|d|) + min(p, q) log1p(-x), x = d^2 (x, b: scratch).

    Where |d| = 1 (one of p, q is 0, or below about 2^-54 of the other), log1p(-1) =
    -inf is replaced by log1p(-(1 - 2^-53)) = -36.7: the group adds |t| ln 2 when
    min(p, q) = 0 (0 log 0 = 0), and otherwise its value within about 2^-54 of it.
    """
    np.negative(x, out=x)
    np.maximum(x, -_BELOW_ONE, out=x)
    np.log1p(x, out=x)
    np.minimum(p, q, out=b)
    x *= b
    np.abs(d, out=out)
    np.log1p(out, out=out)
    np.abs(t, out=b)
    out *= b
    out += x
    return out


def _jsd_terms(
    p: np.ndarray,
    q: np.ndarray,
    s: np.ndarray,
    t: np.ndarray,
    d: np.ndarray,
    c: np.ndarray,
    g: np.ndarray,
) -> np.ndarray:
    """Each group's term of the doubled divergence, in nats, into ``c``; s, t, d, g: scratch.

    Each element takes form (1) or (2) by its own |d|, so its bits do not depend on
    its neighbours: a block mostly of small |d| runs the series on all its elements
    and form (1) on the others only, and the other way round.
    """
    np.add(p, q, out=s)
    np.maximum(s, _SUBNORMAL, out=s)  # p = q = 0: d = 0 and the group adds 0
    np.subtract(p, q, out=t)
    np.divide(t, s, out=d)
    x = np.multiply(d, d, out=s)
    large = x > _JSD_SERIES_MAX
    n_large = np.count_nonzero(large)
    if 2 * n_large <= large.size:
        _jsd_series(t, d, x, c, g)
        if n_large:
            dl = d[large]
            c[large] = _jsd_logs(
                p[large], q[large], t[large], dl, dl * dl, np.empty_like(dl), np.empty_like(dl)
            )
        return c
    small = None
    if n_large < large.size:
        small = ~large
        ds = d[small]
        series = _jsd_series(t[small], ds, ds * ds, np.empty_like(ds), np.empty_like(ds))
    _jsd_logs(p, q, t, d, x, c, g)
    if small is not None:
        c[small] = series
    return c


def _pairwise_lastsum(c: np.ndarray, ct: np.ndarray, out: np.ndarray) -> np.ndarray:
    """The sums of the rows of ``c`` into ``out``, added pairwise in a tree fixed by G.

    The terms are never negative, so the error of the sum stays within about
    log2(G) units in the last place (a plain sum's grows with G). The order of the
    additions is fixed by the groups alone, so a row's sum is the same bits whatever
    batch it comes in. The terms are laid out by group first, so each level of the
    tree is one addition of whole rows.
    """
    np.copyto(ct, c.T)
    n = len(ct)
    while n > 2:
        half = (n + 1) // 2
        np.add(ct[: n - half], ct[half:n], out=ct[: n - half])
        n = half
    if n == 2:
        np.add(ct[0], ct[1], out=out)
    else:
        out[:] = ct[0] if n else 0.0
    return out


def jsd(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    r"""Base-2 Jensen-Shannon divergence over the last axis, without cancellation.

    With s = p + q, t = p - q and d = t / s group by group (see the forms above):

    .. math::
        JSD = \frac{1}{2 \ln 2} \sum_j \left[ |t_j| \,\mathrm{log1p}(|d_j|)
              + \min(p_j, q_j) \,\mathrm{log1p}(-d_j^2) \right]

    where a term with |d_j| <= 1/32 is the series
    :math:`t_j d_j \sum_{k \ge 1} d_j^{2k-2} / (2k(2k-1))` and a group with
    p_j = q_j = 0 adds 0. The relative error stays below 1e-15 (given a log1p within
    about 2 ulp); the value is 0 only where p == q (or where it underflows), exactly 1
    for disjoint one-hot vectors, and the same bits for (p, q) and (q, p). Clipped to
    [0, 1], since inputs need only sum to 1 within 1e-5. The rows are taken a block at
    a time, a shared target laid out once per call, and each row's terms are added by
    :func:`_pairwise_lastsum`: a row gets the same bits whatever batch it comes in.
    """
    shape = np.broadcast_shapes(p.shape, q.shape)
    g, lead = shape[-1], shape[:-1]
    n = math.prod(lead)
    step = max(1024, _JSD_BLOCK // max(g, 1))
    rows = min(step, n)
    pp, p_shared = _jsd_rows(p, shape, n, rows)
    qq, q_shared = _jsd_rows(q, shape, n, rows)
    scratch = np.empty((5, rows, g))
    by_group = np.empty((g, rows))
    out = np.empty(n)
    for lo in range(0, n, step):
        k = min(step, n - lo)
        pb = pp[:k] if p_shared else pp[lo : lo + k]
        qb = qq[:k] if q_shared else qq[lo : lo + k]
        c = _jsd_terms(pb, qb, *(a[:k] for a in scratch))
        _pairwise_lastsum(c, by_group[:, :k], out[lo : lo + k])
    h = out.reshape(lead)
    h /= 2.0 * _LN2
    return np.clip(h, 0.0, 1.0)


def _jsd_rows(x: np.ndarray, shape: tuple, n: int, rows: int) -> tuple[np.ndarray, bool]:
    """The (n, G) rows of ``x``; or, when x is one row shared by all, it ``rows`` times."""
    g = shape[-1]
    if x.size == g and n > 1:
        shared = np.empty((rows, g))
        shared[...] = x.reshape(g)
        return shared, True
    if x.shape != shape:
        x = np.broadcast_to(x, shape)
    return x.reshape(n, g), False


def nmd(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Normalised match distance: sum_i |P_i - Q_i| / (G - 1) over cumulative sums.

    Every i from 1 to G counts: the last term, |sum p - sum q|, is not 0 for a target
    such as (0.333333, 0.333333, 0.333333), accepted as summing to 1. The cumulative
    sums P_i - Q_i add p_j - q_j in group order and the |P_i - Q_i| are summed in
    group order, as :func:`_lastsum` does.
    """
    d = np.subtract(p, q)
    g = d.shape[-1]
    if g > _SMALL_G:
        cum = np.cumsum(d, axis=-1)
        np.abs(cum, out=cum)
        out = _lastsum(cum)
    else:  # a column at a time over blocks of rows (cumsum of a short axis is slow)
        rows = d.reshape(math.prod(d.shape[:-1]), g)
        out = np.zeros(len(rows))
        cum = np.empty(min(len(rows), _BLOCK))
        for lo in range(0, len(rows), _BLOCK):
            block, acc = rows[lo : lo + _BLOCK], out[lo : lo + _BLOCK]
            c = cum[: len(block)]
            c[:] = 0.0
            for j in range(g):
                c += block[:, j]
                acc += np.abs(c)
        out = out.reshape(d.shape[:-1])
    out /= g - 1
    return out


@lru_cache(maxsize=64)
def _distance_matrix(g: int) -> np.ndarray:
    i = np.arange(g, dtype=np.float64)
    return np.abs(i[:, None] - i[None, :])


def rnod(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Root normalised order-aware divergence RNOD(p || q).

    DW_i = sum_j |i - j| (p_j - q_j)^2, averaged over the groups i with q_i > 0, so
    OD = sum_j (p_j - q_j)^2 w_j / |S| with w_j = sum_{i in S} |i - j|: one weight
    vector per target, O(G) per row once the weights are known.
    """
    g = p.shape[-1]
    support = (q > 0).astype(np.float64)
    if g <= _SMALL_G:
        weights = support @ _distance_matrix(g)  # shape of q
    else:  # w_j = sum_{i in S} |i - j| from prefix counts and sums: O(G) per row
        i = np.arange(g, dtype=np.float64)
        below_n = np.cumsum(support, axis=-1) - support  # |S| below j
        below_s = np.cumsum(support * i, axis=-1) - support * i  # sum of those i
        total_n = support.sum(axis=-1, keepdims=True)
        total_s = (support * i).sum(axis=-1, keepdims=True)
        above_n = total_n - below_n - support
        above_s = total_s - below_s - support * i
        weights = i * below_n - below_s + above_s - i * above_n
    count = _lastsum(support)
    d = np.subtract(p, q)
    d *= d
    od = _lastsum(d, weights)
    od /= count * (g - 1)
    return np.sqrt(np.maximum(od, 0.0))


DIVERGENCES = {"JSD": jsd, "NMD": nmd, "RNOD": rnod}


def distr_sim(p: np.ndarray, q: np.ndarray, divergence: str) -> np.ndarray:
    """1 - divergence(p || q)."""
    return 1.0 - DIVERGENCES[divergence](p, q)
