"""Divergences: paper values, a loop oracle, scipy, properties and bad input.

JSD to the accuracy of float64: against 50-digit decimal arithmetic (every double
converts to a Decimal exactly), at its limits, in its bounds."""

import csv
import math
from decimal import Decimal, localcontext
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.spatial.distance import jensenshannon

import oracles
from fairconv import AttributeSet, _core, distr_sim, jsd, nmd, rnod
from fairconv.divergences import resolve_divergence

FUNCS = {"JSD": jsd, "NMD": nmd, "RNOD": rnod}
REFERENCE = Path(__file__).parent / "reference" / "divergences.csv"


def _vector(text):
    return np.array([float(Fraction(x)) for x in text.split()])


def _rows():
    with open(REFERENCE, newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("row", _rows(), ids=lambda r: f"{r['paper']}|{r['table']}")
def test_reference_values(row):
    """Worked values of the slides (004) and the seed tables (000, 001), printed digits."""
    p, q = _vector(row["p"]), _vector(row["q"])
    name = row["divergence"]
    if name.startswith("SIM-"):
        got = float(distr_sim(p, q, divergence=name[4:]))
    else:
        got = float(FUNCS[name](p, q))
    assert round(got, int(row["digits"])) == pytest.approx(float(row["expected"]), abs=1e-12)


def test_half_half_cell_of_000_table4_within_one_unit():
    """Erratum: 000 Table 4 (b) prints 0.809126 for (1/2,1/2,0); the exact value is
    0.80912550, which rounds to 0.809125. fairconv keeps the exact value, so this cell
    is checked within one unit of the sixth digit and exactly to seven digits.
    """
    got = float(distr_sim([0.5, 0.5, 0], np.full(3, 1 / 3), divergence="JSD"))
    assert abs(got - 0.809126) <= 1e-6
    assert round(got, 6) == 0.809125
    assert round(got, 7) == 0.8091255
    # what the docstring says about a six-digit target
    six = float(distr_sim([0.5, 0.5, 0], [0.333333] * 3, divergence="JSD"))
    assert round(six, 7) == 0.8091256 and round(six, 6) == 0.809126


def _random_pairs(rng, n, g, zeros=True):
    p = rng.dirichlet(np.ones(g), size=n)
    q = rng.dirichlet(np.ones(g), size=n)
    if zeros:  # knock out entries to exercise 0 log 0 and partial target support
        for x in (p, q):
            mask = rng.random(x.shape) < 0.3
            mask[np.arange(n), rng.integers(0, g, n)] = False
            x[mask] = 0
            x /= x.sum(axis=1, keepdims=True)
    return p, q


@pytest.mark.parametrize("g", range(2, 11))
@pytest.mark.parametrize("name", ["JSD", "NMD", "RNOD"])
def test_agrees_with_loop_oracle(name, g):
    rng = np.random.default_rng(g)
    p, q = _random_pairs(rng, 400, g)
    got = FUNCS[name](p, q)
    want = np.array([oracles.DIVERGENCES[name](a, b) for a, b in zip(p, q, strict=False)])
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


@pytest.mark.parametrize("g", [2, 3, 5, 8, 10])
def test_jsd_equals_scipy_jensenshannon_squared(g):
    rng = np.random.default_rng(100 + g)
    p, q = _random_pairs(rng, 500, g)
    want = jensenshannon(p, q, base=2, axis=1) ** 2
    np.testing.assert_allclose(jsd(p, q), want, rtol=0, atol=1e-12)


def test_single_target_broadcasts_over_batch_axes():
    rng = np.random.default_rng(7)
    p = rng.dirichlet(np.ones(4), size=(3, 5))
    q = np.array([0.4, 0.3, 0.3, 0.0])
    for name, f in FUNCS.items():
        got = f(p, q)
        assert got.shape == (3, 5)
        want = [[oracles.DIVERGENCES[name](p[i, j], q) for j in range(5)] for i in range(3)]
        np.testing.assert_allclose(got, want, atol=1e-12)


# --------------------------------------------------------------------------- properties
@st.composite
def distributions(draw, g=None, full_support=False):
    g = g or draw(st.integers(2, 10))
    low = 1e-3 if full_support else 0.0
    raw = draw(arrays(np.float64, g, elements=st.floats(low, 1.0)))
    assume(raw.sum() > 1e-6)
    return raw / raw.sum()


@st.composite
def pairs(draw, full_support=False):
    g = draw(st.integers(2, 10))
    return draw(distributions(g)), draw(distributions(g, full_support=full_support))


@given(pairs())
def test_nmd_in_unit_interval(pq):
    """JSD's bounds are checked against Pinsker's and Lin's with JSD's accuracy below
    (its clip to [0, 1] makes a bare range check of JSD one that cannot fail)."""
    p, q = pq
    assert 0.0 <= float(nmd(p, q)) <= 1.0 + 1e-12


@given(pairs(full_support=True))
def test_rnod_in_unit_interval_for_full_support_target(pq):
    p, q = pq
    assert 0.0 <= float(rnod(p, q)) <= 1.0 + 1e-12


def test_rnod_can_exceed_one_when_target_has_zeros():
    """Documented behaviour (measures.md section 1): DistrSim can then be negative."""
    p, q = [0, 1, 0, 0, 0], [0.98, 0, 0, 0.01, 0.01]
    assert float(rnod(p, q)) > 1
    assert float(distr_sim(p, q, divergence="RNOD")) < 0


@given(pairs())
def test_zero_iff_equal(pq):
    p, q = pq
    for f in FUNCS.values():
        assert float(f(p, p)) == pytest.approx(0.0, abs=1e-12)
    if np.abs(p - q).max() > 1e-9:
        assert float(jsd(p, q)) > 0
        assert float(rnod(p, q)) > 0
        # the first index where p and q differ is a cumulative-sum difference too
        assert float(nmd(p, q)) > 0


@given(pairs())
def test_jsd_and_nmd_symmetric(pq):
    p, q = pq
    assert float(jsd(p, q)) == pytest.approx(float(jsd(q, p)), abs=1e-12)
    assert float(nmd(p, q)) == pytest.approx(float(nmd(q, p)), abs=1e-12)


@given(pairs(), st.randoms(use_true_random=False))
def test_jsd_invariant_to_permuting_groups(pq, rnd):
    p, q = pq
    perm = list(range(len(p)))
    rnd.shuffle(perm)
    assert float(jsd(p[perm], q[perm])) == pytest.approx(float(jsd(p, q)), abs=1e-12)


@given(st.data())
def test_batched_call_equals_loop_over_rows(data):
    g = data.draw(st.integers(2, 8))
    rows = data.draw(
        st.lists(st.tuples(distributions(g), distributions(g)), min_size=1, max_size=6)
    )
    p = np.array([r[0] for r in rows])
    q = np.array([r[1] for r in rows])
    for f in FUNCS.values():
        batch = f(p, q)
        loop = [float(f(p[i], q[i])) for i in range(len(rows))]
        assert batch.tolist() == loop  # the same bits: sums over groups in group order


@pytest.mark.parametrize("g", [2, 5, 64, 65, 300])
def test_a_row_gets_the_same_bits_in_any_batch(g):
    """Row by row, in blocks of rows and across the block size, with a shared target."""
    rng = np.random.default_rng(g)
    n = 10_000 if g <= 64 else 300  # past one block of rows of the small-G route
    p = rng.dirichlet(np.full(g, 0.5), n)
    q = rng.dirichlet(np.full(g, 0.5), n)
    q[:, rng.integers(g)] = 0.0  # a group no one targets (RNOD's support)
    q /= q.sum(axis=1, keepdims=True)
    sample = rng.choice(n, 40, replace=False)
    for f in FUNCS.values():
        whole = f(p, q)
        assert f(p[::-1], q[::-1])[::-1].tolist() == whole.tolist()
        assert f(p.reshape(2, -1, g), q.reshape(2, -1, g)).ravel().tolist() == whole.tolist()
        assert [float(f(p[i], q[i])) for i in sample] == whole[sample].tolist()
        shared = f(p, q[0])
        assert [float(f(p[i], q[0])) for i in sample] == shared[sample].tolist()


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "bad, message",
    [
        ([0.5, -0.1, 0.6], "non-negative"),
        ([0.5, np.nan, 0.5], "finite"),
        ([np.inf, 0.0, 0.0], "finite"),
        ([0.5, 0.3, 0.1], "sum to 1"),
        ([1.0], "at least 2 groups"),
        (0.5, "scalar"),
    ],
)
@pytest.mark.parametrize("f", [jsd, nmd, rnod])
def test_bad_distributions_raise_value_error(f, bad, message):
    with pytest.raises(ValueError, match=message):
        f(bad, [1 / 3, 1 / 3, 1 / 3] if np.ndim(bad) and len(bad) == 3 else [0.5, 0.5])
    with pytest.raises(ValueError, match=message):
        f([1 / 3, 1 / 3, 1 / 3] if np.ndim(bad) and len(bad) == 3 else [0.5, 0.5], bad)


