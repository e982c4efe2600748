r"""TREC Fair Ranking 2021 and 2022: AWRF, nDCG x AWRF and expected exposure (EE-L/D/R).

The measures of the TREC Fair Ranking track, per topic, as the organisers' code computes
them (github.com/fair-trec/trec2022-fair-public ``wptrec/metrics``; trec2021-fair-public
``metrics.py``):

- Task 1 scores one ranking per topic: ``nDCG`` with the track's discount, ``AWRF``
  (one minus the Jensen-Shannon divergence, in nats, between the attention-weighted
  exposure of the groups and a target distribution) and their product ``nDCG*AWRF``;
- Task 2 scores a sequence of rankings per topic: the expected exposure loss ``EE-L``,
  disparity ``EE-D`` and relevance ``EE-R`` of the groups.

A group is a **cell** of the intersection of the fairness dimensions (geography, gender,
...): a page's alignment over the cells is the outer product of its per-dimension
alignment rows. Cells are ordered row-major, the first dimension slowest. Per-page
intersections are never formed: weighted sums of outer products are one sparse matrix
product after splitting the dimensions into two groups, and the divergences only visit
the cells a ranking exposes (the others enter through sums known in closed form), so the
2022 intersection of 8 dimensions (about 26 million cells) costs what its non-zero
alignments cost.

Per-edition behaviour that surprises (the official code's, reproduced here):

- ranks 1 and 2 both weigh 1 (``1/log2(max(k, 2))``, in single precision);
- the divergence is in nats on renormalised inputs, so AWRF never falls below
  ``1 - ln 2 = 0.307``;
- EE-R is the plain dot product of system and target exposure, and the target exposure
  is the target distribution times the exposure of one full ranking (``Z_20``, ``Z_50``);
- 2022 drops pages that no alignment table lists, with their attention; 2021 Task 1
  removes the all-unknown cell and falls back to a uniform exposure;
- alignment rows are used as given (the 2022 gender rows are multi-hot and sum to 2 for
  a page about two people).

The array-level functions here take padded arrays; the arithmetic is the same for every
caller. Category 0 of a dimension is its unknown category wherever one is needed (the
dimensions with a background, and every dimension in edition 2021).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from . import _core
from ._accel import KeyTable
from ._validation import (
    FairconvWarning,
    as_float_array,
    caller,
    check_bool_array,
    check_int,
    check_int_array,
    check_int_choice,
    check_mapping,
    check_names,
    check_one_per,
    check_sequence_of,
    check_unique_names,
    fail,
    fail_params,
    fail_type,
    kind_of,
    public,
)
from .io import _trecfair as _io

__all__ = [
    "evaluate",
    "build_targets",
    "measure_names",
    "read_run",
    "read_qrels",
    "read_alignment",
    "read_metadata",
    "read_targets",
    "read_background",
    "read_work",
    "Dimension",
    "FairRun",
    "FairQrels",
    "WorkLevels",
    "Background",
    "TopicTargets",
    "BACKGROUND_PRESETS",
    "task1",
    "task2",
    "targets_from_alignments",
    "page_weights",
    "Targets",
    "discount",
    "exposure_of_ranking",
    "WORK_LEVELS",
    "Z_20",
    "Z_50",
]

WORK_LEVELS = ("Stub", "Start", "C", "B", "GA", "FA")
"""The work levels in the official order (most work needed first); codes 0..5."""

_DEFAULT_LEN = {(1, 2022): 500, (1, 2021): 1000, (2, 2022): 20, (2, 2021): 50}
_SUM_TOL = 1e-5
_BLOCK = 1 << 22  # cells of the sparse products held at once (per block of topics)


# --------------------------------------------------------------------------- discount
@public
def discount(n: int, /) -> np.ndarray:
    r"""The track's rank discount of ranks 1..n, computed in single precision.

    .. math::
        \delta(k) = 1 / \log_2 \max(k, 2)

    with ``k`` as float32, ``log2`` and the reciprocal in float32, returned as float64.

    Parameters
    ----------
    n : int
        Number of ranks, >= 0.

    Returns
    -------
    ndarray of float64, shape (n,)
        In (0, 1]; ``delta(1) = delta(2) = 1``.

    Raises
    ------
    ValueError
        If ``n`` is not a non-negative integer.

    Notes
    -----
    Spec ``trecfair.md`` section 2; ``wptrec/metrics/common.py`` (2022) and
    ``metrics.py`` (2021). Not the ``1/log2(k + 1)`` of most nDCG code.

    Examples
    --------
    >>> discount(3).tolist()
    [1.0, 1.0, 0.6309297680854797]
    """
    n = check_int(n, "n", minimum=0)
    return _core.trec_fair_discount(n).astype(np.float64)


@public
def exposure_of_ranking(n: int, /) -> float:
    r"""The exposure of one full ranking of ``n`` pages, as the official code sums it.

    .. math::
        Z_n = \sum_{k=1}^{n} \delta(k)

    summed by numpy in float32 (pairwise), as ``np.sum(discount(n))`` in the official
    code; ``Z_20`` (2022 Task 2) and ``Z_50`` (2021 Task 2) are the values used there.

    Parameters
    ----------
    n : int
        The target length, >= 1.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer.

    Notes
    -----
    Spec section 2 and 4; ``wptrec/metrics/eel.py`` (``avail_exp``).

    Examples
    --------
    >>> exposure_of_ranking(20) == Z_20
    True
    """
    n = check_int(n, "n", minimum=1)
    return float(np.sum(_core.trec_fair_discount(n)))


Z_20 = 7.812597751617432
"""``np.sum`` of the float32 discounts of ranks 1..20 (2022 Task 2)."""
Z_50 = 13.721441268920898
"""``np.sum`` of the float32 discounts of ranks 1..50 (2021 Task 2)."""


# --------------------------------------------------------------------------- checks
def _array(x, name, *, kind="float") -> np.ndarray:
    if kind == "bool":
        return check_bool_array(x, name)
    if kind == "int":
        return check_int_array(x, name)
    return as_float_array(x, name)


def _shape(arr, shape, name, what):
    if arr.shape != tuple(shape):
        raise fail(name, f"have shape {tuple(shape)} ({what})", f"shape {arr.shape}")


def _first(mask: np.ndarray) -> str:
    idx = tuple(int(i) for i in np.argwhere(mask)[0])
    return f" at index {idx}"


def _too_many_cells(name: str, n_topics: int, sizes) -> ValueError:
    """The error of (topic, cell) pairs past int64's keys (:func:`_io.cells_fit`)."""
    return fail(
        name,
        f"give at most {_io._KEY_LIMIT} (topic, cell) pairs: the topics times the "
        "product of the dimensions' category counts",
        f"{n_topics} topics x {math.prod(sizes)} cells",
    )


def _task(task) -> int:
    return check_int_choice(task, "task", _io.TASKS)


def _edition(edition) -> int:
    return check_int_choice(edition, "edition", _io.EDITIONS)


def _alignments(alignments, lead, name) -> list[np.ndarray]:
    """One array of shape lead + (G_j,) per dimension; ``lead`` None: the first array's."""
    alignments = check_one_per(alignments, name, "dimension")
    if len(alignments) == 0:
        raise fail(name, "hold at least one dimension", "an empty sequence")
    out = []
    for j, a in enumerate(alignments):
        arr = _array(a, f"{name}[{j}]")
        if lead is None:
            if arr.ndim < 2:
                raise fail(f"{name}[0]", "be an array of shape (..., R, G_j)", f"shape {arr.shape}")
            lead = arr.shape[:-1]
        if arr.ndim != len(lead) + 1 or arr.shape[:-1] != tuple(lead):
            raise fail(f"{name}[{j}]", f"have shape {tuple(lead)} + (G,)", f"shape {arr.shape}")
        if arr.shape[-1] < 1:
            raise fail(f"{name}[{j}]", "have at least one category", f"shape {arr.shape}")
        out.append(arr)
    return out


def _lengths(lengths, shape, limit, name) -> np.ndarray:
    arr = _array(lengths, name, kind="int")
    _shape(arr, shape, name, "one length per list")
    bad = (arr < 0) | (arr > limit)
    if bad.any():
        raise fail(name, f"be in [0, {limit}]", f"{int(arr[bad][0])}{_first(bad)}")
    return arr


# --------------------------------------------------------------------------- core
def _nonzeros(rows: np.ndarray):
    """CSR view of the non-zero entries of each row: (counts, starts, columns, values, rows)."""
    flat = np.flatnonzero(rows != 0)  # a boolean scan: much faster than on the floats
    r, c = np.divmod(flat, rows.shape[1])
    counts = np.bincount(r, minlength=rows.shape[0])
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    return counts, starts, c, rows.reshape(-1)[flat], r


def _expand(entry_row, entry_col, entry_val, nz, size):
    """Multiply each entry by every non-zero of its row's alignment in one more dimension.

    ``entry_row`` None stands for one entry per row (column 0, value ``entry_val[row]``).
    """
    counts, starts, cols, vals, rows = nz
    if entry_row is None:
        return rows, cols, entry_val[rows] * vals
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


def _rows_of(nz, lo, hi):
    """The CSR view of rows lo..hi-1, renumbered from 0."""
    counts, starts, cols, vals, rows = nz
    if lo == 0 and hi == counts.shape[0]:
        return nz
    a = starts[lo] if lo < counts.shape[0] else cols.shape[0]
    b = starts[hi] if hi < counts.shape[0] else cols.shape[0]
    return counts[lo:hi], starts[lo:hi] - a, cols[a:b], vals[a:b], rows[a:b] - lo


def _split(sizes: Sequence[int]) -> int:
    """Where to cut the dimensions into a left and a right group (balanced cell counts)."""
    if len(sizes) == 1:
        return 1
    logs = np.log(np.asarray(sizes, dtype=np.float64))
    left = np.cumsum(logs)[:-1]
    return int(np.argmin(np.abs(2 * left - logs.sum()))) + 1


