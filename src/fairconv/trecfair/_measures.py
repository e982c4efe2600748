"""The TREC Fair measures on arrays: the discount, Task 1 and Task 2.

:func:`task1` and :func:`task2` take padded arrays (batch axes leading), check them and
take out the pages that count; :func:`score_task1` and :func:`score_task2` score those
pages, flat, for them and for :func:`fairconv.trecfair.evaluate` alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .. import _core
from .._validation import (
    as_float_array,
    at_first,
    check_bool_array,
    check_int,
    check_int_array,
    check_int_choice,
    check_lengths,
    check_shape,
    fail,
    notice,
    public,
)
from ..io import _trecfair as _io
from ..results import MeasureName
from ._arrays import check_alignments, counted_rows
from ._targets import Targets, _Dense

DEFAULT_LEN = {(1, 2022): 500, (1, 2021): 1000, (2, 2022): 20, (2, 2021): 50}
"""N, the target length, by (task, edition)."""
MEASURES = {1: ("nDCG", "AWRF", "nDCG*AWRF"), 2: ("EE-L", "EE-D", "EE-R")}
"""The measures of each task, as the array-level functions name them."""

Z_20 = 7.812597751617432
"""``np.sum`` of the float32 discounts of ranks 1..20 (2022 Task 2)."""
Z_50 = 13.721441268920898
"""``np.sum`` of the float32 discounts of ranks 1..50 (2021 Task 2)."""


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

    See Also
    --------
    exposure_of_ranking : their sum over a full ranking.

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
        :math:`Z_n` (> 0).

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer.

    See Also
    --------
    discount : the discounts summed.

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


@public
def measure_names(dimensions: Sequence[str], /, *, task: int) -> tuple[str, ...]:
    """The printed names of a task's measures over the intersection of ``dimensions``.

    ``nDCG`` has no set; the others carry ``[SET]``, the dimension names joined by ``,``.

    Parameters
    ----------
    dimensions : sequence of str
        The dimension names, in intersection order.
    task : {1, 2}

    Returns
    -------
    tuple of str
        Task 1: ``nDCG``, ``AWRF[SET]``, ``nDCG*AWRF[SET]``; Task 2: ``EE-L[SET]``,
        ``EE-D[SET]``, ``EE-R[SET]``.

    Examples
    --------
    >>> measure_names(["geography", "gender"], task=1)
    ('nDCG', 'AWRF[geography,gender]', 'nDCG*AWRF[geography,gender]')
    """
    task = check_int_choice(task, "task", _io.TASKS)
    return tuple(map(str, names_of(dimensions, task)))


def names_of(dimensions: Sequence[str], task: int) -> tuple[MeasureName, ...]:
    """:func:`measure_names` as :class:`~fairconv.results.MeasureName` (task checked)."""
    group = ",".join(dimensions)
    if task == 1:
        bases: tuple[str, ...] = ("nDCG", "AWRF", MeasureName.join("nDCG", "AWRF", product=True))
    else:
        bases = tuple(MeasureName.join("EE", x) for x in "LDR")
    return tuple(MeasureName(b, None, None if b == "nDCG" else group) for b in bases)


def check_target_len(value, task: int, edition: int) -> int:
    """N: ``target_len`` as given, or the edition's."""
    if value is None:
        return DEFAULT_LEN[(task, edition)]
    return check_int(value, "target_len", minimum=1)


def target_source(targets, batch_shape, sizes, edition, task):
    """(source, index of each batch element's target) for dense or built targets."""
    if isinstance(targets, Targets):
        if targets.cell_shape != tuple(sizes):
            raise fail("targets", f"have cells of shape {tuple(sizes)}", f"{targets.cell_shape}")
        tshape = targets.batch_shape
        src: Targets | _Dense = targets
    else:
        arr = as_float_array(targets, "targets")
        m = len(sizes)
        if arr.ndim < m or arr.shape[arr.ndim - m :] != tuple(sizes):
            raise fail("targets", f"end with the cell shape {tuple(sizes)}", f"shape {arr.shape}")
        tshape = arr.shape[: arr.ndim - m]
        flat = arr.reshape(tshape + (-1,))
        bad = ~(np.isfinite(flat) & (flat >= 0)).all(axis=-1)
        if bad.any():
            raise fail("targets", "hold finite non-negative numbers", f"a bad value{at_first(bad)}")
        if edition == 2021 and task == 1:
            nz = flat[..., 0] != 0
            if nz.any():
                raise fail(
                    "targets",
                    "be 0 at the all-unknown cell (2021 Task 1 removes it)",
                    f"{float(flat[..., 0][nz][0]):.10g}{at_first(nz)}",
                )
        zero = ~(flat.max(axis=-1, initial=0.0) > 0)
        if zero.any():
            raise fail("targets", "have a positive sum for every topic", f"0{at_first(zero)}")
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