def test_six_digit_target_accepted_as_given():
    """R-GENDER.golddistr is 0.333333 x 3 (sum 0.999999): accepted, not renormalised."""
    assert float(jsd([1, 0, 0], [0.333333] * 3)) > 0
    a = AttributeSet("R-GENDER", [0.333333] * 3, "nominal")
    np.testing.assert_array_equal(a.target, [0.333333] * 3)


def test_nmd_counts_the_last_cumulative_sum_of_a_six_digit_target():
    """measures.md section 1: NMD sums |P_i - Q_i| over every i, the G-th included.

    For a target accepted as summing to 1 within 1e-5 the G-th term is not 0:
    P = (0, 0, 1) and Q = (0.333333, 0.666666, 0.999999) give (0.333333 + 0.666666 +
    0.000001) / 2 = 0.5.
    """
    assert float(nmd([0, 0, 1], [0.333333] * 3)) == pytest.approx(0.5, abs=1e-15)


@given(pairs(), st.integers(1, 6))
def test_nmd_of_a_rounded_target_agrees_with_the_loop(pq, digits):
    """Targets written to a few digits, as golddistr files are, against the plain loop."""
    p, q = pq
    q = np.round(q, digits)
    assume(abs(q.sum() - 1.0) <= 1e-5)
    assert float(nmd(p, q)) == pytest.approx(oracles.nmd(p, q), abs=1e-14)


