"""The shared core's ragged-array helpers against plain loops."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairconv import _core
from fairconv.conversation import Conversation, Nugget


@given(st.lists(st.integers(0, 5), min_size=1, max_size=12), st.integers(1, 3))
def test_segment_sum_and_cumsum_agree_with_loops(sizes, width):
    rng = np.random.default_rng(sum(sizes))
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    n = int(sum(sizes))
    x = rng.random((n, width))
    sums = _core.segment_sum(x, starts, n)
    cums = _core.segment_cumsum(x, starts)
    for i, (s, size) in enumerate(zip(starts, sizes, strict=False)):
        np.testing.assert_allclose(sums[i], x[s : s + size].sum(axis=0), atol=1e-12)
        for k in range(size):
            np.testing.assert_allclose(cums[s + k], x[s : s + k + 1].sum(axis=0), atol=1e-12)


def test_segment_cumsum_keeps_precision_across_a_large_batch():
    """Restarting at each segment keeps the error at the size of one segment's sum."""
    rng = np.random.default_rng(0)
    x = rng.random((200_000, 1)) * 1e3
    starts = np.arange(0, 200_000, 10)
    got = _core.segment_cumsum(x, starts)[-1, 0]
    assert got == pytest.approx(x[-10:, 0].sum(), abs=1e-10)


def test_gf_takes_the_running_means_at_ranks_with_a_decay():
    x = np.array([[[1.0, 0.0], [0.0, 1.0], [0.0, 1.0]]])
    decay = np.array([[0.5, 0.0, 0.25]])  # rank 2 adds nothing
    got = _core.gf_at_cutoffs(decay, x, np.array([0.5, 0.5]), ["NMD"], [None, 2])
    # the means of the top 1 and top 3 are [1, 0] and [1/3, 2/3]: NMD 1/2 and 1/6
    assert got[("NMD", None)][0] == pytest.approx(0.5 * (1 - 1 / 2) + 0.25 * (1 - 1 / 6))
    assert got[("NMD", 2)][0] == pytest.approx(0.5 * (1 - 1 / 2))


def test_decay():
    np.testing.assert_allclose(
        _core.err_decay(np.array([0.25, 0.75, 0.75])), [0.25, 0.75 * 0.75, 0.75 * 0.75 * 0.25]
    )


def test_conversation_json_round_trip():
    c = Conversation("T", "r", (Nugget(2, 3, 2, "e", {"A": [1.0, 0.0]}),), text="U:q S:a b c")
    assert Conversation.from_json(c.to_json()) == c


# --------------------------------------------------------------------------- kernels vs loops
def _segments(sizes):
    return np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)