def _outer_sums(nz, weights, group, lo, hi, n_groups, sizes):
    """Per group g, ``sum_i weights[i] * outer(row_0(i), ..., row_{m-1}(i))`` (sparse).

    Over the pages ``lo <= i < hi`` (``nz`` holds each dimension's non-zeros per page,
    ``group`` the page's group, counted from ``group[lo]``). The dimensions are split
    into a left group (cells p) and a right group (cells q); with
    ``L[i, g*P + p] = weights[i] * left_outer(i)[p]`` and ``R[i, q] = right_outer(i)[q]``,
    the sums are the one sparse product ``L^T R``, whose row ``g*P + p`` and column ``q``
    are the cell ``p*Q + q`` of group g. Returns the non-zero cells sorted by (group,
    cell): ``(groups, cells, values)``.
    """
    s = _split(sizes)
    P = math.prod(sizes[:s])
    Q = math.prod(sizes[s:])
    n = hi - lo
    nz = [_rows_of(z, lo, hi) for z in nz]
    lr, lc, lv = _expand(None, None, weights[lo:hi], nz[0], sizes[0])
    for j in range(1, s):
        lr, lc, lv = _expand(lr, lc, lv, nz[j], sizes[j])
    rr, rc, rv = np.arange(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.ones(n)
    if s < len(sizes):
        rr, rc, rv = _expand(None, None, rv, nz[s], sizes[s])
    for j in range(s + 1, len(sizes)):
        rr, rc, rv = _expand(rr, rc, rv, nz[j], sizes[j])
    group = group[lo:hi]
    g0 = group[0] if n else 0
    left = sp.csr_matrix(((lv, ((group[lr] - g0) * P + lc, lr))), shape=(n_groups * P, n))
    right = sp.csr_matrix((rv, (rr, rc)), shape=(n, Q))
    prod = (left @ right).tocsr()
    prod.sum_duplicates()
    prod.eliminate_zeros()
    prod.sort_indices()
    row = np.repeat(np.arange(n_groups * P, dtype=np.int64), np.diff(prod.indptr))
    return row // P, (row % P) * Q + prod.indices.astype(np.int64), prod.data


def _blocks(cost: np.ndarray):
    """Consecutive groups whose summed cost stays under the block budget (at least one)."""
    start, n = 0, cost.shape[0]
    csum = np.concatenate(([0], np.cumsum(cost)))
    while start < n:
        stop = int(np.searchsorted(csum, csum[start] + _BLOCK, side="right")) - 1
        stop = max(stop, start + 1)
        yield start, min(stop, n)
        start = stop


class _Pages:
    """The pages that count: their groups, weights and non-zero alignments per dimension.

    Built from padded arrays: ``mask`` (..., per_group) selects the pages; only their rows
    are checked (finite, non-negative) and used.
    """

    def __init__(self, alignments, mask, weights, per_group, name):
        picked = mask.reshape(-1)
        sel = np.flatnonzero(picked)
        self.group = sel // per_group
        # the weights of the picked pages only, from the (possibly broadcast) weights
        self.weights = np.broadcast_to(weights, mask.shape)[np.unravel_index(sel, mask.shape)]
        self.sizes = [a.shape[-1] for a in alignments]
        self.nz = []
        nnz = np.ones(sel.shape[0])
        for j, a in enumerate(alignments):
            rows = np.take(a.reshape(-1, a.shape[-1]), sel, axis=0)  # faster than a mask
            # min and max propagate NaN: one pass each, the row search only on failure
            if rows.size and not (rows.min() >= 0 and rows.max() < np.inf):
                ok = ((rows >= 0) & (rows < np.inf)).all(axis=1)
                where = tuple(int(i) for i in np.unravel_index(sel[np.argmin(ok)], mask.shape))
                raise fail(
                    f"{name}[{j}]",
                    "hold finite non-negative numbers",
                    f"a bad value at index {where}",
                )
            self.nz.append(_nonzeros(rows))
            nnz *= self.nz[-1][0]
        self.nnz = nnz

    def blocks(self, n_groups):
        """Yield (first group, number of groups, groups, cells, values) block by block."""
        n_cells = math.prod(self.sizes)
        cost = np.minimum(np.bincount(self.group, weights=self.nnz, minlength=n_groups), n_cells)
        bounds = np.searchsorted(self.group, np.arange(n_groups + 1))
        for g0, g1 in _blocks(cost + 1):
            lo, hi = int(bounds[g0]), int(bounds[g1])
            if lo == hi:
                empty = np.zeros(0, np.int64)
                yield g0, g1 - g0, empty, empty, np.zeros(0)
                continue
            g, c, v = _outer_sums(self.nz, self.weights, self.group, lo, hi, g1 - g0, self.sizes)
            yield g0, g1 - g0, g + (self.group[lo] - g0), c, v


# --------------------------------------------------------------------------- targets
class Targets:
    r"""Per-topic target distributions over the cells of an intersection, held factored.

    A target built from a topic's relevant pages (:func:`targets_from_alignments`) is

    .. math::
        \tau(a, r) = f(a)\, T(a, r) + g(a)\, \mu(r)

    with ``T`` the (sparse) relevant-set distribution, ``a`` the cell's part over the
    dimensions with a background, ``r`` over the others, ``mu`` the marginal of ``T``
    over ``r`` and ``f``, ``g`` the background mixing (spec section 6). Nothing of the
    size of the intersection is stored; :meth:`toarray` materialises it.

    Attributes
    ----------
    batch_shape : tuple of int
        The leading (topic) shape.
    cell_shape : tuple of int
        ``(G_1, ..., G_m)``.
    total : ndarray, shape batch_shape
        Sum of each target over the cells (NaN where the target is undefined).
    defined : ndarray of bool, shape batch_shape
        False where the relevant pages give the target no mass (spec 6.2).

    Examples
    --------
    >>> rows = [[[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]]
    >>> t = targets_from_alignments(rows, lengths=[2], task=1, backgrounds=[[0.25, 0.75]])
    >>> t.batch_shape, t.cell_shape, t.toarray().tolist()
    ((1,), (3,), [[0.5, 0.3125, 0.1875]])
    """

    __slots__ = (
        "batch_shape",
        "cell_shape",
        "total",
        "defined",
        "_sumsq",
        "_keys",
        "_tvals",
        "_f",
        "_g",
        "_mu_keys",
        "_mu_vals",
        "_bg",
        "_nr",
    )

    def __init__(self, batch_shape, cell_shape, keys, tvals, f, g, mu_keys, mu_vals, bg):
        self.batch_shape = tuple(batch_shape)
        self.cell_shape = tuple(cell_shape)
        self._keys, self._tvals = keys, tvals
        self._f, self._g = f, g
        self._mu_keys, self._mu_vals = mu_keys, mu_vals
        self._bg = tuple(bg)
        self._nr = math.prod(s for j, s in enumerate(self.cell_shape) if j not in self._bg)
        nt = math.prod(self.batch_shape)
        n_cells = math.prod(self.cell_shape)
        t_of = keys // n_cells
        a_of, _ = self._split_cells(keys % n_cells)
        ft = f[t_of, a_of] * tvals
        mu_t = mu_keys // self._nr
        mu_sum = np.bincount(mu_t, weights=mu_vals, minlength=nt)
        mu_sq = np.bincount(mu_t, weights=mu_vals * mu_vals, minlength=nt)
        total = np.bincount(t_of, weights=ft, minlength=nt) + g.sum(axis=1) * mu_sum
        sumsq = np.bincount(t_of, weights=ft * ft, minlength=nt) + (g * g).sum(axis=1) * mu_sq
        defined = np.isfinite(f).all(axis=1)
        self.defined = defined.reshape(self.batch_shape)
        self.total = np.where(defined, total, np.nan).reshape(self.batch_shape)
        self._sumsq = np.where(defined, sumsq, np.nan)

    def __repr__(self) -> str:
        return f"Targets(batch_shape={self.batch_shape}, cell_shape={self.cell_shape})"

    def _split_cells(self, cells):
        """The background part ``a`` and the other part ``r`` of flat cell indices."""
        coords = np.unravel_index(cells, self.cell_shape)
        bg = self._bg
        other = [j for j in range(len(self.cell_shape)) if j not in bg]
        a = np.zeros(cells.shape, dtype=np.int64)
        r = np.zeros(cells.shape, dtype=np.int64)
        if bg:
            a = np.ravel_multi_index([coords[j] for j in bg], [self.cell_shape[j] for j in bg])
        if other:
            r = np.ravel_multi_index(
                [coords[j] for j in other], [self.cell_shape[j] for j in other]
            )
        return a, r

    def _at(self, topics: np.ndarray, cells: np.ndarray) -> np.ndarray:
        """Target values of flat topic indices at flat cell indices (NaN if undefined)."""
        n_cells = math.prod(self.cell_shape)
        t = _lookup(self._keys, self._tvals, topics * n_cells + cells)
        a, r = self._split_cells(cells)
        mu = _lookup(self._mu_keys, self._mu_vals, topics * self._nr + r)
        return self._f[topics, a] * t + self._g[topics, a] * mu

    @public
    def toarray(self) -> np.ndarray:
        """The dense targets, shape ``batch_shape + cell_shape`` (NaN where undefined).

        Examples
        --------
        >>> t = targets_from_alignments([[[[0.0, 1.0], [1.0, 0.0]]]], lengths=[2], task=1)
        >>> t.toarray().tolist()
        [[0.5, 0.5]]
        """
        nt = math.prod(self.batch_shape)
        n_cells = math.prod(self.cell_shape)
        topics = np.repeat(np.arange(nt, dtype=np.int64), n_cells)
        cells = np.tile(np.arange(n_cells, dtype=np.int64), nt)
        return self._at(topics, cells).reshape(self.batch_shape + self.cell_shape)


def _lookup(keys: np.ndarray, values: np.ndarray, query: np.ndarray) -> np.ndarray:
    """``values`` at the sorted ``keys`` equal to ``query``; 0 where absent."""
    if keys.shape[0] == 0:
        return np.zeros(query.shape)
    pos = np.minimum(np.searchsorted(keys, query), keys.shape[0] - 1)
    return np.where(keys[pos] == query, values[pos], 0.0)


class _Dense:
    """Explicit targets, flattened to (targets, cells)."""

    def __init__(self, arr: np.ndarray, n_targets: int):
        self.flat = arr.reshape(n_targets, -1)
        self.total = self.flat.sum(axis=1)
        self._sumsq = np.einsum("ij,ij->i", self.flat, self.flat)

    def _at(self, topics, cells):
        return self.flat[topics, cells]


@public
def page_weights(levels, /, *, lengths, edition: int = 2022) -> np.ndarray:
    r"""Task 2 weights of relevant pages from their work levels (the ideal exposure).

    Levels are ordered Stub, Start, C, B, GA, FA (codes 0..5, most work needed first).
    With ``n_l`` relevant pages at level ``l``, level ``l`` takes the ideal positions
    ``P_l = n_{<l} + 1 .. n_{<l} + n_l`` and each of its pages weighs

    .. math::
        w(d) = \frac{1}{n_l} \sum_{k \in P_l} \delta(k).

    Parameters
    ----------
    levels : array_like of int, shape (..., R)
        Work level code (0..5) of each relevant page; -1 for a page without a level.
        Positions at or beyond ``lengths`` are ignored.
    lengths : array_like of int, shape (...)
        Number of relevant pages of each topic.
    edition : {2022, 2021}
        2021 leaves pages without a level out (weight 0, no position), as the official
        join does; 2022 refuses them (the official target would be NaN).

    Returns
    -------
    ndarray of float64, shape (..., R)
        Weights in (0, 1]; 0 at padding (and at 2021 pages without a level).

    Raises
    ------
    ValueError
        For a level outside -1..5, a 2022 page without one, or bad lengths.

    Notes
    -----
    Spec section 6.1; ``qw_tgt_exposure`` in ``Task2Alignment.py`` (2022) and
    ``Alignments.py`` (2021), whose float32 mean is taken here in float64 of the float32
    discounts (at most about 1e-7 relative apart).

    Examples
    --------
    >>> page_weights([[0, 5, 0]], lengths=[3]).round(6).tolist()
    [[1.0, 0.63093, 1.0]]
    """
    edition = _edition(edition)
    lev = _array(levels, "levels", kind="int")
    if lev.ndim < 1:
        raise fail("levels", "have a page axis", f"shape {lev.shape}")
    n = _lengths(lengths, lev.shape[:-1], lev.shape[-1], "lengths")
    return _page_weights(lev, n, edition)


def _page_weights(lev, n, edition):
    R = lev.shape[-1]
    mask = np.arange(R) < n[..., None]
    bad = mask & ((lev < -1) | (lev > 5))
    if bad.any():
        raise fail("levels", "be a work level code in 0..5 (or -1)", f"{int(lev[bad][0])}")
    missing = mask & (lev < 0)
    if edition == 2022 and missing.any():
        raise fail("levels", "give every relevant page a level (2022)", f"none{_first(missing)}")
    return _core.work_level_weights(lev, mask & (lev >= 0))


@public
def targets_from_alignments(
    alignments,
    /,
    *,
    lengths,
    task: int,
    edition: int = 2022,
    known=None,
    levels=None,
    backgrounds=None,
) -> Targets:
    r"""Build per-topic targets from the relevant pages, as the organisers' notebooks did.

    1. Page weights: 1 (Task 1) or :func:`page_weights` of the work levels (Task 2).
    2. Relevant-set distribution over the cells: 2022
       :math:`T = \sum_{d \in R} w(d) A(d) / \sum_{d \in R} w(d)`; 2021
       :math:`T' = \sum_{d \in R,\ known} w(d) A(d)`, the all-unknown cell u cleared for
       Task 1, :math:`T = T' / \sum T'`.
    3. Background mixing: split a cell into ``(a, r)``, ``a`` over the dimensions with a
       background, with mass :math:`M(a) = \sum_r T(a, r)`, marginal
       :math:`\mu(r) = \sum_a T(a, r)`, imputed :math:`\tilde T(a, r) = T(a, r)` if
       :math:`M(a) > 0` else :math:`\mu(r)` and spread
       :math:`\theta(a, r) = \tilde T(a, r) / \sum_{r'} \tilde T(a, r')`. For each
       non-empty set K of background dimensions, the block :math:`B_K` (dimensions in K at
       a known category, the other background dimensions at their unknown one) with mass
       :math:`c_K` becomes

       .. math::
           T^*(c) = T(c)/2 + c_K \prod_{j \in K} \beta_j(c_j)\, \theta(a, r) / 2,

       and cells whose background dimensions are all unknown keep T. Not renormalised.

    Parameters
    ----------
    alignments : sequence of array_like, each (..., R, G_j)
        Alignment rows of each topic's relevant pages (padded to R), one array per
        dimension. Category 0 is the unknown category of a dimension with a background
        (and of every dimension in 2021).
    lengths : array_like of int, shape (...)
        Number of relevant pages per topic.
    task : {1, 2}
    edition : {2022, 2021}
    known : array_like of bool, shape (..., R), optional
        Whether the alignment tables list the page (default: all). 2021 skips unknown
        pages; 2022 refuses them (the official code fails on them).
    levels : array_like of int, shape (..., R)
        Work level codes (0..5 = Stub..FA; -1 none), required for Task 2.
    backgrounds : sequence of (array_like or None), optional
        Per dimension, None or the background distribution over categories 1..G_j-1
        (its known categories), summing to 1.

    Returns
    -------
    Targets
        The targets tau (batch shape ``...``); a topic whose relevant pages give no mass
        is undefined (NaN), with a :class:`~fairconv.FairconvWarning` naming its index.

    Raises
    ------
    ValueError
        For bad shapes, values, levels or backgrounds, a topic without relevant pages,
        or an unknown relevant page in 2022.

    Notes
    -----
    Spec section 6; ``Task1Alignment.py`` and ``Task2Alignment.py`` (``query_xalign``,
    ``avg_with_bg``, 2022), ``Alignments.py`` (``query_xalign``, ``query_xideal``, 2021).
    The rule is per cell, so the background dimensions may come in any order (the
    official notebooks need them first).

    Examples
    --------
    One dimension with a background: T on the unknown category, T/2 + (known mass)
    beta/2 on the others.

    >>> rows = [[[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]]
    >>> t = targets_from_alignments(rows, lengths=[2], task=1, backgrounds=[[0.25, 0.75]])
    >>> t.toarray().tolist()
    [[0.5, 0.3125, 0.1875]]
    """
    task = _task(task)
    edition = _edition(edition)
    rows = _alignments(alignments, None, "alignments")
    lead = rows[0].shape[:-1]
    sizes = tuple(a.shape[-1] for a in rows)
    batch, R = lead[:-1], lead[-1]
    if not _io.cells_fit(math.prod(batch), sizes):
        raise _too_many_cells("alignments", math.prod(batch), sizes)
    n = _lengths(lengths, batch, R, "lengths")
    if (n == 0).any():
        raise fail("lengths", "be at least 1 (a topic needs a relevant page)", f"0{_first(n == 0)}")
    mask = np.arange(R) < n[..., None]
    kn = np.ones(lead, bool) if known is None else _array(known, "known", kind="bool")
    _shape(kn, lead, "known", "one flag per relevant page")
    if edition == 2022 and (mask & ~kn).any():
        raise fail("known", "be True for every relevant page (2022)", f"False{_first(mask & ~kn)}")
    if edition == 2021:
        small = [j for j, s in enumerate(sizes) if s < 2]
        if small:
            raise fail(
                f"alignments[{small[0]}]",
                "have an unknown category 0 and a known one (2021)",
                f"{sizes[small[0]]} category",
            )
    if task == 2:
        if levels is None:
            raise fail("levels", "be given for Task 2", "None")
        lev = _array(levels, "levels", kind="int")
        _shape(lev, lead, "levels", "one level per relevant page")
        w = _page_weights(lev, n, edition)
    else:
        w = mask.astype(np.float64)
    bgs = _backgrounds(backgrounds, sizes)
    nt = math.prod(batch)
    use = mask & kn & (w > 0)
    parts = [(g + g0, c, v) for g0, _, g, c, v in _Pages(rows, use, w, R, "alignments").blocks(nt)]
    g, c, v = (np.concatenate(x) for x in zip(*parts, strict=True))
    if edition == 2021 and task == 1:
        keep = c != 0  # the all-unknown cell is the first cell
        g, c, v = g[keep], c[keep], v[keep]
    if edition == 2022:
        norm = (w * mask).reshape(nt, R).sum(axis=1)
    else:
        norm = np.bincount(g, weights=v, minlength=nt)
    mass = np.bincount(g, weights=v, minlength=nt)
    undefined = ~(mass > 0)
    if undefined.any():
        idx = [tuple(int(i) for i in np.unravel_index(t, batch)) for t in np.flatnonzero(undefined)]
        warnings.warn(
            f"{caller()}: the relevant pages of topic(s) at index "
            f"{', '.join(map(str, idx))} give the target no mass; their target is undefined "
            "(NaN), as is every measure that uses it.",
            FairconvWarning,
            stacklevel=2,
        )
    with np.errstate(invalid="ignore", divide="ignore"):
        v = v / norm[g]
    return _mix(batch, sizes, g, c, v, bgs, undefined)


def _backgrounds(backgrounds, sizes):
    out: dict[int, np.ndarray] = {}
    if backgrounds is None:
        return out
    backgrounds = check_one_per(backgrounds, "backgrounds", "dimension", count=len(sizes))
    for j, b in enumerate(backgrounds):
        if b is None:
            continue
        arr = _array(b, f"backgrounds[{j}]")
        if arr.shape != (sizes[j] - 1,):
            raise fail(
                f"backgrounds[{j}]",
                f"have one weight per known category ({sizes[j] - 1})",
                f"shape {arr.shape}",
            )
        if not (np.isfinite(arr) & (arr >= 0)).all():
            raise fail(f"backgrounds[{j}]", "hold finite non-negative weights", "a bad value")
        if abs(arr.sum() - 1.0) > _SUM_TOL:
            raise fail(
                f"backgrounds[{j}]",
                f"sum to 1 (within {_SUM_TOL:g})",
                f"sum {arr.sum():.10g}",
            )
        out[j] = arr
    return out


def _mix(batch, sizes, g, c, v, bgs, undefined) -> Targets:
    """Background mixing (spec 6.3) in the factored form ``f(a) T + g(a) mu(r)``."""
    nt = math.prod(batch)
    n_cells = math.prod(sizes)
    bg = tuple(sorted(bgs))
    other = [j for j in range(len(sizes)) if j not in bg]
    a_shape = [sizes[j] for j in bg]
    na = math.prod(a_shape)
    nr = math.prod(sizes[j] for j in other)
    coords = np.unravel_index(c, sizes)
    a = np.ravel_multi_index([coords[j] for j in bg], a_shape) if bg else np.zeros_like(c)
    r = (
        np.ravel_multi_index([coords[j] for j in other], [sizes[j] for j in other])
        if other
        else np.zeros_like(c)
    )
    M = np.bincount(g * na + a, weights=v, minlength=nt * na).reshape(nt, na)
    mu_key, mu_inv = np.unique(g * nr + r, return_inverse=True)
    mu_val = np.bincount(mu_inv.reshape(-1), weights=v, minlength=mu_key.shape[0])
    f = np.ones((nt, na))
    gm = np.zeros((nt, na))
    if bg:
        a_coords = np.unravel_index(np.arange(na), a_shape)
        pattern = np.zeros(na, dtype=np.int64)
        beta = np.ones(na)
        for i, j in enumerate(bg):
            known = a_coords[i] > 0
            pattern |= known.astype(np.int64) << i
            beta *= np.where(known, bgs[j][np.maximum(a_coords[i] - 1, 0)], 1.0)
        nk = 1 << len(bg)
        cK = M @ (pattern[:, None] == np.arange(nk)).astype(np.float64)  # block masses c_K
        mu_sum = np.bincount(mu_key // nr, weights=mu_val, minlength=nt)
        share = cK[:, pattern] * beta  # c_K prod beta_j, per topic and background cell
        has = M > 0
        with np.errstate(invalid="ignore", divide="ignore"):
            f = np.where(has, 0.5 + share / (2.0 * np.where(has, M, 1.0)), 0.0)
            gm = np.where(has, 0.0, share / (2.0 * mu_sum[:, None]))
        mixed = pattern > 0
        f = np.where(mixed, f, 1.0)
        gm = np.where(mixed, gm, 0.0)
    f[undefined] = np.nan
    gm[undefined] = np.nan
    keys = g * n_cells + c
    return Targets(batch, sizes, keys, v, f, gm, mu_key, mu_val, bg)


def _target_source(targets, batch_shape, sizes, edition, task):
    """(source, index of each batch element's target) for dense or built targets."""
    if isinstance(targets, Targets):
        if targets.cell_shape != tuple(sizes):
            raise fail("targets", f"have cells of shape {tuple(sizes)}", f"{targets.cell_shape}")
        tshape = targets.batch_shape
        src: Targets | _Dense = targets
    else:
        arr = _array(targets, "targets")
        m = len(sizes)
        if arr.ndim < m or arr.shape[arr.ndim - m :] != tuple(sizes):
            raise fail("targets", f"end with the cell shape {tuple(sizes)}", f"shape {arr.shape}")
        tshape = arr.shape[: arr.ndim - m]
        flat = arr.reshape(tshape + (-1,))
        bad = ~(np.isfinite(flat) & (flat >= 0)).all(axis=-1)
        if bad.any():
            raise fail("targets", "hold finite non-negative numbers", f"a bad value{_first(bad)}")
        if edition == 2021 and task == 1:
            nz = flat[..., 0] != 0
            if nz.any():
                raise fail(
                    "targets",
                    "be 0 at the all-unknown cell (2021 Task 1 removes it)",
                    f"{float(flat[..., 0][nz][0]):.10g}{_first(nz)}",
                )
        zero = ~(flat.sum(axis=-1) > 0)
        if zero.any():
            raise fail("targets", "have a positive sum for every topic", f"0{_first(zero)}")
        src = _Dense(arr, math.prod(tshape))
    try:
        index = np.broadcast_to(np.arange(math.prod(tshape)).reshape(tshape), batch_shape)
    except ValueError:
        raise fail(
            "targets",
            f"have a leading shape that broadcasts to {tuple(batch_shape)}",
            f"{tuple(tshape)}",
        ) from None
    return src, index.reshape(-1)


# --------------------------------------------------------------------------- task 1
@public
def task1(
    relevant,
    alignments,
    targets,
    /,
    *,
    known,
    lengths,
    n_relevant,
    edition: int = 2022,
    target_len: int | None = None,
) -> dict[str, np.ndarray]:
    r"""TREC Fair Task 1: nDCG, AWRF and their product, one ranking per topic.

    For a ranking :math:`d_1..d_n` of at most N pages, relevant set R and target
    :math:`\tau`:

    .. math::
        nDCG = \frac{\sum_{k \le n,\ d_k \in R} \delta(k)}{\sum_{k=1}^{\min(N, |R|)} \delta(k)},
        \qquad
        AWRF = 1 - JS(E, \tau),\quad E = \sum_{k:\ d_k\ known} \delta(k) A(d_k),

    where :math:`A(d)` is the outer product of the page's alignment rows and JS the
    Jensen-Shannon divergence in nats of the renormalised inputs,
    :math:`JS(p, q) = \frac12 \sum_c \hat p_c \ln\frac{\hat p_c}{m_c} +
    \frac12 \sum_c \hat q_c \ln\frac{\hat q_c}{m_c}`, :math:`m = (\hat p + \hat q)/2`,
    so AWRF is in :math:`[1 - \ln 2, 1]`. 2022 drops pages no table lists (NaN when none
    is left or E is all zero). 2021 removes the all-unknown cell (category 0 of every
    dimension) from E and the target, and uses a uniform E when nothing is left.

    Parameters
    ----------
    relevant : array_like of bool, shape (..., K)
        Whether the page at each rank is relevant.
    alignments : sequence of array_like, each (..., K, G_j)
        Alignment row of the page at each rank in each dimension, used as given (rows of
        unknown pages and padding are ignored).
    targets : array_like (..., G_1, ..., G_m) or Targets
        Target per topic; its leading shape broadcasts to ``...`` (e.g. (topics, 1) for
        (topics, runs)). For 2021 its all-unknown cell must be 0.
    known : array_like of bool, shape (..., K)
        Whether the alignment tables list the page.
    lengths : array_like of int, shape (...)
        Ranking lengths n (positions beyond are padding), at most N.
    n_relevant : array_like of int, shape (...)
        ``|R|`` of each topic, at least 1.
    edition : {2022, 2021}
    target_len : int, optional
        N: 500 (2022) or 1000 (2021) by default.

    Returns
    -------
    dict of str to ndarray, each of shape (...)
        ``nDCG`` in [0, 1], ``AWRF`` in [1 - ln 2, 1] and ``nDCG*AWRF`` (higher is
        better); NaN where AWRF is undefined.

    Raises
    ------
    ValueError
        For bad shapes or values, a ranking longer than N, a topic without relevant
        pages, or a 2021 target with mass on the all-unknown cell.

    Notes
    -----
    Spec ``trecfair.md`` section 3; ``wptrec/metrics/awrf.py`` (2022) and ``metrics.py``
    (``qr_ndcg``, ``qr_awrf``, 2021). The discounts are the float32 values of
    :func:`discount`, summed in float64. Edition 2021's evaluation kept each run's first
    20 lines per topic: pass lengths already cut (the IDCG still runs over ``min(N, |R|)``).
    A JS that rounds below 0 is taken as 0 (the official square root gives NaN there).
    The product runs the dimensions as one sparse matrix product over two groups of
    dimensions and the divergence over the exposed cells only: the unexposed cells
    contribute :math:`\frac{\ln 2}{2} \sum_{c:\ p_c = 0} \hat q_c` in closed form.

    Examples
    --------
    Two pages, one dimension of two groups, a uniform target:

    >>> out = task1([[True, False]], [[[[1.0, 0.0], [0.0, 1.0]]]], [[0.5, 0.5]],
    ...             known=[[True, True]], lengths=[2], n_relevant=[1])
    >>> {k: round(float(v[0]), 6) for k, v in out.items()}
    {'nDCG': 1.0, 'AWRF': 1.0, 'nDCG*AWRF': 1.0}
    """
    edition = _edition(edition)
    rel = _array(relevant, "relevant", kind="bool")
    if rel.ndim < 1:
        raise fail("relevant", "have a rank axis", f"shape {rel.shape}")
    lead = rel.shape
    batch, K = lead[:-1], lead[-1]
    kn = _array(known, "known", kind="bool")
    _shape(kn, lead, "known", "the shape of 'relevant'")
    rows = _alignments(alignments, lead, "alignments")
    sizes = [a.shape[-1] for a in rows]
    N = _default_len(target_len, 1, edition)
    n = _lengths(lengths, batch, K, "lengths")
    over = n > N
    if over.any():
        raise fail(
            "lengths", f"be at most the target length {N}", f"{int(n[over][0])}{_first(over)}"
        )
    nrel = _array(n_relevant, "n_relevant", kind="int")
    _shape(nrel, batch, "n_relevant", "one count per topic")
    if (nrel < 1).any():
        raise fail(
            "n_relevant",
            "be at least 1 (a topic needs a relevant page)",
            f"{int(nrel[nrel < 1][0])}{_first(nrel < 1)}",
        )
    if edition == 2021 and min(sizes) < 2:
        raise fail(
            "alignments",
            "give every dimension an unknown category 0 and a known one (2021)",
            f"sizes {tuple(sizes)}",
        )
    src, tindex = _target_source(targets, batch, sizes, edition, 1)
    return _task1(rel, kn, rows, n, nrel, src, tindex, edition, N)


def _task1(rel, kn, rows, n, nrel, src, tindex, edition, N):
    """Task 1 on checked arrays; ``tindex`` the target of each batch element (flat)."""
    batch, K = rel.shape[:-1], rel.shape[-1]
    within = np.arange(K) < n[..., None]
    delta = discount(max(K, N))
    ndcg = _core.trec_fair_ndcg(within & rel, delta, nrel, N)
    pages = _Pages(rows, within & kn, delta[:K], K, "alignments")
    awrf = _awrf(pages, src, tindex, edition)
    awrf = awrf.reshape(batch)
    return {"nDCG": ndcg, "AWRF": awrf, "nDCG*AWRF": ndcg * awrf}


def _default_len(target_len, task, edition) -> int:
    if target_len is None:
        return _DEFAULT_LEN[(task, edition)]
    return check_int(target_len, "target_len", minimum=1)


def _awrf(pages, src, tindex, edition):
    nb = tindex.shape[0]
    n_cells = math.prod(pages.sizes)
    js = np.full(nb, np.nan)
    for g0, count, g, c, v in pages.blocks(nb):
        if edition == 2021:
            # the all-unknown cell (cell 0) is removed; no exposure left: uniform E
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
        js[g0 : g0 + count] = _js_block(g, c, v, count, src, tindex[g0 : g0 + count])
    return 1.0 - js


def _js_block(g, c, v, count, src, tix):
    """JS (nats) of each group's sparse exposure against its target; NaN if undefined.

    Over the exposed cells, ``p ln(p/m) + q ln(q/m)``; each unexposed cell adds
    ``q ln 2``, in all ``ln 2 (1 - sum of q over the exposed cells)``.
    """
    return _core.sparse_js(g, v, src._at(tix[g], c), src.total.reshape(-1)[tix], count)


# --------------------------------------------------------------------------- task 2
@public
def task2(
    relevant,
    alignments,
    targets,
    /,
    *,
    known,
    lengths,
    edition: int = 2022,
    target_len: int | None = None,
) -> dict[str, np.ndarray]:
    r"""TREC Fair Task 2: expected exposure EE-L, EE-D, EE-R over a sequence of rankings.

    For the rankings :math:`L_s` (:math:`s \in S`) of a topic, with :math:`\delta` over
    each ranking's own positions:

    .. math::
        \epsilon = \frac{1}{|S|} \sum_{s \in S} \sum_{k:\ d_{s,k}\ counts}
        \delta(k) A(d_{s,k}),\qquad \epsilon^* = Z_N \tau,

    .. math::
        EE\text{-}L = \sum_c (\epsilon_c - \epsilon^*_c)^2,\quad
        EE\text{-}D = \sum_c \epsilon_c^2,\quad
        EE\text{-}R = \sum_c \epsilon_c \epsilon^*_c.

    A page counts when it is relevant (2022; it must then be known) or known (2021,
    relevant or not). :math:`Z_N` is :func:`exposure_of_ranking` of the target length.

    Parameters
    ----------
    relevant : array_like of bool, shape (..., S, K)
        Whether the page at each position of each ranking is relevant (unused in 2021).
    alignments : sequence of array_like, each (..., S, K, G_j)
        Alignment rows of the ranked pages, used as given.
    targets : array_like (..., G_1, ..., G_m) or Targets
        Target per topic, used as given (not renormalised); its leading shape broadcasts
        to ``...``.
    known : array_like of bool, shape (..., S, K)
        Whether the alignment tables list the page.
    lengths : array_like of int, shape (..., S)
        Length of each ranking; 0 marks padding (not a ranking).
    edition : {2022, 2021}
    target_len : int, optional
        N of :math:`Z_N`: 20 (2022) or 50 (2021) by default.

    Returns
    -------
    dict of str to ndarray, each of shape (...)
        ``EE-L`` and ``EE-D`` (lower is better, >= 0), ``EE-R`` (higher is better,
        >= 0); NaN for a topic without rankings, and EE-L and EE-R NaN for a topic whose
        target is undefined.

    Raises
    ------
    ValueError
        For bad shapes or values, or (2022) a relevant page the tables do not list.

    Notes
    -----
    Spec section 4; ``wptrec/metrics/eel.py`` (2022, ``only_rel=True``) and
    ``metrics.py`` (``Task2Metric``, 2021). EE-R is the plain dot product, not the
    guidelines' formula. Edition 2021's evaluation kept the first 6 lines of the
    rankings with seq_no <= 25: pass rankings already cut. EE-L is computed over the
    exposed cells and, for the others, as :math:`|\epsilon^*|^2` minus the exposed part.

    Examples
    --------
    >>> out = task2([[[True, True]]], [[[[[1.0, 0.0], [0.0, 1.0]]]]], [[0.5, 0.5]],
    ...             known=[[[True, True]]], lengths=[[2]])
    >>> {k: round(float(v[0]), 4) for k, v in out.items()}
    {'EE-L': 16.8931, 'EE-D': 2.0, 'EE-R': 7.8126}
    """
    edition = _edition(edition)
    rel = _array(relevant, "relevant", kind="bool")
    if rel.ndim < 2:
        raise fail("relevant", "have a ranking and a rank axis", f"shape {rel.shape}")
    lead = rel.shape
    batch, S, K = lead[:-2], lead[-2], lead[-1]
    kn = _array(known, "known", kind="bool")
    _shape(kn, lead, "known", "the shape of 'relevant'")
    rows = _alignments(alignments, lead, "alignments")
    sizes = [a.shape[-1] for a in rows]
    N = _default_len(target_len, 2, edition)
    n = _lengths(lengths, batch + (S,), K, "lengths")
    within = np.arange(K) < n[..., None]
    if edition == 2022:
        stray = within & rel & ~kn
        if stray.any():
            raise fail(
                "known",
                "be True for every retrieved relevant page (2022 looks each one up)",
                f"False{_first(stray)}",
            )
        counts = within & rel
    else:
        counts = within & kn
    src, tindex = _target_source(targets, batch, sizes, edition, 2)
    return _task2(counts, rows, n, src, tindex, N)


def _task2(counts, rows, n, src, tindex, N):
    """Task 2 on checked arrays: ``counts`` marks the pages whose exposure counts."""
    lead = counts.shape
    batch, S, K = lead[:-2], lead[-2], lead[-1]
    n_seq = (n > 0).sum(axis=-1)
    delta = discount(K)
    with np.errstate(invalid="ignore", divide="ignore"):
        w = np.broadcast_to(delta, lead) / n_seq[..., None, None]
    Z = exposure_of_ranking(N)
    nb = tindex.shape[0]
    pages = _Pages(rows, counts, w, S * K, "alignments")
    dis = np.zeros(nb)
    dot = np.zeros(nb)
    loss = np.zeros(nb)
    seen_sq = np.zeros(nb)
    for g0, count, g, c, v in pages.blocks(nb):
        tau = src._at(tindex[g0 : g0 + count][g], c)
        sums = _core.exposure_sums(g, v, tau, count, Z)
        for total, part in zip((dis, dot, loss, seen_sq), sums, strict=True):
            total[g0 : g0 + count] = part
    sumsq = src._sumsq.reshape(-1)[tindex]
    loss = _core.expected_exposure_loss(loss, sumsq, seen_sq, Z)
    none = n_seq.reshape(-1) == 0
    undefined = none | ~np.isfinite(sumsq)  # EE-D needs no target
    return {
        "EE-L": np.where(undefined, np.nan, loss).reshape(batch),
        "EE-D": np.where(none, np.nan, dis).reshape(batch),
        "EE-R": np.where(undefined, np.nan, dot).reshape(batch),
    }


# --------------------------------------------------------------------------- files
_TASK_MEASURES = {1: ("nDCG", "AWRF", "nDCG*AWRF"), 2: ("EE-L", "EE-D", "EE-R")}
_DEFAULT_DEPTH = {(1, 2021): 20, (2, 2021): 6}
_DEFAULT_SEQUENCES = {(2, 2021): 25}


@public
def measure_names(dimensions: Sequence[str], /, *, task: int) -> tuple[str, ...]:
    """The printed names of a task's measures over the intersection of ``dimensions``.

    ``nDCG`` has no set; the others carry ``[SET]``, the dimension names joined by ``,``.

    Examples
    --------
    >>> measure_names(["geography", "gender"], task=1)
    ('nDCG', 'AWRF[geography,gender]', 'nDCG*AWRF[geography,gender]')
    """
    from .results import MeasureName

    task = _task(task)
    group = ",".join(dimensions)
    if task == 1:
        bases: tuple[str, ...] = ("nDCG", "AWRF", MeasureName.join("nDCG", "AWRF", product=True))
    else:
        bases = tuple(MeasureName.join("EE", x) for x in "LDR")
    return tuple(str(MeasureName(b, None, None if b == "nDCG" else group)) for b in bases)


class TopicTargets:
    r"""Targets by topic id over the intersection of named dimensions.

    Attributes
    ----------
    topics : tuple of str
    dimensions : tuple of str
    categories : tuple of tuple of str
        The categories of each dimension, cells row-major (the first dimension slowest).
    targets : Targets
        Batch shape ``(len(topics),)``.
    source : str
        Where they came from (a file, or ``built``).

    Examples
    --------
    >>> import io
    >>> gender = read_alignment("gender", io.StringIO("page_id,Unknown,female,male\n1,0,1,0\n"))
    >>> t = read_targets(io.StringIO("topic_id,gender,target\n101,female,1\n"), [gender])
    >>> t.topics, t.dimensions, t.categories
    (('101',), ('gender',), (('Unknown', 'female', 'male'),))
    """

    __slots__ = ("topics", "dimensions", "categories", "targets", "source")

    def __init__(self, topics, dimensions, categories, targets: Targets, source="built"):
        self.topics = tuple(topics)
        self.dimensions = tuple(dimensions)
        self.categories = tuple(tuple(c) for c in categories)
        self.targets = targets
        self.source = source

    def __repr__(self) -> str:
        return (
            f"TopicTargets({len(self.topics)} topics, dimensions={list(self.dimensions)}, "
            f"source={self.source!r})"
        )

    @public
    def toarray(self) -> np.ndarray:
        r"""Dense targets, shape (topics, G_1, ..., G_m).

        Examples
        --------
        >>> import io
        >>> gender = read_alignment("gender", io.StringIO("page_id,Unknown,female,male\n1,0,1,0\n"))
        >>> long_form = "topic_id,gender,target\n101,female,0.5\n101,male,0.5\n"
        >>> read_targets(io.StringIO(long_form), [gender]).toarray().tolist()
        [[0.0, 0.5, 0.5]]
        """
        return self.targets.toarray()

    @public
    def to_tsv(self, out, /) -> None:
        r"""Write the long form: ``topic_id``, the dimension names, ``target``; non-zero cells.

        ``out`` is a path or a text file. Every cell of the intersection is visited, a
        chunk at a time: with many dimensions the file is as large as the intersection.

        Examples
        --------
        >>> import io
        >>> gender = read_alignment("gender", io.StringIO("page_id,Unknown,female,male\n1,0,1,0\n"))
        >>> t = read_targets(io.StringIO("topic_id,gender,target\n101,female,1\n"), [gender])
        >>> out = io.StringIO()
        >>> t.to_tsv(out)
        >>> [line.split() for line in out.getvalue().splitlines()]
        [['topic_id', 'gender', 'target'], ['101', 'female', '1.0']]
        """
        if hasattr(out, "write"):
            self._write(out)
        else:
            with open(out, "w", encoding="utf-8", newline="\n") as f:
                self._write(f)

    def _write(self, f) -> None:
        sizes = self.targets.cell_shape
        n_cells = math.prod(sizes)
        f.write("\t".join(("topic_id", *self.dimensions, "target")) + "\n")
        names = [np.asarray(c, dtype=object) for c in self.categories]
        step = 1 << 20
        for t, topic in enumerate(self.topics):
            for lo in range(0, n_cells, step):
                cells = np.arange(lo, min(lo + step, n_cells), dtype=np.int64)
                v = self.targets._at(np.full(cells.shape, t, dtype=np.int64), cells)
                keep = v != 0  # NaN (undefined) is kept and written as nan
                cells, v = cells[keep], v[keep]
                coords = np.unravel_index(cells, sizes)
                cols = [names[j][coords[j]] for j in range(len(sizes))]
                topic_col = [topic] * len(v)
                f.writelines(
                    "\t".join(r) + "\n"
                    for r in zip(topic_col, *cols, map(repr, v.tolist()), strict=True)
                )


def _sparse_targets(n_topics, sizes, keys, values) -> Targets:
    """Explicit targets given as sorted non-zero (topic * n_cells + cell) keys."""
    return Targets(
        (n_topics,),
        tuple(sizes),
        np.asarray(keys, dtype=np.int64),
        np.asarray(values, dtype=np.float64),
        np.ones((n_topics, 1)),
        np.zeros((n_topics, 1)),
        np.zeros(0, dtype=np.int64),
        np.zeros(0),
        (),
    )


@public
def read_targets(path, dimensions, /) -> TopicTargets:
    r"""Read targets (long or wide form) onto the categories of ``dimensions``.

    Parameters
    ----------
    path : path or file object
        Long form: header ``topic_id``, the dimension names, ``target``; one row per
        topic and cell, cells not listed 0. Wide form (one dimension): ``topic_id`` then
        the categories (the organisers' ``task{1,2}-<mode>-<dim>-target.csv.gz``).
    dimensions : sequence of Dimension
        The dimensions of the evaluation (their names and categories).

    Returns
    -------
    TopicTargets

    Raises
    ------
    ValueError
        Naming file and line: other dimensions or categories, a cell twice, a negative
        value, a topic summing to 0.

    Examples
    --------
    >>> import io
    >>> from fairconv import trecfair
    >>> alignment = io.StringIO("page_id,Unknown,female,male\n1,0,1,0\n")
    >>> gender = trecfair.read_alignment("gender", alignment)
    >>> long_form = io.StringIO("topic_id,gender,target\n101,female,1\n")
    >>> targets = trecfair.read_targets(long_form, [gender])
    >>> targets.topics, targets.dimensions
    (('101',), ('gender',))
    """
    dims = _dimension_list(dimensions)
    table = _io.read_target_table(path, dims)
    sizes = [len(c) for c in table.categories]
    return TopicTargets(
        table.topics,
        table.dimensions,
        table.categories,
        _sparse_targets(len(table.topics), sizes, table.keys, table.values),
        table.source,
    )


def _dimension_list(dimensions) -> list:
    if isinstance(dimensions, _io.Dimension):
        dimensions = [dimensions]
    dimensions = check_sequence_of(dimensions, _io.Dimension, "dimensions", min_len=1)
    check_unique_names([d.name for d in dimensions], "dimensions")
    return dimensions


class _Universe:
    """The pages every alignment table lists (the first table's order), and the rows.

    Pages are looked up by an exact hash join (:class:`fairconv._accel.KeyTable`).
    """

    def __init__(self, dims):
        first = dims[0]
        self.pages = first.pages
        self.table = KeyTable(np.zeros(len(first.pages), np.int64), first.pages)
        self.rows = [first.rows]
        for d in dims[1:]:
            at = self.table.find(np.zeros(len(d.pages), np.int64), d.pages)
            if len(d.pages) != len(first.pages) or (at < 0).any():
                if (at < 0).any():
                    a, b, page = first, d, d.pages[int(np.argmax(at < 0))]
                else:
                    back = KeyTable(np.zeros(len(d.pages), np.int64), d.pages)
                    lacks = back.find(np.zeros(len(first.pages), np.int64), first.pages) < 0
                    a, b, page = d, first, first.pages[int(np.argmax(lacks))]
                raise ValueError(
                    f"The alignment tables must list the same pages: dimension {a.name!r} "
                    f"({a.source}) lacks page {page.decode('utf-8')!r}, which dimension "
                    f"{b.name!r} ({b.source}) lists."
                )
            rows = np.empty_like(d.rows)
            rows[at] = d.rows
            self.rows.append(rows)
        self.sizes = [r.shape[1] for r in self.rows]

    def lookup(self, pages: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(row index, known) of each page."""
        at = self.table.find(np.zeros(len(pages), np.int64), pages)
        return np.maximum(at, 0), at >= 0

    def gather(self, pos: np.ndarray, shape) -> list[np.ndarray]:
        return [r[pos].reshape(tuple(shape) + (r.shape[1],)) for r in self.rows]


def _pairs(topic_ids: np.ndarray, pages: np.ndarray, q: _io.FairQrels):
    """Whether each (topic index of the qrels, page) is relevant; -1: a topic it lacks."""
    if len(q.pages) == 0 or len(pages) == 0:
        return np.zeros(len(pages), bool)
    table = KeyTable(q.topic_ids, q.pages)
    return table.find(np.where(topic_ids < 0, len(q.topics), topic_ids), pages) >= 0


def _backgrounds_for(backgrounds, dims):
    """Per dimension, None or weights over its known categories (in table order)."""
    out: list = [None] * len(dims)
    if backgrounds is None:
        return out
    check_mapping(
        backgrounds,
        "backgrounds",
        "dimension name",
        "a background (a preset name, a file, or a Background)",
    )
    names = [d.name for d in dims]
    for key, value in backgrounds.items():
        if key not in names:
            raise fail(
                "backgrounds",
                f"name dimensions of the evaluation ({', '.join(names)})",
                f"{key!r}",
            )
        d = dims[names.index(key)]
        if not d.has_unknown:
            raise fail(
                "backgrounds",
                "name only dimensions with an unknown category (first)",
                f"{key!r}, whose first category is {d.categories[0]!r}",
            )
        bg = value if isinstance(value, _io.Background) else _io.read_background(value)
        known = list(d.categories[1:])
        missing = [c for c in known if c not in bg.categories]
        extra = [c for c in bg.categories if c not in known]
        if missing or extra or len(set(bg.categories)) != len(bg.categories):
            raise ValueError(
                f"The background of dimension {key!r} ({bg.source}) must weigh exactly its "
                f"known categories; "
                + (f"missing: {', '.join(missing)}" if missing else "")
                + ("; " if missing and extra else "")
                + (f"not categories of {key!r}: {', '.join(extra)}" if extra else "")
                + ("a category twice" if not (missing or extra) else "")
            )
        w = np.asarray(bg.weights, dtype=np.float64)
        if not (np.isfinite(w) & (w >= 0)).all() or not w.sum() > 0:
            raise ValueError(
                f"The background of dimension {key!r} ({bg.source}) must hold finite weights "
                ">= 0 with a positive sum."
            )
        w = w / w.sum()
        pos = {c: i for i, c in enumerate(bg.categories)}
        out[names.index(key)] = w[[pos[c] for c in known]]
    return out


def _as_qrels(qrels) -> _io.FairQrels:
    if isinstance(qrels, _io.FairQrels):
        return qrels
    return _io.read_fair_qrels(qrels)


def _as_work(work):
    if work is None or isinstance(work, _io.WorkLevels):
        return work
    return _io.read_work(work)


@public
def build_targets(
    qrels,
    dimensions,
    /,
    *,
    task: int,
    edition: int = 2022,
    backgrounds=None,
    work=None,
    topics=None,
) -> TopicTargets:
    r"""Build each topic's target from its relevant pages, as the organisers' notebooks did.

    Page weights (1 in Task 1; the work-level ideal exposure in Task 2), the weighted
    mean (2022) or normalised sum (2021, all-unknown cell cleared in Task 1) of the
    relevant pages' intersected alignments, then background mixing of the dimensions
    given in ``backgrounds`` (see :func:`targets_from_alignments`, spec section 6).

    Parameters
    ----------
    qrels : FairQrels or path
        The relevant pages (:func:`read_qrels`).
    dimensions : sequence of Dimension
        The alignment tables (:func:`read_alignment`, :func:`read_metadata`).
    task : {1, 2}
    edition : {2022, 2021}
    backgrounds : mapping of str to (str, path or Background), optional
        Per dimension name, a preset (``trec2022-world-pop``, ``trec2022-gender``,
        ``trec2021-geography``, ``trec2021-gender``), a table file or a
        :class:`Background`, over exactly the dimension's known categories.
    work : WorkLevels or path
        Work levels of the relevant pages; required for Task 2.
    topics : sequence of str, optional
        Build only these topics (default: every topic with a relevant page).

    Returns
    -------
    TopicTargets
        Topics whose relevant pages give no mass have an undefined (NaN) target, with a
        :class:`~fairconv.FairconvWarning` naming them.

    Raises
    ------
    ValueError
        For a relevant page the tables do not list (2022), a relevant page without a
        work level (2022 Task 2), backgrounds that do not match their dimensions.

    Examples
    --------
    >>> from fairconv import datasets, trecfair
    >>> d = datasets.path("trecfair")
    >>> dims, _ = trecfair.read_metadata(
    ...     d / "trec_2022_articles_discrete.jsonl", edition=2022, dimensions=["sub-geo"]
    ... )
    >>> qrels = trecfair.read_qrels(d / "trec_fair_eval_reldocs.jsonl")
    >>> trecfair.build_targets(qrels, dims, task=1, backgrounds={"sub-geo": "trec2022-world-pop"})
    TopicTargets(3 topics, dimensions=['sub-geo'], source='built')
    """
    task = _task(task)
    edition = _edition(edition)
    dims = _dimension_list(dimensions)
    q = _as_qrels(qrels)
    universe = _Universe(dims)
    return _build(q, dims, universe, task, edition, backgrounds, _as_work(work), topics)


def _build(q, dims, universe, task, edition, backgrounds, work, topics) -> TopicTargets:
    if edition == 2021:
        _require_unknown(dims)
    bgs = _backgrounds_for(backgrounds, dims)
    counts = np.bincount(q.topic_ids, minlength=len(q.topics))
    wanted = [t for t, c in zip(q.topics, counts.tolist(), strict=True) if c > 0]
    if topics is not None:
        have = set(wanted)
        wanted = [t for t in topics if t in have]
    index = {t: i for i, t in enumerate(q.topics)}
    tsel = np.asarray([index[t] for t in wanted], dtype=np.int64)
    take = np.flatnonzero(np.isin(q.topic_ids, tsel))
    slot = np.full(len(q.topics), -1, dtype=np.int64)
    slot[tsel] = np.arange(len(tsel))
    t_of = slot[q.topic_ids[take]]
    order = np.argsort(t_of, kind="stable")
    take, t_of = take[order], t_of[order]
    pages = q.pages[take]
    n_rel = np.bincount(t_of, minlength=len(tsel))
    R = int(n_rel.max()) if len(n_rel) else 0
    start = np.concatenate(([0], np.cumsum(n_rel)[:-1]))
    col = np.arange(len(take)) - start[t_of]
    pos, known = universe.lookup(pages)
    names = tuple(d.name for d in dims)
    cats = tuple(d.categories for d in dims)
    if len(tsel) == 0:
        return TopicTargets((), names, cats, _sparse_targets(0, universe.sizes, [], []))
    if edition == 2022 and not known.all():
        i = int(np.argmin(known))
        raise ValueError(
            f"{q.source}: relevant page {pages[i].decode('utf-8')!r} of topic "
            f"{wanted[t_of[i]]!r} is not in the alignment tables ({dims[0].source}); "
            "2022 targets need every relevant page"
        )
    if not _io.cells_fit(len(tsel), universe.sizes):
        raise _too_many_cells("dimensions", len(tsel), universe.sizes)
    shape = (len(tsel), R)
    full = np.zeros(shape, dtype=np.int64)
    full[t_of, col] = pos
    kn = np.zeros(shape, dtype=bool)
    kn[t_of, col] = known
    rows = universe.gather(full, shape)
    levels = None
    if task == 2:
        if work is None:
            raise fail("work", "be given to build Task 2 targets (work levels)", "None")
        lev = _levels_of(work, pages)
        missing = lev < 0
        if missing.any():
            i = int(np.argmax(missing))
            if edition == 2022:
                raise ValueError(
                    f"{work.source}: relevant page {pages[i].decode('utf-8')!r} of topic "
                    f"{wanted[t_of[i]]!r} has no work level; 2022 Task 2 targets need one for "
                    "every relevant page"
                )
            warnings.warn(
                f"{int(missing.sum())} relevant page(s) have no work level "
                f"(first {pages[i].decode('utf-8')!r} of topic {wanted[t_of[i]]!r}); the 2021 "
                "targets leave them out, as the official code does",
                FairconvWarning,
                stacklevel=3,
            )
        levels = np.full(shape, -1, dtype=np.int64)
        levels[t_of, col] = lev
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FairconvWarning)
        built = targets_from_alignments(
            rows,
            lengths=n_rel,
            task=task,
            edition=edition,
            known=kn,
            levels=levels,
            backgrounds=bgs,
        )
    bad = np.flatnonzero(~built.defined)
    if len(bad):
        shown = ", ".join(repr(wanted[i]) for i in bad[:10].tolist())
        more = f" and {len(bad) - 10} more" if len(bad) > 10 else ""
        warnings.warn(
            f"the relevant pages of topic(s) {shown}{more} give the target no mass (no page "
            "with a known category); their target is undefined (NaN), as is every measure "
            "that uses it",
            FairconvWarning,
            stacklevel=3,
        )
    if task == 2:
        over = [wanted[i] for i in np.flatnonzero(built.total.reshape(-1) > 1 + _SUM_TOL).tolist()]
        if over:
            warnings.warn(
                f"the built targets of topic(s) {', '.join(map(repr, over[:10]))}"
                f"{' ...' if len(over) > 10 else ''} sum to more than 1 (multi-hot alignment "
                "rows); Task 2 uses them as given, which raises the target exposure",
                FairconvWarning,
                stacklevel=3,
            )
    return TopicTargets(wanted, names, cats, built)


def _levels_of(work, pages: np.ndarray) -> np.ndarray:
    if len(work.pages) == 0:
        return np.full(len(pages), -1, dtype=np.int64)
    at = KeyTable(np.zeros(len(work.pages), np.int64), work.pages).find(
        np.zeros(len(pages), np.int64), pages
    )
    return np.where(at >= 0, work.levels[np.maximum(at, 0)], -1)


def _require_unknown(dims) -> None:
    for d in dims:
        if not d.has_unknown or len(d.categories) < 2:
            raise ValueError(
                f"Edition 2021 needs an unknown category first in every dimension: dimension "
                f"{d.name!r} ({d.source}) starts with {d.categories[0]!r}."
            )


def _multi_hot_notice(dims, universe) -> None:
    for d, rows in zip(dims, universe.rows, strict=True):
        if rows.size and (rows.sum(axis=1) > 1 + 1e-9).any():
            warnings.warn(
                f"some rows of dimension {d.name!r} sum to more than 1 (multi-hot, as in the "
                "organisers' 2022 gender file); they are used as given: such a page weighs "
                "more, and a built target can sum to more than 1",
                FairconvWarning,
                stacklevel=4,
            )


def _as_runs(runs, task) -> list:
    if (
        isinstance(runs, (str, bytes, _io.FairRun))
        or hasattr(runs, "read")
        or hasattr(runs, "__fspath__")
    ):
        runs = [runs]
    if not isinstance(runs, Sequence) or len(runs) == 0:
        raise fail_type(
            "runs", "be a run (path or FairRun) or a non-empty sequence of them", kind_of(runs)
        )
    out = [r if isinstance(r, _io.FairRun) else _io.read_fair_run(r, task=task) for r in runs]
    for r in out:
        if r.task != task:
            raise ValueError(f"{r.source}: a Task {r.task} run given to a Task {task} evaluation")
    names = [r.name for r in out]
    if len(set(names)) != len(names):
        twice = next(n for i, n in enumerate(names) if n in names[:i])
        first, second = (r.source for r in out if r.name == twice)
        raise ValueError(
            f"two runs are named {twice!r} ({first} and {second}); give runs distinct names"
        )
    return out


def _cut(value, name, default):
    """A cut option: None means the edition's default; 0 means none."""
    if value is None:
        value = default
    elif isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise fail(name, "be an integer >= 0 (0: no cut) or None", f"{value!r}")
    return None if not value else int(value)


def _changes(*codes: np.ndarray) -> np.ndarray:
    """Where a line starts a new block of equal consecutive (code, ...) values."""
    n = len(codes[0])
    change = np.ones(n, dtype=bool)
    if n > 1:
        change[1:] = False
        for c in codes:
            change[1:] |= c[1:] != c[:-1]
    return change


def _blocks_of(*codes: np.ndarray) -> np.ndarray:
    """Position of each line within its block of equal consecutive (code, ...) values."""
    n = len(codes[0])
    heads = np.flatnonzero(_changes(*codes))
    start = np.repeat(heads, np.diff(np.append(heads, n)))
    return np.arange(n) - start


@public
def evaluate(
    qrels,
    runs,
    dimensions,
    /,
    *,
    task: int,
    edition: int = 2022,
    targets=None,
    backgrounds=None,
    work=None,
    target_len: int | None = None,
    depth: int | None = None,
    sequences: int | None = None,
    topics=None,
):
    r"""Score TREC Fair runs per topic, as the track's official evaluation does.

    Task 1: ``nDCG``, ``AWRF[SET]`` and ``nDCG*AWRF[SET]`` (:func:`task1`); Task 2:
    ``EE-L[SET]``, ``EE-D[SET]``, ``EE-R[SET]`` (:func:`task2`); SET the dimension
    names joined by ``,``. Targets are read (``targets``) or built from the relevant
    pages (:func:`build_targets`).

    Parameters
    ----------
    qrels : FairQrels or path
        Relevant pages (:func:`read_qrels`: the organisers' topic JSON Lines or TREC qrels).
    runs : FairRun, path, or sequence of them
        Runs of the task (:func:`read_run`); lines in file order are the rankings.
    dimensions : sequence of Dimension
        The alignment tables, intersected in this order (:func:`read_alignment`,
        :func:`read_metadata`). They must list the same pages.
    task : {1, 2}
    edition : {2022, 2021}
        Picks the defaults of ``target_len``, ``depth``, ``sequences`` and the edition's
        rules (spec section 7).
    targets : TopicTargets or path, optional
        Explicit targets (:func:`read_targets`); default: built.
    backgrounds : mapping of str to (preset name, path or Background), optional
        Background distributions of built targets, per dimension name.
    work : WorkLevels or path, optional
        Work levels for built Task 2 targets (the metadata's, from :func:`read_metadata`).
    target_len : int, optional
        N: 500 / 1000 (Task 1, 2022 / 2021), 20 / 50 (Task 2).
    depth : int, optional
        Lines kept per topic (Task 1) or ranking (Task 2); None: the edition's (2021:
        20 and 6), 0: all.
    sequences : int, optional
        Task 2 rankings kept: those with ``seq_no <= sequences``; None: the edition's
        (2021: 25), 0: all.
    topics : sequence of str, optional
        Score only these topics.

    Returns
    -------
    ScoreTable
        One row per run and topic the run has (after the cuts and ``topics``).
        ``nDCG``, ``AWRF``, ``nDCG*AWRF`` and ``EE-R`` are higher-is-better; ``EE-L``
        and ``EE-D`` lower-is-better. NaN where undefined (left out of the mean).

    Raises
    ------
    ValueError
        Naming the run file and topic (or the file and line): a ranking longer than N,
        a topic without a target or relevant page, an unlisted relevant page in 2022
        Task 2, tables that disagree on their pages, bad inputs of every reader.

    Warns
    -----
    FairconvWarning
        For what the official evaluation does that users may not expect: the 2021 cuts
        when they drop lines, pages no table lists (2022 Task 1), undefined AWRF,
        multi-hot rows, undefined targets.

    Notes
    -----
    Spec ``trecfair.md`` sections 3-7; the organisers' ``Task1Evaluation.py`` and
    ``Task2Evaluation.py`` (2021, 2022).

    Examples
    --------
    >>> import warnings
    >>> from fairconv import datasets, trecfair
    >>> d = datasets.path("trecfair")
    >>> dims, _ = trecfair.read_metadata(
    ...     d / "trec_2022_articles_discrete.jsonl", edition=2022, dimensions=["sub-geo"]
    ... )
    >>> qrels = trecfair.read_qrels(d / "trec_fair_eval_reldocs.jsonl")
    >>> with warnings.catch_warnings(record=True) as notices:
    ...     warnings.simplefilter("always")
    ...     table = trecfair.evaluate(
    ...         qrels, [d / "t1-relfirst"], dims, task=1,
    ...         backgrounds={"sub-geo": "trec2022-world-pop"},
    ...     )
    >>> print(notices[0].message)  # doctest: +ELLIPSIS
    run 't1-relfirst': 1 of 91 ranked pages are in no alignment table; ...
    >>> table.measures
    ('nDCG', 'AWRF[sub-geo]', 'nDCG*AWRF[sub-geo]')
    """
    from .results import ScoreTable

    task = _task(task)
    edition = _edition(edition)
    dims = _dimension_list(dimensions)
    q = _as_qrels(qrels)
    run_list = _as_runs(runs, task)
    N = _default_len(target_len, task, edition)
    depth_given = depth is not None
    depth = _cut(depth, "depth", _DEFAULT_DEPTH.get((task, edition)))
    if task == 1 and sequences is not None:
        raise fail("sequences", "be None for Task 1 (it cuts Task 2 rankings)", f"{sequences!r}")
    seq_given = sequences is not None
    sequences = _cut(sequences, "sequences", _DEFAULT_SEQUENCES.get((task, edition)))
    wanted = None
    if topics is not None:
        wanted = set(check_names(topics, "topics", "topic ids"))
    universe = _Universe(dims)
    if edition == 2021:
        _require_unknown(dims)
    _multi_hot_notice(dims, universe)
    names = tuple(d.name for d in dims)

    # the lines each run keeps
    kept = []
    cut_lines = 0
    for run in run_list:
        keep = np.ones(len(run.pages), dtype=bool)
        if wanted is not None:
            keep &= np.asarray([t in wanted for t in run.topics], dtype=bool)[run.topic_ids]
        if task == 1:
            pos = _blocks_of(run.topic_ids)
        else:
            if sequences is not None:
                keep &= run.seq <= sequences
            pos = _blocks_of(run.topic_ids, run.seq)
        if depth is not None:
            inside = pos < depth
            cut_lines += int((keep & ~inside).sum())
            keep &= inside
        kept.append((keep, pos))
    found: set = set()
    for run, (mask, _) in zip(run_list, kept, strict=True):
        found.update(run.topics[t] for t in np.unique(run.topic_ids[mask]).tolist())
    run_topics = sorted(found)
    if cut_lines and not depth_given:
        what = (
            "the first 20 lines of each topic"
            if task == 1
            else ("the first 6 lines of each ranking (a 'top 5' on a counter from 0)")
        )
        warnings.warn(
            f"edition 2021 scores {what}, as its official evaluation did; {cut_lines} "
            "line(s) were left out (depth=0 keeps them)",
            FairconvWarning,
            stacklevel=2,
        )
    if task == 2 and sequences is not None and not seq_given:
        dropped = sum(int((r.seq > sequences).sum()) for r in run_list)
        if dropped:
            warnings.warn(
                f"edition 2021 scores the rankings with seq_no <= {sequences}, as its "
                f"official evaluation did; {dropped} line(s) of later rankings were left out "
                "(sequences=0 keeps them)",
                FairconvWarning,
                stacklevel=2,
            )

    # the targets
    if targets is None:
        tt = _build(q, dims, universe, task, edition, backgrounds, _as_work(work), run_topics)
    else:
        if backgrounds is not None or work is not None:
            raise fail_params(
                ("backgrounds", "work", "targets"),
                "not be given together: 'backgrounds' and 'work' build the targets that "
                "'targets' gives",
                "'targets' with " + ("'backgrounds'" if backgrounds is not None else "'work'"),
            )
        tt = targets if isinstance(targets, TopicTargets) else read_targets(targets, dims)
        if tt.dimensions != names or tt.categories != tuple(d.categories for d in dims):
            raise ValueError(
                f"The targets ({tt.source}) are over the dimensions {list(tt.dimensions)} "
                f"with other categories or order than the evaluation's {list(names)}."
            )
        if edition == 2021 and task == 1 and len(tt.topics):
            at_u = tt.targets._at(np.arange(len(tt.topics)), np.zeros(len(tt.topics), np.int64))
            if (at_u != 0).any():
                i = int(np.argmax(at_u != 0))
                raise ValueError(
                    f"{tt.source}: the target of topic {tt.topics[i]!r} puts "
                    f"{float(at_u[i]):.10g} on the all-unknown cell; 2021 Task 1 removes that "
                    "cell, so it must be 0 (or absent)"
                )
    t_index = {t: i for i, t in enumerate(tt.topics)}
    q_index = {t: i for i, t in enumerate(q.topics)}
    n_rel_q = np.bincount(q.topic_ids, minlength=len(q.topics))
    measures = measure_names(names, task=task)
    col_of = {t: i for i, t in enumerate(run_topics)}
    values = np.zeros((len(run_topics), len(run_list), 3))
    present = np.zeros(values.shape, dtype=bool)
    need_rel = not (edition == 2021 and task == 2 and targets is not None)

    for r, (run, (keep, pos)) in enumerate(zip(run_list, kept, strict=True)):
        lines = np.flatnonzero(keep)
        if len(lines) == 0:
            continue
        tid = run.topic_ids[lines]
        present_t = np.unique(tid)
        slot = np.full(len(run.topics), -1, dtype=np.int64)
        slot[present_t] = np.arange(len(present_t))
        tnames = [run.topics[t] for t in present_t.tolist()]
        tix = np.empty(len(tnames), dtype=np.int64)
        nrel = np.zeros(len(tnames), dtype=np.int64)
        for k, t in enumerate(tnames):  # per topic, not per line
            if t not in t_index:
                how = (
                    f"the targets ({tt.source})"
                    if targets is not None
                    else (f"the qrels ({q.source}), so its target cannot be built")
                )
                raise ValueError(
                    f"{run.source}: topic {t!r} of run {run.name!r} has no target in {how}; "
                    "leave it out with topics="
                )
            tix[k] = t_index[t]
            nrel[k] = n_rel_q[q_index[t]] if t in q_index else 0
            if need_rel and nrel[k] == 0:
                raise ValueError(
                    f"{run.source}: topic {t!r} of run {run.name!r} has no relevant page in "
                    f"the qrels ({q.source}); leave it out with topics="
                )
        q_of = np.asarray([q_index.get(t, -1) for t in run.topics], dtype=np.int64)
        pages = run.pages[lines]
        rel = _pairs(q_of[tid], pages, q)
        upos, known = universe.lookup(pages)
        T = len(tnames)
        ts = slot[tid]
        col = pos[lines]
        if task == 1:
            n = np.bincount(ts, minlength=T)
            over = np.flatnonzero(n > N)
            if len(over):
                k = int(over[0])
                raise ValueError(
                    f"{run.source}: topic {tnames[k]!r} of run {run.name!r} ranks {int(n[k])} "
                    f"pages, more than the target length {N} (target_len)"
                )
            K = int(n.max())
            shape: tuple = (T, K)
            at: tuple = (ts, col)
        else:
            # rankings and topics are contiguous (the reader checks): blocks in order
            block = np.cumsum(_changes(ts, run.seq[lines])) - 1
            s_idx = block - block[np.flatnonzero(_changes(ts))][ts]
            S = int(s_idx.max()) + 1
            K = int(col.max()) + 1
            shape = (T, S, K)
            at = (ts, s_idx, col)
            n = np.zeros((T, S), dtype=np.int64)
            np.maximum.at(n, (ts, s_idx), col + 1)
            if edition == 2022:
                stray = np.flatnonzero(rel & ~known)
                if len(stray):
                    i = int(stray[0])
                    raise ValueError(
                        f"{run.source}:{int(run.lines[lines[i]])}: relevant page "
                        f"{pages[i].decode('utf-8')!r} is in no alignment table; 2022 Task 2 "
                        "looks up every retrieved relevant page"
                    )
        P = np.zeros(shape, dtype=np.int64)
        P[at] = upos
        KN = np.zeros(shape, dtype=bool)
        KN[at] = known
        REL = np.zeros(shape, dtype=bool)
        REL[at] = rel
        rows = universe.gather(P, shape)
        if task == 1:
            out = _task1(REL, KN, rows, n, np.maximum(nrel, 1), tt.targets, tix, edition, N)
            if edition == 2022 and not known.all():
                warnings.warn(
                    f"run {run.name!r}: {int((~known).sum())} of {len(known)} ranked pages are "
                    "in no alignment table; edition 2022 gives them no exposure (their "
                    "attention is lost)",
                    FairconvWarning,
                    stacklevel=2,
                )
            nan = [tnames[k] for k in np.flatnonzero(np.isnan(out["AWRF"])).tolist()]
            if nan:
                warnings.warn(
                    f"run {run.name!r}: AWRF is undefined (NaN) on topic(s) "
                    f"{', '.join(map(repr, nan[:10]))}{' ...' if len(nan) > 10 else ''}: no "
                    "ranked page with alignment, or an undefined target",
                    FairconvWarning,
                    stacklevel=2,
                )
        else:
            counts = REL if edition == 2022 else KN
            out = _task2(counts, rows, n, tt.targets, tix, N)
        cols = np.asarray([col_of[t] for t in tnames], dtype=np.int64)
        for m, key in enumerate(_TASK_MEASURES[task]):
            values[cols, r, m] = out[key]
        present[cols, r] = True
    return ScoreTable(
        topics=tuple(run_topics),
        runs=tuple(run.name for run in run_list),
        measures=measures,
        values=values,
        present=present,
    )


# the readers, in this family's namespace
Dimension = _io.Dimension
FairRun = _io.FairRun
FairQrels = _io.FairQrels
WorkLevels = _io.WorkLevels
Background = _io.Background
BACKGROUND_PRESETS = _io.BACKGROUND_PRESETS
read_alignment = _io.read_alignment
read_metadata = _io.read_metadata
read_background = _io.read_background
read_work = _io.read_work


@public
def read_run(path, /, *, task: int, name: str | None = None) -> FairRun:
    """Read a TREC Fair run of Task 1 (rankings) or Task 2 (sequences of rankings).

    The run is named by ``name``, else by its file (docs/trecfair.md gives the
    format and its errors).

    Examples
    --------
    >>> from fairconv import datasets, trecfair
    >>> run = trecfair.read_run(datasets.path("trecfair", "t1-relfirst"), task=1)
    >>> run.name, run.topics
    ('t1-relfirst', ('101', '102', '103'))
    """
    return _io.read_fair_run(path, task=task, name=name)


@public
def read_qrels(path, /) -> FairQrels:
    """Read the relevant pages of each topic: the track's topic JSON Lines or TREC qrels.

    Examples
    --------
    >>> from fairconv import datasets, trecfair
    >>> trecfair.read_qrels(datasets.path("trecfair", "trec_fair_eval_reldocs.jsonl")).topics
    ('101', '102', '103')
    """
    return _io.read_fair_qrels(path)