def test_group_counts_must_match():
    with pytest.raises(ValueError, match="same number of groups.*\\(3,\\).*\\(4,\\)"):
        jsd([1, 0, 0], [0.25] * 4)


def test_non_numeric_input_is_type_error():
    with pytest.raises(TypeError, match="array of numbers"):
        jsd(["a", "b"], [0.5, 0.5])
    with pytest.raises(TypeError, match="array of numbers"):
        nmd([None, 1.0], [0.5, 0.5])


def test_error_names_the_offending_row():
    p = np.array([[0.5, 0.5], [0.6, 0.6]])
    with pytest.raises(ValueError, match=r"sum 1\.2 at index \(1,\)"):
        rnod(p, [0.5, 0.5])


def test_distr_sim_needs_divergence_or_scale():
    with pytest.raises(TypeError, match="divergence"):
        distr_sim([1, 0], [0.5, 0.5])
    with pytest.raises(ValueError, match="'divergence' parameter"):
        distr_sim([1, 0], [0.5, 0.5], divergence="KL")
    assert resolve_divergence(scale="ordinal") == "RNOD"
    assert resolve_divergence(scale="nominal") == "JSD"
    assert resolve_divergence("nmd", "ordinal") == "NMD"


def test_attribute_set_record():
    a = AttributeSet("HINDEX", [0.25] * 4, "ordinal")
    assert a.divergence == "RNOD" and a.n_groups == 4
    assert float(a.similarity([0, 0, 0, 1])) == pytest.approx(0.404881, abs=5e-7)
    assert AttributeSet("HINDEX", [0.25] * 4, "ordinal", "NMD").divergence == "NMD"
    with pytest.raises(ValueError, match="'scale' parameter of divergences.AttributeSet"):
        AttributeSet("X", [0.5, 0.5], "interval")
    with pytest.raises(ValueError, match="sum to 1"):
        AttributeSet("X", [0.5, 0.6], "nominal")
    with pytest.raises(ValueError, match="one vector"):
        AttributeSet("X", [[0.5, 0.5]], "nominal")


