"""Page-level inputs from entity annotations (FairWeb-2 slides, 004)."""

import numpy as np
import pytest

from fairconv.entities import (
    HINDEX_THRESHOLDS,
    RATINGS_COUNT_THRESHOLDS,
    bin_ordinal,
    one_hot,
    page_levels,
    page_memberships,
    soft_membership,
)


def test_hindex_and_ratings_bins_of_the_slides():
    """004: h-index groups <10, 10-30, 30-50, >=50; IMDb ratings <100, <10K, <1M, >=1M."""
    assert bin_ordinal([0, 9, 10, 29, 30, 49, 50, 241], HINDEX_THRESHOLDS).tolist() == [
        0,
        0,
        1,
        1,
        2,
        2,
        3,
        3,
    ]
    assert bin_ordinal(
        [99, 100, 9999, 10_000, 999_999, 1_000_000], RATINGS_COUNT_THRESHOLDS
    ).tolist() == [0, 1, 1, 2, 2, 3]


def test_page_level_is_max_of_relevant_entities():
    assert page_levels([1, 2, 0, 1], [0, 0, 1, 2], 4).tolist() == [2, 0, 1, 0]


def test_page_membership_hard_and_soft():
    """004: normalised sum of entity vectors; an entity in m groups gives 1/m to each."""
    soft = soft_membership([[1, 0, 1], [0, 1, 0]])
    np.testing.assert_allclose(soft, [[0.5, 0, 0.5], [0, 1, 0]])
    pages = page_memberships(
        np.vstack([soft, one_hot([2], 3)]), [0, 0, 0], 2, entity_levels=[1, 2, 0]
    )
    np.testing.assert_allclose(pages, [[0.25, 0.5, 0.25], [1 / 3, 1 / 3, 1 / 3]])


def test_page_membership_agrees_with_loop():
    rng = np.random.default_rng(3)
    memb = rng.dirichlet(np.ones(4), size=50)
    page = rng.integers(0, 10, 50)
    levels = rng.integers(0, 3, 50)
    got = page_memberships(memb, page, 12, entity_levels=levels)
    for p in range(12):
        rows = [memb[i] for i in range(50) if page[i] == p and levels[i] > 0]
        want = np.sum(rows, axis=0) / len(rows) if rows else np.full(4, 0.25)
        np.testing.assert_allclose(got[p], want, atol=1e-12)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: bin_ordinal([1], [10, 5]), "strictly increasing"),
        (lambda: bin_ordinal([np.nan], [10]), "no NaN"),
        (lambda: one_hot([4], 4), r"0\.\.3"),
        (lambda: soft_membership([[0, 0]]), "at least one group"),
        (lambda: page_levels([1], [5], 2), r"page indices in 0\.\.1"),
        (lambda: page_memberships([[0.5, 0.6]], [0], 1), "sum to 1"),
        (lambda: page_memberships([[1, 0]], [0, 0], 1), "one row per entity"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()
