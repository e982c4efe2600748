r"""From entity annotations to page-level relevance and group membership.

The FairWeb-2 slides define a page's inputs to GFR from the relevant entities E(d)
it mentions: its level is the highest level among them (0 if none) and its membership
vector is the normalised sum of their membership vectors; a page with no relevant
entity gets a uniform vector. The same rule gives the group distribution of a RAG
answer (:mod:`fairconv.ragfair`). Group indices are 0-based here (the papers'
"Group 1" is 0).

References
----------
S. Tao, T. Sakai et al. Why you should participate in the NTCIR-18 FairWeb-2 Task
(task slides, version 20240326): "Deriving page group membership".
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _core
from ._validation import (
    LMAX_LIMIT,
    as_float_array,
    check_distributions,
    check_int,
    check_int_array,
    fail,
    public,
)

__all__ = [
    "bin_ordinal",
    "one_hot",
    "soft_membership",
    "page_levels",
    "page_memberships",
    "HINDEX_THRESHOLDS",
    "RATINGS_COUNT_THRESHOLDS",
]

HINDEX_THRESHOLDS = (10, 30, 50)
"""FairWeb h-index groups: <10, 10-30, 30-50, >=50."""

RATINGS_COUNT_THRESHOLDS = (100, 10_000, 1_000_000)
"""FairWeb IMDb ratings-count groups: <100, <10K, <1M, >=1M."""


@public
def bin_ordinal(values: ArrayLike, thresholds: ArrayLike, /) -> NDArray[np.intp]:
    r"""Ordinal group index of each value: the number of thresholds it reaches.

    Parameters
    ----------
    values : array_like of float, shape (...)
        Finite numbers, e.g. h-indices or IMDb ratings counts.
    thresholds : array_like of float, shape (G - 1,)
        Finite, strictly increasing lower bounds of groups 1..G-1, e.g.
        :data:`HINDEX_THRESHOLDS`.

    Returns
    -------
    ndarray of int, shape (...)
        Group indices in 0..G-1: 0 below the first threshold, ``k`` from the k-th
        threshold (inclusive) up to the next. Higher values get higher groups.

    Raises
    ------
    TypeError
        If either argument is not numeric.
    ValueError
        If a value is NaN or infinite, or the thresholds are empty, not finite or not
        strictly increasing.

    Notes
    -----
    .. math:: group(v) = |\{k : t_k \le v\}|

    References
    ----------
    FairWeb-2 task slides: HINDEX groups (<10, 10-30, 30-50, >=50) and RATINGS groups
    by number of IMDb ratings (<100, <10K, <1M, >=1M).

    Examples
    --------
    >>> bin_ordinal([5, 10, 29, 30, 241], HINDEX_THRESHOLDS).tolist()
    [0, 1, 1, 2, 3]
    """
    v = as_float_array(values, "values")
    t = as_float_array(thresholds, "thresholds")
    if t.ndim != 1 or len(t) == 0 or not np.isfinite(t).all() or np.any(np.diff(t) <= 0):
        raise fail(
            "thresholds",
            "be a non-empty 1-d sequence of finite, strictly increasing numbers",
            repr(t.tolist()),
        )
    if not np.isfinite(v).all():
        bad = v[~np.isfinite(v)].flat[0]
        raise fail("values", "be finite numbers (no NaN or infinity)", repr(float(bad)))
    return np.asarray(np.searchsorted(t, v, side="right"))


@public
def one_hot(groups: ArrayLike, n_groups: int, /) -> NDArray[np.float64]:
    """Hard membership: one-hot rows from 0-based group indices.

    Parameters
    ----------
    groups : array_like of int, shape (...)
        The group of each entity, in 0..n_groups-1.
    n_groups : int
        G >= 2, the number of groups of the attribute set.

    Returns
    -------
    ndarray of float, shape (..., G)
        1 in the entity's group, 0 elsewhere; every row sums to 1.

    Raises
    ------
    TypeError
        If ``groups`` is not an integer array.
    ValueError
        If ``n_groups`` is not an integer >= 2 or a group lies outside 0..G-1.

    Notes
    -----
    .. math:: F(e, C_i) = [i = group(e)]

    References
    ----------
    FairWeb-2 task slides, "Hard group membership for entities".

    Examples
    --------
    >>> one_hot([0, 2], 3).tolist()
    [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    """
    n = check_int(n_groups, "n_groups", minimum=2)
    g = check_int_array(groups, "groups", low=0, high=n - 1)
    out = np.zeros(g.shape + (n,))
    np.put_along_axis(out, g[..., None], 1.0, axis=-1)
    return out


@public
def soft_membership(indicator: ArrayLike, /) -> NDArray[np.float64]:
    r"""Soft membership from a 0/1 indicator: an entity in m groups gets 1/m in each.

    Parameters
    ----------
    indicator : array_like of {0, 1} or bool, shape (..., G)
        ``indicator[..., i]`` is 1 when the entity belongs to group i (e.g. a movie's
        regions of origin); G >= 2 and every row names at least one group.

    Returns
    -------
    ndarray of float, shape (..., G)
        Rows in [0, 1] summing to 1.

    Raises
    ------
    TypeError
        If ``indicator`` is not numeric.
    ValueError
        If it is not an array of 0s and 1s with at least 2 groups on its last axis,
        or a row names no group.

    Notes
    -----
    .. math:: G(e, C_i) = 1/m \ \text{if}\ C_i \in ORIGIN(e),\ 0\ \text{otherwise},
              \quad m = |ORIGIN(e)| \ge 1

    References
    ----------
    FairWeb-2 task slides, "Soft group membership wrt ORIGIN for movie entities".

    Examples
    --------
    >>> soft_membership([[0, 1, 0, 0, 0, 1, 0, 0]]).tolist()
    [[0.0, 0.5, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0]]
    """
    x = as_float_array(indicator, "indicator")
    if x.ndim == 0 or x.shape[-1] < 2:
        raise fail("indicator", "be a (..., G) array with G >= 2 groups", f"shape {x.shape}")
    bad = (x != 0) & (x != 1)
    if bad.any():
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        raise fail("indicator", "hold only 0 and 1", f"{float(x[first])!r} at index {first}")
    sums = x.sum(axis=-1, keepdims=True)
    if (sums == 0).any():
        first = tuple(int(i) for i in np.argwhere(sums[..., 0] == 0)[0])
        raise fail(
            "indicator",
            "name at least one group in every row",
            f"an empty row at index {first}",
        )
    return x / sums


def _pages(page_of_entity: ArrayLike, n_pages: int) -> NDArray[np.int64]:
    return check_int_array(page_of_entity, "page_of_entity", ndim=1, low=0, high=n_pages - 1)


def _levels(entity_levels: ArrayLike, n_entities: int) -> NDArray[np.int64]:
    levels = check_int_array(entity_levels, "entity_levels", ndim=1, low=0, high=LMAX_LIMIT)
    if levels.shape[0] != n_entities:
        raise fail(
            "entity_levels",
            "hold one level per entity",
            f"shape {levels.shape} for {n_entities} entities",
        )
    return levels


@public
def page_levels(
    entity_levels: ArrayLike, page_of_entity: ArrayLike, n_pages: int, /
) -> NDArray[np.int64]:
    r"""Page relevance level: the highest level of its entities (0 when it has none).

    Parameters
    ----------
    entity_levels : array_like of int, shape (n_entities,)
        Relevance level of each entity, in 0..100 (0: not relevant).
    page_of_entity : array_like of int, shape (n_entities,)
        The page each entity was found in, in 0..n_pages-1.
    n_pages : int
        The number of pages, >= 0.

    Returns
    -------
    ndarray of int, shape (n_pages,)
        Levels >= 0; higher is more relevant.

    Raises
    ------
    TypeError
        If an index or level array is not of integers.
    ValueError
        If the arrays are not 1-d of one length, a page index lies outside
        0..n_pages-1, a level outside 0..100, or ``n_pages`` is not an integer >= 0.

    Notes
    -----
    .. math:: g(d) = 0 \ \text{if}\ E(d) = \emptyset, \quad
              \max_{e \in E(d)} r(e) \ \text{otherwise}

    References
    ----------
    FairWeb-2 task slides, "Page relevance level = max entity relevance level within
    page".

    Examples
    --------
    >>> page_levels([2, 1, 0], [0, 0, 2], 3).tolist()
    [2, 0, 0]
    """
    n = check_int(n_pages, "n_pages", minimum=0)
    page = _pages(page_of_entity, n)
    levels = _levels(entity_levels, page.shape[0])
    out = np.zeros(n, dtype=np.int64)
    np.maximum.at(out, page, levels)
    return out


@public
def page_memberships(
    entity_memberships: ArrayLike,
    page_of_entity: ArrayLike,
    n_pages: int,
    /,
    *,
    entity_levels: ArrayLike | None = None,
) -> NDArray[np.float64]:
    r"""Page membership: the normalised sum of its relevant entities' vectors.

    Parameters
    ----------
    entity_memberships : array_like of float, shape (n_entities, G)
        One membership vector per entity (from :func:`one_hot` or
        :func:`soft_membership`): G >= 2 entries in [0, 1] summing to 1 within 1e-5.
    page_of_entity : array_like of int, shape (n_entities,)
        The page each entity was found in, in 0..n_pages-1.
    n_pages : int
        The number of pages, >= 0.
    entity_levels : array_like of int, shape (n_entities,), optional
        Relevance level of each entity in 0..100; entities of level 0 are not relevant
        and do not count. All entities count if omitted.

    Returns
    -------
    ndarray of float, shape (n_pages, G)
        Rows in [0, 1] summing to 1. A page with no relevant entity gets the uniform
        vector 1/G.

    Raises
    ------
    TypeError
        If an argument is not numeric, or an index or level array is not of integers.
    ValueError
        If a membership vector is not a distribution, the arrays disagree on the
        number of entities, a page index lies outside 0..n_pages-1, a level outside
        0..100, or ``n_pages`` is not an integer >= 0.

    Notes
    -----
    .. math:: P(d, C_i) = 1/|C| \ \text{if}\ E(d) = \emptyset, \quad
              \frac{\sum_{e \in E(d)} G(e, C_i)}{\sum_j \sum_{e \in E(d)} G(e, C_j)}
              \ \text{otherwise}

    where E(d) is the set of relevant entities of page d.

    References
    ----------
    FairWeb-2 task slides, "Deriving page group membership" (hard and soft cases).

    Examples
    --------
    The slides' soft ORIGIN example: three entities on one page.

    >>> e = [[0.5, 0, 0.5, 0], [1, 0, 0, 0], [0, 0.5, 0.5, 0]]
    >>> page_memberships(e, [0, 0, 0], 1).tolist()
    [[0.5, 0.16666666666666666, 0.3333333333333333, 0.0]]
    >>> page_memberships([[1, 0], [0, 1]], [0, 0], 2, entity_levels=[2, 0]).tolist()
    [[1.0, 0.0], [0.5, 0.5]]
    """
    n = check_int(n_pages, "n_pages", minimum=0)
    memb = check_distributions(entity_memberships, "entity_memberships")
    page = _pages(page_of_entity, n)
    if memb.ndim != 2 or memb.shape[0] != page.shape[0]:
        raise fail(
            "entity_memberships",
            "be a 2-d array with one row per entity",
            f"shape {memb.shape} for {page.shape[0]} entities",
        )
    if entity_levels is not None:
        keep = _levels(entity_levels, page.shape[0]) > 0
        memb, page = memb[keep], page[keep]
    out = _core.normalised_sums(page, memb, n)
    return np.where(np.isnan(out), 1.0 / memb.shape[1], out)  # a page with none: uniform