@pytest.mark.parametrize("name", ["JSD", "jsd", "Nmd", "rnod"])
def test_divergence_names_are_case_insensitive_everywhere(name):
    p, q = [0.1, 0.7, 0.1, 0.1], [0.7, 0.1, 0.1, 0.1]
    want = float(1 - FUNCS[name.upper()](p, q))
    assert float(distr_sim(p, q, divergence=name)) == want
    a = AttributeSet("X", q, "ORDINAL", name)
    assert a.divergence == name.upper() and a.scale == "ordinal"
    assert float(a.similarity(p)) == want
    assert float(AttributeSet("X", q, "nominal").similarity(p, divergence=name)) == want


@pytest.mark.parametrize("bad", ["", "M ORIGIN", "M-ORIGIN\t", "a\nb", "GF[X]", "x\x00"])
def test_attribute_set_names_that_would_break_output_are_refused(bad):
    with pytest.raises(ValueError, match="'name' parameter of divergences.AttributeSet"):
        AttributeSet(bad, [0.5, 0.5], "nominal")


def test_attribute_set_name_must_be_a_string():
    with pytest.raises(
        TypeError, match="'name' parameter of divergences.AttributeSet must be a str. Got an int"
    ):
        AttributeSet(3, [0.5, 0.5], "nominal")


@pytest.mark.parametrize(
    "bad, message",
    [
        ([1e308, 1e308], r"in \[0, 1\]. Got 1e\+308"),
        ([1.7e308, -1.7e308], "non-negative"),
        ([-1e308, -1e308], "non-negative"),
        ([1.5, -0.5], "non-negative"),
        ([2.0, 0.0], r"in \[0, 1\]. Got 2"),
    ],
)
@pytest.mark.parametrize("f", [jsd, nmd, rnod])
def test_huge_entries_are_refused_before_arithmetic(f, bad, message):
    """Warnings are errors in this suite: an overflow RuntimeWarning would fail too."""
    with pytest.raises(
        ValueError, match=f"'p' parameter of {f.__fairconv_public__} must {'.*'}{message}"
    ):
        f(bad, [0.5, 0.5])
    with pytest.raises(ValueError, match=f"'q' parameter of {f.__fairconv_public__}"):
        f([0.5, 0.5], bad)
    with pytest.raises(ValueError, match="'target' parameter of divergences.AttributeSet"):
        AttributeSet("X", bad, "nominal")


@pytest.mark.parametrize("g", [64, 65, 150])
def test_many_groups_use_prefix_sums_and_agree_with_loops(g):
    """Beyond 64 groups NMD and RNOD avoid the G x G matrix: O(G) memory per row."""
    rng = np.random.default_rng(g)
    p = rng.dirichlet(np.ones(g), size=3)
    q = rng.dirichlet(np.ones(g))
    q[rng.random(g) < 0.4] = 0.0
    q /= q.sum()
    for row in p:
        assert float(nmd(row, q)) == pytest.approx(oracles.nmd(row.tolist(), q.tolist()), abs=1e-12)
        assert float(rnod(row, q)) == pytest.approx(
            oracles.rnod(row.tolist(), q.tolist()), abs=1e-12
        )


GOAL = 1e-15
"""Relative error allowed against the 50-digit value."""


def exact_jsd(p, q):
    """sum_j [p_j ln(2 p_j / s_j) + q_j ln(2 q_j / s_j)] / (2 ln 2), s = p + q, 0 ln 0 = 0."""
    with localcontext() as ctx:
        ctx.prec = 50
        total = Decimal(0)
        for a, b in zip(np.asarray(p).tolist(), np.asarray(q).tolist(), strict=True):
            a, b = Decimal(a), Decimal(b)
            for x in (a, b):
                if x:
                    total += x * (2 * x / (a + b)).ln()
        return total / (2 * Decimal(2).ln())


def relative_error(got, want):
    if want == 0:
        return 0.0 if got == 0 else math.inf
    with localcontext() as ctx:
        ctx.prec = 50
        return float(abs(Decimal(float(got)) - want) / want)


