"""The one vectorised core: arithmetic only, no checks.

Every public module validates its input (:mod:`fairconv._validation`) and then calls
these functions. Conventions: float64 arrays; the group axis is last; batch axes
(topics, runs) lead; ragged data is either padded with a length array or flat with
segment start offsets.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

_LN2 = np.log(2.0)
_TINY = np.finfo(np.float64).tiny


# --------------------------------------------------------------------------- divergences
def _xlogx(x: np.ndarray) -> np.ndarray:
    """Elementwise x ln x with 0 ln 0 = 0 (x is a probability, never negative)."""
    out = np.maximum(x, _TINY)
    np.log(out, out=out)
    out *= x
    return out


def _lastsum(x: np.ndarray) -> np.ndarray:
    """Sum over the (short) last axis as a matrix-vector product: several times faster
    than ``x.sum(axis=-1)`` for the 2-20 groups of an attribute set.
    """
    return x @ np.ones(x.shape[-1])


def jsd(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Base-2 Jensen-Shannon divergence over the last axis, as H(m) - (H(p) + H(q)) / 2.

    The entropy of each input is taken on its own (un-broadcast) shape, so one target
    shared by many rows costs one small pass. Clipped to [0, 1] against rounding.
    """
    m = p + q
    m *= 0.5
    t = _xlogx(m)  # m has the broadcast shape
    half = _xlogx(p)
    half *= 0.5
    np.subtract(half, t, out=t)
    h = _lastsum(t)
    h += 0.5 * _lastsum(_xlogx(q))
    h /= _LN2
    return np.clip(h, 0.0, 1.0)


@lru_cache(maxsize=64)
def _cumulative_matrix(g: int) -> np.ndarray:
    """(G, G-1) matrix whose product with a vector gives its first G-1 cumulative sums."""
    return np.triu(np.ones((g, g)))[:, :-1]


def nmd(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Normalised match distance: sum_i |P_i - Q_i| / (G - 1) over cumulative sums."""
    g = p.shape[-1]
    cum = np.subtract(p, q) @ _cumulative_matrix(g)  # the last cumulative sum is 1 - 1
    np.abs(cum, out=cum)
    out = _lastsum(cum)
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
    weights = support @ _distance_matrix(g)  # shape of q
    count = _lastsum(support)
    d = np.subtract(p, q)
    d *= d
    if weights.ndim == 1:
        od = d @ weights
    else:
        od = np.einsum("...j,...j->...", d, weights)
    od = od / (count * (g - 1))
    return np.sqrt(np.maximum(od, 0.0))


DIVERGENCES = {"JSD": jsd, "NMD": nmd, "RNOD": rnod}


def distr_sim(p: np.ndarray, q: np.ndarray, divergence: str) -> np.ndarray:
    """1 - divergence(p || q)."""
    return 1.0 - DIVERGENCES[divergence](p, q)


# --------------------------------------------------------------------------- ragged data
def running_mean(x: np.ndarray, axis: int = -2) -> np.ndarray:
    """Mean of the first k entries along ``axis`` for every k (1-based)."""
    out = np.cumsum(x, axis=axis)
    n = out.shape[axis]
    shape = [1] * out.ndim
    shape[axis] = n
    out /= np.arange(1, n + 1, dtype=np.float64).reshape(shape)
    return out


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
    survive = np.cumprod(1.0 - stop, axis=-1)
    out = np.empty_like(stop)
    out[..., 0] = 1.0
    out[..., 1:] = survive[..., :-1]
    out *= stop
    return out


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
            out[k] = total[..., (depth if k is None else min(k, depth)) - 1]
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
    achieved = running_mean(membership, axis=-2)
    out = {}
    for name in divergences:
        per_rank = DIVERGENCES[name](achieved, target)
        np.subtract(1.0, per_rank, out=per_rank)
        per_rank *= decay
        for k, v in at_cutoffs(per_rank, cutoffs).items():
            out[(name, k)] = v
    return out
