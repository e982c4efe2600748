"""The shared core's arithmetic against plain loops written from the definitions."""

import math
import statistics

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import oracles
import trecfair_oracle
from fairconv import _core
from fairconv.io import Conversation, Nugget


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


# --------------------------------------------------------------------------- RAG formulas
def _distributions(rng, n, g, missing_every=0):
    d = rng.dirichlet(np.ones(g), size=n)
    one_hot = rng.random(n) < 0.3  # the edge d = +-1 of the divergences
    d[one_hot] = np.eye(g)[rng.integers(g, size=n)][one_hot]
    if missing_every:
        d[::missing_every] = np.nan
    return d


@given(st.integers(0, 2**32 - 1), st.integers(2, 7), st.sampled_from(["JSD", "NMD", "RNOD"]))
def test_gf_gen_and_adsim_agree_with_a_loop(seed, g, divergence):
    rng = np.random.default_rng(seed)
    d_a, d_l = _distributions(rng, 12, g, 5), _distributions(rng, 12, g, 4)
    target = rng.dirichlet(np.ones(g))
    gen = _core.gf_gen(d_a, target, divergence)
    ads = _core.adsim(d_l, d_a, divergence)
    for i in range(12):
        assert gen[i] == pytest.approx(oracles.gf_gen(d_a[i], target, divergence), abs=1e-12)
        want = oracles.adsim(d_l[i], d_a[i], divergence)
        if np.isnan(want):
            assert np.isnan(ads[i])
        else:
            assert ads[i] == pytest.approx(want, abs=1e-12)


@given(st.integers(0, 2**32 - 1), st.integers(2, 7), st.sampled_from(["JSD", "NMD", "RNOD"]))
def test_adsim_of_a_distribution_with_itself_is_one(seed, g, divergence):
    d = _distributions(np.random.default_rng(seed), 8, g)
    assert (_core.adsim(d, d, divergence) == 1.0).all()


@given(
    st.lists(
        st.tuples(st.floats(1 - 2**0.5, 1), st.floats(1 - 2**0.5, 1) | st.just(0.0)),
        min_size=1,
        max_size=20,
    )
)
def test_rigf_agrees_with_the_formula(pairs):
    gen, re_ = np.array(pairs).T
    got = _core.rigf(gen, re_)
    for i, (a, b) in enumerate(pairs):
        want = oracles.rigf(a, b)
        if np.isnan(want):
            assert np.isnan(got[i])
        else:
            assert got[i] == pytest.approx(want, rel=1e-12, abs=1e-9)


@given(st.floats(1 - 2**0.5, 1).filter(lambda x: x != 0))
def test_rigf_is_zero_for_equal_values_and_minus_100_for_an_answer_of_gf_0(gf):
    assert _core.rigf(np.array(gf), np.array(gf)) == 0.0
    assert _core.rigf(np.array(0.0), np.array(gf)) == -100.0


# --------------------------------------------------------------------------- GFR, GFRC, GFRC2
@given(st.lists(st.floats(0.01, 100), min_size=1, max_size=8).map(sorted))
def test_stop_probabilities_agree_with_the_formula_and_lie_in_0_1(gains):
    got = _core.stop_probabilities(np.array(gains))
    assert got.tolist() == oracles.stop_probabilities(gains)
    assert got[0] == 0.0 and (got >= 0).all() and (got < 1).all()
    assert (np.diff(got) >= 0).all()


@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.booleans())
def test_turn_mean_agrees_with_a_loop(seed, n_conv, every_turn):
    rng = np.random.default_rng(seed)
    owner = np.sort(rng.integers(0, n_conv, size=int(rng.integers(0, 15))))
    sims = rng.uniform(-0.4, 1.0, size=len(owner))
    counted = np.bincount(owner, minlength=n_conv)
    turns = counted + rng.integers(0, 3, size=n_conv) if every_turn else None
    fill = float(rng.uniform(0, 1))
    got = _core.turn_mean(owner, sims, n_conv, turns, fill)
    want = oracles.turn_mean(owner.tolist(), sims.tolist(), n_conv, turns, fill)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    # a mean: within the range of what it averages (the fill included), 0 for none
    for c in range(n_conv):
        values = sims[owner == c].tolist() + ([fill] if every_turn else [])
        if values and (turns if every_turn else counted)[c] > 0:
            assert min(values) - 1e-12 <= got[c] <= max(values) + 1e-12
        else:
            assert got[c] == 0.0