def near_pair(rng, delta, g):
    """q with zero and tiny entries, and p = (1 - a) q + a w with max |p - q| = delta."""
    q = rng.dirichlet(np.full(g, rng.choice([0.1, 0.5, 1.0, 5.0])))
    kind = rng.random(g)
    q[kind < 0.15] = 0.0
    tiny = (kind >= 0.15) & (kind < 0.3)
    q[tiny] = 10.0 ** rng.uniform(-300, -8, g)[tiny]
    if q.sum() == 0:
        q[rng.integers(g)] = 1.0
    q /= q.sum()
    while True:
        w = rng.dirichlet(np.full(g, rng.choice([0.1, 0.5, 1.0])))
        w[rng.random(g) < 0.2] = 0.0
        if w.sum() > 0 and np.abs(w / w.sum() - q).max() >= delta:
            w /= w.sum()
            break
    a = delta / np.abs(w - q).max()
    return (1 - a) * q + a * w, q


# --------------------------------------------------------------------------- bounds
@st.composite
def pairs_near_and_far(draw):
    """A pair of distributions, q moved toward p by a factor from 1 down to 1e-15."""
    g = draw(st.integers(2, 10))
    raw = [draw(arrays(np.float64, g, elements=st.floats(0.0, 1.0))) for _ in range(2)]
    for x in raw:
        if x.sum() <= 1e-6:
            x[0] = 1.0
    p, w = (x / x.sum() for x in raw)
    a = 10.0 ** -draw(st.integers(0, 15))
    return p, (1 - a) * p + a * w


# --------------------------------------------------------------------------- accuracy
@pytest.mark.parametrize("delta", [10.0**-k for k in range(2, 13)], ids=lambda d: f"{d:.0e}")
def test_relative_error_against_50_digits_on_random_distributions(delta):
    """Near-equal pairs over 2 to 64 groups and a few more (65, 128, 300), with entries
    that are 0 or tiny (down to 1e-300): within 1e-15 of the exact value."""
    rng = np.random.default_rng(round(-math.log10(delta)))
    sizes = [*rng.integers(2, 65, size=40), 65, 128, 300]
    worst = 0.0
    for g in sizes:
        p, q = near_pair(rng, delta, int(g))
        if np.abs(p - q).max() == 0:  # the mixture rounded back to q
            continue
        worst = max(worst, relative_error(jsd(p, q), exact_jsd(p, q)))
    assert worst <= GOAL


@pytest.mark.parametrize(
    "low, high", [(0, 1 / 32), (1 / 32, 1 / 8), (1 / 8, 1 / 2), (1 / 2, 1)], ids=str
)
def test_relative_error_where_one_group_carries_the_divergence(low, high):
    """p = (m(1+d), 1 - m(1+d)), q = (m(1-d), 1 - m(1-d)) with small m: the first group's
    term is the value, so its error is not averaged away; d sweeps the series' range,
    the log1p form's and the point where the two meet."""
    rng = np.random.default_rng(int(high * 64))
    d = rng.uniform(low, high, 200)
    m = 10.0 ** rng.uniform(-8, -1, 200) / 2
    p = np.stack([m * (1 + d), 1 - m * (1 + d)], axis=1)
    q = np.stack([m * (1 - d), 1 - m * (1 - d)], axis=1)
    got = jsd(p, q)
    assert (
        max(relative_error(v, exact_jsd(a, b)) for v, a, b in zip(got, p, q, strict=True)) <= GOAL
    )


def test_relative_error_when_one_entry_is_below_an_ulp_of_the_other():
    """q_0 = r p_0 with r from 2^-75 to 2^-40: d = (p-q)/(p+q) rounds to 1 for the
    smallest r, yet the q_0 ln(2 q_0 / s) term still counts."""
    rng = np.random.default_rng(5)
    r = 2.0 ** rng.uniform(-75, -40, 300)
    a = rng.uniform(0.1, 0.9, 300)
    p = np.stack([a, 1 - a], axis=1)
    q = np.stack([a * r, 1 - a * r], axis=1)
    got = jsd(p, q)
    assert (
        max(relative_error(v, exact_jsd(x, y)) for v, x, y in zip(got, p, q, strict=True)) <= GOAL
    )


# --------------------------------------------------------------------------- zero and one
def test_zero_exactly_where_p_equals_q():
    rng = np.random.default_rng(11)
    p = rng.dirichlet(np.full(6, 0.3), 50)
    p[rng.random(p.shape) < 0.3] = 0.0  # groups where both are 0 add nothing
    p[:, 0] += 1e-3
    p /= p.sum(axis=1, keepdims=True)
    assert jsd(p, p).tolist() == [0.0] * 50
    assert float(_core.jsd(np.zeros(4), np.zeros(4))) == 0.0


