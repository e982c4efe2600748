"""Page-level inputs from entity annotations (FairWeb-2 slides, 004)."""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from fairconv.entities import (
    HINDEX_THRESHOLDS,
    RATINGS_COUNT_THRESHOLDS,
    bin_ordinal,
    one_hot,
    page_levels,
    page_memberships,
    soft_membership,
)


# --------------------------------------------------------------------------- slides (004)
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


def test_hard_membership_example_of_the_slides():
    """004 'Hard group membership': h-index 5 is F(e, C1)=1; e1, e2 in C1 and e3 in C2
    give the page (2/3, 1/3, 0, 0)."""
    assert one_hot(bin_ordinal([5], HINDEX_THRESHOLDS), 4).tolist() == [[1, 0, 0, 0]]
    e = one_hot([0, 0, 1], 4)
    np.testing.assert_allclose(page_memberships(e, [0, 0, 0], 1), [[2 / 3, 1 / 3, 0, 0]])


def test_soft_membership_example_of_the_slides():
    """004 'Soft group membership wrt ORIGIN': e1 in C1, C3; e2 in C1; e3 in C2, C3
    give the page (1.5/3, 0.5/3, 1.0/3, 0)."""
    e = soft_membership([[1, 0, 1, 0], [1, 0, 0, 0], [0, 1, 1, 0]])
    np.testing.assert_array_equal(e, [[0.5, 0, 0.5, 0], [1, 0, 0, 0], [0, 0.5, 0.5, 0]])
    np.testing.assert_allclose(
        page_memberships(e, [0, 0, 0], 1), [[1.5 / 3, 0.5 / 3, 1.0 / 3, 0]], rtol=0, atol=1e-15
    )


def test_page_level_is_max_of_relevant_entities():
    """004: g(d) = max over E(d) of r(e), 0 for a page without relevant entities."""
    assert page_levels([1, 2, 0, 1], [0, 0, 1, 2], 4).tolist() == [2, 0, 1, 0]


def test_nonrelevant_page_is_uniform():
    """004 'Uniform for nonrelevant page'."""
    soft = soft_membership([[1, 0, 1], [0, 1, 0]])
    pages = page_memberships(
        np.vstack([soft, one_hot([2], 3)]), [0, 0, 0], 2, entity_levels=[1, 2, 0]
    )
    np.testing.assert_allclose(pages, [[0.25, 0.5, 0.25], [1 / 3, 1 / 3, 1 / 3]])


# --------------------------------------------------------------------------- loop oracles
def _bin_loop(values, thresholds):
    return [sum(1 for t in thresholds if v >= t) for v in values]


def _levels_loop(levels, page, n_pages):
    out = [0] * n_pages
    for lev, p in zip(levels, page, strict=True):
        out[p] = max(out[p], lev)
    return out


def _memberships_loop(memb, page, n_pages, levels):
    g = len(memb[0])
    out = []
    for p in range(n_pages):
        rows = [memb[i] for i in range(len(page)) if page[i] == p and levels[i] > 0]
        if not rows:
            out.append([1 / g] * g)
            continue
        sums = [sum(r[j] for r in rows) for j in range(g)]
        out.append([s / sum(sums) for s in sums])
    return out


@pytest.mark.parametrize("seed", range(5))
def test_vectorised_functions_agree_with_loops(seed):
    rng = np.random.default_rng(seed)
    n, n_pages, g = 300, 40, int(rng.integers(2, 9))
    values = rng.integers(0, 200, n).astype(float)
    thresholds = np.sort(rng.choice(200, 3, replace=False)).astype(float)
    assert bin_ordinal(values, thresholds).tolist() == _bin_loop(values, thresholds)

    indicator = (rng.random((n, g)) < 0.3).astype(int)
    indicator[np.arange(n), rng.integers(0, g, n)] = 1
    soft = soft_membership(indicator)
    want = [[x / sum(row) for x in row] for row in indicator.tolist()]
    np.testing.assert_allclose(soft, want, rtol=0, atol=1e-12)

    groups = rng.integers(0, g, n)
    hard = one_hot(groups, g)
    assert hard.tolist() == [[1.0 if j == k else 0.0 for j in range(g)] for k in groups]

    page = rng.integers(0, n_pages, n)
    levels = rng.integers(0, 4, n)
    assert page_levels(levels, page, n_pages + 3).tolist() == _levels_loop(
        levels.tolist(), page.tolist(), n_pages + 3
    )
    memb = np.where(rng.random(n)[:, None] < 0.5, soft, hard)
    got = page_memberships(memb, page, n_pages + 3, entity_levels=levels)
    want = _memberships_loop(memb.tolist(), page.tolist(), n_pages + 3, levels.tolist())
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    everyone = page_memberships(memb, page, n_pages + 3)
    want = _memberships_loop(memb.tolist(), page.tolist(), n_pages + 3, [1] * n)
    np.testing.assert_allclose(everyone, want, rtol=0, atol=1e-12)


