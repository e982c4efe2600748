"""fairconv.stats against Sakai's book, scipy, plain loops and properties."""

import csv
import itertools
import json
import math
import tracemalloc
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats as sp

from fairconv import agreement as ag
from fairconv import stats
from fairconv.datasets import sakai_book
from fairconv.results import ScoreTable
from fairconv.stats import _anova, _compare

REFERENCE = Path(__file__).parent / "reference" / "sakai_book.csv"
BOOK = sakai_book()
X, Y, Z = BOOK.scores.T
EXACT_XY = 69120 / 2**20  # statistics.md: all 2^20 sign flips of the book's X - Y


# --------------------------------------------------------------------------- the book
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
        "t_margin": t.ci_high - t.mean_difference,
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


def test_every_reference_row_is_checked():
    assert {r["quantity"] for r in _rows()} == set(VALUES)


@pytest.mark.parametrize("row", _rows(), ids=lambda r: r["quantity"])
def test_sakai_book_values_to_the_printed_digits(row):
    """Sakai 2015, Table 5.1 example (and the exact p of statistics.md): printed digits."""
    got = VALUES[row["quantity"]]
    assert round(float(got), int(row["digits"])) == pytest.approx(float(row["expected"]), abs=1e-12)


def test_exact_sign_flip_count_is_69120_of_2_to_20():
    """statistics.md: 69120 / 1048576; a naive float comparison gives 0.0517, strict > 0.0330."""
    r = stats.randomisation_test(X, Y, n_resamples=2**20)
    assert r.exact and r.n_resamples == 2**20 and r.pvalue * 2**20 == 69120
    # the two wrong counts statistics.md names, from the same 2^20 flips
    signs = 1 - 2 * ((np.arange(2**20)[:, None] >> np.arange(20)) & 1)
    cents = np.round((X - Y) * 100).astype(np.int64)  # integers: exact on paper
    assert (np.abs(signs @ cents) >= abs(cents.sum())).sum() == 69120
    assert round((np.abs(signs @ cents) > abs(cents.sum())).mean(), 4) == 0.0330
    xs, ys = np.where(signs > 0, X, Y), np.where(signs > 0, Y, X)  # swapped per topic
    naive = np.abs(xs.mean(axis=1) - ys.mean(axis=1)) >= abs(X.mean() - Y.mean())
    assert round(naive.mean(), 4) == 0.0517


# --------------------------------------------------------------------------- scipy
@pytest.mark.parametrize("n", [2, 5, 30])
def test_paired_t_equals_scipy_to_full_precision(n):
    rng = np.random.default_rng(n)
    x, y = rng.random(n), rng.random(n)
    ours = stats.paired_t_test(x, y, alpha=0.1)
    ref = sp.ttest_rel(x, y)
    assert ours.statistic == pytest.approx(float(ref.statistic), rel=1e-12)
    assert ours.pvalue == pytest.approx(float(ref.pvalue), rel=1e-12)
    assert ours.df == ref.df == n - 1
    ci = ref.confidence_interval(0.9)
    assert (ours.ci_low, ours.ci_high) == pytest.approx((ci.low, ci.high), rel=1e-12)


def test_tukey_p_and_ci_are_scipys_studentized_range_on_the_two_way_q():
    h = stats.tukey_hsd(BOOK.scores)
    a = stats.anova2(BOOK.scores)
    se = math.sqrt(a.ms_residual / 20)
    for j, k in itertools.permutations(range(3), 2):
        q = abs(BOOK.scores[:, j].mean() - BOOK.scores[:, k].mean()) / se
        assert h.pvalue[j, k] == pytest.approx(sp.studentized_range.sf(q, 3, 38), rel=1e-12)
    margin = sp.studentized_range.ppf(0.95, 3, 38) * se
    np.testing.assert_allclose(h.ci_high - h.difference, margin, rtol=1e-12)
    np.testing.assert_allclose(h.difference - h.ci_low, margin, rtol=1e-12)
    # the one-way test of scipy ignores that the systems share topics: p = 0.394
    assert round(float(sp.tukey_hsd(X, Y, Z).pvalue[0, 1]), 3) == 0.394
    assert (np.diag(h.pvalue) == 1).all() and (h.pvalue == h.pvalue.T).all()


def test_tukey_at_100_systems_gives_no_warning_and_scipys_p():
    """scipy's quadrature warns where the cdf is about 1e-11; those p are kept, unwarned."""
    x = np.random.default_rng(0).random((50, 100))[:, :70]
    h = stats.tukey_hsd(x)  # warnings are errors in this suite
    j, k = np.triu_indices(70, 1)
    pick = np.argsort(h.pvalue[j, k])[:: len(j) // 40]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = sp.studentized_range.sf(h.statistic[j, k][pick], 70, 49 * 69)
    np.testing.assert_array_equal(h.pvalue[j, k][pick], ref)


# --------------------------------------------------------------------------- plain loops
def _loop_t(x, y, alpha):
    n = len(x)
    d = [a - b for a, b in zip(x, y, strict=True)]
    mean = sum(d) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in d) / (n - 1))
    t = mean / (sd / math.sqrt(n))
    margin = sp.t.ppf(1 - alpha / 2, n - 1) * sd / math.sqrt(n)
    return t, 2 * sp.t.sf(abs(t), n - 1), mean / sd, (mean - margin, mean + margin)


def _loop_anova(x, alpha):
    # rational sums: S_E = S_T - S_A - S_B cancels in floats when V_E is small
    x = [_fractions(row) for row in x]
    n, m = len(x), len(x[0])
    grand = sum(sum(row) for row in x) / (n * m)
    col = [sum(x[i][j] for i in range(n)) / n for j in range(m)]
    row = [sum(x[i]) / m for i in range(n)]
    s_a = n * sum((c - grand) ** 2 for c in col)
    s_b = m * sum((r - grand) ** 2 for r in row)
    s_t = sum((x[i][j] - grand) ** 2 for i in range(n) for j in range(m))
    s_e = s_t - s_a - s_b
    df_e = (m - 1) * (n - 1)
    v_a, v_b, v_e = (float(v) for v in (s_a / (m - 1), s_b / (n - 1), s_e / df_e))
    margin = sp.t.ppf(1 - alpha / 2, df_e) * math.sqrt(v_e / n)
    col = [float(c) for c in col]
    return {
        "ss": (float(s_a), float(s_b), float(s_e)),
        "ms": (v_a, v_b, v_e),
        "f": (v_a / v_e, v_b / v_e),
        "p": (sp.f.sf(v_a / v_e, m - 1, df_e), sp.f.sf(v_b / v_e, n - 1, df_e)),
        "ci": [(c - margin, c + margin) for c in col],
        "col": col,
    }


def _loop_tukey(x, alpha):
    n, m = len(x), len(x[0])
    a = _loop_anova(x, alpha)
    v_e = a["ms"][2]
    df_e = (m - 1) * (n - 1)
    if m == 2:  # q of two means is sqrt(2) t exactly; studentized_range.ppf solves
        q = math.sqrt(2) * sp.t.ppf(1 - alpha / 2, df_e)  # for it only to about 1e-9
    else:
        q = sp.studentized_range.ppf(1 - alpha, m, df_e)
    crit = q * math.sqrt(v_e / n)
    out = {}
    for j in range(m):
        for k in range(m):
            if j != k:
                diff = a["col"][j] - a["col"][k]
                q = abs(diff) / math.sqrt(v_e / n)
                out[j, k] = (
                    sp.studentized_range.sf(q, m, df_e),
                    diff / math.sqrt(v_e),
                    (diff - crit, diff + crit),
                )
    return out


