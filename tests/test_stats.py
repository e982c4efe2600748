"""fairconv.stats against Sakai's book, scipy, brute-force loops and properties."""

import csv
import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats as sp

from fairconv import stats
from fairconv.datasets import sakai_book
from fairconv.results import ScoreTable

REFERENCE = Path(__file__).parent / "reference" / "sakai_book.csv"
BOOK = sakai_book()
X, Y, Z = BOOK.scores.T


def _book_values():
    t = stats.paired_t_test(X, Y)
    a = stats.anova2(BOOK.scores)
    h = stats.tukey_hsd(BOOK.scores)
    r = stats.randomisation_test(X, Y, n_resamples=2**20)
    assert r.exact
    return {
        "t_mean_difference": t.mean_difference,
        "t_variance": float(np.var(X - Y, ddof=1)),
        "t_effect_size": t.effect_size,
        "t_statistic": t.statistic,
        "t_pvalue": t.pvalue,
        "t_margin": t.ci[1] - t.mean_difference,
        "ss_systems": a.ss_systems,
        "ss_topics": a.ss_topics,
        "ss_residual": a.ss_residual,
        "ms_systems": a.ms_systems,
        "ms_topics": a.ms_topics,
        "ms_residual": a.ms_residual,
        "f_systems": a.f_systems,
        "f_topics": a.f_topics,
        "p_systems": a.p_systems,
        "p_topics": a.p_topics,
        "anova_margin": float(a.ci_high[0] - a.means[0]),
        "es_xy": h.effect_size[0, 1],
        "es_xz": h.effect_size[0, 2],
        "es_yz": h.effect_size[1, 2],
        "tukey_p_xy": h.pvalue[0, 1],
        "randomisation_p_xy": r.pvalue,
    }


VALUES = _book_values()


def _rows():
    with open(REFERENCE, newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("row", _rows(), ids=lambda r: r["quantity"])
def test_sakai_book_values_to_the_printed_digits(row):
    """Sakai 2015, Table 5.1 example (and the exact p of statistics.md): printed digits."""
    got = VALUES[row["quantity"]]
    assert round(float(got), int(row["digits"])) == pytest.approx(float(row["expected"]), abs=1e-12)


def test_exact_sign_flip_count_is_69120_of_2_to_20():
    r = stats.randomisation_test(X, Y, n_resamples=2**20)
    assert r.exact and r.n_resamples == 2**20 and r.pvalue * 2**20 == 69120


def test_paired_t_equals_scipy_to_full_precision():
    rng = np.random.default_rng(1)
    for n in (2, 5, 30):
        x, y = rng.random(n), rng.random(n)
        ours = stats.paired_t_test(x, y)
        ref = sp.ttest_rel(x, y)
        assert ours.statistic == pytest.approx(float(ref.statistic), rel=1e-12)
        assert ours.pvalue == pytest.approx(float(ref.pvalue), rel=1e-10)


def test_tukey_p_is_scipys_studentized_range_on_the_two_way_q():
    h = stats.tukey_hsd(BOOK.scores)
    a = stats.anova2(BOOK.scores)
    q = abs(X.mean() - Y.mean()) / math.sqrt(a.ms_residual / 20)
    assert h.pvalue[0, 1] == pytest.approx(sp.studentized_range.sf(q, 3, a.df_residual), rel=1e-12)
    # the one-way test of scipy ignores that the systems share topics: p = 0.394
    assert round(float(sp.tukey_hsd(X, Y, Z).pvalue[0, 1]), 3) == 0.394
    assert np.allclose(np.diag(h.pvalue), 1) and np.allclose(h.pvalue, h.pvalue.T)


def _brute_sign_flip(d):
    """Exact p with rational arithmetic: ties are ties on paper."""
    from fractions import Fraction

    exact = [Fraction(str(x)) for x in d]
    obs = abs(sum(exact))
    n = len(d)
    count = 0
    for signs in itertools.product((1, -1), repeat=n):
        count += abs(sum(si * di for si, di in zip(signs, exact, strict=True))) >= obs
    return count / 2**n


def _brute_tukey(x):
    n, m = x.shape
    sums = x.sum(axis=0)
    ranges = []
    for perms in itertools.product(list(itertools.permutations(range(m))), repeat=n):
        s = [sum(x[i][perms[i][j]] for i in range(n)) for j in range(m)]
        ranges.append(max(s) - min(s))
    p = np.ones((m, m))
    for j in range(m):
        for k in range(m):
            if j != k:
                obs = abs(sums[j] - sums[k])
                p[j, k] = sum(r >= obs - 1e-9 * obs for r in ranges) / len(ranges)
    return p


@given(st.lists(st.integers(-5, 5), min_size=2, max_size=9))
def test_exact_sign_flip_agrees_with_a_brute_force_loop(ints):
    assume(any(ints))
    d = np.array(ints) / 10.0  # multiples of 0.1: ties that float sums blur
    r = stats.randomisation_test(d, np.zeros_like(d), n_resamples=2 ** len(d))
    assert r.exact and r.pvalue == _brute_sign_flip(d.tolist())


@settings(max_examples=25)
@given(st.integers(2, 3), st.integers(2, 4), st.integers(0, 2**32 - 1))
def test_exact_randomised_tukey_agrees_with_a_brute_force_loop(m, n, seed):
    assume(math.factorial(m) ** n <= 2000)
    x = np.round(np.random.default_rng(seed).random((n, m)), 1)
    assume(stats.anova2(x, alpha=0.05) if np.ptp(x - x.mean(0) - x.mean(1)[:, None]) > 0 else False)
    r = stats.randomised_tukey_hsd(x, n_resamples=math.factorial(m) ** n)
    assert r.exact
    np.testing.assert_array_equal(r.pvalue, _brute_tukey(x))


def test_ties_that_float_sums_break_are_counted():
    """0.1 + 0.2 != 0.3 in floats, but the tie is exact on paper."""
    x = np.array([0.1, 0.2, 0.3])
    y = np.array([0.0, 0.0, 0.0])
    # |0.1 + 0.2 - 0.3| = 0 on paper: flips of the first two against the third tie
    d = np.array([0.1, 0.2, -0.3])
    r = stats.randomisation_test(d, y, n_resamples=8)
    assert r.pvalue == _brute_sign_flip([0.1, 0.2, -0.3]) == 1.0
    r2 = stats.randomisation_test(x, y, n_resamples=8)
    assert r2.pvalue == 2 / 8  # only the all-plus and all-minus flips reach 0.6


def test_monte_carlo_p_is_within_four_standard_errors_of_the_exact_p():
    exact = 69120 / 2**20
    r = stats.randomisation_test(X, Y, n_resamples=10000, seed=7)
    assert not r.exact
    assert abs(r.pvalue - exact) <= 4 * math.sqrt(exact * (1 - exact) / 10000)


@pytest.mark.parametrize(
    "call",
    [
        lambda c: stats.randomisation_test(X, Y, n_resamples=3000, seed=11, chunk=c).pvalue,
        lambda c: stats.bootstrap_test(X, Y, n_resamples=500, seed=11, chunk=c).pvalue,
        lambda c: stats.randomised_tukey_hsd(BOOK.scores, n_resamples=900, seed=11, chunk=c).pvalue,
    ],
)
def test_a_seed_gives_the_same_p_for_every_chunk_size(call):
    results = [call(c) for c in (1, 7, None)]
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])
    np.testing.assert_array_equal(call(None), results[0])  # and on every run


