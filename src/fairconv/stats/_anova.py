"""Tests of many systems over topics: two-way ANOVA, Tukey HSD, randomised Tukey HSD.

The two-way ANOVA is without replication (systems x topics). The Tukey HSD tests need
the studentized range distribution: scipy's, and its far tail integrated here, where
scipy's sf has lost its digits.
"""

from __future__ import annotations

import math
import warnings
from functools import lru_cache

import numpy as np

from .. import _core
from .._validation import caller, check_int, fail_params, public
from ._common import (
    _alpha,
    _chunk,
    _grid,
    _limit,
    _matrix,
    _p_values,
    _rng,
    _round_off,
    _run_names,
    _scipy_stats,
    _unscaled,
)
from ._results import Anova2Result, RandomisedTukeyHSDResult, TukeyHSDResult


def _exact_ranges(trial_scores: np.ndarray, permuted: np.ndarray, grid) -> np.ndarray:
    """R* of each trial (trials, n, m) from exact sums of the scores' ``hi`` parts.

    The system with the largest and the smallest float sum are taken; their difference
    is (hi_a - hi_b) + (lo_a - lo_b), the first term exact.
    """
    hi = np.round(trial_scores / grid) * grid
    big, small = hi.sum(axis=1), (trial_scores - hi).sum(axis=1)
    at = np.arange(len(permuted))
    a, b = permuted.argmax(axis=1), permuted.argmin(axis=1)
    return (big[at, a] - big[at, b]) + (small[at, a] - small[at, b])


def _anova(x: np.ndarray):
    n, m = x.shape
    grand = x.mean()
    col = x.mean(axis=0)
    row = x.mean(axis=1)
    ss_a = n * float(((col - grand) ** 2).sum())
    ss_b = m * float(((row - grand) ** 2).sum())
    resid = x - col[None, :] - row[:, None] + grand
    ss_e = float((resid**2).sum())  # S_T - S_A - S_B, without cancellation
    # residuals that are 0 on paper come out of float means as ~1e-17: V_E is then 0
    if not np.abs(resid).max() > _round_off(n + m, np.abs(x).max()):
        ss_e = 0.0
    return ss_a, ss_b, ss_e, col


def _undefined_residual(test: str = "the test") -> ValueError:
    return ValueError(
        f"{caller()}: the residual variance V_E is 0 (every system differs from every other "
        f"by the same amount on all topics, within rounding): {test} is undefined"
    )


@public
def anova2(scores, /, *, alpha: float = 0.05, runs=None) -> Anova2Result:
    r"""Two-way ANOVA without replication: systems (A) by topics (B).

    Parameters
    ----------
    scores : array_like, shape (topics, runs)
        One score per topic (row) and run (column), finite.
    alpha : float
        For the per-run 100(1 - alpha)% intervals (conditional on these topics).
    runs : sequence of str, optional
        Names of the columns (default ``"0"``, ``"1"``, ...).

    Returns
    -------
    Anova2Result
        Sums of squares, degrees of freedom, mean squares, F and p of systems and
        topics, and each system's mean with its CI
        ``mean +- t(1 - alpha/2; phi_E) sqrt(V_E / n)``.

    Raises
    ------
    ValueError
        For fewer than 2 topics or systems, non-finite scores, a zero residual
        variance (F undefined), or sums of squares or CIs beyond the float range
        (scores above about 1e154).

    See Also
    --------
    tukey_hsd : the pairs of runs, from the same residual variance.

    Notes
    -----
    .. math::
        S_A = n \sum_j (\bar x_{\cdot j} - \bar x)^2,\quad
        S_B = m \sum_i (\bar x_{i\cdot} - \bar x)^2,\quad
        S_E = \sum_{ij} (x_{ij} - \bar x_{\cdot j} - \bar x_{i\cdot} + \bar x)^2

    References
    ----------
    T. Sakai, *Information access evaluation methodology* (2015), Chapter 5 (Table 5.1
    example: S_A = 0.1083, S_B = 1.0293, S_E = 0.8317).

    Examples
    --------
    >>> a = anova2([[0.7, 0.5, 0.3], [0.3, 0.1, 0.1], [0.6, 0.6, 0.4], [0.5, 0.3, 0.4]])
    >>> a.df_systems, a.df_residual, round(a.f_systems, 3), round(a.p_systems, 3)
    (2, 6, 6.517, 0.031)
    """
    x = _matrix(scores)
    alpha = _alpha(alpha)
    names = _run_names(runs, x.shape[1], "runs")
    result = _anova2(x, alpha, ("scores",), runs=names)
    if result is None:  # pragma: no cover - only with undefined_ok
        raise _undefined_residual()
    return result