# --------------------------------------------------------------------------- properties
@st.composite
def annotated_pages(draw):
    g = draw(st.integers(2, 6))
    n_pages = draw(st.integers(1, 6))
    n = draw(st.integers(0, 12))
    indicator = draw(
        st.lists(st.lists(st.integers(0, 1), min_size=g, max_size=g), min_size=n, max_size=n)
    )
    pages = draw(st.lists(st.integers(0, n_pages - 1), min_size=n, max_size=n))
    levels = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    return g, n_pages, indicator, pages, levels


@given(annotated_pages(), st.randoms(use_true_random=False))
def test_page_rows_are_distributions_and_order_free(case, rnd):
    g, n_pages, indicator, pages, levels = case
    assume(all(any(row) for row in indicator))
    memb = soft_membership(np.array(indicator, dtype=float).reshape(-1, g))
    got = page_memberships(memb, pages, n_pages, entity_levels=levels)
    assert got.shape == (n_pages, g)
    assert ((got >= 0) & (got <= 1)).all()
    np.testing.assert_allclose(got.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    order = list(range(len(pages)))
    rnd.shuffle(order)
    shuffled = page_memberships(
        memb[order], [pages[i] for i in order], n_pages, entity_levels=[levels[i] for i in order]
    )
    np.testing.assert_allclose(shuffled, got, rtol=0, atol=1e-12)
    lev = page_levels(levels, pages, n_pages)
    for lv, p in zip(levels, pages, strict=True):
        assert lev[p] >= lv
    # a page with no relevant entity is uniform, and only such a page has level 0
    for p in range(n_pages):
        if lev[p] == 0:
            np.testing.assert_allclose(got[p], 1 / g, rtol=0, atol=1e-15)


@given(
    st.lists(st.floats(-1e300, 1e300), min_size=1, max_size=20),
    st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=5, unique=True),
)
def test_bins_are_monotone(values, thresholds):
    t = sorted(thresholds)
    assume(all(b - a > 0 for a, b in zip(t, t[1:], strict=False)))
    got = bin_ordinal(values, t)
    assert got.tolist() == _bin_loop(values, t)
    order = np.argsort(values, kind="stable")
    assert (np.diff(got[order]) >= 0).all()


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: bin_ordinal([1], [10, 5]), ValueError, r"'thresholds'.*bin_ordinal.*increasing"),
        (lambda: bin_ordinal([1], []), ValueError, r"'thresholds'.*non-empty"),
        (lambda: bin_ordinal([1], [np.inf]), ValueError, r"'thresholds'.*finite"),
        (lambda: bin_ordinal([np.nan], [10]), ValueError, r"'values'.*bin_ordinal.*Got nan"),
        (lambda: bin_ordinal([np.inf], [10]), ValueError, r"'values'.*bin_ordinal.*Got inf"),
        (lambda: bin_ordinal(["a"], [10]), TypeError, r"'values'.*bin_ordinal.*numbers"),
        (lambda: one_hot([4], 4), ValueError, r"'groups'.*one_hot.*0\.\.3. Got 4"),
        (lambda: one_hot([-1], 4), ValueError, r"'groups'.*one_hot.*Got -1"),
        (lambda: one_hot([1.0], 4), TypeError, r"'groups'.*one_hot.*integers.*float64"),
        (lambda: one_hot([True], 4), TypeError, r"'groups'.*one_hot.*integers.*bool"),
        (lambda: one_hot([0], 1), ValueError, r"'n_groups'.*one_hot.*>= 2. Got 1"),
        (lambda: one_hot([0], 2.0), ValueError, r"'n_groups'.*one_hot.*integer"),
        (lambda: soft_membership([[0, 0]]), ValueError, r"'indicator'.*at least one group"),
        (lambda: soft_membership([[0.5, 1]]), ValueError, r"'indicator'.*only 0 and 1.*0\.5"),
        (lambda: soft_membership([[1, -1]]), ValueError, r"'indicator'.*only 0 and 1"),
        (lambda: soft_membership([1, 0][0]), ValueError, r"'indicator'.*G >= 2"),
        (lambda: soft_membership([[1]]), ValueError, r"'indicator'.*G >= 2.*\(1, 1\)"),
        (lambda: soft_membership([["x", "y"]]), TypeError, r"'indicator'.*soft_membership"),
        (lambda: page_levels([1], [5], 2), ValueError, r"'page_of_entity'.*0\.\.1. Got 5"),
        (lambda: page_levels([1], [0], -1), ValueError, r"'n_pages'.*page_levels.*>= 0"),
        (lambda: page_levels([1, 2], [0], 2), ValueError, r"'entity_levels'.*one level per"),
        (lambda: page_levels([-1], [0], 2), ValueError, r"'entity_levels'.*0\.\.100. Got -1"),
        (lambda: page_levels([10**6], [0], 2), ValueError, r"'entity_levels'.*0\.\.100"),
        (lambda: page_levels([1.5], [0], 2), TypeError, r"'entity_levels'.*integers"),
        (lambda: page_levels([1], [[0]], 2), ValueError, r"'page_of_entity'.*1-d"),
        (lambda: page_memberships([[0.5, 0.6]], [0], 1), ValueError, "sum to 1"),
        (lambda: page_memberships([[1, 0]], [0, 0], 1), ValueError, "one row per entity"),
        (lambda: page_memberships([[1, 0]], [1], 1), ValueError, r"'page_of_entity'.*0\.\.0"),
        (
            lambda: page_memberships([[1, 0]], [0], 1, entity_levels=[1, 1]),
            ValueError,
            r"'entity_levels' parameter of entities.page_memberships.*one level per entity",
        ),
        (
            lambda: page_memberships([[1, 0]], [0], 1, entity_levels=["2"]),
            TypeError,
            r"'entity_levels' parameter of entities.page_memberships",
        ),
        (
            lambda: page_memberships([[1, 0]], [0], 1, entity_levels=[-2]),
            ValueError,
            r"'entity_levels'.*Got -2",
        ),
        (lambda: page_memberships([1, 0], [0], 1), ValueError, r"'entity_memberships'.*2-d"),
        (lambda: page_memberships([[1, 0]], [0], "1"), ValueError, r"'n_pages'.*integer"),
    ],
)
def test_bad_input_names_function_parameter_and_value(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("huge", [1e308, -1e308, 1.7e308])
def test_huge_values_are_refused_without_numpy_warnings(huge):
    """The suite runs with warnings as errors: a RuntimeWarning would fail here too."""
    with pytest.raises(
        ValueError, match="'entity_memberships' parameter of entities.page_memberships"
    ):
        page_memberships([[huge, huge], [0.5, 0.5]], [0, 0], 1)
    with pytest.raises(ValueError, match="'indicator' parameter of entities.soft_membership"):
        soft_membership([[huge, huge]])
    assert bin_ordinal([huge], HINDEX_THRESHOLDS).tolist() == [3 if huge > 0 else 0]


def test_huge_integers_are_refused():
    with pytest.raises(ValueError, match=r"'groups' parameter of entities.one_hot"):
        one_hot(np.array([2**63], dtype=np.uint64), 3)
    with pytest.raises(ValueError, match=r"'page_of_entity' parameter of entities.page_levels"):
        page_levels([1], np.array([2**64 - 1], dtype=np.uint64), 2)
    with pytest.raises(TypeError, match=r"'groups' parameter of entities.one_hot"):
        one_hot([2**70], 3)  # beyond 64 bits: numpy keeps it as a Python object


def test_empty_inputs_score():
    assert page_levels([], [], 2).tolist() == [0, 0]
    np.testing.assert_array_equal(page_memberships(np.empty((0, 2)), [], 1), [[0.5, 0.5]])
    assert page_levels([], [], 0).shape == (0,)
    assert one_hot([], 3).shape == (0, 3)
