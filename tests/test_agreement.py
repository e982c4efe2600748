"""fairconv.agreement: reference values, plain-loop oracles, scipy, properties, bad input."""

from __future__ import annotations

import csv
import itertools
import math
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
from hypothesis import assume, given
from hypothesis import strategies as st

from fairconv import agreement as ag
from fairconv.agreement import _correlation, read_label_file
from fairconv.cli import main

REF = Path(__file__).parent / "reference"


# --------------------------------------------------------------------------- oracles
# Plain loops written from the definitions (docs: statistics.md, Agreement; the papers).


def tau_a_loop(x, y):
    n = len(x)
    s = 0
    for i in range(n):
        for j in range(i + 1, n):
            s += np.sign(x[j] - x[i]) * np.sign(y[j] - y[i])
    return s / (n * (n - 1) / 2)


def tau_ap_loop(truth, estimate):
    """Yilmaz et al. (SIGIR 2008) Eq. 2; no ties; higher score = higher rank."""
    n = len(truth)
    order = sorted(range(n), key=lambda i: -estimate[i])
    total = 0.0
    for pos in range(1, n):
        i = order[pos]
        c = sum(1 for j in order[:pos] if truth[j] > truth[i])
        total += c / pos
    return 2 * total / (n - 1) - 1


def tau_ap_a_expected(truth, estimate):
    """tau_ap-a (Urbano and Marrero, ICTIR 2017): the mean of tau_ap over every
    order in which the tied systems of the estimate can be broken."""
    groups = {}
    for i, v in enumerate(estimate):
        groups.setdefault(v, []).append(i)
    levels = sorted(groups, reverse=True)
    values = []
    for perms in itertools.product(*(itertools.permutations(groups[v]) for v in levels)):
        order = [i for perm in perms for i in perm]
        strict = [0.0] * len(truth)
        for pos, i in enumerate(order):
            strict[i] = -pos
        values.append(tau_ap_loop(truth, strict))
    return sum(values) / len(values)


def tau_ap_b_loop(x, y):
    """tau_ap-b: for each system below y's top tie group, the systems strictly above it
    in both, over (its group's first position - 1); mean, mapped to [-1, 1]; then the
    mean of both directions."""

    def one_way(x, y):
        n = len(x)
        total, count = 0.0, 0
        for i in range(n):
            first = 1 + sum(1 for j in range(n) if y[j] > y[i])
            if first == 1:
                continue
            c = sum(1 for j in range(n) if y[j] > y[i] and x[j] > x[i])
            total += c / (first - 1)
            count += 1
        return 2 * total / count - 1

    return (one_way(x, y) + one_way(y, x)) / 2


def rbo_loop(a, b, p):
    """Webber et al. (TOIS 2010): RBO = (1-p) sum_d p^(d-1) X_d / d, summed to a depth
    where p^d is negligible, with the unseen part of each list continued as each bound
    assumes."""
    short, long_ = (list(a), list(b)) if len(a) <= len(b) else (list(b), list(a))
    s, l = len(short), len(long_)  # noqa: E741
    depth = int(math.log(1e-18) / math.log(p)) + l + 2

    def seen(d):
        return len(set(short[: min(d, s)]) & set(long_[: min(d, l)]))

    x_s, x_l = seen(s), seen(l)
    lo = hi = ext = 0.0
    for d in range(1, depth + 1):
        x = seen(d) if d <= l else x_l
        w = (1 - p) * p ** (d - 1)
        lo += w * x / d  # nothing unseen ever matches
        best = min(d, x + max(0, d - s) + max(0, d - l))  # everything unseen matches
        hi += w * best / d
        if d <= s:
            a_ext = x / d
        elif d <= l:
            a_ext = (x + (d - s) * x_s / s) / d  # S keeps agreeing at rate X_s / s
        else:
            a_ext = (x_l + (l - s) * x_s / s) / l  # agreement stays at its depth-l value
        ext += w * a_ext
    return lo, hi - lo, ext


def cohen_loop(a, b, weighting=None):
    cats = sorted(set(a) | set(b))
    idx = {c: i for i, c in enumerate(cats)}
    k, n = len(cats), len(a)
    table = [[0.0] * k for _ in range(k)]
    for u, v in zip(a, b, strict=True):
        table[idx[u]][idx[v]] += 1
    rows = [sum(table[i]) for i in range(k)]
    cols = [sum(table[i][j] for i in range(k)) for j in range(k)]
    num = den = 0.0
    for i in range(k):
        for j in range(k):
            w = {None: float(i != j), "linear": abs(i - j), "quadratic": (i - j) ** 2}[weighting]
            num += w * table[i][j]
            den += w * rows[i] * cols[j] / n
    return 1 - num / den


def fleiss_loop(labels):
    cats = sorted({v for row in labels for v in row})
    n = len(labels[0])
    big_n = len(labels)
    p_i = []
    share = dict.fromkeys(cats, 0.0)
    for row in labels:
        counts = [row.count(c) for c in cats]
        p_i.append((sum(c * c for c in counts) - n) / (n * (n - 1)))
        for c, m in zip(cats, counts, strict=True):
            share[c] += m / (big_n * n)
    pe = sum(v * v for v in share.values())
    return (sum(p_i) / big_n - pe) / (1 - pe)


def kripp_loop(labels, level):
    """Krippendorff (2011): coincidences from every ordered pair of values of a unit."""
    values = sorted({v for row in labels for v in row if v is not None})
    o = {(c, k): 0.0 for c in values for k in values}
    for row in labels:
        vals = [v for v in row if v is not None]
        m = len(vals)
        if m < 2:
            continue
        for i in range(m):
            for j in range(m):
                if i != j:
                    o[vals[i], vals[j]] += 1 / (m - 1)
    n_c = {c: sum(o[c, k] for k in values) for c in values}
    n = sum(n_c.values())

    def delta(c, k):
        if level == "nominal":
            return float(c != k)
        if level == "interval":
            return (c - k) ** 2
        lo, hi = min(c, k), max(c, k)
        between = sum(n_c[g] for g in values if lo <= g <= hi)
        return (between - (n_c[c] + n_c[k]) / 2) ** 2

    d_o = sum(o[c, k] * delta(c, k) for c in values for k in values)
    d_e = sum(n_c[c] * n_c[k] * delta(c, k) for c in values for k in values)
    return 1 - (n - 1) * d_o / d_e


