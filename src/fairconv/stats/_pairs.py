"""Tests of two systems over topics: paired t, sign-flip randomisation and the bootstrap."""

from __future__ import annotations

import math

import numpy as np

from .._validation import caller, check_int, public
from ._common import (
    MIN_TOPICS,
    _alpha,
    _check_topics,
    _chunk,
    _constant,
    _grid,
    _limit,
    _p_values,
    _pair,
    _rng,
    _round_off,
    _scipy_stats,
    _unscaled,
)
from ._results import BootstrapTestResult, PairedTTestResult, RandomisationTestResult


@public
def paired_t_test(x, y, /, *, alpha: float = 0.05) -> PairedTTestResult:
    r"""Paired t-test of two systems' per-topic scores.

    Parameters
    ----------
    x, y : array_like, shape (topics,)
        Scores of the two systems on the same topics.
    alpha : float
        For the 100(1 - alpha)% confidence interval of the mean difference.

    Returns
    -------
    PairedTTestResult
        ``statistic`` t, ``df`` n - 1, two-sided ``pvalue``, ``mean_difference``,
        ``ci_low`` and ``ci_high`` of its CI, ``effect_size`` d_z = mean(d) / s_d and
        ``n_topics``.

    Raises
    ------
    ValueError
        For fewer than 2 topics, different lengths, non-finite scores, differences
        that are all equal (t is undefined), or a CI beyond the float range.

    See Also
    --------
    randomisation_test : the sign-flip randomisation test.
    bootstrap_test : the paired bootstrap test.

    Notes
    -----
    .. math::
        t = \frac{\bar d}{s_d / \sqrt n},\qquad
        CI = \bar d \pm t_{1-\alpha/2;\,n-1}\, s_d / \sqrt n

    Equals ``scipy.stats.ttest_rel``.

    References
    ----------
    T. Sakai, *Information access evaluation methodology* (2015), Chapter 5 (Table 5.1
    example: t = 2.116, p = 0.048 for X vs Y).

    Examples
    --------
    >>> r = paired_t_test([0.5, 0.7, 0.3, 0.8], [0.4, 0.5, 0.3, 0.6])
    >>> round(r.statistic, 4), r.df, round(r.pvalue, 4)
    (2.6112, 3, 0.0796)
    """
    d, mag, e = _pair(x, y)
    alpha = _alpha(alpha)
    n = len(d)
    if _constant(d, mag):
        raise _same_difference(d, e)
    mean, sd = float(d.mean()), float(d.std(ddof=1))
    se = sd / math.sqrt(n)
    t = mean / se
    p = float(2 * _scipy_stats().t.sf(abs(t), n - 1))
    margin = _t_critical(alpha, n - 1) * se
    low, mid, high = _unscaled(
        np.array([mean - margin, mean, mean + margin]),
        e,
        "the CI of the mean difference",
        ("x", "y"),
    ).tolist()
    return PairedTTestResult(t, n - 1, p, mid, low, high, mean / sd, alpha, n)


def _t_critical(alpha: float, df) -> float:
    """t(1 - alpha/2; df), from the upper tail: exact for any alpha down to 1e-300."""
    return float(_scipy_stats().t.isf(alpha / 2, df))


def _same_difference(d: np.ndarray, e: int) -> ValueError:
    try:
        shown = f"{math.ldexp(float(d[0]), e):.6g}"
    except OverflowError:
        shown = f"{float(d[0]):.6g} * 2**{e}"
    return ValueError(
        f"{caller()}: x - y is the same ({shown}) on all {len(d)} topics (within rounding): "
        "s_d is 0 and t is undefined"
    )


def _sign_trials(n: int, n_resamples: int, rng, exact: bool, start: int, stop: int):
    """Sign vectors (stop - start, n) of trials start..stop: enumerated or random."""
    if exact:
        idx = np.arange(start, stop, dtype=np.int64)
        bits = (idx[:, None] >> np.arange(n, dtype=np.int64)) & 1
        return 1.0 - 2.0 * bits
    return np.where(rng.random((stop - start, n)) < 0.5, -1.0, 1.0)