@settings(max_examples=15)
@given(st.integers(0, 2**32 - 1), st.integers(3, 8), st.integers(3, 5))
def test_properties_of_the_tests(seed, n, m):
    rng = np.random.default_rng(seed)
    x = rng.random((n, m))
    h = stats.tukey_hsd(x)
    assert ((0 <= h.pvalue) & (h.pvalue <= 1)).all()
    # swapping two systems swaps their rows and negates the differences
    swapped = stats.tukey_hsd(x[:, [1, 0, *range(2, m)]])
    assert swapped.pvalue[0, 2] == pytest.approx(h.pvalue[1, 2], abs=1e-12)
    assert swapped.difference[0, 1] == pytest.approx(-h.difference[0, 1], abs=1e-12)
    # a constant added to one topic changes no Tukey p and not p_systems
    shifted = x.copy()
    shifted[0] += 0.37
    assert np.allclose(stats.tukey_hsd(shifted).pvalue, h.pvalue, atol=1e-9)
    assert stats.anova2(shifted).p_systems == pytest.approx(stats.anova2(x).p_systems, abs=1e-9)
    r1 = stats.randomised_tukey_hsd(x, n_resamples=300, seed=seed)
    r2 = stats.randomised_tukey_hsd(shifted, n_resamples=300, seed=seed)
    np.testing.assert_array_equal(r1.pvalue, r2.pvalue)
    # scaling all scores by c > 0 changes no p
    scaled = stats.randomised_tukey_hsd(x * 3.5, n_resamples=300, seed=seed)
    np.testing.assert_array_equal(scaled.pvalue, r1.pvalue)
    assert np.allclose(stats.tukey_hsd(x * 3.5).pvalue, h.pvalue, atol=1e-9)
    t = stats.paired_t_test(x[:, 0], x[:, 1])
    assert stats.paired_t_test(x[:, 0] * 2, x[:, 1] * 2).pvalue == pytest.approx(
        t.pvalue, abs=1e-12
    )
    assert 0 <= stats.bootstrap_test(x[:, 0], x[:, 1], n_resamples=50, seed=1).pvalue <= 1


def test_bootstrap_agrees_with_a_loop():
    rng = np.random.default_rng(3)
    d = X - Y
    n = len(d)
    w = d - d.mean()
    t_obs = abs(d.mean() / (d.std(ddof=1) / math.sqrt(n)))
    r = stats.bootstrap_test(X, Y, n_resamples=300, seed=np.random.default_rng(3))
    count = 0
    for _ in range(300):
        idx = [min(int(u * n), n - 1) for u in rng.random(n)]
        sample = [w[i] for i in idx]
        s = float(np.std(sample, ddof=1))
        t = 0.0 if s == 0 else float(np.mean(sample)) / (s / math.sqrt(n))
        count += abs(t) >= t_obs - 1e-9 * t_obs
    assert r.pvalue == count / 300