@settings(max_examples=20)
@given(st.integers(0, 2**32 - 1), st.integers(2, 12), st.integers(2, 5))
def test_t_anova_and_tukey_agree_with_plain_loops(seed, n, m):
    x = np.random.default_rng(seed).random((n, m))
    t = stats.paired_t_test(x[:, 0], x[:, 1], alpha=0.1)
    lt = _loop_t(x[:, 0].tolist(), x[:, 1].tolist(), 0.1)
    assert (t.statistic, t.pvalue, t.effect_size) == pytest.approx(lt[:3], rel=1e-12, abs=1e-15)
    assert (t.ci_low, t.ci_high) == pytest.approx(lt[3], rel=1e-12, abs=1e-15)
    a = stats.anova2(x, alpha=0.1)
    la = _loop_anova(x.tolist(), 0.1)
    got = (a.ss_systems, a.ss_topics, a.ss_residual, a.ms_systems, a.ms_topics, a.ms_residual)
    assert got == pytest.approx(la["ss"] + la["ms"], rel=1e-10, abs=1e-14)
    assert (a.f_systems, a.f_topics) == pytest.approx(la["f"], rel=1e-10)
    assert (a.p_systems, a.p_topics) == pytest.approx(la["p"], rel=1e-9, abs=1e-14)
    np.testing.assert_allclose(np.c_[a.ci_low, a.ci_high], la["ci"], rtol=1e-12, atol=1e-14)
    h = stats.tukey_hsd(x, alpha=0.1)
    for (j, k), (p, es, ci) in _loop_tukey(x.tolist(), 0.1).items():
        # scipy's sf is 1 - cdf, the cdf integrated to 1e-11: p agrees to that
        assert h.pvalue[j, k] == pytest.approx(p, rel=1e-9, abs=1e-10)
        assert h.effect_size[j, k] == pytest.approx(es, rel=1e-10)
        assert (h.ci_low[j, k], h.ci_high[j, k]) == pytest.approx(ci, rel=1e-10, abs=1e-14)


def _fractions(values):
    return [Fraction(str(v)) for v in values]


def _brute_sign_flip(d):
    """Exact p over all 2^n sign vectors, in rational arithmetic: ties are ties on paper."""
    exact = _fractions(d)
    obs = abs(sum(exact))
    count = 0
    for signs in itertools.product((1, -1), repeat=len(d)):
        count += abs(sum(s * v for s, v in zip(signs, exact, strict=True))) >= obs
    return count / 2 ** len(d)


def _loop_sign_flip(d, n_resamples, rng):
    """Monte Carlo p from the definition: each sign -1 with probability 1/2 (u < 0.5)."""
    exact = _fractions(d)
    obs = abs(sum(exact))
    count = 0
    for _ in range(n_resamples):
        u = rng.random(len(d))
        count += abs(sum(-v if ui < 0.5 else v for ui, v in zip(u, exact, strict=True))) >= obs
    return (count + 1) / (n_resamples + 1)  # Monte Carlo: the data count as a trial


def _brute_tukey(x):
    """Exact p over all (m!)^n row permutations, in rational arithmetic."""
    n, m = x.shape
    rows = [_fractions(r) for r in x.tolist()]
    sums = [sum(rows[i][j] for i in range(n)) for j in range(m)]
    ranges = []
    for perms in itertools.product(list(itertools.permutations(range(m))), repeat=n):
        s = [sum(rows[i][perms[i][j]] for i in range(n)) for j in range(m)]
        ranges.append(max(s) - min(s))
    return _p_matrix(sums, ranges)


def _loop_randomised_tukey(x, n_resamples, rng):
    """Monte Carlo from the definition: each topic's row permuted, trial after trial."""
    n, m = x.shape
    rows = [_fractions(r) for r in x.tolist()]
    sums = [sum(rows[i][j] for i in range(n)) for j in range(m)]
    ranges = []
    for _ in range(n_resamples):
        perms = [rng.permutation(m) for _ in range(n)]
        s = [sum(rows[i][perms[i][j]] for i in range(n)) for j in range(m)]
        ranges.append(max(s) - min(s))
    return _p_matrix(sums, ranges, monte_carlo=True)


def _p_matrix(sums, ranges, monte_carlo=False):
    """count / N over an enumeration; (count + 1) / (B + 1) over B random trials."""
    m = len(sums)
    p = np.ones((m, m))
    extra = 1 if monte_carlo else 0
    for j in range(m):
        for k in range(m):
            if j != k:
                count = sum(r >= abs(sums[j] - sums[k]) for r in ranges)
                p[j, k] = (count + extra) / (len(ranges) + extra)
    return p


@given(st.lists(st.integers(-5, 5), min_size=2, max_size=9))
def test_exact_sign_flip_agrees_with_a_brute_force_loop(ints):
    assume(any(ints))
    d = np.array(ints) / 10.0  # multiples of 0.1: ties that float sums blur
    r = stats.randomisation_test(d, np.zeros_like(d), n_resamples=2 ** len(d))
    assert r.exact and r.pvalue == _brute_sign_flip(d.tolist())


@settings(max_examples=25)
@given(st.lists(st.integers(-9, 9), min_size=10, max_size=14), st.integers(0, 2**32 - 1))
def test_monte_carlo_sign_flips_agree_with_a_loop(ints, seed):
    assume(any(ints))
    d = np.array(ints) / 10.0
    r = stats.randomisation_test(d, np.zeros_like(d), n_resamples=300, seed=seed)
    assert not r.exact
    assert r.pvalue == _loop_sign_flip(d.tolist(), 300, np.random.default_rng(seed))


@settings(max_examples=25)
@given(st.integers(2, 3), st.integers(2, 4), st.integers(0, 2**32 - 1))
def test_exact_randomised_tukey_agrees_with_a_brute_force_loop(m, n, seed):
    assume(math.factorial(m) ** n <= 2000)
    x = np.round(np.random.default_rng(seed).random((n, m)), 1)
    resid = x - x.mean(0) - x.mean(1)[:, None] + x.mean()
    assume(np.abs(resid).max() > 1e-6)
    r = stats.randomised_tukey_hsd(x, n_resamples=math.factorial(m) ** n)
    assert r.exact and r.n_resamples == math.factorial(m) ** n
    np.testing.assert_array_equal(r.pvalue, _brute_tukey(x))


@settings(max_examples=10)
@given(st.integers(2, 4), st.integers(3, 6), st.integers(0, 2**32 - 1))
def test_monte_carlo_randomised_tukey_agrees_with_a_loop(m, n, seed):
    x = np.round(np.random.default_rng(seed).random((n, m)), 1)
    resid = x - x.mean(0) - x.mean(1)[:, None] + x.mean()
    assume(np.abs(resid).max() > 1e-6 and math.factorial(m) ** n > 100)
    r = stats.randomised_tukey_hsd(x, n_resamples=100, seed=seed)
    assert not r.exact
    np.testing.assert_array_equal(
        r.pvalue, _loop_randomised_tukey(x, 100, np.random.default_rng(seed))
    )


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
        mean = sum(sample) / n
        s = math.sqrt(sum((v - mean) ** 2 for v in sample) / (n - 1))
        t = 0.0 if s < 1e-12 else mean / (s / math.sqrt(n))
        count += abs(t) >= t_obs - 1e-9 * t_obs
    assert r.pvalue == (count + 1) / 301  # Monte Carlo: the data count as a trial
    assert r.statistic == pytest.approx(VALUES["t_statistic"], rel=1e-12)


# --------------------------------------------------------------------------- ties
def test_ties_that_float_sums_break_are_counted():
    """0.1 + 0.2 != 0.3 in floats, but the ties are exact on paper."""
    # |0.1 + 0.2 - 0.3| = 0 on paper: every flip ties it
    d = np.array([0.1, 0.2, -0.3])
    assert abs(d.sum()) > 0  # floats break the tie...
    assert stats.randomisation_test(d, np.zeros(3), n_resamples=8).pvalue == 1.0
    # observed 0.8 on paper; flips such as (+, -, -, -) give 0.8 on paper too
    d = np.array([-0.2, 0.3, 0.1, -0.8])
    flips = 1 - 2 * ((np.arange(16)[:, None] >> np.arange(4)) & 1)
    naive = (np.abs(flips @ d) >= abs(d.sum())).mean()
    exact = _brute_sign_flip(d.tolist())
    assert naive != exact  # ...so that a float comparison gets this p wrong
    assert stats.randomisation_test(d, np.zeros(4), n_resamples=16).pvalue == exact
    # the same through x and y: 0.1 + 0.2 against 0.3
    x, y = np.array([0.1, 0.3, 0.5]), np.array([0.0, 0.1 + 0.2, 0.2])
    assert stats.randomisation_test(x, y, n_resamples=8).pvalue == _brute_sign_flip([0.1, 0, 0.3])


