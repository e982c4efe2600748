"""The one vectorised core: arithmetic only, no checks.

Every public module validates its input (:mod:`fairconv._validation`) and then calls
these functions. Conventions: float64 arrays; the group axis is last; batch axes
(topics, runs) lead; ragged data is either padded with a length array or flat with
segment start offsets.
"""

from __future__ import annotations

import math
from fractions import Fraction
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


# --------------------------------------------------------------------------- ragged data
def length_mask(lengths: np.ndarray, size: int) -> np.ndarray:
    """Boolean mask (..., size): True where the position is within the length."""
    return np.arange(size) < np.asarray(lengths)[..., None]


def segment_sum(x: np.ndarray, starts: np.ndarray, n_items: int) -> np.ndarray:
    """Sum each segment of flat ``x`` (axis 0); segment s is x[starts[s]:starts[s+1]].

    ``starts`` is non-decreasing with ``len(starts)`` segments; empty segments sum to 0.
    """
    n_seg = len(starts)
    out = np.zeros((n_seg,) + x.shape[1:], dtype=np.result_type(x, np.float64))
    if n_items == 0 or n_seg == 0:
        return out
    ends = np.append(starts[1:], n_items)
    nonempty = ends > starts
    out[nonempty] = np.add.reduceat(x, starts[nonempty], axis=0)
    return out