def to_none(matrix):
    return [
        [None if (isinstance(v, float) and math.isnan(v)) else v for v in row] for row in matrix
    ]


# --------------------------------------------------------------------------- reference values
def _reference_rows():
    with open(REF / "agreement.csv", newline="") as f:
        return list(csv.DictReader(f))


def _csv_rows(name):
    with open(REF / name, newline="") as f:
        return [row for row in csv.reader(f) if row and not row[0].startswith("#")][1:]


def _krippendorff_matrix():
    rows = _csv_rows("krippendorff2011.csv")
    observers = [[np.nan if v == "." else float(v) for v in row[1:]] for row in rows]
    return np.array(observers).T  # (units, observers)


def _fleiss_matrix():
    labels = []
    for row in _csv_rows("fleiss1971_table1.csv"):
        counts = [int(v) for v in row[1:]]
        labels.append([c for c, m in enumerate(counts) for _ in range(m)])
    return np.array(labels, dtype=float)


def _table_pair(text):
    table = [[int(v) for v in row.split()] for row in text.split(";")]
    a, b = [], []
    for i, row in enumerate(table):
        for j, count in enumerate(row):
            a += [i] * count
            b += [j] * count
    return a, b


@pytest.mark.parametrize("row", _reference_rows(), ids=lambda r: f"{r['function']}-{r['option']}")
def test_reference_values(row):
    option = row["option"] or None
    if row["function"] == "krippendorff_alpha":
        result = ag.krippendorff_alpha(_krippendorff_matrix(), level=option)
    elif row["function"] == "fleiss_kappa":
        labels = _fleiss_matrix()
        assert labels.shape == (30, 6)
        result = ag.fleiss_kappa(labels)
    else:
        a, b = _table_pair(row["data"])
        result = ag.cohen_kappa(a, b, weighting=option)
    digits = int(row["digits"])
    assert round(result.statistic, digits) == pytest.approx(float(row["expected"]), abs=1e-12)


def test_krippendorff_example_with_string_labels_and_categories():
    # the same example with the values as names; the ordinal level then needs their order
    labels = _krippendorff_matrix()
    names = np.array(["one", "two", "three", "four", "five"], dtype=object)
    words = np.where(np.isnan(labels), None, names[np.nan_to_num(labels).astype(int) - 1])
    assert round(ag.krippendorff_alpha(words).statistic, 3) == 0.743
    order = ["one", "two", "three", "four", "five"]
    ordinal = ag.krippendorff_alpha(words, level="ordinal", categories=order)
    assert round(ordinal.statistic, 3) == 0.815
    assert ordinal.n_items == 11  # unit 12 has one value: not pairable