def _split(d: np.ndarray, n: int, axis: int | None = 0) -> tuple[np.ndarray, np.ndarray]:
    """``d = hi + lo`` exactly; signed sums of n values of ``hi`` are exact in floats.

    A float sum rounds to its largest terms, not to its result: 1e6 - 1e6 + 1e-4 loses
    the last digits of 1e-4, far more than 1e-9 of it, and ties that are exact on paper
    with it. ``hi`` lies on a grid (:func:`_grid`, per slice along ``axis``) coarse
    enough that any signed sum of n of its values is an integer multiple of the grid
    below 2^52 (and the difference of two such sums below 2^53): exact in any order.
    ``lo`` is below the grid: its sums round at the grid's level, not at the largest
    terms'.
    """
    grid = _grid(d, n, axis)
    hi = np.round(d / grid) * grid
    return hi, d - hi


def _randomisation_counts(d: np.ndarray, mag: np.ndarray, n_resamples: int, rng, chunk: int | None):
    """Trials with |sum(s * d)| reaching |sum(d)|, for each column of d (n, pairs).

    ``mag`` (n, pairs) holds |x_i| + |y_i|: the rounding of sum(d) is at most
    ``_round_off(n, mag.sum(axis=0))``. Each trial's sum is ``s @ hi + s @ lo``
    (:func:`_split`), one matrix product, so that float rounding keeps the ties that
    are exact on paper even where the terms cancel.
    """
    n, pairs = d.shape
    exact = n < 63 and 2**n <= n_resamples
    trials = 2**n if exact else n_resamples
    hi, lo = _split(d, n)
    parts = np.concatenate([hi, lo], axis=1)  # (n, 2 pairs)
    limit = _limit(hi.sum(axis=0) + lo.sum(axis=0), _round_off(n, mag.sum(axis=0)))
    counts = np.zeros(pairs, dtype=np.int64)
    size = chunk or _chunk(2 * n + 5 * pairs)  # signs (and bits), sums, their ties
    for start in range(0, trials, size):
        stop = min(trials, start + size)
        signs = _sign_trials(n, n_resamples, rng, exact, start, stop)
        sums = signs @ parts  # (trials, 2 pairs): one matrix product for every pair
        counts += (np.abs(sums[:, :pairs] + sums[:, pairs:]) >= limit).sum(axis=0)
    return counts, trials, exact