def test_randomised_tukey_ties_that_float_sums_break_are_counted():
    # system sums 1.0 and 0.9: every one of the 216 trials reaches 0.1 on paper, but
    # float sums of the permuted rows fall short of the float difference in 48 of them
    x = np.array([[0.8, 0.6, 0.5], [0.2, 0.3, 0.0], [0.0, 0.0, 0.1]])
    r = stats.randomised_tukey_hsd(x, n_resamples=216)
    assert r.exact and r.pvalue[0, 1] == 1.0
    np.testing.assert_array_equal(r.pvalue, _brute_tukey(x))
    perms = list(itertools.permutations(range(3)))
    naive = 0
    for p in itertools.product(perms, repeat=3):
        sums = [sum(x[i][p[i][j]] for i in range(3)) for j in range(3)]
        naive += max(sums) - min(sums) >= abs(x[:, 0].sum() - x[:, 1].sum())
    assert naive == 168  # what a plain float comparison counts


# --------------------------------------------------------------------------- Monte Carlo
def test_monte_carlo_p_is_within_four_standard_errors_of_the_exact_p():
    r = stats.randomisation_test(X, Y, n_resamples=10000, seed=7)
    assert not r.exact
    assert abs(r.pvalue - EXACT_XY) <= 4 * math.sqrt(EXACT_XY * (1 - EXACT_XY) / 10000)
    x = np.round(np.random.default_rng(5).random((5, 3)), 1)
    exact = stats.randomised_tukey_hsd(x, n_resamples=6**5).pvalue
    mc = stats.randomised_tukey_hsd(x, n_resamples=4000, seed=5)
    assert not mc.exact
    se = np.sqrt(exact * (1 - exact) / 4000)
    assert (np.abs(mc.pvalue - exact) <= 4 * se + 1e-12).all()
    assert ((exact > 0.01) & (exact < 0.99)).sum() >= 2  # the check has p to miss


def _g(seed):
    return np.random.default_rng(seed)


def _trials(call):
    return [call(c) for c in (1, 7, None)]


@pytest.mark.parametrize(
    "call",
    [
        lambda c: stats.randomisation_test(X, Y, n_resamples=3000, seed=11, chunk=c).pvalue,
        lambda c: stats.randomisation_test(X[:9], Y[:9], n_resamples=600, seed=11, chunk=c),
        lambda c: stats.bootstrap_test(X, Y, n_resamples=500, seed=11, chunk=c).pvalue,
        lambda c: stats.randomised_tukey_hsd(BOOK.scores, n_resamples=900, seed=11, chunk=c),
        lambda c: stats.randomised_tukey_hsd(BOOK.scores[:3], n_resamples=216, chunk=c),
        lambda c: (
            _compare._pairwise(BOOK.scores, "randomisation", 700, _g(11), 0.05, chunk=c).pvalue
        ),
        lambda c: _compare._pairwise(BOOK.scores, "bootstrap", 300, _g(11), 0.05, chunk=c).pvalue,
    ],
)
def test_a_seed_gives_the_same_p_for_every_chunk_size(call):
    results = _trials(call)
    for r in results[1:] + [call(None)]:  # every chunk size, and every run
        if hasattr(r, "pvalue"):
            assert r.exact == results[0].exact and r.n_resamples == results[0].n_resamples
            r = r.pvalue
        np.testing.assert_array_equal(r, getattr(results[0], "pvalue", results[0]))


def test_an_int_seed_is_a_generator_seeded_with_it():
    a = stats.randomised_tukey_hsd(BOOK.scores, n_resamples=500, seed=4)
    b = stats.randomised_tukey_hsd(BOOK.scores, n_resamples=500, seed=np.random.default_rng(4))
    np.testing.assert_array_equal(a.pvalue, b.pvalue)


def test_one_set_of_trials_serves_every_pair():
    """A pair's p among all pairs is its p alone with the same seed: the same trials."""
    x = np.random.default_rng(2).random((12, 4))
    one_pair = {"randomisation": stats.randomisation_test, "bootstrap": stats.bootstrap_test}
    for test, one in one_pair.items():
        p = _compare._pairwise(x, test, 400, _g(9), 0.05).pvalue
        for j, k in itertools.combinations(range(4), 2):
            assert p[j, k] == one(x[:, j], x[:, k], n_resamples=400, seed=9).pvalue


# --------------------------------------------------------------------------- properties
ALL_TESTS = ["randomised-tukey", "tukey", "paired-t", "randomisation", "bootstrap"]


@settings(max_examples=15)
@given(st.integers(0, 2**32 - 1), st.integers(4, 8), st.integers(2, 4))
def test_p_values_in_0_1_and_swaps_negate(seed, n, m):
    x = np.random.default_rng(seed).random((n, m))
    for test in ALL_TESTS:
        c = stats.compare(x, "m", test=test, n_resamples=200, seed=seed)
        p = np.array([q["pvalue"] for q in c.pairs])
        assert ((p >= 0) & (p <= 1)).all()
        assert all(math.isfinite(q["effect_size"]) for q in c.pairs)
        assert all(q["difference"] >= 0 for q in c.pairs)  # ordered by mean
    # swapping two systems swaps their rows and columns and negates the differences
    swap = [1, 0, *range(2, m)]
    for test in ("tukey", "paired-t", "randomisation", "bootstrap"):
        r = _compare._pairwise(x, test, 200, _g(seed), 0.05)
        s = _compare._pairwise(x[:, swap], test, 200, _g(seed), 0.05)
        np.testing.assert_allclose(s.pvalue, r.pvalue[np.ix_(swap, swap)], atol=1e-12)
        np.testing.assert_allclose(s.difference, r.difference[np.ix_(swap, swap)], atol=1e-15)
        np.testing.assert_allclose(s.difference[0, 1], -r.difference[0, 1], atol=1e-15)
        np.testing.assert_allclose(s.effect_size, r.effect_size[np.ix_(swap, swap)], atol=1e-12)


@settings(max_examples=15)
@given(st.integers(2, 3), st.integers(2, 4), st.integers(0, 2**32 - 1))
def test_swapping_systems_in_an_exact_randomised_tukey(m, n, seed):
    assume(math.factorial(m) ** n <= 2000)
    x = np.random.default_rng(seed).random((n, m))
    swap = [1, 0, *range(2, m)]
    r = stats.randomised_tukey_hsd(x, n_resamples=2000)
    s = stats.randomised_tukey_hsd(x[:, swap], n_resamples=2000)
    np.testing.assert_array_equal(s.pvalue, r.pvalue[np.ix_(swap, swap)])
    np.testing.assert_allclose(s.difference, r.difference[np.ix_(swap, swap)], atol=1e-15)


@settings(max_examples=15)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(4, 8),
    st.integers(3, 5),
    st.floats(-5, 5),
    st.floats(0.01, 100),
)
def test_topic_shifts_and_scaling_change_no_p(seed, n, m, shift, c):
    x = np.random.default_rng(seed).random((n, m))
    shifted = x.copy()
    shifted[0] += shift
    h = stats.tukey_hsd(x)
    np.testing.assert_allclose(stats.tukey_hsd(shifted).pvalue, h.pvalue, atol=1e-9)
    assert stats.anova2(shifted).p_systems == pytest.approx(stats.anova2(x).p_systems, abs=1e-9)
    r1 = stats.randomised_tukey_hsd(x, n_resamples=300, seed=seed)
    r2 = stats.randomised_tukey_hsd(shifted, n_resamples=300, seed=seed)
    np.testing.assert_array_equal(r1.pvalue, r2.pvalue)
    # scaling all scores by c > 0 changes no p
    scaled = x * c
    np.testing.assert_array_equal(
        stats.randomised_tukey_hsd(scaled, n_resamples=300, seed=seed).pvalue, r1.pvalue
    )
    np.testing.assert_allclose(stats.tukey_hsd(scaled).pvalue, h.pvalue, atol=1e-9)
    a, b = stats.anova2(x), stats.anova2(scaled)
    assert (b.p_systems, b.p_topics) == pytest.approx((a.p_systems, a.p_topics), abs=1e-12)
    for test in ("paired-t", "randomisation", "bootstrap"):
        p = _compare._pairwise(x, test, 300, _g(seed), 0.05).pvalue
        np.testing.assert_allclose(_compare._pairwise(scaled, test, 300, _g(seed), 0.05).pvalue, p,
                                   atol=1e-12)  # fmt: skip


