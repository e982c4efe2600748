"""TREC Fair Ranking: discount, nDCG, intersected alignments, JS and expected exposure.

The track's discount and nDCG, the weighted sums of intersected alignments, background
mixing, the JS divergence in nats and expected exposure. Arithmetic only:
:mod:`fairconv.trecfair` checks the inputs, then calls these. Ragged data are flat: one
entry per page (a ranked line, a relevant page) with the group it belongs to (a topic, a
(topic, run) pair), groups ascending, so that memory follows the pages given and never a
padded (groups x longest list) shape.

A page's alignment over the cells of an intersection is the outer product of its
rows, one per dimension; it is never formed. Rows are held sparse
(:class:`SparseRows`) and the weighted sums of outer products per group are one sparse
matrix product after splitting the dimensions into two groups
(:func:`exposure_blocks`), a block of groups at a time.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import NamedTuple

import numpy as np

from ._divergences import _LN2

CELL_BLOCK = 1 << 22
"""The cells of the sparse products held at once (a block of groups at a time)."""


# --------------------------------------------------------------------------- discount
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


def _discounts(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The float32 discounts of ranks 1..n as doubles, and their running sums from 0."""
    delta = trec_fair_discount(n).astype(np.float64)
    return delta, np.concatenate(([0.0], np.cumsum(delta)))


def work_level_weights(group: np.ndarray, level: np.ndarray, n_groups: int) -> np.ndarray:
    r"""Task 2 weights of relevant pages from their work levels 0..5, page by page.

    ``group`` (n,) says whose each page is, ``level`` (n,) its level. With n_l of a
    group's pages at level l, level l takes the ideal positions
    P_l = n_{<l} + 1 .. n_{<l} + n_l and each of its pages weighs

    .. math::
        w(d) = \frac{1}{n_l} \sum_{k \in P_l} \delta(k)

    (:func:`trec_fair_discount`, as doubles).

    References
    ----------
    docs/trecfair.md, section 6.1 (``qw_tgt_exposure`` in the track's
    ``Task2Alignment.py`` (2022) and ``Alignments.py`` (2021)).
    """
    code = group * 6 + level
    counts = np.bincount(code, minlength=6 * n_groups).reshape(n_groups, 6)
    before = (np.cumsum(counts, axis=1) - counts).reshape(-1)[code]
    n = counts.reshape(-1)[code]
    _, cum = _discounts(max(int(counts.sum(axis=1).max(initial=0)), 1))
    return (cum[before + n] - cum[before]) / n


# --------------------------------------------------------------------------- rows
def scaled_rows(rows: np.ndarray) -> np.ndarray:
    """Rows whose sum overflows float64 divided by their largest entry.

    ``rows`` (n, G) of finite numbers >= 0; the other rows stay as given, to the bit.
    """
    with np.errstate(over="ignore"):
        big = ~np.isfinite(rows.sum(axis=1))
    if big.any():
        rows = rows.copy()
        rows[big] /= rows[big].max(axis=1, keepdims=True)
    return rows


def sum_to_one(rows: np.ndarray) -> np.ndarray:
    """Rows divided by their sum, which never overflows (:func:`scaled_rows` first).

    ``rows`` (n, G) of finite numbers >= 0, each with a positive entry.
    """
    rows = scaled_rows(rows)
    return rows / rows.sum(axis=1, keepdims=True)


# --------------------------------------------------------------------------- nDCG
def trec_fair_ndcg(
    group: np.ndarray, rank: np.ndarray, n_relevant: np.ndarray, N: int
) -> np.ndarray:
    r"""Task 1 nDCG per group from its relevant ranked lines: DCG over the IDCG of min(N, |R|).

    ``group`` and ``rank`` (0-based) of each relevant line within its ranking;
    ``n_relevant`` (groups,) is |R| of each group.

    .. math::
        nDCG = \frac{\sum_{k \le n,\, d_k \in R} \delta(k)}{\sum_{k=1}^{\min(N, |R|)} \delta(k)}

    References
    ----------
    docs/trecfair.md, section 3 (the track's ``metrics.py`` and ``wptrec/metrics``).
    """
    delta, cum = _discounts(max(N, int(rank.max(initial=-1)) + 1))
    dcg = np.bincount(group, weights=delta[rank], minlength=n_relevant.shape[0])
    return dcg / cum[np.minimum(n_relevant, N)]