@given(st.integers(0, 2**32 - 1), st.integers(1, 4), st.integers(1, 5), st.booleans())
def test_gf_of_sets_agrees_with_a_loop(seed, n_sets, n_conv, r_only):
    rng = np.random.default_rng(seed)
    gf = rng.random((n_sets, n_conv))
    w = np.zeros(n_sets + 1) if r_only else rng.dirichlet(np.ones(n_sets + 1))
    if r_only:
        w[0] = 1.0  # GFRC = R: GF is the plain mean of the GF^m
    got = _core.gf_of_sets(gf, w)
    np.testing.assert_allclose(got, oracles.gf_of_sets(gf.tolist(), w), rtol=1e-12, atol=1e-15)


@given(st.integers(0, 2**32 - 1), st.integers(2, 200))
def test_cluster_probability_and_expectation_agree_with_a_loop(seed, L):
    rng = np.random.default_rng(seed)
    n_conv = 4
    owner = np.sort(rng.integers(0, n_conv, size=30))
    wc = rng.integers(1, 2 * L, size=30).astype(np.float64)
    prob = _core.cluster_probability(wc, L)
    assert prob.tolist() == [1.0 / L if w <= L else 0.0 for w in wc.tolist()]
    value = rng.random(30)
    got = _core.expectation(owner, prob, value, n_conv)
    want = oracles.expectation(owner.tolist(), prob.tolist(), value.tolist(), n_conv)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)


@given(st.integers(2, 50), st.lists(st.floats(0, 1), min_size=1, max_size=60))
def test_an_expectation_over_distinct_clusters_lies_in_0_1(L, values):
    """Distinct word positions: at most L clusters of probability 1/L each."""
    wc = np.arange(1, len(values) + 1, dtype=np.float64)
    prob = _core.cluster_probability(wc, L)
    assert prob.sum() <= 1.0 + 1e-12
    got = _core.expectation(np.zeros(len(values), dtype=np.int64), prob, np.array(values), 1)
    assert 0.0 <= got[0] <= 1.0 + 1e-12


# --------------------------------------------------------------------------- nuggets
def _counts_of(rng, n, width, parts):
    """Non-negative counts (n, width): each part column at most its whole column."""
    c = rng.integers(0, 6, size=(n, width))
    for part, whole in parts:
        c[:, whole] = np.maximum(c[:, whole], c[:, part])
    return c


@given(st.integers(0, 2**32 - 1))
def test_match_ratios_agree_with_a_loop_and_lie_in_0_1(seed):
    rng = np.random.default_rng(seed)
    c = _counts_of(rng, 20, 5, ((0, 1), (4, 1), (2, 3)))
    got = np.column_stack(_core.match_ratios(c))
    for i in range(20):
        want = oracles.match_ratios(c[i])
        np.testing.assert_array_equal(got[i], want)  # one division: the same bits
    defined = got[~np.isnan(got)]
    assert ((defined >= 0) & (defined <= 1)).all()


@given(st.integers(0, 2**32 - 1))
def test_nuggetizer_scores_agree_with_a_loop_and_lie_in_0_1(seed):
    rng = np.random.default_rng(seed)
    c = rng.integers(0, 4, size=(20, 6))
    c[:, 0] = c[:, 0] + c[:, 1] + c[:, 2]  # |V| holds its support and partial nuggets
    c[:, 3] = c[:, 3] + c[:, 4] + c[:, 5]
    got = np.column_stack(_core.nuggetizer_scores(c))
    for i in range(20):
        assert got[i].tolist() == list(oracles.nuggetizer_scores(c[i]))
    assert ((got >= 0) & (got <= 1)).all()