def _anova2(
    x: np.ndarray,
    alpha: float,
    params: tuple[str, ...],
    undefined_ok: bool = False,
    runs: tuple[str, ...] = (),
) -> Anova2Result | None:
    """The ANOVA of checked scores (None for V_E = 0 when ``undefined_ok``)."""
    x, e = _core.scaled(x)
    n, m = x.shape
    ss_a, ss_b, ss_e, col = _anova(x)
    df_a, df_b, df_e = m - 1, n - 1, (m - 1) * (n - 1)
    ms_a, ms_b, ms_e = ss_a / df_a, ss_b / df_b, ss_e / df_e
    if not ms_e > 0:
        if undefined_ok:
            return None
        raise _undefined_residual()
    f_a, f_b = ms_a / ms_e, ms_b / ms_e
    margin = float(_scipy_stats().t.isf(alpha / 2, df_e)) * math.sqrt(ms_e / n)
    s_a, s_b, s_e, v_a, v_b, v_e = _unscaled(
        np.array([ss_a, ss_b, ss_e, ms_a, ms_b, ms_e]),
        2 * e,
        "every sum of squares of the two-way ANOVA",
        params,
    ).tolist()
    low, mean, high = _unscaled(
        np.stack([col - margin, col, col + margin]), e, "the CI of every system mean", params
    )
    return Anova2Result(
        s_a, s_b, s_e, df_a, df_b, df_e, v_a, v_b, v_e, f_a, f_b,
        float(_scipy_stats().f.sf(f_a, df_a, df_e)), float(_scipy_stats().f.sf(f_b, df_b, df_e)),
        mean, low, high, alpha, runs,
    )  # fmt: skip


@public
def tukey_hsd(scores, /, *, alpha: float = 0.05, runs=None) -> TukeyHSDResult:
    r"""Tukey HSD for systems that ran on the same topics (two-way, as IR uses it).

    Parameters
    ----------
    scores : array_like, shape (topics, runs)
        One score per topic (row) and run (column), finite.
    alpha : float
        For the simultaneous 100(1 - alpha)% confidence intervals.
    runs : sequence of str, optional
        Names of the columns (default ``"0"``, ``"1"``, ...).

    Returns
    -------
    TukeyHSDResult
        (m, m) matrices, entry [j, k] for system j minus system k: ``difference``,
        ``statistic`` q, ``pvalue`` (1 on the diagonal), ``effect_size`` ES_E and the
        simultaneous ``ci_low`` and ``ci_high``.

    Raises
    ------
    ValueError
        As :func:`anova2`.

    See Also
    --------
    randomised_tukey_hsd : the same pairs by randomisation.
    anova2 : the two-way ANOVA.

    Notes
    -----
    .. math::
        q_{jk} = \frac{|\bar x_{\cdot j} - \bar x_{\cdot k}|}{\sqrt{V_E / n}},\qquad
        ES_E = \frac{\bar x_{\cdot j} - \bar x_{\cdot k}}{\sqrt{V_E}}

    with p from the studentized range distribution with m groups and
    (m - 1)(n - 1) degrees of freedom: for m = 2 exactly 2 t.sf(q / sqrt 2) (the
    ANOVA's p), else scipy's ``studentized_range.sf``, and below 1e-5, where its
    1 - cdf loses its digits, the tail integrated directly. Unlike the one-way Tukey
    HSD of scipy and statsmodels, the residual variance V_E removes the topic effect.

    References
    ----------
    T. Sakai, *Information access evaluation methodology* (2015), Chapter 5 (book
    example: ES_E 0.507 / 0.676 / 0.169; p = 0.257 for X vs Y).

    Examples
    --------
    >>> h = tukey_hsd([[0.7, 0.5, 0.3], [0.3, 0.1, 0.1], [0.6, 0.6, 0.4], [0.5, 0.3, 0.4]])
    >>> h.pvalue.round(3).tolist()[0], round(float(h.effect_size[0, 2]), 3)
    ([1.0, 0.121, 0.028], 2.507)
    """
    x = _matrix(scores)
    alpha = _alpha(alpha)
    names = _run_names(runs, x.shape[1], "runs")
    return _tukey(x, alpha, ("scores",), names)