@public
def randomisation_test(
    x, y, /, *, n_resamples: int = 10000, seed=0, chunk: int | None = None
) -> RandomisationTestResult:
    r"""Sign-flip randomisation test of the mean of paired differences.

    Parameters
    ----------
    x, y : array_like, shape (topics,)
        Scores of the two systems on the same topics.
    n_resamples : int
        B, the number of trials; every one of the 2^n sign vectors is enumerated
        instead when 2^n <= B (an exact p).
    seed : int or numpy.random.Generator, optional
        For reproducible trials (default 0; None draws a fresh seed).
    chunk : int, optional
        Trials per chunk (memory bound); the result does not depend on it.

    Returns
    -------
    RandomisationTestResult
        ``statistic`` mean(d); ``pvalue`` = count / 2^n when ``exact``, else the Monte
        Carlo (count + 1) / (B + 1), count = ``#{trials with |mean(d*)| >= |mean(d)|}``
        (ties within a relative 1e-9); ``n_topics``.

    Raises
    ------
    ValueError
        For fewer than 2 topics, different lengths, non-finite scores, a bad
        ``n_resamples``, or differences that are all 0 (no test to make).

    See Also
    --------
    paired_t_test : the paired t-test.
    bootstrap_test : the paired bootstrap test.

    Notes
    -----
    A trial flips the sign of each d_i with probability 1/2;

    .. math::
        c = \#\{\text{trials}: |\textstyle\sum_i s_i d_i| \ge |\sum_i d_i|\},\qquad
        p = \frac{c + 1}{B + 1}

    with ties within a relative 1e-9 of the observed sum; an observed sum that is 0
    within its rounding is 0 (p = 1). When :math:`2^n \le B` the :math:`2^n` sign
    vectors are enumerated: :math:`p = c / 2^n` and ``n_resamples`` is :math:`2^n`.
    The test needs 2 topics (with 2 the exact p is at least 1/2).

    References
    ----------
    T. Sakai, *Information access evaluation methodology* (2015), Chapter 5: for X vs Y
    of the book example the exact p is 69120 / 1048576 = 0.06592.

    Examples
    --------
    >>> r = randomisation_test([0.3, 0.5, 0.6], [0.1, 0.5, 0.4])
    >>> r.pvalue, r.exact
    (0.5, True)
    """
    d, mag, e = _pair(x, y)
    n_resamples = check_int(n_resamples, "n_resamples", minimum=1)
    if chunk is not None:
        chunk = check_int(chunk, "chunk", minimum=1)
    if not np.any(d):
        raise ValueError(f"{caller()}: x and y are equal on every topic: there is nothing to test")
    counts, trials, exact = _randomisation_counts(
        d[:, None], mag[:, None], n_resamples, _rng(seed), chunk
    )
    mean = _unscaled(d.mean(), e, "mean(x - y)", ("x", "y"))
    p = float(_p_values(counts, trials, exact)[0])
    return RandomisationTestResult(mean, p, exact, trials, len(d))


def _bootstrap_counts(d: np.ndarray, mag: np.ndarray, n_resamples: int, rng, chunk: int | None):
    """Trials whose |t*| reaches |t| for each column of d (n, pairs); t* of shifted d.

    ``mag`` (n, pairs) holds |x_i| + |y_i|: a sample whose values are equal within
    their rounding has s = 0 and t* = 0, and a t whose mean(d) is 0 within the rounding
    of sum(d) is 0 (every trial ties it).
    """
    n, pairs = d.shape
    mean = d.mean(axis=0)
    sd = d.std(axis=0, ddof=1)
    t_obs = np.abs(mean / (sd / math.sqrt(n)))
    zero = np.abs(d.sum(axis=0)) <= _round_off(n, mag.sum(axis=0))
    limit = _limit(np.where(zero, 0.0, t_obs), 0.0)
    w = d - mean
    flat = _round_off(n, mag.max(axis=0))
    counts = np.zeros(pairs, dtype=np.int64)
    size = chunk or _chunk(n + 3 * n * pairs)  # indices, a sample and its deviations
    for start in range(0, n_resamples, size):
        stop = min(n_resamples, start + size)
        idx = np.minimum((rng.random((stop - start, n)) * n).astype(np.int64), n - 1)
        sample = w[idx]  # (trials, n, pairs)
        m = sample.mean(axis=1)
        s = sample.std(axis=1, ddof=1)
        t = np.divide(m, s / math.sqrt(n), out=np.zeros_like(m), where=s > flat)
        counts += (np.abs(t) >= limit).sum(axis=0)
    return counts, t_obs


