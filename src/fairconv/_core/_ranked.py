"""Ranked lists: ERR's decay, utilities and GF at cutoffs, GFR's combination, RIGF."""

from __future__ import annotations

import numpy as np

from ._divergences import DIVERGENCES, distr_sim


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


def utility_at_cutoffs(decay: np.ndarray, cutoffs, phi: float, names=("ERR", "iRBU")) -> dict:
    """ERR (utility 1/k) and iRBU (utility phi^k) summed with the decay; no checks.

    Returns {("ERR" | "iRBU", cutoff): array (...)} for the utilities in ``names``;
    cutoff None is full depth.
    """
    ranks = np.arange(1, decay.shape[-1] + 1, dtype=np.float64)
    out = {}
    for name in names:
        per_rank = decay / ranks if name == "ERR" else decay * phi**ranks
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