# --------------------------------------------------------------------------- families
def test_adjusted_p_values_agree_with_loops():
    p = np.array([0.01, 0.04, 0.03, 0.2, 0.02, 0.04])
    m = len(p)
    order = np.argsort(p, kind="stable")
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
    np.testing.assert_allclose(stats.adjust_pvalues(p, correction="holm"), holm, atol=1e-15)
    np.testing.assert_allclose(stats.adjust_pvalues(p, correction="bh"), bh, atol=1e-15)
    bonferroni = stats.adjust_pvalues(p, correction="bonferroni")
    np.testing.assert_allclose(bonferroni, np.minimum(1, p * m))
    np.testing.assert_array_equal(stats.adjust_pvalues(p, correction="none"), p)
    # statsmodels' documented values for this family: Holm 0.06 for the smallest
    assert stats.adjust_pvalues(p, correction="holm")[0] == pytest.approx(0.06)
    assert stats.adjust_pvalues(p, correction="bh")[3] == pytest.approx(0.2)


def test_discriminative_power_sorts_the_asls_of_all_pairs():
    dp = stats.discriminative_power(BOOK.scores, test="tukey")
    h = stats.tukey_hsd(BOOK.scores)
    assert dp.pairs == ((0, 2), (0, 1), (1, 2))
    np.testing.assert_array_equal(dp.asl, [h.pvalue[0, 2], h.pvalue[0, 1], h.pvalue[1, 2]])
    assert dp.power == 0.0
    rnd = stats.discriminative_power(BOOK.scores, test="randomisation", n_resamples=2**20)
    assert rnd.asl[dict(zip(rnd.pairs, range(3), strict=True))[(0, 1)]] == EXACT_XY
    t = stats.discriminative_power(BOOK.scores, test="paired-t", alpha=0.05)
    assert t.power == pytest.approx(1 / 3)  # X-Y (p = 0.048); X-Z has p = 0.123
    frame = t.to_frame()
    assert list(frame.columns) == ["rank", "a", "b", "asl"] and list(frame["rank"]) == [1, 2, 3]


# --------------------------------------------------------------------------- compare
def test_compare_on_a_table_orders_systems_and_pairs_by_mean():
    c = stats.compare(BOOK.table, "nDCG@5", test="tukey")
    assert [s["name"] for s in c.runs] == ["X", "Y", "Z"]
    xy = c.pairs[0]
    assert (xy["a"], xy["b"]) == ("X", "Y") and xy["difference"] == pytest.approx(0.075)
    assert round(xy["pvalue"], 3) == 0.257 and round(xy["effect_size"], 3) == 0.507
    assert round(c.runs[0]["ci_high"] - c.runs[0]["mean"], 4) == 0.0670
    assert isinstance(c.result, stats.TukeyHSDResult) and c.anova.df_residual == 38
    assert not hasattr(BOOK.table, "compare")  # a data class: stats.compare analyses it


def test_compare_orders_by_mean_whatever_the_column_order():
    c = stats.compare(BOOK.scores[:, [2, 0, 1]], "nDCG@5", test="paired-t", runs=list("ZXY"))
    assert [s["name"] for s in c.runs] == ["X", "Y", "Z"]
    assert [(p["a"], p["b"]) for p in c.pairs] == [("X", "Y"), ("X", "Z"), ("Y", "Z")]
    xy = c.pairs[0]
    assert xy["pvalue"] == pytest.approx(VALUES["t_pvalue"], rel=1e-12)
    assert xy["effect_size"] == pytest.approx(VALUES["t_effect_size"], rel=1e-12)


def test_compare_corrects_the_pairwise_family():
    raw = stats.compare(BOOK.table, "nDCG@5", test="paired-t")
    holm = stats.compare(BOOK.table, "nDCG@5", test="paired-t", correction="holm")
    p = np.array([q["pvalue"] for q in raw.pairs])
    expected = stats.adjust_pvalues(p, correction="holm")
    assert [q["pvalue"] for q in holm.pairs] == pytest.approx(expected.tolist(), rel=1e-15)
    assert [q["significant"] for q in holm.pairs] == (expected < 0.05).tolist()
    assert raw.pairs[0]["significant"] and not holm.pairs[0]["significant"]
    np.testing.assert_array_equal(holm.result.pvalue, raw.result.pvalue)  # uncorrected


def _book_as(measure, *, directions=None, scale=1.0):
    """The book's table under another measure name (and direction), scores scaled."""
    return ScoreTable(
        topics=BOOK.table.topics,
        runs=BOOK.table.runs,
        measures=(measure,),
        values=BOOK.table.values * scale,
        present=BOOK.table.present,
        directions=directions,
    )


@pytest.mark.parametrize("test", stats.TESTS)
def test_compare_lists_runs_best_first_by_the_measure_direction(test):
    higher = stats.compare(_book_as("nDCG@5"), "nDCG@5", test=test, n_resamples=500)
    lower = stats.compare(_book_as("EE-D[g]"), "EE-D[g]", test=test, n_resamples=500)
    undirected = _book_as("LTwo", directions={"LTwo": "undirected"})
    neither = stats.compare(undirected, "LTwo", test=test, n_resamples=500)
    assert (higher.direction, lower.direction, neither.direction) == (
        "higher", "lower", "undirected"
    )  # fmt: skip
    assert [s["name"] for s in higher.runs] == ["X", "Y", "Z"]
    assert [s["name"] for s in lower.runs] == ["Z", "Y", "X"]  # the lowest mean is best
    assert [s["name"] for s in neither.runs] == ["X", "Y", "Z"]  # by mean, none better
    assert [(p["a"], p["b"]) for p in lower.pairs] == [("Z", "Y"), ("Z", "X"), ("Y", "X")]
    # the same tests, whichever way the measure points: p of each pair by its names
    by_pair = {frozenset((p["a"], p["b"])): p for p in higher.pairs}
    for p in lower.pairs:
        same = by_pair[frozenset((p["a"], p["b"]))]
        assert p["pvalue"] == same["pvalue"]
        assert p["difference"] == -same["difference"]
    an_array = stats.compare(BOOK.scores, "EE-D[g]", test=test, runs=list("XYZ"), n_resamples=500)
    assert an_array.direction == "lower" and [s["name"] for s in an_array.runs] == ["Z", "Y", "X"]


def test_compare_against_a_baseline_tests_only_its_pairs():
    full = stats.compare(BOOK.table, "nDCG@5", test="paired-t")
    against = stats.compare(BOOK.table, "nDCG@5", test="paired-t", baseline="Z")
    assert against.baseline == ("Z",)
    assert [(p["a"], p["b"]) for p in against.pairs] == [("X", "Z"), ("Y", "Z")]
    for p in against.pairs:  # each the paired t-test of the run against the baseline
        t = stats.paired_t_test(BOOK.table.values[:, "XYZ".index(p["a"]), 0], Z)
        assert p["pvalue"] == pytest.approx(t.pvalue, rel=1e-12)
        assert p["difference"] == pytest.approx(t.mean_difference, rel=1e-12)
        assert p["ci_low"] == pytest.approx(t.ci_low, rel=1e-12)
        assert p["effect_size"] == pytest.approx(t.effect_size, rel=1e-12)
    by_pair = {(p["a"], p["b"]): p["pvalue"] for p in full.pairs}
    assert [p["pvalue"] for p in against.pairs] == [by_pair["X", "Z"], by_pair["Y", "Z"]]
    # the pair not tested has no p in the test's record
    assert (
        np.isnan(against.result.pvalue[0, 1]) and against.result.pvalue[0, 2] == by_pair["X", "Z"]
    )