# --------------------------------------------------------------------------- scipy
def _random_scores(rng, n, ties):
    return rng.integers(0, max(2, n // 3), n).astype(float) if ties else rng.random(n)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("n", [2, 3, 7, 40, 301])
def test_pairwise_equal_scipy(n, ties):
    rng = np.random.default_rng(n + 1000 * ties)
    for _ in range(5):
        x, y = _random_scores(rng, n, ties), _random_scores(rng, n, ties)
        if np.ptp(x) == 0 or np.ptp(y) == 0:
            continue
        tau = ag.kendall_tau(x, y)
        ref = scipy.stats.kendalltau(x, y)
        assert tau.statistic == pytest.approx(ref.statistic, abs=1e-12)
        assert tau.pvalue == pytest.approx(ref.pvalue, abs=1e-12)
        rho = ag.spearman(x, y)
        assert rho.statistic == pytest.approx(scipy.stats.spearmanr(x, y).statistic, abs=1e-12)
        r = ag.pearson(x, y)
        assert r.statistic == pytest.approx(scipy.stats.pearsonr(x, y).statistic, abs=1e-12)
        assert ag.kendall_tau(x, y, variant="a").statistic == pytest.approx(
            tau_a_loop(x, y), abs=1e-12
        )


@pytest.mark.parametrize("ties", [False, True])
def test_correlation_matrix_equal_scipy_for_every_pair(ties):
    rng = np.random.default_rng(7 + ties)
    X = np.stack([_random_scores(rng, 60, ties) for _ in range(6)])
    refs = {
        "tau_b": lambda a, b: scipy.stats.kendalltau(a, b).statistic,
        "spearman": lambda a, b: scipy.stats.spearmanr(a, b).statistic,
        "pearson": lambda a, b: scipy.stats.pearsonr(a, b).statistic,
        "tau_a": tau_a_loop,
        "tau_ap_b": tau_ap_b_loop,
    }
    for method, ref in refs.items():
        M = ag.correlation_matrix(X, method=method).statistic
        for a in range(len(X)):
            for b in range(len(X)):
                assert M[a, b] == pytest.approx(ref(X[a], X[b]), abs=1e-12), (method, a, b)


def test_correlation_matrix_in_several_blocks(monkeypatch):
    # a tiny block size forces many blocks of pairs and of systems
    monkeypatch.setattr(_correlation, "_CHUNK_ELEMENTS", 64)
    rng = np.random.default_rng(3)
    X = rng.integers(0, 9, (4, 50)).astype(float)
    M = ag.correlation_matrix(X, method="tau_b").statistic
    ap = ag.correlation_matrix(X, method="tau_ap_b").statistic
    for a in range(4):
        for b in range(4):
            assert M[a, b] == pytest.approx(scipy.stats.kendalltau(X[a], X[b])[0], abs=1e-12)
            assert ap[a, b] == pytest.approx(tau_ap_b_loop(X[a], X[b]), abs=1e-12)


def test_tau_ap_a_matrix_is_not_symmetric_and_matches_the_pairs():
    rng = np.random.default_rng(11)
    X = np.stack([rng.permutation(12).astype(float) for _ in range(4)])
    M = ag.correlation_matrix(X, method="tau_ap_a", measures=list("abcd"))
    assert M.measures == ("a", "b", "c", "d")
    for a in range(4):
        for b in range(4):
            assert M.statistic[a, b] == pytest.approx(tau_ap_loop(X[a], X[b]), abs=1e-12)
    assert not np.allclose(M.statistic, M.statistic.T)


# --------------------------------------------------------------------------- tau_ap and RBO
def test_tau_ap_without_ties_is_yilmaz():
    rng = np.random.default_rng(5)
    for n in (2, 3, 5, 20, 80):
        x, y = rng.random(n), rng.random(n)
        expected = tau_ap_loop(x, y)
        assert ag.tau_ap(x, y).statistic == pytest.approx(expected, abs=1e-12)
        assert ag.tau_ap(x, y, variant="b").statistic == pytest.approx(
            (expected + tau_ap_loop(y, x)) / 2, abs=1e-12
        )


def test_tau_ap_a_is_the_mean_over_tie_breaks():
    rng = np.random.default_rng(9)
    for n in (2, 4, 6, 7):
        for _ in range(4):
            truth = rng.random(n)
            estimate = rng.integers(0, 3, n).astype(float)
            assert ag.tau_ap(truth, estimate).statistic == pytest.approx(
                tau_ap_a_expected(truth, estimate), abs=1e-12
            )


def test_tau_ap_b_loop_with_ties():
    rng = np.random.default_rng(12)
    for n in (3, 8, 25):
        for _ in range(5):
            x, y = rng.integers(0, 4, n).astype(float), rng.integers(0, 4, n).astype(float)
            if np.ptp(x) == 0 or np.ptp(y) == 0:
                continue
            assert ag.tau_ap(x, y, variant="b").statistic == pytest.approx(
                tau_ap_b_loop(x, y), abs=1e-12
            )


def test_tau_ap_a_is_asymmetric():
    truth, estimate = [0.9, 0.8, 0.7, 0.6, 0.5], [0.8, 0.5, 0.7, 0.9, 0.6]
    forward = ag.tau_ap(truth, estimate).statistic
    backward = ag.tau_ap(estimate, truth).statistic
    assert forward == pytest.approx(tau_ap_loop(truth, estimate), abs=1e-12)
    assert backward == pytest.approx(tau_ap_loop(estimate, truth), abs=1e-12)
    assert forward != pytest.approx(backward, abs=1e-3)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("abcd", "bace"),
        ("abcdefgh", "xyz"),
        ("abc", "cbadefgh"),
        ("a", "a"),
        ("abcdef", "abcdef"),
        ("q", "abcdefghij"),
        ("badcfehg", "abcdefghijklmno"),
    ],
)
@pytest.mark.parametrize("p", [0.1, 0.5, 0.9, 0.98])
def test_rbo_equals_the_loop(a, b, p):
    r = ag.rbo(list(a), list(b), p=p)
    lo, res, ext = rbo_loop(a, b, p)
    assert r.min == pytest.approx(lo, abs=1e-12)
    assert r.res == pytest.approx(res, abs=1e-12)
    assert r.ext == pytest.approx(ext, abs=1e-12)
    assert r.statistic == r.ext
    assert r.depth == tuple(sorted((len(a), len(b))))


def test_rbo_integer_ids_and_identical_rankings():
    assert ag.rbo([3, 1, 2], [3, 1, 2]).statistic == pytest.approx(1.0, abs=1e-15)
    r = ag.rbo([1, 2, 3], [4, 5, 6])
    assert (r.min, r.ext) == (0.0, 0.0)
    assert r.res > 0


# --------------------------------------------------------------------------- labels vs loops
def _random_labels(rng, items, raters, k, missing):
    labels = rng.integers(0, k, (items, raters)).astype(float)
    labels[rng.random(labels.shape) < missing] = np.nan
    return labels


def test_kappas_and_alpha_equal_the_loops():
    rng = np.random.default_rng(21)
    for trial in range(30):
        k = 2 + trial % 4
        a, b = rng.integers(0, k, 40), rng.integers(0, k, 40)
        if len(set(a) | set(b)) < 2:
            continue
        for weighting in (None, "linear", "quadratic"):
            assert ag.cohen_kappa(a, b, weighting=weighting).statistic == pytest.approx(
                cohen_loop(list(a), list(b), weighting), abs=1e-12
            )
        full = rng.integers(0, k, (25, 3 + trial % 3)).astype(float)
        if len(np.unique(full)) > 1:
            assert ag.fleiss_kappa(full).statistic == pytest.approx(
                fleiss_loop(full.tolist()), abs=1e-12
            )
        sparse = _random_labels(rng, 25, 4, k, 0.3)
        rows = to_none(sparse.tolist())
        for level in ("nominal", "ordinal", "interval"):
            try:
                expected = kripp_loop(rows, level)
            except ZeroDivisionError:
                continue
            assert ag.krippendorff_alpha(sparse, level=level).statistic == pytest.approx(
                expected, abs=1e-12
            )


def test_cohen_kappa_leaves_out_items_not_labelled_by_both():
    a = [1, 0, np.nan, 1, 0, 1]
    b = [1, 1, 0, np.nan, 0, 1]
    r = ag.cohen_kappa(a, b)
    assert r.n_items == 4
    assert r.statistic == pytest.approx(cohen_loop([1, 0, 0, 1], [1, 1, 0, 1]), abs=1e-12)
    assert ag.accuracy(a, b).statistic == 0.75


def test_cohen_kappa_strings_and_categories():
    a = ["high", "low", "mid", "mid", "high"]
    b = ["high", "mid", "mid", "low", "high"]
    assert ag.cohen_kappa(a, b).statistic == pytest.approx(cohen_loop(a, b), abs=1e-12)
    order = ["low", "mid", "high"]
    coded = {"low": 0, "mid": 1, "high": 2}
    weighted = ag.cohen_kappa(a, b, weighting="linear", categories=order)
    expected = cohen_loop([coded[v] for v in a], [coded[v] for v in b], "linear")
    assert weighted.statistic == pytest.approx(expected, abs=1e-12)
    assert (weighted.weighting, weighted.level) == ("linear", None)