@given(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 50)), max_size=20), st.floats(0, 1))
def test_ratio_is_num_over_den_or_the_empty_value(pairs, empty):
    num = np.array([min(a, b) for a, b in pairs], dtype=np.int64)
    den = np.array([max(a, b) for a, b in pairs], dtype=np.int64)
    got = _core.ratio(num, den, empty)
    for i in range(len(pairs)):
        assert got[i] == (num[i] / den[i] if den[i] else empty)
    assert ((got >= 0) & (got <= 1)).all()


# --------------------------------------------------------------------------- means
finite = st.floats(allow_nan=False, allow_infinity=False)
summable = st.floats(-1e300, 1e300)  # sums of up to 1e8 such values stay finite
unit = st.floats(0, 1)


@given(st.lists(summable, min_size=1, max_size=40))
def test_exact_mean_is_the_exact_sum_over_n_rounded_once(xs):
    assert _core.exact_mean(np.array(xs)) == oracles.exact_mean(xs)


@given(st.lists(unit, min_size=1, max_size=50))
def test_exact_mean_is_rounded_once_as_statistics_mean(xs):
    assert _core.exact_mean(np.array(xs)) == statistics.mean(xs)


def test_exact_mean_is_rounded_once_where_a_plain_sum_is_not():
    xs = [0.1] * 10 + [1e-17, 0.7]
    assert _core.exact_mean(np.array(xs)) == statistics.mean(xs)
    assert sum(xs) / len(xs) != statistics.mean(xs)  # the case a plain sum gets wrong


@given(summable, st.integers(1, 30), st.randoms(use_true_random=False))
def test_exact_mean_of_equal_values_is_that_value_in_any_order(x, n, rnd):
    assert _core.exact_mean(np.full(n, x)) == x
    xs = [x, -x / 3, 0.1, 1e-300][: max(n % 4, 1)] * 3
    shuffled = list(xs)
    rnd.shuffle(shuffled)
    assert _core.exact_mean(np.array(shuffled)) == _core.exact_mean(np.array(xs))


@given(st.lists(st.lists(finite, min_size=3, max_size=3), min_size=1, max_size=25))
def test_fsum_means_agree_with_the_exact_scaled_sum_and_ignore_order(rows):
    x = np.array(rows)
    got = _core.fsum_means(x)
    assert np.isfinite(got).all()  # values near 1.8e308 do not overflow
    for j in range(3):
        e = math.frexp(float(np.abs(x[:, j]).max()))[1]  # each column its own scale
        assert got[j] == oracles.fsum_mean(x[:, j].tolist(), e)
    reversed_ = _core.fsum_means(x[::-1])
    assert got.tolist() == reversed_.tolist()


def test_fsum_means_tie_columns_whose_sums_are_equal_on_paper():
    x = np.array([[0.1, 0.3, 0.3], [0.2, 0.2, 0.3], [0.3, 0.1, 0.0]])
    got = _core.fsum_means(x)
    assert got[0] == got[1] == got[2]
    assert (0.1 + 0.2 + 0.3) != (0.3 + 0.2 + 0.1)  # the plain sums do not tie


def test_fsum_means_keep_a_tiny_column_beside_a_huge_one():
    # one scale for the whole array would make the first column subnormal
    x = np.array([[4.89e-276, 1e300], [4.89e-276, -1e300], [4.89e-276, 2e300]])
    assert _core.fsum_means(x).tolist() == [4.89e-276, 2e300 / 3]


@given(st.lists(summable, max_size=30))
def test_sequential_mean_adds_left_to_right(xs):
    assert _core.sequential_mean(np.array(xs, dtype=np.float64)) == oracles.sequential_mean(xs)