@public
def bootstrap_test(
    x, y, /, *, n_resamples: int = 1000, seed=0, chunk: int | None = None
) -> BootstrapTestResult:
    r"""Paired bootstrap test (Sakai, SIGIR 2006) of the mean of the differences.

    Parameters
    ----------
    x, y : array_like, shape (topics,)
        Scores of the two systems on the same topics.
    n_resamples : int
        B, the number of bootstrap samples.
    seed : int or numpy.random.Generator, optional
        For reproducible samples (default 0; None draws a fresh seed).
    chunk : int, optional
        Samples per chunk (memory bound); the result does not depend on it.

    Returns
    -------
    BootstrapTestResult
        ``statistic`` the observed t and ``pvalue`` the achieved significance level
        ``(#{|t*| >= |t|} + 1) / (B + 1)``; ``n_topics``.

    Raises
    ------
    ValueError
        For the input errors of :func:`paired_t_test`, including differences that are
        all equal (t undefined), and fewer than 4 topics.

    See Also
    --------
    paired_t_test : the paired t-test.
    randomisation_test : the sign-flip randomisation test.

    Notes
    -----
    The differences are shifted to mean 0, ``w = d - mean(d)``; a sample draws n values
    of w with replacement and computes t* as t; a sample whose values are all equal
    gives t* = 0. Ties within a relative 1e-9 of ``|t|`` count; a t whose mean(d) is 0
    within the rounding of sum(d) is 0, and every sample ties it (p = 1).

    The test needs at least 4 topics. On 2 topics every sample of w has mean 0 or
    s = 0, so that t* = 0 and p is 1 / (B + 1) for any data; on 3 it rejects a true
    null hypothesis about 7% of the time at nominal 5%. From 4 topics on it is
    conservative: its simulated rejection rate at nominal 5% is given in
    statistics.md (about 3% on 8 topics, 4% on 20).

    References
    ----------
    T. Sakai, "Evaluating Evaluation Metrics based on the Bootstrap", SIGIR 2006.

    Examples
    --------
    >>> r = bootstrap_test([0.5, 0.7, 0.3, 0.8, 0.6], [0.4, 0.5, 0.3, 0.6, 0.6], seed=1)
    >>> round(r.statistic, 3), 0 <= r.pvalue <= 1, r.n_resamples
    (2.236, True, 1000)
    """
    d, mag, e = _pair(x, y)
    _check_topics(len(d), MIN_TOPICS["bootstrap"], "bootstrap", ("x", "y"))
    n_resamples = check_int(n_resamples, "n_resamples", minimum=1)
    if chunk is not None:
        chunk = check_int(chunk, "chunk", minimum=1)
    if _constant(d, mag):
        raise _same_difference(d, e)
    counts, t_obs = _bootstrap_counts(d[:, None], mag[:, None], n_resamples, _rng(seed), chunk)
    sign = 1.0 if d.mean() >= 0 else -1.0
    p = float(_p_values(counts, n_resamples, False)[0])
    return BootstrapTestResult(sign * float(t_obs[0]), p, n_resamples, len(d))


_PAIR_BLOCK_BYTES = 16 * 2**20
"""Memory of one block of pairs' differences (and their magnitudes, splits, samples)."""


def _pair_blocks(x: np.ndarray, j: np.ndarray, k: np.ndarray, per_value: int = 4):
    """Blocks of pairs (j, k) of the columns of x: (start, stop, d, mag, e).

    Each pair is divided by its own power of 2, 2**e with e that of the larger of its
    two runs' largest |score| (exact): one run near 1e200 does not push the scores of
    an unrelated pair into the subnormals. ``d`` (n, pairs) holds the scaled
    differences, ``mag`` the magnitudes |x_j| + |x_k| that bound their rounding. A
    block holds at most 16 MB of ``per_value`` arrays of its shape, whatever the number
    of runs: memory does not grow with topics x runs^2.
    """
    n = x.shape[0]
    top = np.abs(x).max(axis=0)
    e_run = np.where(top > 0, np.frexp(top)[1], 0)
    block = max(1, _PAIR_BLOCK_BYTES // (8 * n * per_value))
    for start in range(0, len(j), block):
        stop = min(len(j), start + block)
        e = np.maximum(e_run[j[start:stop]], e_run[k[start:stop]])
        a = np.ldexp(x[:, j[start:stop]], -e)
        b = np.ldexp(x[:, k[start:stop]], -e)
        yield start, stop, a - b, np.abs(a) + np.abs(b), e