def test_majority_vote_tie_rules():
    labels = [[1, 1, 0], [0, 1, np.nan], [2, 2, 2], [np.nan, np.nan, np.nan], [0, 2, 2]]
    vote = ag.majority_vote(labels)
    np.testing.assert_array_equal(vote.labels, [1, np.nan, 2, np.nan, 2])
    np.testing.assert_array_equal(vote.votes, [2, 1, 3, 0, 2])
    np.testing.assert_array_equal(vote.n_ratings, [3, 2, 3, 0, 3])
    np.testing.assert_array_equal(vote.tied, [False, True, False, False, False])
    np.testing.assert_array_equal(ag.majority_vote(labels, ties="lowest").labels[:2], [1, 0])
    np.testing.assert_array_equal(ag.majority_vote(labels, ties="highest").labels[:2], [1, 1])
    words = [["yes", "yes", "no"], ["no", "yes", None]]
    assert ag.majority_vote(words).labels.tolist() == ["yes", None]
    assert ag.majority_vote(words, ties="lowest", categories=["no", "yes"]).to_dict()["labels"] == [
        "yes",
        "no",
    ]


def test_majority_vote_equals_the_loop():
    rng = np.random.default_rng(4)
    labels = _random_labels(rng, 200, 5, 4, 0.25)
    vote = ag.majority_vote(labels, ties="highest")
    for i, row in enumerate(labels):
        vals = [v for v in row if not np.isnan(v)]
        if not vals:
            assert np.isnan(vote.labels[i])
            continue
        best = max(vals.count(v) for v in set(vals))
        winners = sorted(v for v in set(vals) if vals.count(v) == best)
        assert vote.labels[i] == winners[-1]
        assert vote.tied[i] == (len(winners) > 1)


def test_records_to_dict_and_frame():
    r = ag.kendall_tau([1, 2, 3], [1, 3, 2])
    assert r.to_dict() == {
        "statistic": r.statistic,
        "pvalue": r.pvalue,
        "method": "tau_b",
        "n_systems": 3,
    }
    d = ag.rbo(["a", "b"], ["a", "c", "d"]).to_dict()
    assert d["depth"] == [2, 3] and d["statistic"] == d["ext"]
    frame = ag.correlation_matrix([[1, 2, 3], [3, 1, 2]], method="spearman").to_frame()
    assert list(frame.columns) == ["0", "1"]
    assert ag.fleiss_kappa([[1, 1], [0, 1], [0, 0]]).to_frame().shape == (1, 6)  # weighting, level
    assert ag.majority_vote([[1, 1], [0, 1]]).to_frame().shape == (2, 4)


# --------------------------------------------------------------------------- properties
scores = st.lists(st.integers(-5, 5), min_size=2, max_size=25)
distinct = st.lists(st.integers(-1000, 1000), min_size=2, max_size=25, unique=True)


def _increasing(v):
    v = np.asarray(v, dtype=float)
    return v**3 + 2 * v + np.exp(v / 10)  # strictly increasing


@given(scores, st.data())
def test_coefficients_in_range_and_symmetric(x, data):
    y = data.draw(st.lists(st.integers(-5, 5), min_size=len(x), max_size=len(x)))
    assume(len(set(x)) > 1 and len(set(y)) > 1)
    for f in (
        lambda a, b: ag.kendall_tau(a, b),
        lambda a, b: ag.kendall_tau(a, b, variant="a"),
        lambda a, b: ag.tau_ap(a, b, variant="b"),
        ag.spearman,
        ag.pearson,
    ):
        v = f(x, y).statistic
        assert -1.0 <= v <= 1.0
        assert v == pytest.approx(f(y, x).statistic, abs=1e-12)


@given(distinct, st.data())
def test_tau_ap_a_in_range(x, data):
    y = data.draw(st.lists(st.integers(-3, 3), min_size=len(x), max_size=len(x)))
    assert -1.0 <= ag.tau_ap(x, y).statistic <= 1.0


@given(scores)
def test_identical_is_one_and_reversed_is_minus_one(x):
    assume(len(set(x)) > 1)
    neg = [-v for v in x]
    for f in (ag.kendall_tau, lambda a, b: ag.tau_ap(a, b, variant="b"), ag.spearman):
        assert f(x, x).statistic == pytest.approx(1.0, abs=1e-12)
        assert f(x, neg).statistic == pytest.approx(-1.0, abs=1e-12)


@given(distinct)
def test_tau_ap_a_identical_and_reversed(x):
    assert ag.tau_ap(x, x).statistic == pytest.approx(1.0, abs=1e-12)
    assert ag.tau_ap(x, [-v for v in x]).statistic == pytest.approx(-1.0, abs=1e-12)


@given(scores, st.data())
def test_invariant_to_increasing_transforms(x, data):
    y = data.draw(st.lists(st.integers(-5, 5), min_size=len(x), max_size=len(x)))
    assume(len(set(x)) > 1 and len(set(y)) > 1)
    fx, fy = _increasing(x), _increasing(y)
    for f in (ag.kendall_tau, lambda a, b: ag.tau_ap(a, b, variant="b"), ag.spearman):
        assert f(fx, fy).statistic == pytest.approx(f(x, y).statistic, abs=1e-12)
    if len(set(x)) == len(x):
        assert ag.tau_ap(fx, fy).statistic == pytest.approx(ag.tau_ap(x, y).statistic, abs=1e-12)