# --------------------------------------------------------------------------- sparse rows
class SparseRows(NamedTuple):
    """The non-zero entries of the rows of a (rows, G) matrix, row by row (CSR)."""

    counts: np.ndarray
    """(rows,): the non-zero entries of each row."""
    starts: np.ndarray
    """(rows,): where each row's entries start."""
    cols: np.ndarray
    """(entries,): the column of each entry."""
    vals: np.ndarray
    """(entries,): its value."""
    rows: np.ndarray
    """(entries,): its row."""


def sparse_rows(dense: np.ndarray) -> SparseRows:
    """The non-zero entries of each row of a (rows, G) matrix."""
    flat = np.flatnonzero(dense != 0)  # a boolean scan: much faster than on the floats
    r, c = np.divmod(flat, dense.shape[1])
    counts = np.bincount(r, minlength=dense.shape[0])
    starts = np.cumsum(counts) - counts
    return SparseRows(counts, starts, c, dense.reshape(-1)[flat], r)


def take_rows(rows: SparseRows, index: np.ndarray) -> SparseRows:
    """The rows ``index`` (in that order, repeats allowed) of sparse rows."""
    counts = rows.counts[index]
    starts = np.cumsum(counts) - counts
    total = int(counts.sum())
    at = np.repeat(rows.starts[index] - starts, counts) + np.arange(total, dtype=np.int64)
    return SparseRows(
        counts,
        starts,
        rows.cols[at],
        rows.vals[at],
        np.repeat(np.arange(index.shape[0], dtype=np.int64), counts),
    )


def _rows_of(rows: SparseRows, lo: int, hi: int) -> SparseRows:
    """Rows lo..hi-1, renumbered from 0."""
    counts, starts, cols, vals, r = rows
    if lo == 0 and hi == counts.shape[0]:
        return rows
    a = starts[lo] if lo < counts.shape[0] else cols.shape[0]
    b = starts[hi] if hi < counts.shape[0] else cols.shape[0]
    return SparseRows(counts[lo:hi], starts[lo:hi] - a, cols[a:b], vals[a:b], r[a:b] - lo)


# --------------------------------------------------------------------------- outer sums
def _expand(entry_row, entry_col, entry_val, rows: SparseRows, size: int):
    """Multiply each entry by every non-zero of its row's alignment in one more dimension.

    ``entry_row`` None stands for one entry per row (column 0, value ``entry_val[row]``).
    """
    counts, starts, cols, vals, r = rows
    if entry_row is None:
        return r, cols, entry_val[r] * vals
    reps = counts[entry_row]
    total = int(reps.sum())
    first = np.cumsum(reps) - reps
    offset = np.arange(total, dtype=np.int64) - np.repeat(first, reps)
    pos = np.repeat(starts[entry_row], reps) + offset
    return (
        np.repeat(entry_row, reps),
        np.repeat(entry_col, reps) * size + cols[pos],
        np.repeat(entry_val, reps) * vals[pos],
    )


def _split(sizes: Sequence[int]) -> int:
    """Where to cut the dimensions into a left and a right group (balanced cell counts)."""
    if len(sizes) == 1:
        return 1
    logs = np.log(np.asarray(sizes, dtype=np.float64))
    left = np.cumsum(logs)[:-1]
    return int(np.argmin(np.abs(2 * left - logs.sum()))) + 1