def _tukey(
    x: np.ndarray, alpha: float, params: tuple[str, ...], runs: tuple[str, ...] = ()
) -> TukeyHSDResult:
    """The two-way Tukey HSD of checked scores."""
    x, e = _core.scaled(x)
    n, m = x.shape
    _, _, ss_e, col = _anova(x)
    df_e = (m - 1) * (n - 1)
    ms_e = ss_e / df_e
    if not ms_e > 0:
        raise _undefined_residual("the Tukey HSD" if caller().endswith("compare") else "the test")
    diff = col[:, None] - col[None, :]
    se = math.sqrt(ms_e / n)
    q = np.abs(diff) / se
    j, k = np.triu_indices(m, 1)
    # one quadrature per distinct q of the pairs: scipy integrates each value separately
    distinct, where = np.unique(q[j, k], return_inverse=True)
    p = np.ones((m, m))
    p[j, k] = p[k, j] = _range_sf(distinct, m, df_e)[where.ravel()]
    margin = _q_critical(alpha, m, df_e) * se
    low, mid, high = _unscaled(
        np.stack([diff - margin, diff, diff + margin]), e, "the CI of every difference",
        params,
    )  # fmt: skip
    return TukeyHSDResult(
        mid, q, np.clip(p, 0.0, 1.0), diff / math.sqrt(ms_e), low, high, alpha, runs
    )


_NEAR_ONE = 1e-8
"""Below this cdf, scipy's quadrature may warn although the p it returns is 1 - cdf."""


def _quiet(call, *args):
    """Return ``call(*args)`` and whether scipy's quadrature warned on the way."""
    from scipy.integrate import IntegrationWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", IntegrationWarning)
        value = call(*args)
    others = [w for w in caught if not issubclass(w.category, IntegrationWarning)]
    for w in others:  # not ours to judge: pass them on
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return value, len(others) < len(caught)


def _range_sf(q: np.ndarray, m: int, df: int) -> np.ndarray:
    """``P(Q > q)`` for the studentized range Q of m means with df degrees of freedom.

    For m = 2, Q is sqrt(2) |T| with T Student's t: p = 2 t.sf(q / sqrt 2, df)
    exactly (and the p of the ANOVA's F = T^2). Otherwise scipy's
    ``studentized_range.sf``, without a warning: its quadrature warns ("probably
    divergent") for q where the cdf is below about 1e-10, and returns p = 1 - cdf
    there all the same; those p are kept when within 1e-8 of 1, the other values are
    computed again and must not warn. scipy's sf is 1 - cdf with the cdf integrated
    to 1e-11, so that a p below ``_TAIL`` has lost its digits (0 at low df where p is
    1e-8): those p are integrated directly (:func:`_range_tail`).
    """
    stats = _scipy_stats()
    if m == 2:
        return np.asarray(2 * stats.t.sf(q / math.sqrt(2), df), dtype=np.float64)
    # the union bound over the m(m - 1)/2 pairs: where it is below _TAIL, so is p
    tail = m * (m - 1) * stats.t.sf(q / math.sqrt(2), df) < _TAIL
    p = np.ones(len(q))
    for start in range(0, len(q), _SF_BLOCK):  # blocks, so that a warning costs one block
        block = q[start : start + _SF_BLOCK][~tail[start : start + _SF_BLOCK]]
        if not len(block):
            continue
        value, warned = _quiet(stats.studentized_range.sf, block, m, df)
        if warned:
            rest = value <= 1 - _NEAR_ONE
            again, warned = _quiet(stats.studentized_range.sf, block[rest], m, df)
            if warned:
                raise ValueError(
                    f"{caller()}: scipy's studentized range distribution (m = {m}, df = {df}) "
                    "did not converge for these data; use test='randomised-tukey'"
                )
            value[rest] = again
        p[start : start + _SF_BLOCK][~tail[start : start + _SF_BLOCK]] = value
    tail |= p < _TAIL
    if tail.any():
        p[tail] = _range_tail(q[tail], m, df)
    return p


_SF_BLOCK = 128

_TAIL = 1e-5
"""Below this p the studentized range's tail is integrated directly (see _range_sf)."""