@given(st.integers(0, 2**32 - 1), st.sampled_from([1.0, 1e307, 1e-310]))
def test_defined_means_agree_with_a_loop_without_overflow(seed, scale):
    rng = np.random.default_rng(seed)
    values = rng.normal(size=(9, 2, 3)) * scale
    defined = rng.random((9, 2, 3)) < 0.7
    count = defined.sum(axis=0)
    got = _core.defined_means(values, defined, count)
    for r in range(2):
        for m in range(3):
            cells = [float(values[t, r, m]) for t in range(9) if defined[t, r, m]]
            if not cells:
                assert np.isnan(got[r, m])
                continue
            assert np.isfinite(got[r, m])
            total = 0.0
            for x in cells:  # in topic order
                total += x
            want = total / len(cells)
            if math.isinf(total):  # past the largest double: each value over n first
                want = math.fsum(x / len(cells) for x in cells)
            # the rounding of a sum of values of both signs is relative to the largest
            tolerance = 1e-14 * max(abs(x) for x in cells)
            assert got[r, m] == pytest.approx(want, rel=1e-12, abs=tolerance)


@given(st.floats(-1e308, 1e308), st.integers(1, 9))
def test_defined_means_of_one_value_is_that_value(x, n):
    values = np.full((n, 1, 1), x)
    values[0] = np.nan  # an undefined cell is left out
    defined = ~np.isnan(values)
    got = _core.defined_means(values, defined, defined.sum(axis=0))
    if n == 1:
        assert np.isnan(got[0, 0])
    else:
        assert got[0, 0] == pytest.approx(x, rel=1e-15)


@pytest.mark.parametrize("n", [2, 3, 7])
def test_defined_means_of_the_largest_double_is_the_largest_double(n):
    top = np.finfo(np.float64).max
    values = np.full((n, 1, 2), top)
    values[:, 0, 1] = [top, -top / 2] + [0.0] * (n - 2)
    got = _core.defined_means(values, np.ones(values.shape, bool), np.full((1, 2), n))
    assert got[0, 0] == top
    assert got[0, 1] == top / 2 / n


def test_defined_means_of_opposite_infinities_is_nan():
    values = np.array([[[np.inf]], [[-np.inf]]])
    got = _core.defined_means(values, np.ones(values.shape, bool), np.array([[2]]))
    assert np.isnan(got[0, 0])


@given(st.lists(finite, min_size=1, max_size=20))
def test_scaled_divides_by_a_power_of_2(xs):
    x = np.array(xs)
    s, e = _core.scaled(x)
    top = np.abs(s).max()
    assert top == 0 or 0.5 <= top < 1
    within = np.abs(x) >= math.ldexp(1.0, e - 1021)  # exact there; smaller may go subnormal
    assert np.array_equal(np.ldexp(s[within], e), x[within])


# --------------------------------------------------------------------------- TREC Fair
@given(st.integers(0, 300))
def test_trec_fair_discount_is_the_float32_formula(n):
    got = _core.trec_fair_discount(n)
    assert got.dtype == np.float32
    assert [float(x) for x in got] == [trecfair_oracle.delta(k) for k in range(1, n + 1)]
    assert n < 2 or got[0] == got[1] == 1.0


@given(st.integers(0, 2**32 - 1), st.integers(1, 8), st.integers(1, 12))
def test_trec_fair_ndcg_agrees_with_a_loop_and_lies_in_0_1(seed, K, N):
    rng = np.random.default_rng(seed)
    hit = rng.random((5, K)) < 0.5
    n_relevant = hit.sum(axis=1) + rng.integers(0, 4, size=5)
    n_relevant[n_relevant == 0] = 1
    group, rank = np.nonzero(hit)  # the relevant lines, flat
    got = _core.trec_fair_ndcg(group, rank, n_relevant, N)
    for i in range(5):
        dcg = sum(trecfair_oracle.delta(k + 1) for k in range(K) if hit[i, k])
        idcg = sum(trecfair_oracle.delta(k) for k in range(1, min(N, n_relevant[i]) + 1))
        assert got[i] == pytest.approx(dcg / idcg, rel=1e-12)
        if hit[i].sum() <= N:  # no more relevant pages counted than the ideal ranking holds
            assert 0.0 <= got[i] <= 1.0 + 1e-12


