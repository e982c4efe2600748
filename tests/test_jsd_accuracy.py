"""JSD to the accuracy of float64: against 50-digit arithmetic, at its limits, in bounds.

The reference adds p ln(2p/s) + q ln(2q/s) group by group in 50-digit decimal
arithmetic (every double converts to a Decimal exactly), so near p == q, where the two
logarithms cancel, it still has some 35 digits to spare.
"""

import math
from decimal import Decimal, localcontext

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from fairconv import _core, jsd

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