@lru_cache(maxsize=256)
def _q_critical(alpha: float, m: int, df: int) -> float:
    """q(1 - alpha; m, df) of the studentized range (slow to compute: cached)."""
    stats = _scipy_stats()
    if m == 2:
        return math.sqrt(2) * float(stats.t.isf(alpha / 2, df))
    if alpha < _TAIL:  # where scipy's 1 - cdf has lost its digits: solve on the tail
        from scipy.optimize import brentq

        # P(Q_2 > q) <= P(Q_m > q) <= m(m - 1)/2 P(Q_2 > q) bracket the root
        low = math.sqrt(2) * float(stats.t.isf(alpha / 2, df))
        high = math.sqrt(2) * float(stats.t.isf(alpha / (m * (m - 1)), df))
        with np.errstate(divide="ignore"):
            try:
                return float(
                    brentq(
                        lambda q: np.log(_range_tail(np.array([q]), m, df)[0]) - math.log(alpha),
                        low,
                        high,
                        rtol=1e-12,
                    )
                )
            except ValueError:  # the tail's integral lost the bracket (older scipy)
                raise fail_params(
                    "alpha",
                    "be large enough for the studentized range's critical value "
                    f"(m = {m}, df = {df}) to be computed",
                    f"{alpha:g}",
                    hint="choose a larger alpha or test='randomised-tukey'",
                ) from None
    q, warned = _quiet(lambda: float(stats.studentized_range.ppf(1 - alpha, m, df)))
    if warned and not abs(_range_sf(np.array([q]), m, df)[0] - alpha) <= 1e-9:
        raise ValueError(
            f"{caller()}: scipy's studentized range distribution (m = {m}, df = {df}) did not "
            f"converge for q(1 - {alpha:g}); choose another alpha or test='randomised-tukey'"
        )
    return q