def segment_cumsum(x: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Cumulative sum along axis 0 that restarts at every segment start.

    Each segment's total is subtracted at the next start and the rounding residue the
    running sum carries across a boundary is removed, so every value has the precision
    of a sum over its own segment, however large the batch.
    """
    n = len(x)
    y = np.array(x, dtype=np.float64)
    inner = np.unique(starts[(starts > 0) & (starts < n)])
    if len(inner) == 0:
        return np.cumsum(y, axis=0)
    totals = np.add.reduceat(y, np.concatenate(([0], inner)), axis=0)[:-1]
    y[inner] -= totals
    out = np.cumsum(y, axis=0)
    carried = out[inner - 1] - totals  # ~1e-16 per boundary, accumulated
    fix = np.concatenate((np.zeros_like(carried[:1]), carried))
    out -= fix[np.searchsorted(inner, np.arange(n), side="right")]
    return out


# --------------------------------------------------------------------------- ranked lists
def err_decay(stop: np.ndarray) -> np.ndarray:
    """ERR decay over the last (rank) axis: Decay_k = p_k * prod_{j<k} (1 - p_j)."""
    out = np.empty_like(stop)
    if stop.shape[-1] == 0:
        return out
    survive = np.cumprod(1.0 - stop, axis=-1)
    out[..., 0] = 1.0
    out[..., 1:] = survive[..., :-1]
    out *= stop
    return out


def _depth_of(cutoff, depth: int) -> int:
    """The ranks a cutoff covers in lists padded to ``depth`` (None: all of them)."""
    return depth if cutoff is None else min(cutoff, depth)


def at_cutoffs(per_rank: np.ndarray, cutoffs) -> dict:
    """Sums over the first K ranks for K in ``cutoffs`` (None = full depth).

    ``per_rank`` is zero beyond each list's length, so a list shorter than K keeps its
    last value.
    """
    total = np.cumsum(per_rank, axis=-1)
    depth = total.shape[-1]
    out = {}
    for k in cutoffs:
        if depth == 0:
            out[k] = np.zeros(total.shape[:-1])
        else:
            out[k] = total[..., _depth_of(k, depth) - 1]
    return out


def utility_at_cutoffs(decay: np.ndarray, cutoffs, phi: float) -> dict:
    """ERR (utility 1/k) and iRBU (utility phi^k) summed with the decay; no checks.

    Returns {("ERR" | "iRBU", cutoff): array (...)}; cutoff None is full depth.
    """
    ranks = np.arange(1, decay.shape[-1] + 1, dtype=np.float64)
    out = {}
    for name, per_rank in (("ERR", decay / ranks), ("iRBU", decay * phi**ranks)):
        for k, v in at_cutoffs(per_rank, cutoffs).items():
            out[(name, k)] = v
    return out


def gf_at_cutoffs(
    decay: np.ndarray, membership: np.ndarray, target: np.ndarray, divergences, cutoffs
) -> dict:
    """GF = sum_k Decay_k * DistrSim(D_k || target), D_k the mean of the top-k rows.

    ``membership`` is (..., K, G) with uniform rows already in place wherever a doc
    counts as uniform. Returns {(divergence, cutoff): array (...)}.
    """
    # a rank whose decay is 0 (a nonrelevant doc, a padded rank) adds nothing: the
    # running means and divergences are taken at the other ranks only, and each sum
    # adds their terms in rank order, as a cumulative sum over every rank would. (The
    # divergences' sums over groups run on a (ranks, G) array here, so a value may
    # differ in its last bit from one taken on the padded (..., K, G) array.)
    total = np.cumsum(membership, axis=-2)
    lead, depth, g = total.shape[:-2], total.shape[-2], total.shape[-1]
    decay = np.broadcast_to(decay, total.shape[:-1]).reshape(-1)
    live = np.flatnonzero(decay)
    lists, rank = np.divmod(live, max(depth, 1))
    rows = total.reshape(-1, g)[live]
    rows /= (rank + 1.0)[:, None]  # the mean of the top k: the sum over k
    weights = decay[live]
    n_lists = int(np.prod(lead, dtype=np.int64))
    out = {}
    for name in divergences:
        sim = DIVERGENCES[name](rows, target)
        np.subtract(1.0, sim, out=sim)
        sim *= weights
        for k in cutoffs:
            inside = rank < _depth_of(k, depth)
            total_k = np.bincount(lists[inside], weights=sim[inside], minlength=n_lists)
            out[(name, k)] = total_k.astype(np.float64, copy=False).reshape(lead)  # int if empty
    return out


# --------------------------------------------------------------------------- combinations
def combine(components: np.ndarray, weights: np.ndarray, covered: np.ndarray | None = None):
    """Weighted mean of components over the ones that cover each cell.

    ``components`` is (C, ...), ``weights`` (C,) and ``covered`` a boolean array
    broadcastable to ``components`` (all True when None). Each cell is
    ``sum_c w_c v_c / sum_c w_c`` over its covering components: the weights are
    renormalised where a component does not cover a cell. NaN where the covering
    weights sum to 0.
    """
    v = np.asarray(components, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64).reshape((-1,) + (1,) * (v.ndim - 1))
    if covered is None:
        cw = np.broadcast_to(w, v.shape)
    else:
        cw = np.where(covered, w, 0.0)
    # scale each cell's weights by a power of 2 (exact) so that the largest lies in
    # [0.5, 1): subnormal weights keep their ratios instead of rounding to 0 in w_c v_c;
    # then normalise them, so that a cell with one covering component is that component
    _, exponent = np.frexp(cw.max(axis=0))
    cw = np.ldexp(cw, -exponent)
    total_w = cw.sum(axis=0)
    share = np.divide(cw, total_w, out=np.zeros(cw.shape), where=total_w > 0)
    total = (share * np.where(cw > 0, v, 0.0)).sum(axis=0)
    return np.where(total_w > 0, total, np.nan)


def normalised_sums(owner: np.ndarray, vectors: np.ndarray, n_owners: int) -> np.ndarray:
    """Sum the (n, G) ``vectors`` per owner and normalise each sum to 1.

    Rows of owners with nothing to sum are NaN. Page memberships (entities of a page)
    and answer distributions (entities of an answer) are both such sums.
    """
    g = vectors.shape[-1]
    sums = np.zeros((n_owners, g))
    np.add.at(sums, owner, vectors)
    totals = sums.sum(axis=1, keepdims=True)
    return np.divide(sums, totals, out=np.full(sums.shape, np.nan), where=totals > 0)


# --------------------------------------------------------------------------- conversations
def gain(level: np.ndarray, kind: str, lmax: int) -> np.ndarray:
    """Nugget gain: (2^l - 1) / 2^lmax (``"exp"``) or l / lmax (``"linear"``)."""
    level = np.asarray(level, dtype=np.float64)
    if kind == "exp":
        return (np.exp2(level) - 1.0) / np.exp2(lmax)
    return level / lmax


def position_weight(wc: np.ndarray, L: float, variant: str) -> np.ndarray:
    """pw(n): max(0, 1 - (wc-1)/L) for eq6, max(0, 1 - wc/L) for eq7 and eq9."""
    shift = 1.0 if variant == "eq6" else 0.0
    return np.maximum(0.0, 1.0 - (np.asarray(wc, dtype=np.float64) - shift) / L)


def normaliser(L: float, variant: str) -> float:
    """N of R: (L+1)/2 for eq6 and eq7, (L-1)/2 for eq9."""
    return (L - 1.0) / 2.0 if variant == "eq9" else (L + 1.0) / 2.0


def relevance(
    owner: np.ndarray, wc: np.ndarray, level: np.ndarray, n_owners: int, *, L, variant, kind, lmax
) -> np.ndarray:
    """R of each conversation: sum of pw(n) g(n) over its relevant nuggets, over N."""
    pw = position_weight(wc, L, variant)
    g = gain(level, kind, lmax)
    return np.bincount(owner, weights=pw * g, minlength=n_owners) / normaliser(L, variant)


def group_starts(keys: np.ndarray) -> np.ndarray:
    """Start index of every run of equal consecutive keys (``keys`` (n,) or (n, k))."""
    n = len(keys)
    new = np.ones(n, dtype=bool)
    if n > 1:
        diff = keys[1:] != keys[:-1]
        new[1:] = diff if diff.ndim == 1 else diff.any(axis=1)
    return np.flatnonzero(new)


def segment_means(x: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Mean of each segment of flat ``x`` (segments start at ``starts``, none empty)."""
    n = len(x)
    counts = np.diff(np.append(starts, n))
    return segment_sum(x, starts, n) / counts.reshape((-1,) + (1,) * (x.ndim - 1))


def running_segment_means(x: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Mean of the items so far, restarting at every segment start (flat ``x``)."""
    n = len(x)
    if n == 0:
        return np.zeros_like(x, dtype=np.float64)
    seg = np.searchsorted(starts, np.arange(n), side="right") - 1
    count = np.arange(n) - starts[seg] + 1
    return segment_cumsum(x, starts) / count.reshape((-1,) + (1,) * (x.ndim - 1))


def gnp(words: np.ndarray, wc: np.ndarray, level: np.ndarray, starts: np.ndarray) -> tuple:
    """GWCrel, WCnonrel and GNP at the end of every relevant nugget (GFRC2, Eqs. 11-14).

    ``words``, ``wc`` and ``level`` are per relevant nugget, in position order, with
    conversations starting at ``starts``. Returns three (n,) arrays.
    """
    gwc_rel = segment_cumsum(words * level, starts)
    wc_nonrel = wc - segment_cumsum(words, starts)
    return gwc_rel, wc_nonrel, gwc_rel / (wc_nonrel + gwc_rel)


def dedupe_levels(owner: np.ndarray, entity: np.ndarray, level: np.ndarray) -> np.ndarray:
    """Levels with later relevant mentions of an entity of the same owner set to 0.

    Items are in position order within each owner; ``entity`` -1 means no key.
    """
    out = level.copy()
    rel = np.flatnonzero((level > 0) & (entity >= 0))
    if len(rel):
        # by (owner, entity), position order kept within each pair: no packed key, so
        # no limit on the codes
        o, e = owner[rel], entity[rel]
        order = np.lexsort((e, o))
        first = np.ones(len(rel), dtype=bool)
        first[1:] = (o[order[1:]] != o[order[:-1]]) | (e[order[1:]] != e[order[:-1]])
        repeat = np.ones(len(rel), dtype=bool)
        repeat[order[first]] = False
        out[rel[repeat]] = 0
    return out


# --------------------------------------------------------------------------- RAG
def attention(level: np.ndarray, memb: np.ndarray, cutoff: int | None) -> np.ndarray:
    """d_L: the normalised sum of a_k / log2(k+1) over the relevant docs of each list.

    ``level`` (..., K), ``memb`` (..., K, G); NaN rows for lists without a relevant doc
    within the cutoff.
    """
    depth = level.shape[-1]
    weight = 1.0 / np.log2(np.arange(2, depth + 2, dtype=np.float64))
    if cutoff is not None:
        weight[cutoff:] = 0.0
    w = np.where(level > 0, weight, 0.0)
    exposure = np.einsum("...k,...kg->...g", w, memb)
    total = exposure.sum(axis=-1, keepdims=True)
    return np.divide(exposure, total, out=np.full(exposure.shape, np.nan), where=total > 0)


def rigf(gf_gen: np.ndarray, gf_re: np.ndarray) -> np.ndarray:
    r"""RIGF in percent, NaN where GF-Re is 0 (or NaN).

    .. math::
        RIGF = \frac{GF_{Gen} - GF_{Re}}{GF_{Re}} \times 100

    The difference is divided first, so an answer with GF-Gen = 0 gives exactly -100
    and equal values exactly 0. GF values lie in [1 - sqrt(2), 1], so only a GF-Re
    within about 1e-306 of 0 overflows, to the +-inf that a percentage beyond the float
    range rounds to (the caller refuses it).

    References
    ----------
    Z. Tao and T. Sakai, "Measuring Group Fairness Differences in RAG Pipelines: A
    Pilot Study", BREV-RAG 2025, Eq. 7.
    """
    shape = np.broadcast_shapes(np.shape(gf_gen), np.shape(gf_re))
    out = np.full(shape, np.nan)
    with np.errstate(over="ignore"):
        np.divide(gf_gen - gf_re, gf_re, out=out, where=(gf_re != 0) & ~np.isnan(gf_re))
        out *= 100.0
    return out


def gf_gen(answer: np.ndarray, target: np.ndarray, divergence) -> np.ndarray:
    r"""GF of generated answers: DistrSim(d_A || target); 0 for a missing d_A.

    .. math::
        GF_{Gen} = DistrSim(d_A \| d^*)

    with no decay factor. ``answer`` is (..., G); a row holding a NaN marks an answer
    naming no relevant entity, whose GF-Gen is 0.

    References
    ----------
    Z. Tao and T. Sakai, BREV-RAG 2025, Eq. 5.
    """
    missing = np.isnan(answer).any(axis=-1)
    d = np.where(missing[..., None], 1.0 / answer.shape[-1], answer)
    return np.where(missing, 0.0, distr_sim(d, target, divergence))


def adsim(list_distribution: np.ndarray, answer: np.ndarray, divergence) -> np.ndarray:
    r"""ADsim: DistrSim(d_L || d_A), the answer's distribution in the target's place.

    .. math::
        ADsim = DistrSim(d_L \| d_A)

    NaN where either distribution is missing (a row holding a NaN).

    References
    ----------
    Z. Tao and T. Sakai, BREV-RAG 2025, Eqs. 8-11.
    """
    missing = np.isnan(list_distribution).any(axis=-1) | np.isnan(answer).any(axis=-1)
    uniform = 1.0 / list_distribution.shape[-1]
    sim = distr_sim(
        np.where(np.isnan(list_distribution), uniform, list_distribution),
        np.where(np.isnan(answer), uniform, answer),
        divergence,
    )
    return np.where(missing, np.nan, sim)


# --------------------------------------------------------------------------- GFR options
def stop_probabilities(gains: np.ndarray) -> np.ndarray:
    r"""ERR's satisfaction probability of each level 0..lmax from the gains of 1..lmax.

    .. math::
        P(l) = \frac{gain(l)}{gain(l_{max}) + 1},\qquad P(0) = 0

    References
    ----------
    O. Chapelle et al., CIKM 2009 (ERR); T. Sakai, S. Kim and J. Kang, TOIS 2023,
    Section 4.
    """
    return np.concatenate(([0.0], gains / (gains[-1] + 1.0)))


# --------------------------------------------------------------------------- GFRC, GFRC2
def turn_mean(
    owner: np.ndarray,
    sim: np.ndarray,
    n_owners: int,
    turns: np.ndarray | None = None,
    fill: float = 0.0,
) -> np.ndarray:
    r"""GF^m of each conversation: the mean DistrSim over its counted turns; 0 if none.

    .. math::
        GF^m(C) = \frac{1}{|S|} \sum_{S_i \in S} DistrSim^m(D^m(S_i) \| D^m_*),
        \qquad GF^m(C) = 0 \text{ if } S = \emptyset

    ``sim`` holds the DistrSim of each turn with a relevant nugget and ``owner`` its
    conversation. When ``turns`` (system turns per conversation) is given, every
    system turn counts, those without a relevant nugget adding ``fill`` (the DistrSim
    of a uniform distribution).

    References
    ----------
    T. Sakai et al., the GFRC2 paper, Eq. 10; T. Sakai, EVIA 2023, Eq. 4 with
    PW(S_i) = 1 on the turns of S.
    """
    total = np.bincount(owner, weights=sim, minlength=n_owners)
    counted = np.bincount(owner, minlength=n_owners)
    if turns is None:
        count = counted
    else:
        count = turns
        total = total + (count - counted) * fill
    return np.divide(total, count, out=np.zeros(n_owners), where=count > 0)


def gf_of_sets(gf: np.ndarray, weights: np.ndarray) -> np.ndarray:
    r"""GFRC's GF: the GF^m of the M sets weighed by w_1..w_M renormalised.

    .. math::
        GF = \frac{\sum_{m \ge 1} w_m GF^m}{\sum_{m \ge 1} w_m}

    ``gf`` is (M, ...) and ``weights`` the M + 1 weights of GFRC (w_0 for R first).
    When w_1..w_M are all 0 (w_0 = 1, GFRC = R) they say nothing of GF, and GF is
    the plain mean of the GF^m.

    References
    ----------
    T. Sakai, EVIA 2023, Eqs. 4 and 9; T. Sakai et al., the GFRC2 paper, Eqs. 2-3.
    """
    set_w = weights[1:]
    if not set_w.sum() > 0:
        set_w = np.full(len(gf), 1.0 / len(gf))
    return combine(gf, set_w)


def cluster_probability(wc: np.ndarray, L: float) -> np.ndarray:
    r"""Prob(wc) of the user cluster ending at each relevant nugget end wc.

    .. math::
        Prob(wc) = 1/L \text{ if } wc \le L, \text{ else } 0

    References
    ----------
    T. Sakai et al., the GFRC2 paper, Eq. 14.
    """
    return np.where(wc <= L, 1.0 / L, 0.0)


def expectation(owner: np.ndarray, prob: np.ndarray, value: np.ndarray, n_owners: int):
    r"""sum_{wc} Prob(wc) value(wc) per owner (conversation), 0 for none.

    .. math::
        GFRC2 = \sum_{wc} Prob(wc)\, Experience(wc),\quad
        EGNP = \sum_{wc} Prob(wc)\, GNP(wc),\quad
        EGF^m = \sum_{wc} Prob(wc)\, GF^m(wc)

    References
    ----------
    T. Sakai et al., the GFRC2 paper, Eqs. 11, 20 and 21.
    """
    return np.bincount(owner, weights=prob * value, minlength=n_owners)


# --------------------------------------------------------------------------- nuggets
def ratio(num, den, empty: float) -> np.ndarray:
    """The ratio num / den, ``empty`` where den is 0 (one IEEE division per cell)."""
    num = np.asarray(num, dtype=np.float64)
    out = np.full(num.shape, empty, dtype=np.float64)
    return np.divide(num, den, out=out, where=np.asarray(den) > 0)


def match_ratios(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Recall-NtN, Precision-NtN and Recall-NtR from counts (..., 5); NaN for 0/0.

    With c = (matched gold, gold, matched extracted, extracted, entailed gold):

    .. math::
        Recall\text{-}NtN = c_0 / c_1,\quad Precision\text{-}NtN = c_2 / c_3,\quad
        Recall\text{-}NtR = c_4 / c_1

    References
    ----------
    Z. Abbasiantaeb et al., Conversational Gold (TREC iKAT 2024 resources), Eqs. 4-6.
    """
    nan = float("nan")
    return (
        ratio(counts[..., 0], counts[..., 1], nan),
        ratio(counts[..., 2], counts[..., 3], nan),
        ratio(counts[..., 4], counts[..., 1], nan),
    )


def nuggetizer_scores(counts: np.ndarray) -> tuple[np.ndarray, ...]:
    r"""The strict-vital, strict-all, vital and all scores of nuggetizer; 0 for an empty set.

    With c = (|V|, vital support, vital partial, |N|, support, partial) and
    s(n) = 1 for support, 1/2 for partial support, 0 otherwise:

    .. math::
        \text{strict-vital} = c_1 / c_0,\quad \text{strict-all} = c_4 / c_3,\quad
        \text{vital} = (c_1 + c_2/2) / c_0,\quad \text{all} = (c_4 + c_5/2) / c_3

    References
    ----------
    R. Pradeep et al., Initial Nugget Evaluation Results for the TREC 2024 RAG Track
    with the AutoNuggetizer Framework; castorini/nuggetizer ``calculate_nugget_scores``.
    """
    return (
        ratio(counts[..., 1], counts[..., 0], 0.0),
        ratio(counts[..., 4], counts[..., 3], 0.0),
        ratio(counts[..., 1] + 0.5 * counts[..., 2], counts[..., 0], 0.0),
        ratio(counts[..., 4] + 0.5 * counts[..., 5], counts[..., 3], 0.0),
    )


# --------------------------------------------------------------------------- means
def scaled(arr: np.ndarray) -> tuple[np.ndarray, int]:
    """``arr / 2**e`` with its largest |value| in [0.5, 1), and e (0 for an all-0 array).

    Division by a power of 2 is exact for every value within a factor 2^1021 of the
    largest: sums, means and their rounding are those of the values, but squares
    neither overflow (1e200) nor underflow (1e-300). A value smaller still becomes
    subnormal and may lose its last bits.
    """
    top = float(np.abs(arr).max()) if arr.size else 0.0
    e = math.frexp(top)[1] if top > 0 else 0
    return (np.ldexp(arr, -e) if e else arr), e


def column_scales(x: np.ndarray) -> np.ndarray:
    """The exponent e_j of each column of (n, ...) ``x``, scaling it to [0.5, 1).

    The largest finite |value| of column j over 2^e_j is in [0.5, 1) (e_j is 0 for an
    all-0 column; NaN and infinities are left out).

    Dividing a column by 2^e_j is exact for every value within a factor 2^1021 of the
    column's largest, and its sum of n values then stays below n in magnitude.
    """
    with np.errstate(invalid="ignore"):
        top = np.max(np.where(np.isfinite(x), np.abs(x), 0.0), axis=0, initial=0.0)
    return np.frexp(top)[1]


def fsum_means(x: np.ndarray) -> np.ndarray:
    r"""Column means of (n, k) ``x`` from correctly rounded sums, without overflow.

    .. math::
        \bar x_j = 2^{e_j}\, \mathrm{fl}\Big(\mathrm{fl}\big(\sum_i x_{ij} / 2^{e_j}\big) / n\Big)

    with the sum rounded once (``math.fsum``) and 2^{e_j} the scale of column j
    (:func:`column_scales`). Two columns whose sums are equal on paper (0.1 + 0.2 + 0.3
    and 0.3 + 0.2 + 0.1, or 0.3 + 0.3 + 0.0) get the same mean, bit for bit, whatever
    the order of their values; finite values near 1.8e308 do not overflow, and a column
    of tiny values keeps its bits whatever the other columns hold.
    """
    e = column_scales(x)
    s = np.ldexp(x, -e)
    n = x.shape[0]
    sums = np.array([math.fsum(col) for col in s.T.tolist()], dtype=np.float64)
    return np.ldexp(sums / n, e)


def exact_mean(x: np.ndarray) -> float:
    r"""The mean of doubles rounded once, as ``statistics.mean``: their exact sum over n.

    .. math::
        \bar x = \mathrm{fl}\Big(\frac{1}{n} \sum_i x_i\Big)

    with the sum exact. It is the sum of the doubles :func:`math.fsum` returns for
    what is left after each one is taken away (a few passes; each leaves less than
    half an ulp), taken as fractions. For values whose partial sums stay finite
    (scores, ratios in [0, 1]): ``math.fsum`` raises OverflowError beyond.
    """
    rest = x.tolist()
    parts = []
    while True:
        part = math.fsum(rest)
        if part == 0.0:
            break
        parts.append(Fraction(part))
        rest.append(-part)
    return float(sum(parts, Fraction(0)) / len(x))


def sequential_mean(x: np.ndarray) -> float:
    """The sum of x over len(x), the values added left to right; 0 for no value.

    As CONE-RAG averages its per-turn ratios (values in [0, 1], whose sum is finite).
    """
    return float(np.add.accumulate(x)[-1] / len(x)) if len(x) else 0.0


def defined_means(values: np.ndarray, defined: np.ndarray, count: np.ndarray) -> np.ndarray:
    r"""Means over axis 0 of the values where ``defined``; NaN where ``count`` is 0.

    .. math::
        \bar x = \frac{1}{n} \sum_{i\,:\,defined} x_i,\qquad n = count

    A sum past the largest double is taken again with the values of each cell divided
    by a power of 2 (:func:`column_scales`, exact) and the mean scaled back, so finite
    values always give their finite mean; infinities of both signs give NaN.
    """
    cells = np.where(defined, values, 0.0)
    n = np.maximum(count, 1)
    with np.errstate(invalid="ignore", over="ignore"):  # inf and -inf: a NaN mean
        mean = np.where(count > 0, cells.sum(axis=0) / n, np.nan)
        over = np.isinf(mean) & np.isfinite(cells).all(axis=0)
        if over.any():
            e = column_scales(cells)
            rescaled = np.ldexp(np.ldexp(cells, -e).sum(axis=0) / n, e)
            mean[over] = rescaled[over]
    return mean


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