@given(
    st.lists(st.integers(0, 30), min_size=1, max_size=15, unique=True),
    st.lists(st.integers(0, 30), min_size=1, max_size=15, unique=True),
    st.floats(0.05, 0.95),
)
def test_rbo_bounds(a, b, p):
    r = ag.rbo(a, b, p=p)
    assert 0.0 <= r.min <= 1.0 and 0.0 <= r.res <= 1.0 and 0.0 <= r.ext <= 1.0
    assert r.min - 1e-12 <= r.ext <= r.min + r.res + 1e-12
    assert r.min + r.res <= 1.0 + 1e-12
    swapped = ag.rbo(b, a, p=p)
    assert (swapped.min, swapped.res, swapped.ext) == pytest.approx((r.min, r.res, r.ext))
    assert ag.rbo(a, a, p=p).ext == pytest.approx(1.0, abs=1e-12)


@given(st.lists(st.integers(0, 3), min_size=2, max_size=30), st.data())
def test_label_agreement_properties(a, data):
    b = data.draw(st.lists(st.integers(0, 3), min_size=len(a), max_size=len(a)))
    assume(len(set(a) | set(b)) > 1)
    assert 0.0 <= ag.accuracy(a, b).statistic <= 1.0
    for weighting in (None, "linear", "quadratic"):
        k = ag.cohen_kappa(a, b, weighting=weighting).statistic
        assert -1.0 <= k <= 1.0
        assert k == pytest.approx(ag.cohen_kappa(b, a, weighting=weighting).statistic, abs=1e-12)
    # renaming nominal labels changes nothing
    rename = {0: "w", 1: "x", 2: "y", 3: "z"}
    assert ag.cohen_kappa([rename[v] for v in a], [rename[v] for v in b]).statistic == (
        pytest.approx(ag.cohen_kappa(a, b).statistic, abs=1e-12)
    )
    if len(set(a)) > 1:
        assert ag.cohen_kappa(a, a).statistic == pytest.approx(1.0, abs=1e-12)
        same = np.stack([a, a, a], axis=1)
        assert ag.fleiss_kappa(same).statistic == pytest.approx(1.0, abs=1e-12)
        for level in ("nominal", "ordinal", "interval"):
            alpha = ag.krippendorff_alpha(same, level=level).statistic
            assert alpha == pytest.approx(1.0, abs=1e-12)
    pair = np.stack([a, b], axis=1)
    for level in ("nominal", "ordinal", "interval"):
        try:
            alpha = ag.krippendorff_alpha(pair, level=level).statistic
        except ValueError:
            continue
        assert alpha <= 1.0 + 1e-12


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("call", "match"),
    [
        (
            lambda: ag.kendall_tau([1, 2, 3], [1, 2]),
            "'x' and 'y' parameters of agreement.kendall_tau",
        ),
        (lambda: ag.spearman([1, np.nan, 3], [1, 2, 3]), "'x' parameter of agreement.spearman"),
        (lambda: ag.pearson([1, 2], [1, np.inf]), "'y' parameter of agreement.pearson"),
        (lambda: ag.kendall_tau([1], [1]), "at least 2 systems"),
        (lambda: ag.tau_ap([1, 2], [1, 2, 3]), "'x' and 'y' parameters of agreement.tau_ap"),
        (lambda: ag.kendall_tau([[1, 2]], [[1, 2]]), "1-D array"),
        (lambda: ag.kendall_tau([1, 1, 1], [1, 2, 3]), "'x' parameter .* not be constant"),
        (lambda: ag.spearman([1, 2, 3], [2, 2, 2]), "'y' parameter .* not be constant"),
        (lambda: ag.pearson([5, 5], [1, 2]), "Pearson's r is undefined"),
        (lambda: ag.tau_ap([1, 2, 3], [4, 4, 4], variant="b"), "tau_ap-b is undefined"),
        (lambda: ag.tau_ap([1, 1, 3], [1, 2, 3]), "distinct scores for tau_ap variant 'a'"),
        (lambda: ag.kendall_tau([1, 2], [1, 2], variant="c"), "'variant' parameter"),
        (lambda: ag.correlation_matrix([1, 2, 3], method="tau_b"), "2-D array"),
        (lambda: ag.correlation_matrix([[1], [2]], method="tau_b"), "at least 2 systems"),
        (
            lambda: ag.correlation_matrix([[1, 2], [np.nan, 1]], method="spearman"),
            r"finite scores. Got nan at index \(1, 0\)",
        ),
        (
            lambda: ag.correlation_matrix([[1, 2], [3, 3]], method="tau_b", measures=["A", "B"]),
            r"'scores\[B\]' parameter of agreement.correlation_matrix must not be constant",
        ),
        (
            lambda: ag.correlation_matrix([[1, 2], [3, 4]], method="tau_b", measures=["A"]),
            "'measures' parameter",
        ),
        (lambda: ag.correlation_matrix([[1, 2]], method="kendall"), "'method' parameter"),
        (
            lambda: ag.rbo(["a"], ["a"], p=0.0),
            r"'p' parameter of agreement.rbo must be a number in \(0",
        ),
        (lambda: ag.rbo(["a"], ["a"], p=1.0), r"'p' parameter of agreement.rbo"),
        (lambda: ag.rbo(["a"], ["a"], p=1.5), r"'p' parameter of agreement.rbo"),
        (lambda: ag.rbo(["a"], ["a"], p=float("nan")), r"'p' parameter of agreement.rbo"),
        (
            lambda: ag.rbo(["a", "b", "a"], ["a"]),
            "'ranking_a' parameter of agreement.rbo must list each",
        ),
        (lambda: ag.rbo(["a"], []), "'ranking_b' parameter of agreement.rbo must be a non-empty"),
        (lambda: ag.fleiss_kappa([1, 2, 3]), "'labels' parameter of agreement.fleiss_kappa"),
        (lambda: ag.fleiss_kappa([[1], [2]]), r"shape \(2, 1\)"),
        (lambda: ag.krippendorff_alpha(np.ones((2, 2, 2))), "'labels' parameter"),
        (lambda: ag.majority_vote([[1, 2], [1]]), "ragged"),
        (
            lambda: ag.fleiss_kappa([[1, 2, 1], [1, np.nan, 2]]),
            "same number .* Got 3 labels on item 0 and 2 on item 1",
        ),
        (lambda: ag.fleiss_kappa([[1, 1], [1, 1]]), "fleiss_kappa must use at least two"),
        (lambda: ag.cohen_kappa([1, 1], [1, 1]), "kappa is undefined"),
        (
            lambda: ag.cohen_kappa([1, 2], [1, 2, 3]),
            "'a' and 'b' parameters of agreement.cohen_kappa",
        ),
        (lambda: ag.accuracy([1, np.nan], [np.nan, 2]), "no item labelled by both"),
        (lambda: ag.cohen_kappa([1, 2], [1, 2], weighting="cubic"), "'weighting' parameter"),
        (
            lambda: ag.cohen_kappa(["a", "b"], ["b", "a"], weighting="linear"),
            "'categories' parameter of agreement.cohen_kappa",
        ),
        (
            lambda: ag.krippendorff_alpha([["a", "b"], ["b", "b"]], level="ordinal"),
            "'categories' parameter of agreement.krippendorff_alpha",
        ),
        (
            lambda: ag.krippendorff_alpha([[1, 2], [3, 4]], categories=[1, 2, 3]),
            "labels listed in 'categories'. Got the label 4.0",
        ),
        (
            lambda: ag.krippendorff_alpha([[1, np.nan], [3, np.nan]]),
            "at least one item 2 or more labels",
        ),
        (lambda: ag.krippendorff_alpha([[1, 1], [1, 1]]), "alpha is undefined"),
        (lambda: ag.krippendorff_alpha([[1, 2]], level="ratio"), "'level' parameter"),
        (lambda: ag.majority_vote([[1, 2]], ties="random"), "'ties' parameter"),
        (lambda: ag.majority_vote([[np.nan, np.nan]]), "at least one label"),
        (lambda: ag.majority_vote([[np.inf, 1]]), "finite labels"),
    ],
)
def test_bad_input_value_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: ag.kendall_tau(["a", "b"], [1, 2]), "'x' parameter of agreement.kendall_tau"),
        (lambda: ag.rbo("abc", ["a"]), "'ranking_a' parameter of agreement.rbo must be a sequence"),
        (lambda: ag.rbo([1.5, 2.5], [1]), "all strings or all integers"),
        (lambda: ag.rbo(["1"], [1]), "ids of one kind"),
        (lambda: ag.rbo(["a", 1], ["a"]), "all strings or all integers"),
        (lambda: ag.krippendorff_alpha([[1, "a"], [2, 3]]), "all numbers or all strings"),
        (
            lambda: ag.krippendorff_alpha([["a", "b"], ["b", "a"]], level="interval"),
            "numbers at the interval level",
        ),
        (lambda: ag.cohen_kappa(["a", "b"], [1, 2]), "both hold numbers or both strings"),
        (lambda: ag.correlation_matrix([[1, 2]], method="tau_b", measures="A"), "'measures'"),
    ],
)
def test_bad_input_type_errors(call, match):
    with pytest.raises(TypeError, match=match):
        call()