def _outer_sums(rows, weights, group, lo, hi, n_groups, sizes):
    """Per group g, ``sum_i weights[i] * outer(row_0(i), ..., row_{m-1}(i))`` (sparse).

    Over the pages ``lo <= i < hi`` (``rows`` holds each dimension's non-zeros per page,
    ``group`` the page's group, counted from ``group[lo]``). The dimensions are split
    into a left group (cells p) and a right group (cells q); with
    ``L[i, g*P + p] = weights[i] * left_outer(i)[p]`` and ``R[i, q] = right_outer(i)[q]``,
    the sums are the one sparse product ``L^T R``, whose row ``g*P + p`` and column ``q``
    are the cell ``p*Q + q`` of group g. Returns the non-zero cells sorted by (group,
    cell): ``(groups, cells, values)``.
    """
    import scipy.sparse as sp  # here: importing fairconv loads no scipy.sparse

    s = _split(sizes)
    P = math.prod(sizes[:s])
    Q = math.prod(sizes[s:])
    n = hi - lo
    part = [_rows_of(z, lo, hi) for z in rows]
    lr, lc, lv = _expand(None, None, weights[lo:hi], part[0], sizes[0])
    for j in range(1, s):
        lr, lc, lv = _expand(lr, lc, lv, part[j], sizes[j])
    rr, rc, rv = np.arange(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.ones(n)
    if s < len(sizes):
        rr, rc, rv = _expand(None, None, rv, part[s], sizes[s])
    for j in range(s + 1, len(sizes)):
        rr, rc, rv = _expand(rr, rc, rv, part[j], sizes[j])
    g = group[lo:hi]
    g0 = g[0] if n else 0
    left = sp.csr_matrix(((lv, ((g[lr] - g0) * P + lc, lr))), shape=(n_groups * P, n))
    right = sp.csr_matrix((rv, (rr, rc)), shape=(n, Q))
    prod = (left @ right).tocsr()
    prod.sum_duplicates()
    prod.eliminate_zeros()
    prod.sort_indices()
    row = np.repeat(np.arange(n_groups * P, dtype=np.int64), np.diff(prod.indptr))
    return row // P, (row % P) * Q + prod.indices.astype(np.int64), prod.data


def _blocks(cost: np.ndarray) -> Iterator[tuple[int, int]]:
    """Consecutive groups whose summed cost stays under :data:`CELL_BLOCK` (one at least)."""
    start, n = 0, cost.shape[0]
    csum = np.concatenate(([0], np.cumsum(cost)))
    while start < n:
        stop = int(np.searchsorted(csum, csum[start] + CELL_BLOCK, side="right")) - 1
        stop = max(stop, start + 1)
        yield start, min(stop, n)
        start = stop


def exposure_blocks(
    rows: Sequence[SparseRows],
    sizes: Sequence[int],
    weights: np.ndarray,
    group: np.ndarray,
    n_groups: int,
) -> Iterator[tuple[int, int, np.ndarray, np.ndarray, np.ndarray]]:
    r"""Per group, the weighted sum of the pages' intersected alignments, block by block.

    Page i (of group ``group[i]``, ascending) has weight ``weights[i]`` and, per
    dimension j (``sizes[j]`` categories), the row i of ``rows[j]``; its alignment over
    the cells is the outer product of its rows. Yields ``(g0, count, groups, cells,
    values)`` for the groups ``g0 .. g0 + count - 1``: the non-zero cells of

    .. math::
        E_g = \sum_{i:\ group(i) = g} w_i\, a_0(i) \otimes \dots \otimes a_{m-1}(i)

    with ``groups`` counted from ``g0``, in order of (group, cell); cells are row-major
    (the first dimension slowest). Blocks hold about :data:`CELL_BLOCK` cells.
    """
    nnz = np.ones(group.shape[0])
    for r in rows:
        nnz *= r.counts
    n_cells = math.prod(sizes)
    cost = np.minimum(np.bincount(group, weights=nnz, minlength=n_groups), n_cells)
    bounds = np.searchsorted(group, np.arange(n_groups + 1))
    for g0, g1 in _blocks(cost + 1):
        lo, hi = int(bounds[g0]), int(bounds[g1])
        if lo == hi:
            empty = np.zeros(0, np.int64)
            yield g0, g1 - g0, empty, empty, np.zeros(0)
            continue
        with np.errstate(over="ignore", invalid="ignore"):  # overflow: inf, found later
            g, c, v = _outer_sums(rows, weights, group, lo, hi, g1 - g0, sizes)
        yield g0, g1 - g0, g + (group[lo] - g0), c, v


# --------------------------------------------------------------------------- JS (Task 1)
def without_unknown_cell(g, c, v, count: int, n_cells: int):
    """2021 Task 1 exposure: without the all-unknown cell (cell 0), uniform if nothing is left.

    A group left with no exposure gets 1 on every cell but cell 0.
    """
    keep = c != 0
    g, c, v = g[keep], c[keep], v[keep]
    mass = np.bincount(g, weights=v, minlength=count)
    empty = np.flatnonzero(~(mass > 0))
    if empty.shape[0]:
        eg = np.repeat(empty, n_cells - 1)
        ec = np.tile(np.arange(1, n_cells, dtype=np.int64), empty.shape[0])
        g = np.concatenate((g, eg))
        c = np.concatenate((c, ec))
        v = np.concatenate((v, np.ones(eg.shape[0])))
    return g, c, v


def sparse_js(group: np.ndarray, exposure: np.ndarray, target: np.ndarray, target_total, count):
    r"""Jensen-Shannon divergence in nats of sparse exposures against their targets.

    ``exposure`` and ``target`` hold, entry by entry, a group's exposure E_c and its
    target tau_c on the cells E exposes (``group`` says whose); ``target_total`` is each
    group's sum of tau over all cells. With p = E / sum E and q = tau / sum tau, over
    the exposed cells

    .. math::
        JS = \frac{1}{2} \Big[\sum_c p_c \ln\frac{p_c}{m_c} + q_c \ln\frac{q_c}{m_c}
             + \ln 2 \Big(1 - \sum_c q_c\Big)\Big],\qquad m = \frac{p + q}{2}

    each unexposed cell adding q_c ln 2 (0 ln 0 = 0). Clipped below at 0.

    Returns
    -------
    js : ndarray, shape (count,)
        NaN for a group without exposure, with an undefined (NaN) target, or whose
        exposure or target sum overflows float64.
    overflow : ndarray of bool, shape (count,)
        The groups whose sums overflow (their target defined).

    References
    ----------
    docs/trecfair.md, section 3 (scipy's ``jensenshannon`` squared, natural logarithm,
    as the track's code takes it).
    """
    from scipy.special import rel_entr  # here: importing fairconv loads no scipy.special

    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        mass = np.bincount(group, weights=exposure, minlength=count)
        p = exposure / mass[group]
        q = target / target_total[group]
        m = 0.5 * (p + q)
        inside = np.bincount(group, weights=rel_entr(p, m) + rel_entr(q, m), minlength=count)
        seen = np.bincount(group, weights=target, minlength=count)
        js = 0.5 * (inside + _LN2 * np.maximum(target_total - seen, 0.0) / target_total)
    overflow = (~np.isfinite(mass) | np.isinf(target_total)) & ~np.isnan(target_total)
    js = np.maximum(js, 0.0)
    return np.where((mass > 0) & ~overflow, js, np.nan), overflow


# --------------------------------------------------------------------------- Task 2
def exposure_sums(group: np.ndarray, exposure: np.ndarray, target: np.ndarray, count, Z):
    r"""Task 2's sums over the exposed cells, per group: EE-D, EE-R and the seen parts.

    With eps the system exposure and eps* = Z tau the target exposure, over the cells
    eps exposes (``group`` says whose):

    .. math::
        EE\text{-}D = \sum_c \epsilon_c^2,\quad EE\text{-}R = Z \sum_c \epsilon_c \tau_c,\quad
        \sum_c (\epsilon_c - Z \tau_c)^2,\quad \sum_c \tau_c^2

    The last two give EE-L with :func:`expected_exposure_loss`. A sum that overflows
    float64 is inf or NaN.

    References
    ----------
    docs/trecfair.md, section 4 (``wptrec/metrics/eel.py``).
    """
    with np.errstate(over="ignore", invalid="ignore"):
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

    A sum that overflows float64 is inf or NaN.

    References
    ----------
    docs/trecfair.md, section 4.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        return loss_seen + Z * Z * np.maximum(target_sumsq - seen_sq, 0.0)


# --------------------------------------------------------------------------- targets
def lookup(keys: np.ndarray, values: np.ndarray, query: np.ndarray) -> np.ndarray:
    """``values`` at the sorted ``keys`` equal to ``query``; 0 where absent."""
    if keys.shape[0] == 0:
        return np.zeros(query.shape)
    pos = np.minimum(np.searchsorted(keys, query), keys.shape[0] - 1)
    return np.where(keys[pos] == query, values[pos], 0.0)


def split_cells(cells: np.ndarray, sizes: Sequence[int], bg: Sequence[int]):
    """The parts of flat cells: ``a`` over the dimensions ``bg``, ``r`` over the others.

    Each part is row-major in its dimensions.
    """
    coords = np.unravel_index(cells, tuple(sizes))
    other = [j for j in range(len(sizes)) if j not in bg]
    a = np.zeros(cells.shape, dtype=np.int64)
    r = np.zeros(cells.shape, dtype=np.int64)
    if bg:
        a = np.ravel_multi_index([coords[j] for j in bg], [sizes[j] for j in bg])
    if other:
        r = np.ravel_multi_index([coords[j] for j in other], [sizes[j] for j in other])
    return a, r


def mix_backgrounds(n_topics: int, sizes, group, cells, values, backgrounds: dict):
    r"""Background mixing (spec 6.3) in the factored form ``f(a) T + g(a) mu(r)``.

    ``values`` are the non-zero T(cell) of each topic (``group``, ``cells``);
    ``backgrounds`` maps a dimension to its background over categories 1..G-1. A cell
    splits into ``a`` (the dimensions with a background) and ``r`` (the others); with
    mass :math:`M(a) = \sum_r T(a, r)`, marginal :math:`\mu(r) = \sum_a T(a, r)` and
    :math:`c_K` the mass of the block K (the background dimensions in K known, the
    others unknown), a cell of a block K is

    .. math::
        T^*(a, r) = T(a, r)/2 + c_K \prod_{j \in K} \beta_j(a_j)\, \theta(a, r)/2,

    :math:`\theta(a, r) = T(a, r)/M(a)` where :math:`M(a) > 0`, else
    :math:`\mu(r)/\sum \mu`. Returns ``f``, ``g`` (topics, A) and the marginal's
    non-zero keys ``topic * R + r`` and values.

    References
    ----------
    docs/trecfair.md, section 6.3 (``avg_with_bg`` in ``Task1Alignment.py``,
    ``Task2Alignment.py``, 2022; ``Alignments.py``, 2021).
    """
    bg = tuple(sorted(backgrounds))
    a_shape = [sizes[j] for j in bg]
    na = math.prod(a_shape)
    nr = math.prod(s for j, s in enumerate(sizes) if j not in bg)
    a, r = split_cells(cells, sizes, bg)
    M = np.bincount(group * na + a, weights=values, minlength=n_topics * na).reshape(n_topics, na)
    mu_key, mu_inv = np.unique(group * nr + r, return_inverse=True)
    mu_val = np.bincount(mu_inv.reshape(-1), weights=values, minlength=mu_key.shape[0])
    f = np.ones((n_topics, na))
    gm = np.zeros((n_topics, na))
    if bg:
        a_coords = np.unravel_index(np.arange(na), a_shape)
        pattern = np.zeros(na, dtype=np.int64)
        beta = np.ones(na)
        for i, j in enumerate(bg):
            known = a_coords[i] > 0
            pattern |= known.astype(np.int64) << i
            beta *= np.where(known, backgrounds[j][np.maximum(a_coords[i] - 1, 0)], 1.0)
        nk = 1 << len(bg)
        cK = M @ (pattern[:, None] == np.arange(nk)).astype(np.float64)  # block masses c_K
        mu_sum = np.bincount(mu_key // nr, weights=mu_val, minlength=n_topics)
        share = cK[:, pattern] * beta  # c_K prod beta_j, per topic and background cell
        has = M > 0
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            f = np.where(has, 0.5 + share / (2.0 * np.where(has, M, 1.0)), 0.0)
            gm = np.where(has, 0.0, share / (2.0 * mu_sum[:, None]))
        mixed = pattern > 0
        f = np.where(mixed, f, 1.0)
        gm = np.where(mixed, gm, 0.0)
    return f, gm, mu_key, mu_val


class Factored(NamedTuple):
    """Targets held factored, ``tau(topic, a, r) = f(a) T(topic, a, r) + g(a) mu(topic, r)``.

    ``a`` is a cell's part over the dimensions ``bg`` (those with a background), ``r``
    over the others (:func:`split_cells`); T and mu are sparse: sorted keys
    ``topic * n_cells + cell`` and ``topic * R + r`` with their values.
    """

    keys: np.ndarray
    tvals: np.ndarray
    f: np.ndarray
    g: np.ndarray
    mu_keys: np.ndarray
    mu_vals: np.ndarray
    cell_shape: tuple
    bg: tuple

    @property
    def n_other(self) -> int:
        """R: the cells of the dimensions without a background."""
        return math.prod(s for j, s in enumerate(self.cell_shape) if j not in self.bg)


def factored_values(t: Factored, topics: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """Values of factored targets at flat (topic, cell) indices."""
    n_cells = math.prod(t.cell_shape)
    T = lookup(t.keys, t.tvals, topics * n_cells + cells)
    a, r = split_cells(cells, t.cell_shape, t.bg)
    mu = lookup(t.mu_keys, t.mu_vals, topics * t.n_other + r)
    with np.errstate(over="ignore", invalid="ignore"):
        return t.f[topics, a] * T + t.g[topics, a] * mu


def factored_sums(t: Factored, n_topics: int):
    """Per topic, the sum and the sum of squares of factored targets over all cells."""
    n_cells = math.prod(t.cell_shape)
    t_of = t.keys // n_cells
    a_of, _ = split_cells(t.keys % n_cells, t.cell_shape, t.bg)
    mu_t = t.mu_keys // t.n_other
    with np.errstate(over="ignore", invalid="ignore"):
        ft = t.f[t_of, a_of] * t.tvals
        mu_sum = np.bincount(mu_t, weights=t.mu_vals, minlength=n_topics)
        mu_sq = np.bincount(mu_t, weights=t.mu_vals * t.mu_vals, minlength=n_topics)
        g_sum, g_sq = t.g.sum(axis=1), (t.g * t.g).sum(axis=1)
        # the mu part only where g is not 0: a sum past float64 stays inf, not 0 * inf
        total = np.bincount(t_of, weights=ft, minlength=n_topics) + np.where(
            g_sum != 0, g_sum * mu_sum, 0.0
        )
        sumsq = np.bincount(t_of, weights=ft * ft, minlength=n_topics) + np.where(
            g_sq != 0, g_sq * mu_sq, 0.0
        )
    return total, sumsq


# --------------------------------------------------------------------------- lines
def block_starts(*codes: np.ndarray) -> np.ndarray:
    """Where a line starts a new block of equal consecutive (code, ...) values."""
    n = len(codes[0])
    change = np.ones(n, dtype=bool)
    if n > 1:
        change[1:] = False
        for c in codes:
            change[1:] |= c[1:] != c[:-1]
    return change


def positions_in_blocks(*codes: np.ndarray) -> np.ndarray:
    """Position (from 0) of each line within its block of equal consecutive values."""
    n = len(codes[0])
    heads = np.flatnonzero(block_starts(*codes))
    start = np.repeat(heads, np.diff(np.append(heads, n)))
    return np.arange(n) - start