def _overflow_notice(names, masks, batch) -> None:
    """The array-level notice of values NaN because their sums overflow float64."""
    for name, mask in zip(names, masks, strict=True):
        if mask.any():
            idx = [tuple(int(i) for i in np.unravel_index(t, batch)) for t in np.flatnonzero(mask)]
            notice(
                f"{name} is NaN at index {', '.join(map(str, idx[:10]))}"
                f"{' ...' if len(idx) > 10 else ''}: its sums overflow float64 (alignment or "
                "target values too large)"
            )


def _ranked(relevant, alignments, known, lengths, edition, target_len, *, task):
    """The checked inputs of :func:`task1` and :func:`task2`.

    Task 1 has the rank axis last, Task 2 the ranking and rank axes. Returns the
    edition, relevant, known, the alignment arrays, the lengths and N.
    """
    edition = check_int_choice(edition, "edition", _io.EDITIONS)
    rel = check_bool_array(relevant, "relevant")
    if rel.ndim < task:
        axes = "a rank axis" if task == 1 else "a ranking and a rank axis"
        raise fail("relevant", f"have {axes}", f"shape {rel.shape}")
    kn = check_shape(
        check_bool_array(known, "known"), rel.shape, "known", "the shape of 'relevant'"
    )
    rows = check_alignments(alignments, rel.shape, "alignments")
    n = check_lengths(lengths, rel.shape[:-1], "lengths", limit=rel.shape[-1])
    return edition, rel, kn, rows, n, check_target_len(target_len, task, edition)


# --------------------------------------------------------------------------- Task 1
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
        better); NaN where AWRF is undefined, and where a sum overflows float64 (with a
        :class:`~fairconv.FairconvWarning` naming the index).

    Raises
    ------
    ValueError
        For bad shapes or values, a ranking longer than N, a topic without relevant
        pages, or a 2021 target with mass on the all-unknown cell.

    See Also
    --------
    task2 : expected exposure over sequences of rankings.
    fairconv.trecfair.evaluate : the measures of run files, by topic.

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
    edition, rel, kn, rows, n, N = _ranked(
        relevant, alignments, known, lengths, edition, target_len, task=1
    )
    batch, K = rel.shape[:-1], rel.shape[-1]
    sizes = [a.shape[-1] for a in rows]
    over = n > N
    if over.any():
        raise fail(
            "lengths", f"be at most the target length {N}", f"{int(n[over][0])}{at_first(over)}"
        )
    nrel = check_shape(
        check_int_array(n_relevant, "n_relevant"), batch, "n_relevant", "one count per topic"
    )
    if (nrel < 1).any():
        raise fail(
            "n_relevant",
            "be at least 1 (a topic needs a relevant page)",
            f"{int(nrel[nrel < 1][0])}{at_first(nrel < 1)}",
        )
    if edition == 2021 and min(sizes) < 2:
        raise fail(
            "alignments",
            "give every dimension an unknown category 0 and a known one (2021)",
            f"sizes {tuple(sizes)}",
        )
    src, tindex = target_source(targets, batch, sizes, edition, 1)
    within = (np.arange(K) < n[..., None]).reshape(-1)
    lines = np.flatnonzero(within)
    hit = lines[rel.reshape(-1)[lines]]
    counted = lines[kn.reshape(-1)[lines]]
    out, overflow = score_task1(
        math.prod(batch),
        hit // K,
        hit % K,
        counted // K,
        counted % K,
        counted_rows(rows, counted, "alignments"),
        sizes,
        nrel.reshape(-1),
        src,
        tindex,
        edition=edition,
        N=N,
    )
    _overflow_notice(("AWRF",), (overflow,), batch)
    return {k: v.reshape(batch) for k, v in out.items()}