@given(st.integers(1, 5), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_combine_renormalises_over_covering_components(n_comp, n_cells, seed):
    rng = np.random.default_rng(seed)
    v = rng.random((n_comp, n_cells))
    w = rng.dirichlet(np.ones(n_comp))
    covered = rng.random((n_comp, n_cells)) < 0.7
    got = _core.combine(v, w, covered)
    for j in range(n_cells):
        total = sum(w[c] for c in range(n_comp) if covered[c, j])
        if total == 0:
            assert np.isnan(got[j])
        else:
            want = sum(w[c] * v[c, j] for c in range(n_comp) if covered[c, j]) / total
            assert got[j] == pytest.approx(want, abs=1e-12)


def test_combine_ignores_undefined_values_of_components_that_do_not_cover():
    v = np.array([[0.5, 0.5], [np.nan, 0.2]])
    got = _core.combine(v, np.array([0.5, 0.5]), np.array([[True, True], [False, True]]))
    np.testing.assert_allclose(got, [0.5, 0.35])


@given(st.lists(st.integers(0, 4), min_size=1, max_size=8), st.integers(2, 5))
def test_normalised_sums_agree_with_a_loop(sizes, g):
    rng = np.random.default_rng(sum(sizes) * g)
    owner = np.repeat(np.arange(len(sizes)), sizes)
    vectors = rng.dirichlet(np.ones(g), size=len(owner)) if len(owner) else np.zeros((0, g))
    got = _core.normalised_sums(owner, vectors, len(sizes))
    for i in range(len(sizes)):
        rows = [vectors[k] for k in range(len(owner)) if owner[k] == i]
        if not rows:
            assert np.isnan(got[i]).all()
        else:
            total = np.sum(rows, axis=0)
            np.testing.assert_allclose(got[i], total / total.sum(), atol=1e-12)


@given(st.lists(st.integers(1, 5), min_size=1, max_size=8), st.integers(1, 3))
def test_segment_means_and_running_means_agree_with_loops(sizes, width):
    rng = np.random.default_rng(sum(sizes))
    starts = _segments(sizes)
    x = rng.random((int(sum(sizes)), width))
    means = _core.segment_means(x, starts)
    running = _core.running_segment_means(x, starts)
    for i, (s, size) in enumerate(zip(starts, sizes, strict=True)):
        np.testing.assert_allclose(means[i], x[s : s + size].mean(axis=0), atol=1e-12)
        for k in range(size):
            np.testing.assert_allclose(running[s + k], x[s : s + k + 1].mean(axis=0), atol=1e-12)


@given(st.lists(st.integers(0, 3), min_size=0, max_size=20))
def test_group_starts_marks_each_run_of_equal_keys(keys):
    got = _core.group_starts(np.array(keys, dtype=np.int64)).tolist()
    want = [i for i in range(len(keys)) if i == 0 or keys[i] != keys[i - 1]]
    assert got == want


@given(
    st.lists(st.tuples(st.integers(1, 50), st.integers(1, 2)), min_size=1, max_size=10),
    st.sampled_from(["eq6", "eq7", "eq9"]),
    st.sampled_from(["exp", "linear"]),
    st.integers(2, 60),
)
def test_relevance_agrees_with_the_formula(nuggets, variant, kind, L):
    wc = np.array([n[0] for n in nuggets])
    level = np.array([n[1] for n in nuggets])
    got = _core.relevance(
        np.zeros(len(nuggets), np.int64), wc, level, 1, L=L, variant=variant, kind=kind, lmax=2
    )[0]
    big_n = (L - 1) / 2 if variant == "eq9" else (L + 1) / 2
    total = 0.0
    for w, lv in nuggets:
        pw = max(0.0, 1 - (w - 1) / L) if variant == "eq6" else max(0.0, 1 - w / L)
        g = (2**lv - 1) / 4 if kind == "exp" else lv / 2
        total += pw * g
    assert got == pytest.approx(total / big_n, abs=1e-12)


@given(st.lists(st.tuples(st.integers(1, 4), st.integers(0, 2)), min_size=1, max_size=10))
def test_gnp_agrees_with_a_word_by_word_count(spans):
    """GWCrel, WCnonrel and GNP at each relevant nugget end, counted word by word."""
    words, wc, level, pos = [], [], [], 0
    for gap, lv in spans:
        width = gap
        pos += gap + width  # `gap` nonrelevant words, then a nugget of `width` words
        words.append(width)
        wc.append(pos)
        level.append(lv + 1)
    words, wc, level = (np.array(x, dtype=np.float64) for x in (words, wc, level))
    gwc, nonrel, gnp = _core.gnp(words, wc, level, np.array([0]))
    for i in range(len(spans)):
        rel_words = sum(words[j] * level[j] for j in range(i + 1))
        other = wc[i] - sum(words[j] for j in range(i + 1))
        assert gwc[i] == pytest.approx(rel_words, abs=1e-12)
        assert nonrel[i] == pytest.approx(other, abs=1e-12)
        assert gnp[i] == pytest.approx(rel_words / (other + rel_words), abs=1e-12)


@given(st.lists(st.tuples(st.integers(0, 2), st.integers(-1, 3), st.integers(0, 2)), max_size=15))
def test_dedupe_levels_zeroes_later_relevant_mentions(items):
    owner = np.array([o for o, _, _ in items], dtype=np.int64)
    order = np.argsort(owner, kind="stable")
    owner = owner[order]
    entity = np.array([items[i][1] for i in order], dtype=np.int64)
    level = np.array([items[i][2] for i in order], dtype=np.int64)
    got = _core.dedupe_levels(owner, entity, level)
    seen = set()
    for k in range(len(items)):
        want = level[k]
        if level[k] > 0 and entity[k] >= 0:
            if (owner[k], entity[k]) in seen:
                want = 0
            seen.add((owner[k], entity[k]))
        assert got[k] == want


@given(st.integers(1, 8), st.integers(2, 4), st.one_of(st.none(), st.integers(1, 8)))
def test_attention_agrees_with_a_loop(depth, g, cutoff):
    rng = np.random.default_rng(depth * 10 + g)
    level = rng.integers(0, 3, size=depth)
    memb = rng.dirichlet(np.ones(g), size=depth)
    got = _core.attention(level, memb, cutoff)
    total = np.zeros(g)
    for k in range(depth):
        if level[k] > 0 and (cutoff is None or k < cutoff):
            total += memb[k] / np.log2(k + 2)
    if total.sum() == 0:
        assert np.isnan(got).all()
    else:
        np.testing.assert_allclose(got, total / total.sum(), atol=1e-12)