@pytest.mark.parametrize("correction", ["bonferroni", "holm", "bh"])
@pytest.mark.parametrize("test", ["paired-t", "randomisation", "bootstrap"])
def test_a_correction_runs_over_the_pairs_with_a_baseline(test, correction):
    """The baseline mode equals the tests of each run against each baseline, corrected."""
    x = np.random.default_rng(7).random((12, 5))
    runs = ["r0", "r1", "r2", "r3", "r4"]
    base = ["r3", "r1"]
    c = stats.compare(x, "m", test=test, runs=runs, baseline=base, correction=correction,
                      n_resamples=400, seed=5)  # fmt: skip
    pairs = [(r, b) for b in base for r in sorted(runs, key=lambda r: -x[:, runs.index(r)].mean())
             if r != b and (r, b) != ("r3", "r1")]  # fmt: skip
    assert sorted((p["a"], p["b"]) for p in c.pairs) == sorted(pairs)
    assert len(c.pairs) == 7  # 4 + 3: the pair of the two baselines once
    one = {"paired-t": stats.paired_t_test, "randomisation": stats.randomisation_test,
           "bootstrap": stats.bootstrap_test}[test]  # fmt: skip
    options = {} if test == "paired-t" else {"n_resamples": 400, "seed": 5}
    raw = []
    for p in c.pairs:
        # the test of two runs, on the runs in the order of their names (the trials' order)
        a, b = sorted((p["a"], p["b"]))
        raw.append(one(x[:, runs.index(a)], x[:, runs.index(b)], **options).pvalue)
    expected = stats.adjust_pvalues(raw, correction=correction)
    assert [p["pvalue"] for p in c.pairs] == pytest.approx(expected.tolist(), rel=1e-12)
    assert [p["significant"] for p in c.pairs] == (expected < 0.05).tolist()


@pytest.mark.parametrize("test", ["tukey", "randomised-tukey"])
def test_a_tukey_test_keeps_its_family_of_all_pairs_with_a_baseline(test):
    x = np.random.default_rng(3).random((8, 4))
    runs = ["a", "b", "c", "d"]
    full = stats.compare(x, "m", test=test, runs=runs, n_resamples=300)
    against = stats.compare(x, "m", test=test, runs=runs, baseline=["c"], n_resamples=300)
    by_pair = {frozenset((p["a"], p["b"])): p for p in full.pairs}
    assert len(against.pairs) == 3 and {p["b"] for p in against.pairs} == {"c"}
    for p in against.pairs:
        same = by_pair[frozenset((p["a"], p["b"]))]
        assert p["pvalue"] == same["pvalue"]
        assert abs(p["difference"]) == abs(same["difference"])


@pytest.mark.parametrize(
    "baseline, error, match",
    [
        ("W", ValueError, r"'baseline' parameter of stats.compare must name runs .*'W'"),
        (["X", "X"], ValueError, "'baseline' parameter .* 'X'"),
        ([], ValueError, "'baseline' parameter .* at least one run"),
        ([1], TypeError, "'baseline' parameter"),
        (3, TypeError, "'baseline' parameter"),
    ],
)
def test_a_bad_baseline_is_refused(baseline, error, match):
    with pytest.raises(error, match=match):
        stats.compare(BOOK.table, "nDCG@5", baseline=baseline)


def test_nan_policy_on_tables_and_arrays():
    v = BOOK.table.values.copy()
    v[4, 1, 0] = np.nan
    t = ScoreTable(
        topics=BOOK.table.topics,
        runs=BOOK.table.runs,
        measures=("m",),
        values=v,
        present=BOOK.table.present,
    )
    with pytest.raises(ValueError, match="undefined .* on topic 'Q5'.*nan_policy='omit'"):
        stats.compare(t, "m")
    c = stats.compare(t, "m", test="tukey", nan_policy="omit")
    full = stats.compare(np.delete(BOOK.scores, 4, axis=0), "m", test="tukey", runs=list("XYZ"))
    assert (c.n_topics, c.n_dropped) == (19, 1)
    assert c.pairs == full.pairs
    arr = BOOK.scores.copy()
    arr[4, 1] = np.nan
    with pytest.raises(ValueError, match="undefined .* on topic 4"):
        stats.compare(arr, "m")
    assert (
        stats.compare(arr, "m", test="tukey", nan_policy="omit", runs=list("XYZ")).pairs
        == full.pairs
    )


def test_absent_cells_and_topic_selection():
    present = BOOK.table.present.copy()
    present[0, 2, 0] = False  # Z has no Q1: Q1 is not compared, not counted as dropped
    t = ScoreTable(
        topics=BOOK.table.topics,
        runs=BOOK.table.runs,
        measures=("m",),
        values=BOOK.table.values,
        present=present,
    )
    c = stats.compare(t, "m", test="tukey")
    assert (c.n_topics, c.n_dropped) == (19, 0)
    c = stats.compare(BOOK.table, "nDCG@5", test="tukey", topics=["Q2", "Q1", "Q3"])
    x, topics, _ = stats.scores_of(BOOK.table, "nDCG@5", topics=["Q2", "Q1", "Q3"])
    assert c.n_topics == 3 and topics == ("Q1", "Q2", "Q3")
    np.testing.assert_array_equal(x, BOOK.scores[:3])


def test_undefined_tests_say_so():
    # differences equal on paper, not in floats: 0.3 - 0.1 and 0.5 - 0.3
    x, y = np.array([0.3, 0.5, 0.7]), np.array([0.1, 0.3, 0.5])
    assert np.ptp(x - y) > 0
    with pytest.raises(ValueError, match="same .* on all 3 topics .*undefined"):
        stats.paired_t_test(x, y)
    x4, y4 = np.r_[x, 0.9], np.r_[y, 0.7]
    with pytest.raises(ValueError, match="same .* on all 4 topics .*undefined"):
        stats.bootstrap_test(x4, y4)
    assert stats.randomisation_test(x, y, n_resamples=8).pvalue == 2 / 8  # defined
    flat = np.c_[x, x + 0.1, x + 0.2]  # systems that differ by constants: V_E = 0 on paper
    for call in (stats.anova2, stats.tukey_hsd, stats.randomised_tukey_hsd):
        with pytest.raises(ValueError, match="residual variance V_E is 0"):
            call(flat)
    with pytest.raises(ValueError, match="runs 0 and 1 differ by the same amount"):
        stats.discriminative_power(np.c_[x, y, [0.2, 0.9, 0.1]], test="paired-t")
    with pytest.raises(ValueError, match="runs 0 and 1 score the same on every topic"):
        stats.discriminative_power(np.c_[x, x, y], test="randomisation")


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: stats.paired_t_test([1, 2], [1, 2, 3]), "'y' parameter of stats.paired_t_test"),
        (lambda: stats.paired_t_test([1], [2]), "at least 2 topics"),
        (lambda: stats.paired_t_test([1, np.nan], [2, 3]), "finite"),
        (lambda: stats.paired_t_test([[1, 2]], [[1, 2]]), "1-d array"),
        (lambda: stats.paired_t_test(X, Y, alpha=1), "'alpha' parameter"),
        (lambda: stats.randomisation_test([1, 2], [1, 2]), "equal on every topic"),
        (lambda: stats.randomisation_test(X, Y, n_resamples=0), "'n_resamples'"),
        (lambda: stats.randomisation_test(X, Y, n_resamples=1.5), "'n_resamples'"),
        (lambda: stats.randomisation_test(X, Y, seed=-1), "'seed'"),
        (lambda: stats.bootstrap_test(X, Y, chunk=0), "'chunk'"),
        (lambda: stats.anova2(np.ones(3)), "(topics, systems)"),
        (lambda: stats.anova2(np.ones((3, 1))), "at least 2 topics and 2 systems"),
        (lambda: stats.tukey_hsd(BOOK.scores[:1]), "at least 2 topics"),
        (lambda: stats.tukey_hsd(np.full((3, 3), np.inf)), "finite"),
        (lambda: stats.compare(BOOK.table, "nDCG@5", correction="holm"), "familywise"),
        (lambda: stats.compare(BOOK.table, "nDCG@5", correction="sidak"), "'correction'"),
        (lambda: stats.compare(BOOK.table, "P@5"), "'measure' parameter"),
        (lambda: stats.compare(BOOK.table, "nDCG@5", topics=["Q1", "Q99"]), "'Q99'"),
        (lambda: stats.compare(BOOK.table, "nDCG@5", topics=["Q1", "Q1"]), "'Q1' twice"),
        (lambda: stats.compare(BOOK.table, "nDCG@5", topics=["Q1"]), "needs at least 2"),
        (lambda: stats.compare(BOOK.table, "nDCG@5", nan_policy="drop"), "'nan_policy'"),
        (lambda: stats.compare(BOOK.table, "nDCG@5", runs=["X", "Y", "Z"]), "'runs'"),
        (lambda: stats.compare(BOOK.scores, "m", runs=["X", "Y"]), "'runs'"),
        (lambda: stats.compare(BOOK.scores, "m", topics=["Q1"]), "'topics'"),
        (lambda: stats.compare(BOOK.scores[:, 0], "m"), "(topics, runs)"),
        (lambda: stats.discriminative_power(BOOK.scores, test="wilcoxon"), "'test' parameter"),
        (lambda: stats.adjust_pvalues([0.5, 1.5], correction="holm"), "p-values in [0, 1]"),
        (lambda: stats.adjust_pvalues([0.5], correction="fdr"), "'correction'"),
    ],
)
def test_bad_input_is_a_clear_error(call, message):
    with pytest.raises(ValueError, match=_literal(message)):
        call()