def test_adjusted_p_values_agree_with_loops():
    p = np.array([0.01, 0.04, 0.03, 0.2, 0.02])
    m = len(p)
    order = np.argsort(p)
    holm, bh = np.empty(m), np.empty(m)
    running = 0.0
    for i, j in enumerate(order):
        running = max(running, min(1.0, (m - i) * p[j]))
        holm[j] = running
    running = 1.0
    for i in range(m - 1, -1, -1):
        j = order[i]
        running = min(running, p[j] * m / (i + 1))
        bh[j] = min(1.0, running)
    np.testing.assert_allclose(stats.adjust_pvalues(p, "holm"), holm, atol=1e-15)
    np.testing.assert_allclose(stats.adjust_pvalues(p, "bh"), bh, atol=1e-15)
    np.testing.assert_allclose(stats.adjust_pvalues(p, "bonferroni"), np.minimum(1, p * m))


def test_discriminative_power_sorts_the_asls_of_all_pairs():
    dp = stats.discriminative_power(BOOK.scores, test="tukey")
    assert dp.pairs == [(0, 2), (0, 1), (1, 2)]
    assert np.all(np.diff(dp.asl) >= 0) and dp.power == 0.0
    rnd = stats.discriminative_power(BOOK.scores, test="randomisation", n_resamples=2**20)
    assert rnd.asl[1] == pytest.approx(69120 / 2**20) or 69120 / 2**20 in rnd.asl.tolist()


def test_compare_on_a_table_orders_systems_and_pairs_by_mean():
    c = stats.compare(BOOK.table, "nDCG@5", test="tukey")
    assert [s["name"] for s in c.systems] == ["X", "Y", "Z"]
    xy = c.pairs[0]
    assert (xy["a"], xy["b"]) == ("X", "Y") and xy["difference"] == pytest.approx(0.075)
    assert round(xy["pvalue"], 3) == 0.257 and round(xy["effect_size"], 3) == 0.507
    assert BOOK.table.compare("nDCG@5", test="tukey").to_dict() == c.to_dict()
    t = stats.compare(BOOK.table, "nDCG@5", test="paired-t", correction="holm")
    assert t.pairs[0]["pvalue"] == pytest.approx(min(1, 3 * VALUES["t_pvalue"]), rel=1e-9) or (
        t.pairs[0]["pvalue"] >= VALUES["t_pvalue"]
    )


def test_nan_policy():
    v = BOOK.table.values.copy()
    v[1, 4, 0] = np.nan
    t = ScoreTable(BOOK.table.runs, BOOK.table.topics, ("m",), v, BOOK.table.present)
    with pytest.raises(ValueError, match="undefined .* on topic 'Q5'.*nan_policy='omit'"):
        stats.compare(t, "m")
    c = stats.compare(t, "m", test="tukey", nan_policy="omit")
    assert (c.n_topics, c.n_dropped) == (19, 1)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: stats.paired_t_test([1, 2], [1, 2, 3]), "'y' parameter of paired_t_test"),
        (lambda: stats.paired_t_test([1], [2]), "at least 2 topics"),
        (lambda: stats.paired_t_test([1, np.nan], [2, 3]), "finite"),
        (lambda: stats.paired_t_test([1, 2], [0, 1]), "differences are equal"),
        (lambda: stats.randomisation_test([1, 2], [1, 2]), "every difference is 0"),
        (lambda: stats.randomisation_test(X, Y, n_resamples=0), "'n_resamples'"),
        (lambda: stats.anova2(np.ones((3, 2))), "residual variance is 0"),
        (lambda: stats.anova2(np.ones(3)), "(topics, systems)"),
        (lambda: stats.tukey_hsd(BOOK.scores[:1]), "at least 2 topics"),
        (lambda: stats.compare(BOOK.table, "nDCG@5", correction="holm"), "familywise"),
        (lambda: stats.compare(BOOK.table, "P@5"), "'measure' parameter"),
        (lambda: stats.discriminative_power(BOOK.scores, test="wilcoxon"), "'test' parameter"),
        (lambda: stats.adjust_pvalues([0.5, 1.5], "holm"), "p-values in [0, 1]"),
    ],
)
def test_bad_input_is_a_clear_error(call, message):
    with pytest.raises(
        ValueError,
        match=message.replace("(", r"\(")
        .replace(")", r"\)")
        .replace("[", r"\[")
        .replace("]", r"\]"),
    ):
        call()


def test_records_to_dict_and_frame():
    r = stats.tukey_hsd(BOOK.scores)
    d = r.to_dict()
    assert d["pvalue"][0][0] == 1.0 and len(d["effect_size"]) == 3
    pd = pytest.importorskip("pandas")
    frame = stats.compare(BOOK.table, "nDCG@5", test="tukey").to_frame()
    assert isinstance(frame, pd.DataFrame) and list(frame["a"]) == ["X", "X", "Y"]