# --------------------------------------------------------------------------- label files
def test_read_label_file(tmp_path):
    path = tmp_path / "labels.txt"
    path.write_text("# item rater label\nn1 alice 1\nn1 bob 0\nn2 alice 1\n\nn2 carol 1\n")
    m = ag.read_label_file(path)
    assert m.items == ("n1", "n2") and m.raters == ("alice", "bob", "carol")
    assert m.numeric
    np.testing.assert_array_equal(m.labels, [[1, 0, np.nan], [1, np.nan, 1]])
    assert m.to_dict() == {"n1": {"alice": 1, "bob": 0}, "n2": {"alice": 1, "carol": 1}}
    path.write_text("n1 alice yes\nn1 bob no\n")
    m = ag.read_label_file(path)
    assert not m.numeric and m.labels.tolist() == [["yes", "no"]]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("n1 alice 1\nn1 alice 0\n", r"labels.txt:2: a second label of rater 'alice'"),
        ("n1 alice 1\nn1 bob\n", r"labels.txt:2: expected 3 columns"),
        ("n1 alice 1\nn1 bob NaN\n", r"labels.txt:2: the label 'NaN' is not a finite number"),
        ("# nothing\n", "no label rows"),
    ],
)
def test_read_label_file_errors(tmp_path, text, match):
    path = tmp_path / "labels.txt"
    path.write_text(text)
    with pytest.raises(ValueError, match=match):
        ag.read_label_file(path)


# --------------------------------------------------------------------------- exactness
# statistics.md, Agreement: tau-b, rho and r as scipy.stats.kendalltau / spearmanr /
# pearsonr; docs/agreement.md, Exactness.
BIG = np.array([2**62, 2**62 + 1, 3])


def test_integer_scores_are_ranked_exactly():
    """2**62 and 2**62 + 1 are two scores: the ranks are (2, 3, 1), as scipy ranks them."""
    ranks = [2, 3, 1]
    assert ag.spearman(BIG, [1, 2, 3]).statistic == pytest.approx(
        scipy.stats.spearmanr(BIG, [1, 2, 3]).statistic, abs=1e-12
    )
    assert ag.spearman(BIG, [1, 2, 3]).statistic == pytest.approx(-0.5, abs=1e-12)
    tau = ag.kendall_tau(BIG, [1, 2, 3])
    ref = scipy.stats.kendalltau(ranks, [1, 2, 3])
    assert (tau.statistic, tau.pvalue) == pytest.approx((ref.statistic, ref.pvalue), abs=1e-12)
    assert ag.tau_ap(BIG, [1, 2, 3]).statistic == ag.tau_ap(ranks, [1, 2, 3]).statistic
    assert ag.tau_ap(BIG, [1, 2, 3], variant="b").statistic == pytest.approx(
        ag.tau_ap(ranks, [1, 2, 3], variant="b").statistic
    )
    for method in ("tau_a", "tau_b", "tau_ap_a", "tau_ap_b", "spearman"):
        M = ag.correlation_matrix(np.stack([BIG, [1, 2, 3]]), method=method).statistic
        R = ag.correlation_matrix([ranks, [1, 2, 3]], method=method).statistic
        np.testing.assert_allclose(M, R, atol=1e-15)
    # not constant: 2**62 and 2**62 + 1 differ
    assert ag.spearman([2**62, 2**62 + 1], [1, 2]).statistic == 1.0