def score_task1(
    n_groups, hit_group, hit_rank, group, rank, rows, sizes, n_relevant, src, tindex, *, edition, N
):
    """Task 1 of the pages that count, flat.

    nDCG from the relevant lines (``hit_*``), AWRF from the known ones (``group``,
    ascending, ``rank`` and their sparse ``rows``).

    Returns the measures (each (n_groups,)) and where AWRF overflows float64.
    """
    ndcg = _core.trec_fair_ndcg(hit_group, hit_rank, n_relevant, N)
    delta = _core.trec_fair_discount(max(N, int(rank.max(initial=-1)) + 1)).astype(np.float64)
    n_cells = math.prod(sizes)
    js = np.full(n_groups, np.nan)
    overflow = np.zeros(n_groups, dtype=bool)
    for g0, count, g, c, v in _core.exposure_blocks(rows, sizes, delta[rank], group, n_groups):
        if edition == 2021:
            g, c, v = _core.without_unknown_cell(g, c, v, count, n_cells)
        tix = tindex[g0 : g0 + count]
        part, over = _core.sparse_js(g, v, src._at(tix[g], c), src.total.reshape(-1)[tix], count)
        js[g0 : g0 + count] = part
        overflow[g0 : g0 + count] = over
    awrf = 1.0 - js
    return {"nDCG": ndcg, "AWRF": awrf, "nDCG*AWRF": ndcg * awrf}, overflow


# --------------------------------------------------------------------------- Task 2
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
        >= 0); NaN for a topic without rankings, EE-L and EE-R NaN for a topic whose
        target is undefined, and NaN where a sum overflows float64 (with a
        :class:`~fairconv.FairconvWarning` naming the index).

    Raises
    ------
    ValueError
        For bad shapes or values, or (2022) a relevant page the tables do not list.

    See Also
    --------
    task1 : nDCG and AWRF of one ranking per topic.
    fairconv.trecfair.evaluate : the measures of run files, by topic.

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
    edition, rel, kn, rows, n, N = _ranked(
        relevant, alignments, known, lengths, edition, target_len, task=2
    )
    batch, S, K = rel.shape[:-2], rel.shape[-2], rel.shape[-1]
    sizes = [a.shape[-1] for a in rows]
    within = np.arange(K) < n[..., None]
    if edition == 2022:
        stray = within & rel & ~kn
        if stray.any():
            raise fail(
                "known",
                "be True for every retrieved relevant page (2022 looks each one up)",
                f"False{at_first(stray)}",
            )
        counts = within & rel
    else:
        counts = within & kn
    src, tindex = target_source(targets, batch, sizes, edition, 2)
    counted = np.flatnonzero(counts)
    out, overflow = score_task2(
        math.prod(batch),
        counted // (S * K),
        counted % K,
        (n > 0).reshape(-1, S).sum(axis=1),
        counted_rows(rows, counted, "alignments"),
        sizes,
        src,
        tindex,
        N=N,
    )
    _overflow_notice(MEASURES[2], overflow, batch)
    return {k: v.reshape(batch) for k, v in out.items()}


def score_task2(n_groups, group, rank, n_rankings, rows, sizes, src, tindex, *, N):
    """Task 2 of the pages that count, flat.

    Page i of group ``group[i]`` (ascending) is at ``rank[i]`` (from 0) of one of the
    group's ``n_rankings`` rankings.

    Returns the measures (each (n_groups,)) and, per measure, where it overflows.
    """
    delta = _core.trec_fair_discount(int(rank.max(initial=-1)) + 1).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        w = delta[rank] / n_rankings[group]
    Z = exposure_of_ranking(N)
    dis = np.zeros(n_groups)
    dot = np.zeros(n_groups)
    loss = np.zeros(n_groups)
    seen_sq = np.zeros(n_groups)
    for g0, count, g, c, v in _core.exposure_blocks(rows, sizes, w, group, n_groups):
        tau = src._at(tindex[g0 : g0 + count][g], c)
        sums = _core.exposure_sums(g, v, tau, count, Z)
        for total, part in zip((dis, dot, loss, seen_sq), sums, strict=True):
            total[g0 : g0 + count] = part
    sumsq = src._sumsq.reshape(-1)[tindex]
    loss = _core.expected_exposure_loss(loss, sumsq, seen_sq, Z)
    none = n_rankings == 0
    undefined = none | np.isnan(sumsq)  # EE-D needs no target
    over_d = ~none & ~np.isfinite(dis)
    over_l = ~undefined & ~np.isfinite(loss)
    over_r = ~undefined & ~np.isfinite(dot)
    out = {
        "EE-L": np.where(undefined | over_l, np.nan, loss),
        "EE-D": np.where(none | over_d, np.nan, dis),
        "EE-R": np.where(undefined | over_r, np.nan, dot),
    }
    return out, (over_l, over_d, over_r)
