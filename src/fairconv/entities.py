"""From entity annotations to page-level relevance and group membership.

The FairWeb-2 slides define a page's inputs to GFR from the relevant entities it
mentions: its level is the highest level among them (0 if none) and its membership
vector is the normalised sum of their membership vectors; a page with no relevant
entity gets a uniform vector. The same rule gives the group distribution of a RAG
answer (``ragfair``). Group indices are 0-based here (the papers' "Group 1" is 0).
"""

from __future__ import annotations

import numpy as np

from ._validation import as_float_array, check_distributions, fail

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


def bin_ordinal(values, thresholds, /):
    """Group index of each value: the number of thresholds it reaches (>=).

    >>> bin_ordinal([5, 10, 29, 30, 241], HINDEX_THRESHOLDS).tolist()
    [0, 1, 1, 2, 3]
    """
    v = as_float_array(values, "values", "bin_ordinal")
    t = as_float_array(thresholds, "thresholds", "bin_ordinal")
    if t.ndim != 1 or len(t) == 0 or np.any(np.diff(t) <= 0) or not np.isfinite(t).all():
        raise fail(
            "thresholds", "bin_ordinal", "be finite and strictly increasing", repr(t.tolist())
        )
    if np.isnan(v).any():
        raise fail("values", "bin_ordinal", "contain no NaN", "NaN")
    return np.searchsorted(t, v, side="right")


def one_hot(groups, n_groups: int, /):
    """Hard membership: one-hot rows (..., n_groups) from 0-based group indices."""
    g = np.asarray(groups)
    if not np.issubdtype(g.dtype, np.integer) or (g < 0).any() or (g >= n_groups).any():
        raise fail(
            "groups",
            "one_hot",
            f"hold integer group indices in 0..{n_groups - 1}",
            repr(g.tolist()),
        )
    return np.eye(n_groups)[g]


def soft_membership(indicator, /):
    """Soft membership from a 0/1 indicator (..., G): an entity in m groups gets 1/m each.

    >>> soft_membership([[0, 1, 0, 0, 0, 1, 0, 0]]).tolist()
    [[0.0, 0.5, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0]]
    """
    x = as_float_array(indicator, "indicator", "soft_membership")
    if x.ndim == 0 or (x < 0).any() or not np.isfinite(x).all():
        raise fail(
            "indicator",
            "soft_membership",
            "be a finite non-negative (..., G) array",
            "other values",
        )
    sums = x.sum(axis=-1, keepdims=True)
    if (sums == 0).any():
        raise fail(
            "indicator", "soft_membership", "name at least one group in every row", "an empty row"
        )
    return x / sums


def _pages(page_of_entity, n_pages, func):
    page = np.asarray(page_of_entity)
    if (
        page.ndim != 1
        or not np.issubdtype(page.dtype, np.integer)
        or (page < 0).any()
        or (len(page) and page.max() >= n_pages)
    ):
        raise fail(
            "page_of_entity",
            func,
            f"be a 1-d array of page indices in 0..{n_pages - 1}",
            repr(page.tolist()[:10]),
        )
    return page


def page_levels(entity_levels, page_of_entity, n_pages: int, /):
    """Page level = the highest level of its entities (0 when it has none).

    >>> page_levels([2, 1, 0], [0, 0, 2], 3).tolist()
    [2, 0, 0]
    """
    levels = np.asarray(entity_levels)
    page = _pages(page_of_entity, n_pages, "page_levels")
    if (
        levels.shape != page.shape
        or not np.issubdtype(levels.dtype, np.integer)
        or (levels < 0).any()
    ):
        raise fail(
            "entity_levels",
            "page_levels",
            "hold one non-negative integer level per entity",
            f"shape {levels.shape} for {page.shape[0]} entities",
        )
    out = np.zeros(n_pages, dtype=np.int64)
    np.maximum.at(out, page, levels)
    return out


def page_memberships(entity_memberships, page_of_entity, n_pages: int, /, *, entity_levels=None):
    """Page membership = normalised sum of its relevant entities' vectors.

    Parameters
    ----------
    entity_memberships : array_like, shape (n_entities, G)
        One membership vector per entity, each summing to 1.
    page_of_entity : array_like of int, shape (n_entities,)
    n_pages : int
    entity_levels : array_like of int, optional
        Entities of level 0 are not relevant and do not count; all count if omitted.

    Returns
    -------
    ndarray, shape (n_pages, G)
        A page with no relevant entity gets the uniform vector.

    >>> page_memberships([[1, 0], [0, 1], [1, 0]], [0, 0, 0], 2).tolist()
    [[0.6666666666666666, 0.3333333333333333], [0.5, 0.5]]
    """
    memb = check_distributions(entity_memberships, "entity_memberships", "page_memberships")
    page = _pages(page_of_entity, n_pages, "page_memberships")
    if memb.ndim != 2 or memb.shape[0] != page.shape[0]:
        raise fail(
            "entity_memberships",
            "page_memberships",
            "have one row per entity",
            f"shape {memb.shape} for {page.shape[0]} entities",
        )
    if entity_levels is not None:
        keep = np.asarray(entity_levels) > 0
        memb, page = memb[keep], page[keep]
    g = memb.shape[1]
    sums = np.zeros((n_pages, g))
    np.add.at(sums, page, memb)
    totals = sums.sum(axis=1, keepdims=True)
    return np.where(totals > 0, sums / np.where(totals > 0, totals, 1.0), 1.0 / g)