def _literal(text):
    import re

    return re.escape(text)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: stats.paired_t_test(["a", "b"], [1, 2]), "'x' parameter of stats.paired_t_test"),
        (lambda: stats.compare(BOOK.table, "nDCG@5", topics="Q1"), "'topics'"),
        (lambda: stats.scores_of(BOOK.scores, "m"), "'table' parameter of stats.scores_of"),
    ],
)
def test_wrong_kinds_are_type_errors(call, message):
    with pytest.raises(TypeError, match=_literal(message)):
        call()


def test_records_to_dict_and_frame():
    import pandas as pd

    h = stats.tukey_hsd(BOOK.scores)
    d = h.to_dict()
    assert d["pvalue"][0][0] == 1.0 and len(d["effect_size"]) == 3
    frame = h.to_frame()
    pairs = [("0", "1"), ("0", "2"), ("1", "2")]
    assert list(frame[["a", "b"]].itertuples(index=False, name=None)) == pairs
    named = stats.tukey_hsd(BOOK.scores, runs=["X", "Y", "Z"]).to_frame()
    assert list(named["a"]) == ["X", "X", "Y"] and list(named["b"]) == ["Y", "Z", "Z"]
    assert frame["pvalue"].tolist() == [h.pvalue[0, 1], h.pvalue[0, 2], h.pvalue[1, 2]]
    table = stats.anova2(BOOK.scores).to_frame()
    assert table["source"].tolist() == ["systems", "topics", "residual"]
    assert round(table["ss"].iloc[1], 4) == 1.0293
    t = stats.paired_t_test(X, Y).to_frame()
    assert len(t) == 1 and round(t["pvalue"].iloc[0], 3) == 0.048
    c = stats.compare(BOOK.table, "nDCG@5", test="tukey")
    frame = c.to_frame()
    assert isinstance(frame, pd.DataFrame) and list(frame["a"]) == ["X", "X", "Y"]
    assert c.to_dict()["pairs"][0] == dict(c.pairs[0])
    with pytest.raises(Exception, match="frozen|cannot assign"):
        c.measure = "x"


# --------------------------------------------------------------------------- rounding
# statistics.md, "Randomised tests: rules that hold for all of them": a trial ties the
# observed statistic within 1e-9 of it; docs/statistics.md, "Ties and rounding": an
# observed statistic that is 0 within the rounding of its float sum is 0 on paper.
ZERO_ON_PAPER = [
    ([0.1, 0.2, 0.5, 0.5], [0.3, 0.0, 0.5, 0.5]),
    ([0.1, 0.2, 0.4, 0.3], [0.3, 0.0, 0.3, 0.4]),
]


@pytest.mark.parametrize("x, y", ZERO_ON_PAPER)
def test_a_mean_difference_0_on_paper_ties_every_trial(x, y):
    assert np.subtract(x, y).sum() != 0  # 2.8e-17 in floats
    for seed in range(3):
        assert stats.bootstrap_test(x, y, seed=seed).pvalue == 1.0
    assert stats.randomisation_test(x, y).pvalue == 1.0 == _brute_sign_flip(np.subtract(x, y))
    assert stats.paired_t_test(x, y).pvalue == pytest.approx(1.0)
    for test in ("bootstrap", "randomisation"):
        assert _compare._pairwise(np.c_[x, y], test, 500, _g(0), 0.05).pvalue[0, 1] == 1.0
    # randomised Tukey HSD: system sums 0.1 + 0.2 and 0.3
    r = stats.randomised_tukey_hsd([[0.1, 0.3, 0.9], [0.2, 0.0, 0.4]], n_resamples=100)
    assert r.pvalue[0, 1] == 1.0


def test_ties_are_relative_to_the_observed_statistic_only():
    """1e6 - 1e6 + 1e-4 + 2e-4: 12 of the 16 sign flips reach 3e-4 on paper."""
    d = [1e6, -1e6, 1e-4, 2e-4]
    r = stats.randomisation_test([1e6, 0, 1e-4, 2e-4], [0, 1e6, 0, 0], n_resamples=16)
    assert r.exact and r.pvalue == 0.75 == _brute_sign_flip(d)
    # the randomised Tukey HSD: system sums 1e6 + 1e-4 and 1e6 + 4e-4
    x = np.array([[1e6, 0], [0, 1e6], [1e-4, 3e-4], [0, 1e-4]])
    r = stats.randomised_tukey_hsd(x, n_resamples=16)
    assert r.exact and r.pvalue[0, 1] == 0.75 == _brute_tukey(x)[0, 1]
    more = np.r_[x, [[0.2, 0.1], [0.1, 0.2], [0.3, 0.0], [0.0, 0.3]]]  # 256 > B: trials
    r = stats.randomised_tukey_hsd(more, n_resamples=150, seed=4)
    assert not r.exact
    expected = _loop_randomised_tukey(more, 150, np.random.default_rng(4))
    np.testing.assert_array_equal(r.pvalue, expected)


@settings(max_examples=30)
@given(
    st.lists(st.integers(-5, 5), min_size=1, max_size=8),
    st.sampled_from([1e3, 1e6, 1e9]),
)
def test_exact_sign_flips_with_terms_that_cancel(ints, big):
    d = np.array([big, -big, *ints]) / 10.0  # big - big cancels; the rest are ties on paper
    r = stats.randomisation_test(d, np.zeros_like(d), n_resamples=2 ** len(d))
    assert r.exact and r.pvalue == _brute_sign_flip(d.tolist())


def test_constant_within_rounding_moves_with_the_scores():
    """A constant added to every score, or a common scale, changes no result."""
    t = stats.paired_t_test(1e12 + np.array([1.0, 2, 4, 8]), np.full(4, 1e12))
    ref = sp.ttest_rel([1.0, 2, 4, 8], [0.0, 0, 0, 0])
    assert (t.statistic, t.pvalue) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-12)
    x = np.random.default_rng(0).integers(0, 100, (10, 3)).astype(float)
    a = stats.anova2(x)
    assert stats.anova2(x + 1e10).p_systems == pytest.approx(a.p_systems, rel=1e-6)
    for c in (1e-300, 2.0**-1060, 1e140):
        b = stats.anova2(x * c)
        assert (b.f_systems, b.p_systems, b.p_topics) == pytest.approx(
            (a.f_systems, a.p_systems, a.p_topics), rel=1e-12
        )
        h = stats.tukey_hsd(x * c)
        np.testing.assert_allclose(h.pvalue, stats.tukey_hsd(x).pvalue, rtol=1e-12)
    # a power of 2 changes nothing, to the last bit
    np.testing.assert_array_equal(
        stats.randomised_tukey_hsd(x * 2.0**-1000, n_resamples=300, seed=1).pvalue,
        stats.randomised_tukey_hsd(x, n_resamples=300, seed=1).pvalue,
    )