@pytest.mark.parametrize(
    "x, y, proportional",
    [
        ([1, 2, 3], [1, 2, 3], True),
        ([1, 2, 3], [2, 4, 6], True),
        ([1, 2, 3, 4, 5, 6], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], False),
        ([1, 5, 2, 8], [3, 15, 6, 24], True),
        ([0.3, 0.1, 0.7, 0.2], [0.9, 0.2, 1.0, 0.5], False),  # the same ranking only
    ],
)
def test_identical_rankings_give_exactly_1(x, y, proportional):
    rho = ag.spearman(x, y)
    assert rho.statistic == 1.0 and rho.pvalue == 0.0
    assert ag.spearman(x, [-v for v in y]).statistic == -1.0
    M = ag.correlation_matrix([x, y, [-v for v in y]], method="spearman").statistic
    assert M.tolist() == [[1.0, 1.0, -1.0], [1.0, 1.0, -1.0], [-1.0, -1.0, 1.0]]
    if proportional:
        r = ag.pearson(x, y)
        assert r.statistic == 1.0 and r.pvalue == 0.0
        assert ag.pearson(x, [-v for v in y]).statistic == -1.0


@pytest.mark.parametrize("scale", [1e200, 1e-200, 1e300, 5e-320])
def test_pearson_of_large_and_tiny_scores(scale):
    x = np.array([1.0, 2.0, 3.0, 5.0])
    r = ag.pearson(x * scale, [1, 2, 3, 4])
    ref = scipy.stats.pearsonr(x, [1, 2, 3, 4])
    assert (r.statistic, r.pvalue) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-12)
    M = ag.correlation_matrix([x * scale, [1, 2, 3, 4]], method="pearson").statistic
    assert M[0, 1] == pytest.approx(ref.statistic, rel=1e-12)
    labels = np.array([[1.0, 2.0], [3.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    alpha = ag.krippendorff_alpha(labels * scale, level="interval").statistic
    assert alpha == pytest.approx(ag.krippendorff_alpha(labels, level="interval").statistic)


def test_pearson_of_values_that_differ_in_their_last_digit():
    """1 and 1 + 2^-52 alternate: r is that of 0 and 1, without scipy's warning."""
    r = ag.pearson([1.0, 1 + 2**-52, 1.0, 1 + 2**-52], [1, 2, 3, 4])
    assert r.statistic == pytest.approx(1 / math.sqrt(5), rel=1e-12)
    assert r.pvalue == pytest.approx(scipy.stats.pearsonr([0, 1, 0, 1], [1, 2, 3, 4]).pvalue)


@pytest.mark.parametrize("n", [3, 7, 40])
def test_p_values_of_rho_and_r_are_scipys(n):
    rng = np.random.default_rng(n)
    for _ in range(5):
        x, y = rng.random(n), rng.random(n)
        ref = scipy.stats.spearmanr(x, y)
        assert ag.spearman(x, y).pvalue == pytest.approx(ref.pvalue, rel=1e-9)
        assert ag.pearson(x, y).pvalue == pytest.approx(scipy.stats.pearsonr(x, y).pvalue, rel=1e-9)


def test_sequence_parameters_and_plain_values_in_messages():
    for measures in (5, "ab"):
        with pytest.raises(TypeError, match="'measures' parameter of agreement.correlation_matrix"):
            ag.correlation_matrix([[1, 2, 3], [1, 2, 4]], method="tau_b", measures=measures)
    with pytest.raises(ValueError, match=r"Got 'a' twice instead\.$"):
        ag.rbo(np.array(["a", "a"]), ["b"])
    with pytest.raises(ValueError, match=r"Got 7 twice instead\.$"):
        ag.rbo(np.array([7, 7]), [1])


# --------------------------------------------------------------------------- agree
def _scores_table(values, measures, runs=None, directions=None):
    """A ScoreTable of values (topics, runs, measures)."""
    from fairconv.results import ScoreTable

    v = np.asarray(values, dtype=float)
    runs = runs or tuple(f"r{i}" for i in range(v.shape[1]))
    return ScoreTable(topics=tuple(f"q{i}" for i in range(v.shape[0])), runs=runs,
                      measures=tuple(measures), values=v, present=np.ones(v.shape, bool),
                      directions=directions)  # fmt: skip


def test_agree_ranks_each_measure_by_its_direction():
    """A lower-is-better and a higher-is-better measure that rank the runs alike: tau +1."""
    rng = np.random.default_rng(4)
    good = rng.random((6, 7))  # (topics, runs): higher is better
    v = np.stack([good, 1 - good, 1 - good / 2], axis=2)  # nDCG, EE-D, cost (lower by word)
    table = _scores_table(v, ["nDCG@10", "EE-D[g]", "cost"], directions={"cost": "lower"})
    r = ag.agree(table, ["nDCG@10", "EE-D[g]", "cost"])
    assert r.directions == ("higher", "lower", "lower")
    by = {(p["a"], p["b"]): p for p in r.pairs}
    assert by["nDCG@10", "EE-D[g]"]["tau_b"] == 1.0  # today's bug gave -1
    assert by["nDCG@10", "EE-D[g]"]["spearman"] == 1.0 and by["nDCG@10", "EE-D[g]"]["tau_ap"] == 1.0
    assert by["nDCG@10", "cost"]["tau_b"] == 1.0
    # the coefficients are those of the array functions on the means so oriented
    means = v.mean(axis=0).T
    np.testing.assert_allclose(r.means, means, rtol=1e-15)
    tau = ag.kendall_tau(means[0], -means[1])
    assert by["nDCG@10", "EE-D[g]"]["tau_b_pvalue"] == pytest.approx(tau.pvalue, rel=1e-12)
    # a measure lower-is-better by the table's word: reversed, it disagrees fully
    flipped = _scores_table(v, ["nDCG@10", "EE-D[g]", "cost"], directions={"EE-D[g]": "higher"})
    assert ag.agree(flipped, ["nDCG@10", "EE-D[g]"]).pairs[0]["tau_b"] == -1.0


def test_agree_refuses_an_undirected_measure_naming_it():
    v = np.random.default_rng(1).random((4, 3, 2))
    table = _scores_table(v, ["nDCG", "ARP-LTwo[g]"])
    with pytest.raises(
        ValueError,
        match=r"'measures' parameter of agreement.agree .* 'ARP-LTwo\[g\]', which is undirected",
    ):  # noqa: E501
        ag.agree(table, ["nDCG", "ARP-LTwo[g]"])


def test_agree_gives_nan_with_a_notice_where_a_ranking_is_constant():
    from fairconv import FairconvWarning

    v = np.random.default_rng(2).random((4, 3, 2))
    v[:, :, 1] = 0.5
    with pytest.warns(FairconvWarning, match="B: every run has the same mean \\(0.5\\)"):
        r = ag.agree(_scores_table(v, ["A", "B"]), ["A", "B"])
    assert math.isnan(r.pairs[0]["tau_b"]) and math.isnan(r.pairs[0]["tau_b_pvalue"])


@pytest.mark.parametrize(
    "measures, error, match",
    [
        (["A"], ValueError, "at least two measures"),
        (["A", "A"], ValueError, "each measure once"),
        (["A", "C"], ValueError, r"measures of the table \(A, B\)"),
        ("AB", TypeError, "'measures' parameter of agreement.agree"),
    ],
)
def test_agree_bad_measures(measures, error, match):
    table = _scores_table(np.random.default_rng(0).random((3, 3, 2)), ["A", "B"])
    with pytest.raises(error, match=match):
        ag.agree(table, measures)


def test_agree_needs_a_topic_every_run_has():
    from fairconv.results import ScoreTable

    v = np.random.default_rng(0).random((2, 2, 2))
    present = np.ones(v.shape, bool)
    present[0, 0, 1] = present[1, 1, 1] = False
    table = ScoreTable(topics=("q0", "q1"), runs=("a", "b"), measures=("A", "B"), values=v,
                       present=present)  # fmt: skip
    with pytest.raises(ValueError, match="some topic has for every run .* Got 'B'"):
        ag.agree(table, ["A", "B"])
    with pytest.raises(
        TypeError, match="'table' parameter of agreement.agree must be a ScoreTable"
    ):
        ag.agree(v, ["A", "B"])


@pytest.mark.parametrize("others", [("1", "0"), ("yes", "no")])
@pytest.mark.parametrize("token", ["NaN", "nan", "-inf", "Infinity"])
def test_nan_labels_are_errors_naming_file_and_line(tmp_path, others, token):
    f = tmp_path / "labels.txt"
    f.write_text(f"i1 a {others[0]}\ni1 b {others[1]}\n# note\ni2 a {token}\ni2 b {others[0]}\n")
    message = f"{f}:4: the label {token!r} is not a finite number"
    with pytest.raises(ValueError, match="^" + message.replace("+", r"\+")):
        read_label_file(f)
    proc = subprocess.run(
        [sys.executable, "-m", "fairconv", "labels", str(f)], capture_output=True, text=True
    )
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    assert proc.stderr.count("\n") == 1 and message in proc.stderr, proc.stderr


def test_nan_labels_words_that_contain_nan_are_labels(tmp_path):
    f = tmp_path / "labels.txt"
    f.write_text("i1 a nana\ni1 b nan-ish\ni2 a info\ni2 b nana\n")
    assert read_label_file(f).labels.tolist() == [["nana", "nan-ish"], ["info", "nana"]]


def _run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out, err


def test_rbo_with_a_subnormal_persistence():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = ag.rbo(["a", "b", "c"], ["a", "c", "d"], p=1e-310)
    assert all(math.isfinite(v) for v in (r.min, r.res, r.ext))
    assert r.ext == pytest.approx(1.0) and r.min == pytest.approx(1.0)


def test_categories_order_numeric_labels_for_every_statistic(tmp_path, capsys):
    rng = np.random.default_rng(1)
    labels = rng.integers(1, 5, (30, 2))
    f = tmp_path / "l.tsv"
    f.write_text("".join(f"i{i}\tr{r}\t{labels[i, r]}\n" for i in range(30) for r in range(2)))
    order = [4.0, 1.0, 3.0, 2.0]
    out, _ = _run(capsys, "labels", "--level", "ordinal", "--weighting", "linear",
                  "--categories", "4,1,3,2", f)  # fmt: skip
    got = dict(line.split("\t") for line in out.splitlines()[1:])
    a, b = labels[:, 0].astype(float), labels[:, 1].astype(float)
    kappa = ag.cohen_kappa(a, b, weighting="linear", categories=order).statistic
    alpha = ag.krippendorff_alpha(labels.astype(float), level="ordinal", categories=order)
    assert float(got["cohen_kappa[linear]"]) == kappa
    assert float(got["krippendorff_alpha[ordinal]"]) == alpha.statistic
    by_value = ag.krippendorff_alpha(labels.astype(float), level="ordinal").statistic
    assert alpha.statistic != by_value  # the order given is the order used


class _Rows:
    def line(self, i):
        return i + 1


def test_repeated_labels_are_found_by_pairs_of_codes_of_any_size():
    from fairconv.agreement._labels import _refuse_repeated
    from fairconv.io import FileFormatError

    items, raters = range(2**40 + 1), range(2**24)  # codes that wrap when packed
    ii, rr = np.array([2**40, 0, 7]), np.array([5, 5, 5])
    assert _refuse_repeated("l.txt", _Rows(), items, raters, ii, rr) is None
    with pytest.raises(FileFormatError, match=r"l\.txt:3: a second label .* first is on line 1"):
        _refuse_repeated("l.txt", _Rows(), items, raters, np.array([2**40, 0, 2**40]), rr)