def _range_tail(q: np.ndarray, m: int, df: int) -> np.ndarray:
    r"""``P(Q > q)`` of the studentized range, accurate where it is small.

    With R the range of m standard normals and S = sqrt(chi2_df / df),
    P(Q > q) = E[P(R > q S)]: an integral over the probability u of S's lower tail
    (below its median) and v of its upper tail, in the variables log u and log v, by
    Gauss-Legendre panels (:func:`_chi_nodes`); P(R > r) comes from a spline of its
    logarithm (:func:`_log_range_sf`). Every term is positive: nothing cancels, and
    p keeps its relative precision down to the float range.
    """
    from scipy.special import logsumexp

    spline, r_max = _log_range_sf(m)
    s, log_w = _chi_nodes(df)
    out = np.empty(len(q))
    block = max(1, _CHUNK_ELEMENTS // len(s))
    for start in range(0, len(q), block):
        r = q[start : start + block, None] * s[None, :]
        log_sf = np.where(r <= r_max, spline(np.minimum(r, r_max)), -np.inf)
        out[start : start + block] = logsumexp(log_sf + log_w, axis=1)
    with np.errstate(under="ignore"):
        return np.minimum(np.exp(out), 1.0)


_CHUNK_ELEMENTS = 1 << 21


@lru_cache(maxsize=16)
def _log_range_sf(m: int):
    r"""A cubic spline of log P(R > r) for the range R of m standard normals, and r_max.

    .. math::
        P(R > r) = m \int \phi(z)\, \bar\Phi(z)^{m-1}
        \Big(1 - \big(1 - \bar\Phi(z + r) / \bar\Phi(z)\big)^{m-1}\Big)\, dz

    (the minimum at z, and not every other value within r of it), each factor in
    logarithms and the last one by log1p/expm1, so that nothing cancels; the integral
    over z by the trapezoidal rule on a grid of 1/16 (exact to rounding for these
    smooth, Gaussian-tailed integrands). r runs to 64, where log P(R > r) is about
    -1000: beyond, P(R > r) is 0 in floats.
    """
    from scipy.interpolate import CubicSpline
    from scipy.special import log_ndtr, logsumexp

    h = 1.0 / 16
    z = np.arange(-40.0, 10.0 + h / 2, h)
    log_a = log_ndtr(-z)  # log P(Z > z)
    base = math.log(m) - z * z / 2 - 0.5 * math.log(2 * math.pi) + (m - 1) * log_a
    r = np.arange(0.0, 64.0 + 1 / 64, 1.0 / 32)
    log_sf = np.zeros(len(r))
    rows = max(1, _CHUNK_ELEMENTS // len(z))
    with np.errstate(divide="ignore", under="ignore"):
        for start in range(1, len(r), rows):
            rr = r[start : start + rows, None]
            ratio = np.minimum(log_ndtr(-(z[None, :] + rr)) - log_a[None, :], 0.0)
            rest = np.log(-np.expm1((m - 1) * np.log1p(-np.exp(ratio))))
            # 1 - (1 - c)^(m-1) = (m - 1) c for c below 1e-13: c may underflow
            rest = np.where(ratio < -30, math.log(m - 1) + ratio, rest)
            log_sf[start : start + rows] = logsumexp(base[None, :] + rest, axis=1) + math.log(h)
    return CubicSpline(r, np.minimum(log_sf, 0.0)), float(r[-1])


@lru_cache(maxsize=16)
def _chi_nodes(df: int) -> tuple[np.ndarray, np.ndarray]:
    """Nodes S_k and log weights of E[f(S)] for S = sqrt(chi2_df / df).

    E[f(S)] = int_0^1 f(S(u)) du, split at the median: in t = log u over S's lower
    tail and t = log v over its upper tail (v = 1 - u), t from -740 (the float range)
    to log(1/2), 8 Gauss-Legendre nodes on each panel of width 1/2. In t the
    integrands e^t f(S(e^t)) are smooth whatever df: a narrow S (large df) is spread
    over the t of its quantiles.
    """
    from scipy.special import gammainccinv, gammaincinv

    x, w = np.polynomial.legendre.leggauss(8)
    edges = np.arange(-740.0, math.log(0.5), 0.5)
    edges = np.append(edges, math.log(0.5))
    lo, width = edges[:-1, None], np.diff(edges)[:, None]
    t = (lo + width * (x[None, :] + 1) / 2).ravel()
    log_w = (np.log(width * w[None, :] / 2)).ravel() + t
    with np.errstate(under="ignore"):
        low = np.sqrt(2 * gammaincinv(df / 2, np.exp(t)) / df)
        high = np.sqrt(2 * gammainccinv(df / 2, np.exp(t)) / df)
    return np.concatenate([low, high]), np.concatenate([log_w, log_w])


def _enumerated_trials(n: int, m: int, start: int, stop: int) -> np.ndarray:
    """Column indices (trials, n, m) of the enumerated trials start..stop.

    Trial t permutes topic i's row by the permutation numbered by the i-th digit of t
    in base m!, in lexicographic order (that of ``itertools.permutations``); each is
    decoded from its number, digit by digit of the factorial number system, so that
    no table of all m! permutations is held.
    """
    k = math.factorial(m)
    idx = np.arange(start, stop, dtype=np.int64)
    rest = ((idx[:, None] // (k ** np.arange(n, dtype=np.int64))) % k).ravel()
    left = np.tile(np.arange(m, dtype=np.int64), (len(rest), 1))  # values not yet placed
    out = np.empty((len(rest), m), dtype=np.int64)
    rows = np.arange(len(rest))
    for pos in range(m):
        digit, rest = np.divmod(rest, math.factorial(m - 1 - pos))
        out[:, pos] = left[rows, digit]
        width = m - 1 - pos  # drop the value placed: those after it move left
        after = np.arange(width)[None, :] >= digit[:, None]
        left[:, :width] = np.where(after, left[:, 1 : width + 1], left[:, :width])
    return out.reshape(len(idx), n, m)


@public
def randomised_tukey_hsd(
    scores, /, *, n_resamples: int = 10000, seed=0, chunk: int | None = None, runs=None
) -> RandomisedTukeyHSDResult:
    r"""Randomised Tukey HSD: one set of trials for every pair of systems.

    Parameters
    ----------
    scores : array_like, shape (topics, runs)
        One score per topic (row) and run (column), finite.
    n_resamples : int
        B trials; all (m!)^n row permutations are enumerated instead when there are
        no more than B (an exact p).
    seed : int or numpy.random.Generator, optional
        For reproducible trials (default 0; None draws a fresh seed).
    chunk : int, optional
        Trials per chunk (memory bound); the result does not depend on it.
    runs : sequence of str, optional
        Names of the columns (default ``"0"``, ``"1"``, ...).

    Returns
    -------
    RandomisedTukeyHSDResult
        (m, m) ``difference``, ``pvalue`` (1 on the diagonal) and ``effect_size``
        ES_E; ``exact``.

    Raises
    ------
    ValueError
        For the input errors of :func:`anova2` (a zero residual variance included: the
        effect sizes would be undefined).

    See Also
    --------
    tukey_hsd : the same pairs from the studentized range.

    Notes
    -----
    A trial permutes the m scores of each topic among the systems independently and
    records the range of the system means, :math:`R^* = \max_j - \min_j`; with
    :math:`c_{jk} = \#\{R^* \ge |\bar x_{\cdot j} - \bar x_{\cdot k}|\}` (ties within a
    relative 1e-9), :math:`p_{jk} = (c_{jk} + 1) / (B + 1)`, or :math:`c_{jk} / (m!)^n`
    when every permutation is enumerated. A pair's p depends on the other runs: the
    range R* is taken over all m means, so that adding a run with a far lower mean
    raises every p. The order of the columns fixes which trial a seed draws:
    :func:`compare` and :func:`discriminative_power` put the runs in the order of
    their names first, so that their p does not depend on the order of the files.

    References
    ----------
    B. Carterette, "Multiple Testing in Statistical Analysis of Systems-Based
    Information Retrieval Experiments", ACM TOIS 30(1), 2012; T. Sakai (2015),
    Chapter 5.

    Examples
    --------
    >>> x = [[0.7, 0.5, 0.3], [0.3, 0.1, 0.1], [0.6, 0.6, 0.4], [0.5, 0.3, 0.4]]
    >>> r = randomised_tukey_hsd(x, n_resamples=2000)  # (3!)^4 = 1296 <= B: exact
    >>> r.exact, r.n_resamples, r.pvalue.round(3).tolist()[0]
    (True, 1296, [1.0, 0.352, 0.056])
    """
    x = _matrix(scores)
    n_resamples = check_int(n_resamples, "n_resamples", minimum=1)
    if chunk is not None:
        chunk = check_int(chunk, "chunk", minimum=1)
    names = _run_names(runs, x.shape[1], "runs")
    return _randomised_tukey(x, n_resamples, _rng(seed), chunk, ("scores",), names)


def _randomised_tukey(
    x: np.ndarray,
    n_resamples: int,
    rng,
    chunk: int | None,
    params: tuple[str, ...],
    runs: tuple[str, ...] = (),
) -> RandomisedTukeyHSDResult:
    """The randomised Tukey HSD of checked scores: counts per chunk, memory bounded."""
    x, e = _core.scaled(x)
    n, m = x.shape
    _, _, ss_e, col = _anova(x)
    ms_e = ss_e / ((m - 1) * (n - 1))
    if not ms_e > 0:
        raise _undefined_residual(
            "the randomised Tukey HSD" if caller().endswith("compare") else "the test"
        )
    j, k = np.triu_indices(m, 1)
    # in sums: means times n, from hi + lo (:func:`_split`) so that terms that cancel
    # (1e6 next to 1e-4) keep their digits; a difference 0 on paper is 0 within the
    # rounding of the two sums: every trial reaches it
    grid = _grid(x, n, axis=None)
    hi = np.round(x / grid) * grid
    big, small = hi.sum(axis=0), (x - hi).sum(axis=0)
    mag = np.abs(x).sum(axis=0)
    limits = _limit((big[j] - big[k]) + (small[j] - small[k]), _round_off(n, mag[j] + mag[k]))
    # a trial's float R* is within this of its exact value: one in the window of a limit
    # is computed again from hi + lo, exactly up to the last subtraction
    window = np.where(limits > 0, _round_off(n, np.abs(x).max(axis=1).sum()), 0.0)
    f = math.factorial(m)
    exact = n * math.log(f) <= math.log(n_resamples) + 1e-9 and f**n <= min(n_resamples, 2**62)
    trials = f**n if exact else n_resamples
    counts = np.zeros(len(j), dtype=np.int64)
    size = chunk or _chunk(6 * n * m + n)  # indices and their decoding, the permuted scores
    rows = np.arange(n)[None, :, None]
    for start in range(0, trials, size):
        stop = min(trials, start + size)
        if exact:
            trial_scores = x[rows, _enumerated_trials(n, m, start, stop)]
        else:  # shuffle each topic's row of every trial in place, in C
            trial_scores = rng.permuted(np.broadcast_to(x, (stop - start, n, m)), axis=-1)
        permuted = trial_scores.sum(axis=1)  # (trials, m) system sums
        ranges = np.sort(permuted.max(axis=1) - permuted.min(axis=1))
        near = np.searchsorted(ranges, limits + window) > np.searchsorted(ranges, limits - window)
        if near.any():
            ranges = np.sort(_exact_ranges(trial_scores, permuted, grid))
        counts += (stop - start) - np.searchsorted(ranges, limits, side="left")
    p = np.ones((m, m))
    p[j, k] = p[k, j] = _p_values(counts, trials, exact)
    diff = col[:, None] - col[None, :]
    shown = _unscaled(diff, e, "every difference of system means", params)
    return RandomisedTukeyHSDResult(shown, p, diff / math.sqrt(ms_e), exact, trials, runs)