@given(st.integers(0, 2**32 - 1), st.integers(2, 9))
def test_sparse_js_agrees_with_the_dense_divergence_and_lies_in_0_ln2(seed, n_cells):
    rng = np.random.default_rng(seed)
    count = 4
    dense_e = rng.random((count, n_cells)) * (rng.random((count, n_cells)) < 0.6)
    dense_e[0] = 0.0  # a group without exposure: NaN
    tau = rng.random((count, n_cells)) * (rng.random((count, n_cells)) < 0.8)
    tau[:, 0] += 0.1  # every target has mass
    group, cell = np.nonzero(dense_e)
    got, overflow = _core.sparse_js(
        group, dense_e[group, cell], tau[group, cell], tau.sum(axis=1), count
    )
    assert np.isnan(got[0]) and not overflow.any()
    for g in range(1, count):
        if not dense_e[g].any():
            assert np.isnan(got[g])
            continue
        p = dict(enumerate(dense_e[g].tolist()))
        q = dict(enumerate(tau[g].tolist()))
        assert got[g] == pytest.approx(trecfair_oracle.js(p, q), abs=1e-12)
        assert 0.0 <= got[g] <= math.log(2.0) + 1e-12


@given(st.integers(0, 2**32 - 1), st.integers(2, 9), st.floats(0.5, 20))
def test_expected_exposure_agrees_with_the_dense_sums(seed, n_cells, Z):
    rng = np.random.default_rng(seed)
    count = 3
    eps = rng.random((count, n_cells)) * (rng.random((count, n_cells)) < 0.6)
    tau = rng.dirichlet(np.ones(n_cells), size=count)
    group, cell = np.nonzero(eps)
    dis, dot, loss, seen_sq = _core.exposure_sums(
        group, eps[group, cell], tau[group, cell], count, Z
    )
    ee_l = _core.expected_exposure_loss(loss, (tau * tau).sum(axis=1), seen_sq, Z)
    for g in range(count):
        e, t = eps[g].tolist(), tau[g].tolist()
        assert dis[g] == pytest.approx(sum(x * x for x in e), rel=1e-12, abs=1e-15)
        want = sum(x * Z * y for x, y in zip(e, t, strict=True))
        assert dot[g] == pytest.approx(want, rel=1e-12, abs=1e-15)
        want = sum((x - Z * y) ** 2 for x, y in zip(e, t, strict=True))
        assert ee_l[g] == pytest.approx(want, rel=1e-12, abs=1e-15)


@given(st.integers(0, 2**32 - 1), st.integers(1, 12))
def test_work_level_weights_agree_with_a_loop_and_lie_in_0_1(seed, R):
    rng = np.random.default_rng(seed)
    level = rng.integers(-1, 6, size=(4, R))
    used = (level >= 0) & (np.arange(R) < rng.integers(0, R + 1, size=4)[:, None])
    group, page = np.nonzero(used)  # the pages used, flat
    got = _core.work_level_weights(group, level[group, page], 4)
    for t in range(4):
        pages = [k for k in range(R) if used[t, k]]
        want = trecfair_oracle.work_weights(pages, {k: int(level[t, k]) for k in pages}, 2021)
        for w, k in zip(got[group == t], pages, strict=True):
            assert w == pytest.approx(want[k], rel=1e-12)
            assert 0.0 < w <= 1.0


def test_entity_dedupe_has_no_limit_on_owner_and_entity_codes():
    """Later relevant mentions of an entity earn nothing: pairs (owner, entity) compared
    as pairs, never packed into one integer that codes near 2**62 would wrap."""
    from fairconv import _core

    # owner * (largest entity + 1) + entity would be 2**32 * 2**32 + 7 = 7 (mod 2**64) for
    # the third item: the key of the first, of another owner
    owner = np.array([0, 0, 2**32, 2**32, 2**32])
    entity = np.array([7, 2**32 - 1, 7, 2**32 - 1, 7])
    level = np.array([1, 2, 1, 1, 2])
    assert _core.dedupe_levels(owner, entity, level).tolist() == [1, 2, 1, 1, 0]