@pytest.mark.parametrize("scale", [1e-300, 5e-324, 1e-320])
def test_tiny_and_subnormal_scores(scale):
    x = np.array([1.0, 2.0, 5.0])
    t = stats.paired_t_test(x * scale, np.zeros(3))
    ref = stats.paired_t_test(x, np.zeros(3))
    assert (t.statistic, t.pvalue, t.effect_size) == pytest.approx(
        (ref.statistic, ref.pvalue, ref.effect_size), rel=1e-12
    )
    # subnormals are multiples of 4.9e-324: 8/3 of it rounds to 3 of them
    rel = 1e-12 if scale >= 1e-300 else 0.2
    assert t.mean_difference == pytest.approx(8 / 3 * scale, rel=rel, abs=0)


def test_large_scores_are_computed_or_refused_never_inf():
    t = stats.paired_t_test([1e200, 2e200, 0], [0, 0, 1])
    ref = sp.ttest_rel([1.0, 2.0, 0.0], [0.0, 0.0, 0.0])  # the same up to 1e-200
    assert (t.statistic, t.pvalue) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-12)
    assert t.mean_difference == pytest.approx(1e200)
    assert math.isfinite(t.ci_low) and math.isfinite(t.ci_high)
    r = stats.randomisation_test([1e308, 1e308, 0], [-1e308, -1e308, 1])
    assert r.pvalue == 0.5 == _brute_sign_flip([2, 2, -1e-308])  # d / 1e308
    assert r.statistic == pytest.approx(4 / 3 * 1e308)
    h = stats.tukey_hsd([[1e200, -1e200], [0.1, 0.3], [0.5, 0.3]])
    ref = stats.tukey_hsd([[1.0, -1.0], [1e-201, 3e-201], [5e-201, 3e-201]])
    assert h.pvalue[0, 1] == pytest.approx(ref.pvalue[0, 1], rel=1e-12)
    huge = [[1e308, -1e308], [0.1, 0.3], [0.5, 0.3]]
    for call in (stats.anova2, stats.tukey_hsd):  # their CIs exceed 1.8e308
        with pytest.raises(
            ValueError, match=r"'scores' parameter of [\w.]+ must hold scores small"
        ):
            call(huge)
    r = stats.randomised_tukey_hsd(huge, n_resamples=36)  # no CI: computed
    assert r.difference[0, 1] == pytest.approx(2 / 3 * 1e308) and r.exact
    with pytest.raises(ValueError, match="sum of squares"):
        stats.anova2([[1e200, -1e200], [0.1, 0.3], [0.5, 0.3]])
    c = stats.compare(huge, "m", test="randomisation")  # scaled per pair: computed
    assert c.pairs[0]["difference"] == pytest.approx(2 / 3 * 1e308)
    assert c.pairs[0]["pvalue"] == stats.randomisation_test(*np.array(huge).T).pvalue
    beyond = [[1.7e308, -1.7e308], [1.7e308, -1.7e308], [1.6e308, -1.7e308]]
    with pytest.raises(ValueError, match="'table' parameter of stats.compare .* finite float"):
        stats.compare(beyond, "m", test="randomisation")  # a difference of 3.4e308


# --------------------------------------------------------------------------- undefined
def test_the_randomisation_test_stays_defined_where_v_e_is_0():
    """docs/statistics.md, When a test is undefined: its effect size and CIs are null."""
    x = [[0.3, 0.1], [0.5, 0.3], [0.9, 0.7]]  # B = A - 0.2 on paper: V_E = 0
    c = stats.compare(x, "P", test="randomisation")
    assert c.anova is None and c.pairs[0]["pvalue"] == 0.25
    assert all(math.isnan(s["ci_low"]) and math.isnan(s["ci_high"]) for s in c.runs)
    assert [s["mean"] for s in c.runs] == pytest.approx([0.5666666666666667, 0.3666666666666667])
    assert c.to_dict()["runs"][0]["ci_low"] is None
    assert math.isnan(c.pairs[0]["effect_size"])
    for test in ("tukey", "randomised-tukey"):  # the error names the function called
        with pytest.raises(ValueError, match=r"^stats.compare: the residual variance V_E is 0"):
            stats.compare(x, "P", test=test)
        with pytest.raises(ValueError, match=r"^stats.discriminative_power: the residual variance"):
            stats.discriminative_power(x, test=test)


# --------------------------------------------------------------------------- Tukey p
def _range_sf_oracle(q, m, df):
    """P(Q > q) = int f_R(r) P(S <= r / q) dr (f_R: the range of m normals), by quad.

    Another formula than fairconv's (the density of R, not its tail; r, not the
    quantiles of S), all terms positive, the inner integral on a fine grid.
    """
    from scipy import integrate, special

    w = np.linspace(-12, 12, 4801)

    def f_range(r):
        z = w - r / 2
        inside = special.ndtr(z + r) - special.ndtr(z)
        g = sp.norm.pdf(z) * sp.norm.pdf(z + r) * inside ** (m - 2)
        return m * (m - 1) * integrate.trapezoid(g, z)

    def h(r):
        return f_range(r) * special.gammainc(df / 2, df * (r / q) ** 2 / 2)

    return integrate.quad(h, 0, 40, epsabs=0, epsrel=1e-11, limit=400, points=[1, 2, 4, 8])[0]


@pytest.mark.parametrize(
    "x",
    [
        [[0.0, 700.0], [0.1, 700.3]],
        [[0.0, 700.0], [0.1, 700.3], [0.3, 700.2]],
        np.random.default_rng(1).random((6, 2)),
    ],
)
def test_tukey_of_two_systems_is_the_anova_f_test(x):
    """statistics.md: for m = 2, Q = sqrt(2) |T|, and the Tukey p is the ANOVA's p."""
    h, a = stats.tukey_hsd(x), stats.anova2(x)
    assert 0 < h.pvalue[0, 1] == pytest.approx(a.p_systems, rel=1e-12, abs=0)
    margin = math.sqrt(2) * sp.t.ppf(0.975, a.df_residual) * math.sqrt(a.ms_residual / len(x))
    assert h.ci_high[0, 1] - h.difference[0, 1] == pytest.approx(margin, rel=1e-12)


@pytest.mark.parametrize("m, df, q", [(3, 2, 1e4), (3, 2, 1e3), (3, 5, 100.0), (5, 12, 20.0)])
def test_tukey_p_keeps_its_digits_where_scipys_sf_does_not(m, df, q):
    """statistics.md: p from the studentized range distribution, here in its tail."""
    expected = _range_sf_oracle(q, m, df)
    got = _anova._range_sf(np.array([q]), m, df)[0]
    assert got == pytest.approx(expected, rel=1e-9, abs=0)


def test_tukey_p_of_three_systems_at_low_df_is_not_0():
    x = [[0.0, 700.0, 1400.0], [0.1, 700.3, 1400.1], [0.3, 700.2, 1400.5]]
    h = stats.tukey_hsd(x)
    for j, k in ((0, 1), (0, 2), (1, 2)):
        expected = _range_sf_oracle(h.statistic[j, k], 3, 4)
        assert h.pvalue[j, k] == pytest.approx(expected, rel=1e-9, abs=0) and expected > 0


@pytest.mark.parametrize("alpha, m, df", [(1e-7, 3, 20), (1e-9, 3, 2)])
def test_tukey_critical_q_for_a_small_alpha(alpha, m, df):
    """statistics.md: the CI uses q(1 - alpha; m, phi_E): P(Q > q) = alpha."""
    q = _anova._q_critical(alpha, m, df)
    assert _range_sf_oracle(q, m, df) == pytest.approx(alpha, rel=1e-8, abs=0)


def test_tukey_critical_q_of_two_systems():
    assert _anova._q_critical(0.05, 2, 7) == pytest.approx(
        math.sqrt(2) * sp.t.ppf(0.975, 7), rel=1e-14
    )