@pytest.mark.parametrize("ulps", [1, 2, 1000])
def test_distributions_an_ulp_apart_have_a_positive_exact_value(ulps):
    """Mass moved by a few units in the last place between two groups: positive and
    within 1e-15, where H(m) - (H(p) + H(q)) / 2 gives 0 below differences of ~3e-8."""
    rng = np.random.default_rng(ulps)
    for g in (2, 3, 8, 64):
        q = rng.dirichlet(np.ones(g))
        p = q.copy()
        i, j = rng.choice(g, 2, replace=False)
        step = ulps * np.spacing(min(q[i], q[j]))
        p[i] += step
        p[j] -= step
        got = float(jsd(p, q))
        assert got > 0
        assert relative_error(got, exact_jsd(p, q)) <= GOAL


@pytest.mark.parametrize("g", [2, 3, 8, 64, 65, 300])
def test_disjoint_one_hot_vectors_give_exactly_one(g):
    eye = np.eye(g)
    assert jsd(eye, np.roll(eye, 1, axis=0)).tolist() == [1.0] * g


def test_disjoint_supports_give_the_exact_value():
    """Every group adds p_j / 2 or q_j / 2: the value is (sum p + sum q) / 2 <= 1."""
    rng = np.random.default_rng(3)
    for g in (2, 5, 17, 64, 100):
        side = rng.random(g) < 0.5
        side[0], side[1] = True, False
        p = np.where(side, rng.random(g), 0.0)
        q = np.where(side, 0.0, rng.random(g))
        p /= p.sum()
        q /= q.sum()
        want = min(exact_jsd(p, q), Decimal(1))
        assert relative_error(jsd(p, q), want) <= GOAL


@given(pairs_near_and_far())
def test_jsd_lies_between_pinsker_and_total_variation_bounds(pq):
    """V^2 / (8 ln 2) <= JSD <= V / 2 with V = sum |p - q| (Pinsker's inequality for
    each KL(. || m), and Lin 1991, theorem 4): 0 <= JSD <= 1 follows, and a JSD of 0
    for p != q fails the lower bound. Below the normal range (2.2e-308) a value has no
    relative accuracy left: there the bounds hold to that absolute amount."""
    p, q = pq
    got = Decimal(float(jsd(p, q)))
    with localcontext() as ctx:
        ctx.prec = 50
        v = sum(abs(Decimal(a) - Decimal(b)) for a, b in zip(p.tolist(), q.tolist(), strict=True))
        low, high = v * v / (8 * Decimal(2).ln()), v / 2
        slack = Decimal(np.finfo(np.float64).tiny)
        assert low * (1 - Decimal(GOAL)) - slack <= got <= high * (1 + Decimal(GOAL)) + slack


# --------------------------------------------------------------------------- same bits
def test_a_row_gets_the_same_bits_whichever_form_its_neighbours_take():
    """Blocks mostly of small |d| (series) and mostly of large |d| (log1p form), and
    across the block size: each row's value is the same bits in every batch, with a
    shared target or the target repeated, and with p and q swapped."""
    rng = np.random.default_rng(2)
    g, n = 4, 9000
    target = rng.dirichlet(np.ones(g))
    near = (1 - 1e-3) * target + 1e-3 * rng.dirichlet(np.ones(g), n)
    far = rng.dirichlet(np.full(g, 0.3), n)
    alone = [float(jsd(row, target)) for row in near[:: n // 30]]
    mixed = np.empty((4 * n, g))
    mixed[0::4], mixed[1::4], mixed[2::4], mixed[3::4] = near, far, far[::-1], far
    values = jsd(mixed, target)
    assert jsd(near, target).tolist() == values[0::4].tolist()
    assert jsd(far, target).tolist() == values[1::4].tolist()
    assert values[0::4][:: n // 30].tolist() == alone
    assert jsd(mixed, np.tile(target, (4 * n, 1))).tolist() == values.tolist()
    assert jsd(target, mixed).tolist() == values.tolist()