# --------------------------------------------------------------------------- memory
def test_randomised_tukey_memory_does_not_grow_with_b():
    """statistics.md: trials in chunks of bounded memory (B ranges are not kept)."""
    import tracemalloc

    tracemalloc.start()
    try:
        stats.randomised_tukey_hsd(BOOK.scores, n_resamples=500_000, seed=1, chunk=2000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000  # 500,000 ranges alone are 4 MB


def test_enumerated_permutations_are_decoded_in_lexicographic_order():
    for m, n in ((3, 2), (4, 2), (5, 1)):
        perms = np.array(list(itertools.permutations(range(m))))
        k = len(perms)
        cols = _anova._enumerated_trials(n, m, 0, k**n)
        idx = np.arange(k**n)
        for i in range(n):
            np.testing.assert_array_equal(cols[:, i], perms[(idx // k**i) % k])
    last = _anova._enumerated_trials(1, 12, math.factorial(12) - 1, math.factorial(12))
    assert last[0, 0].tolist() == list(range(11, -1, -1))  # no table of 12! permutations


# --------------------------------------------------------------------------- kinds
def test_a_string_is_not_a_sequence_of_names():
    for kw in ({"runs": "XYZ"}, {"runs": 3}):
        with pytest.raises(TypeError, match="'runs' parameter of stats.compare"):
            stats.compare(BOOK.scores, "m", **kw)
    with pytest.raises(TypeError, match="'runs' parameter of stats.compare"):
        stats.compare(BOOK.table, "nDCG@5", runs="XYZ")


# --------------------------------------------------------------------------- notebook display
def _cells(page: str, column: str) -> list[str]:
    """The cells of a column of the first HTML table of a page."""
    import re

    table = re.search(r"<table>(.*?)</table>", page).group(1)
    heads = re.findall(r"<th>(.*?)</th>", table)
    rows = re.findall(r"<tr>(.*?)</tr>", table.split("</thead>")[1])
    return [re.findall(r"<td>(.*?)</td>", row)[heads.index(column)] for row in rows]


def test_a_notebook_shows_p_as_a_table_prints_it():
    x = np.array([[0.9, 0.1], [0.8, 0.2], [0.85, 0.15], [0.95, 0.1], [0.9, 0.12]] * 3)
    t = stats.paired_t_test(x[:, 0], x[:, 1])
    assert t.pvalue < 0.001 and _cells(t._repr_html_(), "pvalue") == ["&lt;0.001"]
    assert "pvalue=&lt;0.001" in t._repr_html_()  # the caption too
    c = stats.compare(BOOK.table, "nDCG@5", test="tukey")
    assert _cells(c._repr_html_().split("<b>Pairs</b>")[1], "pvalue") == [
        f"{p['pvalue']:#.3g}" for p in c.pairs
    ]
    assert _cells(c._repr_html_().split("<b>Pairs</b>")[1], "difference") == [
        f"{p['difference']:.4f}" for p in c.pairs
    ]


@pytest.mark.parametrize("test", ["randomised-tukey", "randomisation", "bootstrap"])
def test_a_notebook_leaves_out_the_intervals_a_test_does_not_give(test):
    c = stats.compare(BOOK.table, "nDCG@5", test=test, n_resamples=200)
    page = c._repr_html_()
    pairs = page.split("<b>Pairs</b>")[1]
    assert "<th>ci_low</th>" not in pairs and "<th>pvalue</th>" in pairs
    name = {"randomised-tukey": "randomised Tukey HSD", "randomisation":
            "sign-flip randomisation test", "bootstrap": "paired bootstrap test"}[test]  # fmt: skip
    assert f"<p>ci_low, ci_high left out: the {name} gives no such interval</p>" in pairs
    runs = page.split("<b>Pairs</b>")[0]
    assert ("<th>ci_low</th>" in runs) == (test == "randomised-tukey")  # the ANOVA's
    # the data keep every column
    assert {"ci_low", "ci_high"} <= set(c.to_frame().columns)
    record = stats.randomised_tukey_hsd(BOOK.scores, n_resamples=100)
    assert "left out" not in record._repr_html_()  # it has no interval columns at all


def test_monte_carlo_p_is_never_0_and_exact_p_stays_count_over_n():
    x = np.arange(30.0)
    r = stats.randomisation_test(x + 1, x * 0, n_resamples=999)  # every d > 0: no trial ties
    assert not r.exact and r.pvalue == 1 / 1000
    e = stats.randomisation_test([1.0, 2.0, 3.0], [0.0, 0.0, 0.0], n_resamples=8)
    assert e.exact and e.pvalue == 2 / 8
    c = stats.compare(np.c_[x + 1, x * 0, x * 0 + 0.5], "P", test="randomisation", n_resamples=99)
    assert min(p["pvalue"] for p in c.pairs) == 1 / 100


def test_tiny_alpha_names_alpha_or_works():
    for alpha in (1e-20, 1e-300):
        for test in ("paired-t", "tukey"):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                try:
                    c = stats.compare(BOOK.table, "nDCG@5", test=test, alpha=alpha)
                except ValueError as exc:
                    assert "'alpha'" in str(exc) and "brentq" not in str(exc)
                    continue
            assert all(math.isfinite(p["ci_low"]) and p["ci_low"] < p["difference"]
                       for p in c.pairs)  # fmt: skip
    t = stats.paired_t_test(BOOK.scores[:, 0], BOOK.scores[:, 1], alpha=1e-300)
    assert math.isfinite(t.ci_low) and t.ci_low < t.mean_difference < t.ci_high


def test_run_names_of_mixed_types_are_refused():
    with pytest.raises(
        TypeError, match=r"'runs' parameter of stats.compare must hold run names as str"
    ):
        stats.compare(BOOK.scores[:, :2], "P", runs=[1, "1"])
    with pytest.raises(ValueError, match="name each run once. Got 'X' at positions 0 and 1"):
        stats.compare(BOOK.scores[:, :2], "P", runs=["X", "X"])
    with pytest.raises(TypeError, match="'runs' parameter of stats.discriminative_power"):
        stats.discriminative_power(BOOK.scores, runs=["X", 2, "Z"])


def test_records_have_short_reprs_html_and_frames_by_run_name():
    x = np.random.default_rng(0).random((6, 30))
    names = [f"run-{i:02d}" for i in range(30)]
    records = [
        stats.compare(x, "P", test="tukey", runs=names),
        stats.tukey_hsd(x, runs=names),
        stats.randomised_tukey_hsd(x, n_resamples=50, runs=names),
        stats.anova2(x, runs=names),
        stats.discriminative_power(x, test="paired-t", runs=names),
        stats.paired_t_test(x[:, 0], x[:, 1]),
        stats.randomisation_test(x[:, 0], x[:, 1]),
        stats.bootstrap_test(x[:, 0], x[:, 1]),
        ag.kendall_tau(x[0], x[1]),
        ag.correlation_matrix(x[:3], method="tau_b", measures=["A", "B", "C"]),
        ag.rbo(["a", "b"], ["b", "c"]),
        ag.cohen_kappa([1, 2, 1, 2], [1, 2, 2, 2]),
        ag.majority_vote([[1, 1], [2, 1], [2, 2]]),
    ]
    for r in records:
        assert len(repr(r)) <= 500 and repr(r).startswith(type(r).__name__)
        page = r._repr_html_()
        assert page.startswith("<div>") and page.count("<tr>") <= 2 * 21
        frame = r.to_frame()
        assert len(frame) >= 1
        json.dumps(r.to_dict(), allow_nan=False)
    comparison = records[0]._repr_html_()
    assert (
        records[0].runs[0]["name"] in comparison
        and "<th>a</th>" in comparison
        and "more rows" in comparison
    )
    assert set(records[1].to_frame()["a"]) <= set(names)
    assert records[4].to_frame()["a"].iloc[0] in names


# --------------------------------------------------------------------------- memory
def test_memory_of_paired_tests_over_all_pairs_follows_the_pairs_not_topics_x_runs2():
    """600 runs x 50 topics: 179,700 pairs. Blocks of pairs, not a (50, 179700) array."""
    x = np.random.default_rng(3).random((50, 600))
    names = tuple(f"r{i}" for i in range(600))
    tracemalloc.start()
    try:
        _compare._pairwise(x, "paired-t", 0, np.random.default_rng(0), 0.05, names)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    full = 50 * 179_700 * 8  # one (topics, pairs) float64 array: 72 MB
    assert peak < full, f"peak {peak / 2**20:.0f} MB"
    small = np.random.default_rng(3).random((50, 120))  # 7,140 pairs: two blocks
    tracemalloc.start()
    try:
        _compare._pairwise(small, "bootstrap", 3, np.random.default_rng(0), 0.05)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20, f"peak {peak / 2**20:.0f} MB"
