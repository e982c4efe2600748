r"""Compare systems over topics: significance tests, effect sizes and confidence intervals.

Every function takes scores of the same topics for each system: two (topics,) arrays
for the tests of two systems, a (topics, systems) array for the others; ``compare``
takes a :class:`~fairconv.results.ScoreTable` and a measure name. Every test is
two-sided. Definitions follow Sakai's book (*Information access evaluation
methodology*, 2015) and Sakai (SIGIR 2006) for the bootstrap test and discriminative
power; the randomised Tukey HSD is Carterette's (TOIS 2012).

Randomised tests
----------------
- A trial's statistic ties the observed one when it is within 1e-9 times the observed
  statistic (the tolerance of the definitions), so that float rounding never drops a
  tie that is exact on paper. An observed statistic that is 0 within the rounding of
  its float computation (at most ``4 n eps`` times the sum of the magnitudes of the
  scores it adds up, eps = 2.2e-16) is 0 on paper, and every trial ties it: p = 1.
- ``p = count / B`` (Sakai's convention); ``exact`` is True when every sign vector or
  permutation was enumerated, which happens whenever there are no more of them than
  ``n_resamples``.
- A ``seed`` (int or ``numpy.random.Generator``) gives the same p on every run and for
  every chunk size: the random numbers are drawn in one stream of uniform doubles,
  trial after trial, whatever the chunking.
- Trials run in chunks of bounded memory, all pairs from one set of trials, the sign
  flips of many pairs in one matrix product; memory does not grow with B.

Undefined tests
---------------
A test whose statistic is undefined on the data raises a ``ValueError`` that says so:
the t-based tests when x - y is the same on every topic, the ANOVA and both Tukey tests
when the residual variance is 0. "The same" is judged within rounding: the spread of
the values is at most ``4 n eps`` times the largest magnitude of the scores they come
from, so that differences equal on paper (0.3 - 0.1 and 0.5 - 0.3) are equal, and a
constant added to every score, or a common scale, changes nothing.

Large and small scores
----------------------
Scores are divided by a power of 2 before any sum (exact), so that sums of squares
neither overflow nor underflow; results in the units of the scores (differences,
means, confidence intervals, sums of squares) are multiplied back. One that exceeds
the float range (about 1.8e308) is refused with a ``ValueError``; sums of squares below
it underflow to 0 like any float (F, t and p do not depend on the scale).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache

import numpy as np

from ._validation import as_float_array, check_choice, check_int, check_real, fail


def _scipy_stats():
    """``scipy.stats``, imported on first use: the command line starts without it."""
    from scipy import stats

    return stats


__all__ = [
    "TESTS",
    "CORRECTIONS",
    "paired_t_test",
    "randomisation_test",
    "bootstrap_test",
    "anova2",
    "tukey_hsd",
    "randomised_tukey_hsd",
    "discriminative_power",
    "adjust_pvalues",
    "compare",
    "scores_of",
    "PairwiseTestsResult",
    "PairedTTestResult",
    "RandomisationTestResult",
    "BootstrapTestResult",
    "Anova2Result",
    "TukeyHSDResult",
    "RandomisedTukeyHSDResult",
    "DiscriminativePowerResult",
    "Comparison",
]

TESTS = ("randomised-tukey", "tukey", "paired-t", "randomisation", "bootstrap")
"""Test names, the same in the API (``test=``) and on the command line (``--test``)."""

CORRECTIONS = ("none", "bonferroni", "holm", "bh")
"""Multiple-comparison corrections of the p-values of pairwise tests."""

TIE_TOLERANCE = 1e-9
"""A trial ties the observed statistic within this relative tolerance."""

CHUNK_BYTES = 64 * 2**20
"""Memory of the random numbers and intermediate arrays of one chunk of trials."""

_EPS = float(np.finfo(np.float64).eps)


# --------------------------------------------------------------------------- records
class _Record:
    """Frozen results with ``to_dict()`` and, with pandas, ``to_frame()``."""

    def to_dict(self) -> dict:
        """The fields as plain Python values (arrays as nested lists, NaN as None)."""
        return {k: _plain(v) for k, v in asdict(self).items()}  # type: ignore[call-overload]

    def to_frame(self):
        """A pandas DataFrame (needs the pandas extra): one row of the scalar fields."""
        pd = _pandas(type(self).__name__)
        return pd.DataFrame([{k: v for k, v in self.to_dict().items() if not isinstance(v, list)}])


class _PairMatrices(_Record):
    """Records of (m, m) matrices: ``to_frame`` gives one row per pair j < k."""

    def to_frame(self):
        """One row per pair j < k (columns ``a``, ``b`` and each (m, m) matrix's [a, b])."""
        pd = _pandas(type(self).__name__)
        matrices = {
            k: v for k, v in vars(self).items() if isinstance(v, np.ndarray) and v.ndim == 2
        }
        m = len(next(iter(matrices.values())))
        j, k = np.triu_indices(m, 1)
        return pd.DataFrame({"a": j, "b": k, **{name: v[j, k] for name, v in matrices.items()}})


def _pandas(name: str):
    try:
        import pandas as pd
    except ImportError:
        raise ImportError(f"{name}.to_frame needs pandas: pip install 'fairconv[pandas]'") from None
    return pd


def _plain(value):
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (float, np.floating)):
        return None if math.isnan(value) else float(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


@dataclass(frozen=True)
class PairedTTestResult(_Record):
    """Paired t-test of x - y: t, df, p, mean difference, its CI, effect size."""

    statistic: float
    df: int
    pvalue: float
    mean_difference: float
    ci: tuple[float, float]
    effect_size: float
    alpha: float


@dataclass(frozen=True)
class RandomisationTestResult(_Record):
    """Sign-flip randomisation test of the mean difference."""

    statistic: float
    pvalue: float
    exact: bool
    n_resamples: int


@dataclass(frozen=True)
class BootstrapTestResult(_Record):
    """Paired bootstrap test (Sakai, SIGIR 2006): t of the differences and its ASL."""

    statistic: float
    pvalue: float
    n_resamples: int


@dataclass(frozen=True, eq=False)
class Anova2Result(_Record):
    """Two-way ANOVA without replication (systems x topics), with per-system CIs."""

    ss_systems: float
    ss_topics: float
    ss_residual: float
    df_systems: int
    df_topics: int
    df_residual: int
    ms_systems: float
    ms_topics: float
    ms_residual: float
    f_systems: float
    f_topics: float
    p_systems: float
    p_topics: float
    means: np.ndarray = field(repr=False)
    ci_low: np.ndarray = field(repr=False)
    ci_high: np.ndarray = field(repr=False)
    alpha: float = 0.05

    def to_frame(self):
        """The ANOVA table as a paper prints it: rows systems, topics, residual."""
        pd = _pandas("Anova2Result")
        return pd.DataFrame(
            {
                "source": ["systems", "topics", "residual"],
                "ss": [self.ss_systems, self.ss_topics, self.ss_residual],
                "df": [self.df_systems, self.df_topics, self.df_residual],
                "ms": [self.ms_systems, self.ms_topics, self.ms_residual],
                "f": [self.f_systems, self.f_topics, None],
                "pvalue": [self.p_systems, self.p_topics, None],
            }
        )


@dataclass(frozen=True, eq=False)
class TukeyHSDResult(_PairMatrices):
    """Two-way Tukey HSD: (m, m) matrices, entry [j, k] for system j minus system k."""

    difference: np.ndarray = field(repr=False)
    statistic: np.ndarray = field(repr=False)
    pvalue: np.ndarray = field(repr=False)
    effect_size: np.ndarray = field(repr=False)
    ci_low: np.ndarray = field(repr=False)
    ci_high: np.ndarray = field(repr=False)
    alpha: float = 0.05


@dataclass(frozen=True, eq=False)
class RandomisedTukeyHSDResult(_PairMatrices):
    """Randomised Tukey HSD: (m, m) matrices, entry [j, k] for system j minus system k."""

    difference: np.ndarray = field(repr=False)
    pvalue: np.ndarray = field(repr=False)
    effect_size: np.ndarray = field(repr=False)
    exact: bool = False
    n_resamples: int = 0


@dataclass(frozen=True, eq=False)
class PairwiseTestsResult(_PairMatrices):
    """A test of two systems run on every pair: (m, m) matrices, [j, k] for j minus k.

    ``pvalue`` is uncorrected (``compare`` applies a correction to the family);
    ``effect_size`` is mean(d) / s_d; ``exact`` and ``n_resamples`` describe the trials
    of the randomised tests (one set of trials for every pair).
    """

    test: str
    difference: np.ndarray = field(repr=False)
    pvalue: np.ndarray = field(repr=False)
    effect_size: np.ndarray = field(repr=False)
    exact: bool
    n_resamples: int


@dataclass(frozen=True, eq=False)
class DiscriminativePowerResult(_Record):
    """The ASL curve of a measure: the sorted p-values of all system pairs."""

    test: str
    asl: np.ndarray = field(repr=False)
    pairs: tuple[tuple[int, int], ...] = field(repr=False)
    alpha: float = 0.05
    power: float = 0.0

    def to_frame(self):
        """One row per pair in increasing order of ASL: rank, a, b, asl."""
        pd = _pandas("DiscriminativePowerResult")
        return pd.DataFrame(
            {
                "rank": np.arange(1, len(self.asl) + 1),
                "a": [a for a, _ in self.pairs],
                "b": [b for _, b in self.pairs],
                "asl": self.asl,
            }
        )


@dataclass(frozen=True, eq=False)
class Comparison(_Record):
    """Systems compared on one measure: what ``fairconv compare`` prints.

    ``systems`` are ordered by mean (highest first), each a dict with ``name``,
    ``mean``, ``ci_low`` and ``ci_high`` (the two-way ANOVA CI); ``pairs`` list every
    pair in that order, each a dict with ``a``, ``b``, ``difference = mean(a) -
    mean(b)``, ``pvalue`` (corrected when asked), ``effect_size`` and ``significant``
    (``pvalue < alpha``). ``n_dropped`` topics were left out for undefined values.
    ``result`` is the test's record, its (m, m) matrices in the order of ``systems``;
    ``anova`` the two-way ANOVA in that order, or None where the residual variance
    V_E is 0 (only the randomisation test is defined there: the CIs are then NaN).
    """

    measure: str
    test: str
    n_topics: int
    n_dropped: int
    alpha: float
    correction: str
    systems: tuple[dict, ...] = field(repr=False)
    pairs: tuple[dict, ...] = field(repr=False)
    result: TukeyHSDResult | RandomisedTukeyHSDResult | PairwiseTestsResult = field(repr=False)
    anova: Anova2Result | None = field(repr=False)

    def to_dict(self) -> dict:
        """The comparison as ``fairconv compare --format json`` prints it."""
        return {
            "measure": self.measure,
            "test": self.test,
            "n_topics": self.n_topics,
            "n_dropped": self.n_dropped,
            "alpha": self.alpha,
            "correction": self.correction,
            "systems": _plain(self.systems),
            "pairs": _plain(self.pairs),
        }

    def to_frame(self):
        """The pairs as a pandas DataFrame (needs the pandas extra)."""
        return _pandas("Comparison").DataFrame(_plain(self.pairs))


# --------------------------------------------------------------------------- inputs
def _vector(x, name: str, func: str) -> np.ndarray:
    arr = as_float_array(x, name, func)
    if arr.ndim != 1:
        raise fail(name, func, "be a 1-d array of per-topic scores", f"shape {arr.shape}")
    if arr.shape[0] < 2:
        raise fail(name, func, "hold the scores of at least 2 topics", f"{arr.shape[0]}")
    if not np.isfinite(arr).all():
        raise fail(
            name,
            func,
            "hold finite scores",
            f"NaN or infinity at topic {int(np.argmin(np.isfinite(arr)))}",
        )
    return arr


def _pair(x, y, func: str) -> tuple[np.ndarray, np.ndarray, int]:
    """The differences x - y of the scaled scores, their magnitudes |x| + |y|, and e.

    Both are divided by 2**e (:func:`_scaled`); the magnitudes bound the rounding of d.
    """
    a, b = _vector(x, "x", func), _vector(y, "y", func)
    if a.shape != b.shape:
        raise fail("y", func, f"hold the {len(a)} topics of 'x'", f"{len(b)}")
    ab, e = _scaled(np.stack([a, b]))
    return ab[0] - ab[1], np.abs(ab[0]) + np.abs(ab[1]), e


def _scaled(arr: np.ndarray) -> tuple[np.ndarray, int]:
    """``arr / 2**e`` with its largest |value| in [0.5, 1), and e.

    Division by a power of 2 is exact: sums, means and their rounding are those of
    the scores, but squares neither overflow (1e200) nor underflow (1e-300).
    """
    top = float(np.abs(arr).max()) if arr.size else 0.0
    e = math.frexp(top)[1] if top > 0 else 0
    return (np.ldexp(arr, -e) if e else arr), e


def _unscaled(value, e: int, what: str, func: str, params: str):
    """``value * 2**e`` (a float or an array), refused when it exceeds the float range."""
    with np.errstate(over="ignore"):
        out = np.ldexp(value, e)
    if not np.isfinite(out).all():
        raise ValueError(
            f"The {params} of {func} must hold scores small enough that {what} is a "
            "finite float. Got scores for which it exceeds 1.8e308 instead; divide them "
            "by a constant"
        )
    return out if isinstance(out, np.ndarray) and out.ndim else float(out)


def _round_off(n: int, magnitude):
    """The largest rounding error of a float sum of n scores of total |size| magnitude.

    Differences and sums that are 0 on paper come out of floats as about 1e-17 for
    scores near 1 (0.1 + 0.2 - 0.3); ``4 n eps`` times their magnitude bounds that.
    """
    return 4.0 * n * _EPS * np.asarray(magnitude, dtype=np.float64)


def _constant(d: np.ndarray, mag: np.ndarray, axis: int = 0) -> np.ndarray:
    """Whether the values along ``axis`` are all equal, within rounding.

    ``mag`` holds the magnitudes of the scores each value comes from (|x| + |y| for a
    difference): values equal on paper (0.3 - 0.1 and 0.2) differ by less than
    :func:`_round_off` of the largest, a bound that moves with a common shift or scale
    of the scores and not with the values' own size.
    """
    spread = np.abs(d - d.mean(axis=axis, keepdims=True)).max(axis=axis)
    return np.asarray(~(spread > _round_off(d.shape[axis], mag.max(axis=axis))))


def _matrix(scores, func: str) -> np.ndarray:
    arr = as_float_array(scores, "scores", func)
    if arr.ndim != 2:
        raise fail("scores", func, "be a (topics, systems) array", f"shape {arr.shape}")
    if arr.shape[0] < 2 or arr.shape[1] < 2:
        raise fail("scores", func, "hold at least 2 topics and 2 systems", f"shape {arr.shape}")
    if not np.isfinite(arr).all():
        bad = np.argwhere(~np.isfinite(arr))[0]
        raise fail(
            "scores",
            func,
            "hold finite scores",
            f"NaN or infinity at topic {bad[0]}, system {bad[1]}",
        )
    return arr


def _alpha(alpha, func: str) -> float:
    return check_real(alpha, "alpha", func, low=0.0, high=1.0, closed="neither")


def _rng(seed, func: str) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:
        return np.random.default_rng()
    return np.random.default_rng(check_int(seed, "seed", func, minimum=0))


def _limit(observed, floor) -> np.ndarray:
    """The least trial statistic that reaches ``observed`` (statistics.md, Ties).

    A tie within ``TIE_TOLERANCE`` of the observed statistic counts. An observed
    statistic within ``floor`` (the rounding of its float computation) of 0 is 0 on
    paper: it comes out of a float sum as, say, 1e-17, and every trial reaches it.
    """
    obs = np.abs(np.asarray(observed, dtype=np.float64))
    return np.where(obs <= floor, 0.0, obs - TIE_TOLERANCE * obs)


def _chunk(per_trial: int) -> int:
    return max(1, CHUNK_BYTES // (8 * max(1, per_trial)))


# --------------------------------------------------------------------------- two systems
def paired_t_test(x, y, *, alpha: float = 0.05) -> PairedTTestResult:
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
        ``ci`` (low, high) and ``effect_size`` mean(d) / s_d.

    Raises
    ------
    ValueError
        For fewer than 2 topics, different lengths, non-finite scores, differences
        that are all equal (t is undefined), or a CI beyond the float range.

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
    func = "paired_t_test"
    d, mag, e = _pair(x, y, func)
    alpha = _alpha(alpha, func)
    n = len(d)
    if _constant(d, mag):
        raise _same_difference(func, d, e)
    mean, sd = float(d.mean()), float(d.std(ddof=1))
    se = sd / math.sqrt(n)
    t = mean / se
    p = float(2 * _scipy_stats().t.sf(abs(t), n - 1))
    margin = float(_scipy_stats().t.ppf(1 - alpha / 2, n - 1)) * se
    low, mid, high = _unscaled(
        np.array([mean - margin, mean, mean + margin]),
        e,
        "the CI of the mean difference",
        func,
        "'x' and 'y' parameters",
    ).tolist()
    return PairedTTestResult(t, n - 1, p, mid, (low, high), mean / sd, alpha)


def _same_difference(func: str, d: np.ndarray, e: int) -> ValueError:
    try:
        shown = f"{math.ldexp(float(d[0]), e):.6g}"
    except OverflowError:
        shown = f"{float(d[0]):.6g} * 2**{e}"
    return ValueError(
        f"{func}: x - y is the same ({shown}) on all {len(d)} topics (within rounding): "
        "s_d is 0 and t is undefined"
    )


def _sign_trials(n: int, n_resamples: int, rng, exact: bool, start: int, stop: int):
    """Sign vectors (stop - start, n) of trials start..stop: enumerated or random."""
    if exact:
        idx = np.arange(start, stop, dtype=np.int64)
        bits = (idx[:, None] >> np.arange(n, dtype=np.int64)) & 1
        return 1.0 - 2.0 * bits
    return np.where(rng.random((stop - start, n)) < 0.5, -1.0, 1.0)


def _grid(d: np.ndarray, n: int, axis: int | None = 0) -> np.ndarray:
    """A power of 2 per slice along ``axis``: multiples of it sum exactly (see _split)."""
    top = np.maximum(np.abs(d).max(axis=axis, keepdims=True), np.finfo(np.float64).tiny)
    return np.ldexp(1.0, np.maximum(np.frexp(top)[1] + (n - 1).bit_length() + 2 - 53, -1022))


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


def randomisation_test(
    x, y, *, n_resamples: int = 10000, seed=None, chunk: int | None = None
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
        For reproducible trials.
    chunk : int, optional
        Trials per chunk (memory bound); the result does not depend on it.

    Returns
    -------
    RandomisationTestResult
        ``statistic`` mean(d), ``pvalue`` = #{trials with |mean(d*)| >= |mean(d)|} / B
        (ties within a relative 1e-9), ``exact``.

    Raises
    ------
    ValueError
        For fewer than 2 topics, different lengths, non-finite scores, a bad
        ``n_resamples``, or differences that are all 0 (no test to make).

    Notes
    -----
    A trial flips the sign of each d_i with probability 1/2;

    .. math::
        p = \#\{\text{trials}: |\textstyle\sum_i s_i d_i| \ge |\sum_i d_i|\} / B

    with ties within a relative 1e-9 of the observed sum; an observed sum that is 0
    within its rounding is 0 (p = 1). When :math:`2^n \le B` the :math:`2^n` sign
    vectors are enumerated and B is :math:`2^n`.

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
    func = "randomisation_test"
    d, mag, e = _pair(x, y, func)
    n_resamples = check_int(n_resamples, "n_resamples", func, minimum=1)
    if chunk is not None:
        chunk = check_int(chunk, "chunk", func, minimum=1)
    if not np.any(d):
        raise ValueError(f"{func}: x and y are equal on every topic: there is nothing to test")
    counts, trials, exact = _randomisation_counts(
        d[:, None], mag[:, None], n_resamples, _rng(seed, func), chunk
    )
    mean = _unscaled(d.mean(), e, "mean(x - y)", func, "'x' and 'y' parameters")
    return RandomisationTestResult(mean, float(counts[0] / trials), exact, trials)


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


def bootstrap_test(
    x, y, *, n_resamples: int = 1000, seed=None, chunk: int | None = None
) -> BootstrapTestResult:
    r"""Paired bootstrap test (Sakai, SIGIR 2006) of the mean of the differences.

    Parameters
    ----------
    x, y : array_like, shape (topics,)
        Scores of the two systems on the same topics.
    n_resamples : int
        B, the number of bootstrap samples.
    seed : int or numpy.random.Generator, optional
        For reproducible samples.
    chunk : int, optional
        Samples per chunk (memory bound); the result does not depend on it.

    Returns
    -------
    BootstrapTestResult
        ``statistic`` the observed t and ``pvalue`` the achieved significance level
        #{|t*| >= |t|} / B.

    Raises
    ------
    ValueError
        For the input errors of :func:`paired_t_test`, including differences that are
        all equal (t undefined).

    Notes
    -----
    The differences are shifted to mean 0, ``w = d - mean(d)``; a sample draws n values
    of w with replacement and computes t* as t; a sample whose values are all equal
    gives t* = 0. Ties within a relative 1e-9 of |t| count; a t whose mean(d) is 0
    within the rounding of sum(d) is 0, and every sample ties it (p = 1).

    References
    ----------
    T. Sakai, "Evaluating Evaluation Metrics based on the Bootstrap", SIGIR 2006.

    Examples
    --------
    >>> r = bootstrap_test([0.5, 0.7, 0.3, 0.8, 0.6], [0.4, 0.5, 0.3, 0.6, 0.6], seed=1)
    >>> round(r.statistic, 3), 0 <= r.pvalue <= 1, r.n_resamples
    (2.236, True, 1000)
    """
    func = "bootstrap_test"
    d, mag, e = _pair(x, y, func)
    n_resamples = check_int(n_resamples, "n_resamples", func, minimum=1)
    if chunk is not None:
        chunk = check_int(chunk, "chunk", func, minimum=1)
    if _constant(d, mag):
        raise _same_difference(func, d, e)
    counts, t_obs = _bootstrap_counts(
        d[:, None], mag[:, None], n_resamples, _rng(seed, func), chunk
    )
    sign = 1.0 if d.mean() >= 0 else -1.0
    return BootstrapTestResult(sign * float(t_obs[0]), float(counts[0] / n_resamples), n_resamples)


# --------------------------------------------------------------------------- many systems
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


def _undefined_residual(func: str, test: str = "the test") -> ValueError:
    return ValueError(
        f"{func}: the residual variance V_E is 0 (every system differs from every other "
        f"by the same amount on all topics, within rounding): {test} is undefined"
    )


def anova2(scores, *, alpha: float = 0.05) -> Anova2Result:
    r"""Two-way ANOVA without replication: systems (A) by topics (B).

    Parameters
    ----------
    scores : array_like, shape (topics, systems)
    alpha : float
        For the per-system 100(1 - alpha)% confidence intervals.

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
    func = "anova2"
    x = _matrix(scores, func)
    alpha = _alpha(alpha, func)
    result = _anova2(x, alpha, func, "'scores' parameter")
    assert result is not None
    return result


def _anova2(
    x: np.ndarray, alpha: float, func: str, params: str, undefined_ok: bool = False
) -> Anova2Result | None:
    """The ANOVA of checked scores (None for V_E = 0 when ``undefined_ok``)."""
    x, e = _scaled(x)
    n, m = x.shape
    ss_a, ss_b, ss_e, col = _anova(x)
    df_a, df_b, df_e = m - 1, n - 1, (m - 1) * (n - 1)
    ms_a, ms_b, ms_e = ss_a / df_a, ss_b / df_b, ss_e / df_e
    if not ms_e > 0:
        if undefined_ok:
            return None
        raise _undefined_residual(func)
    f_a, f_b = ms_a / ms_e, ms_b / ms_e
    margin = float(_scipy_stats().t.ppf(1 - alpha / 2, df_e)) * math.sqrt(ms_e / n)
    s_a, s_b, s_e, v_a, v_b, v_e = _unscaled(
        np.array([ss_a, ss_b, ss_e, ms_a, ms_b, ms_e]),
        2 * e,
        "every sum of squares of the two-way ANOVA",
        func,
        params,
    ).tolist()
    low, mean, high = _unscaled(
        np.stack([col - margin, col, col + margin]), e, "the CI of every system mean", func, params
    )
    return Anova2Result(
        s_a, s_b, s_e, df_a, df_b, df_e, v_a, v_b, v_e, f_a, f_b,
        float(_scipy_stats().f.sf(f_a, df_a, df_e)), float(_scipy_stats().f.sf(f_b, df_b, df_e)),
        mean, low, high, alpha,
    )  # fmt: skip


def tukey_hsd(scores, *, alpha: float = 0.05) -> TukeyHSDResult:
    r"""Tukey HSD for systems that ran on the same topics (two-way, as IR uses it).

    Parameters
    ----------
    scores : array_like, shape (topics, systems)
    alpha : float
        For the simultaneous 100(1 - alpha)% confidence intervals.

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
    func = "tukey_hsd"
    x = _matrix(scores, func)
    alpha = _alpha(alpha, func)
    return _tukey(x, alpha, func, "'scores' parameter")


def _tukey(x: np.ndarray, alpha: float, func: str, params: str) -> TukeyHSDResult:
    """The two-way Tukey HSD of checked scores."""
    x, e = _scaled(x)
    n, m = x.shape
    _, _, ss_e, col = _anova(x)
    df_e = (m - 1) * (n - 1)
    ms_e = ss_e / df_e
    if not ms_e > 0:
        raise _undefined_residual(func, "the Tukey HSD" if func == "compare" else "the test")
    diff = col[:, None] - col[None, :]
    se = math.sqrt(ms_e / n)
    q = np.abs(diff) / se
    j, k = np.triu_indices(m, 1)
    # one quadrature per distinct q of the pairs: scipy integrates each value separately
    distinct, where = np.unique(q[j, k], return_inverse=True)
    p = np.ones((m, m))
    p[j, k] = p[k, j] = _range_sf(distinct, m, df_e, func)[where.ravel()]
    margin = _q_critical(alpha, m, df_e, func) * se
    low, mid, high = _unscaled(
        np.stack([diff - margin, diff, diff + margin]), e, "the CI of every difference", func,
        params,
    )  # fmt: skip
    return TukeyHSDResult(mid, q, np.clip(p, 0.0, 1.0), diff / math.sqrt(ms_e), low, high, alpha)


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


def _range_sf(q: np.ndarray, m: int, df: int, func: str) -> np.ndarray:
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
                    f"{func}: scipy's studentized range distribution (m = {m}, df = {df}) "
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
def _q_critical(alpha: float, m: int, df: int, func: str) -> float:
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
            return float(
                brentq(
                    lambda q: np.log(_range_tail(np.array([q]), m, df)[0]) - math.log(alpha),
                    low,
                    high,
                    rtol=1e-12,
                )
            )
    q, warned = _quiet(lambda: float(stats.studentized_range.ppf(1 - alpha, m, df)))
    if warned and not abs(_range_sf(np.array([q]), m, df, func)[0] - alpha) <= 1e-9:
        raise ValueError(
            f"{func}: scipy's studentized range distribution (m = {m}, df = {df}) did not "
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


def randomised_tukey_hsd(
    scores, *, n_resamples: int = 10000, seed=None, chunk: int | None = None
) -> RandomisedTukeyHSDResult:
    r"""Randomised Tukey HSD: one set of trials for every pair of systems.

    Parameters
    ----------
    scores : array_like, shape (topics, systems)
    n_resamples : int
        B trials; all (m!)^n row permutations are enumerated instead when there are
        no more than B (an exact p).
    seed : int or numpy.random.Generator, optional
        For reproducible trials.
    chunk : int, optional
        Trials per chunk (memory bound); the result does not depend on it.

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

    Notes
    -----
    A trial permutes the m scores of each topic among the systems independently and
    records the range of the system means, :math:`R^* = \max_j - \min_j`;
    :math:`p_{jk} = \#\{R^* \ge |\bar x_{\cdot j} - \bar x_{\cdot k}|\} / B`, ties within
    a relative 1e-9.

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
    func = "randomised_tukey_hsd"
    x = _matrix(scores, func)
    n_resamples = check_int(n_resamples, "n_resamples", func, minimum=1)
    if chunk is not None:
        chunk = check_int(chunk, "chunk", func, minimum=1)
    return _randomised_tukey(x, n_resamples, _rng(seed, func), chunk, func, "'scores' parameter")


def _randomised_tukey(
    x: np.ndarray, n_resamples: int, rng, chunk: int | None, func: str, params: str
) -> RandomisedTukeyHSDResult:
    """The randomised Tukey HSD of checked scores: counts per chunk, memory bounded."""
    x, e = _scaled(x)
    n, m = x.shape
    _, _, ss_e, col = _anova(x)
    ms_e = ss_e / ((m - 1) * (n - 1))
    if not ms_e > 0:
        raise _undefined_residual(
            func, "the randomised Tukey HSD" if func == "compare" else "the test"
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
    p[j, k] = p[k, j] = counts / trials
    diff = col[:, None] - col[None, :]
    shown = _unscaled(diff, e, "every difference of system means", func, params)
    return RandomisedTukeyHSDResult(shown, p, diff / math.sqrt(ms_e), exact, trials)


# --------------------------------------------------------------------------- families
def adjust_pvalues(p, method: str) -> np.ndarray:
    r"""Adjust a family of p-values: Bonferroni, Holm or Benjamini-Hochberg.

    Parameters
    ----------
    p : array_like
        p-values in [0, 1], any shape (adjusted as one family).
    method : {'none', 'bonferroni', 'holm', 'bh'}

    Returns
    -------
    ndarray
        Adjusted p-values in [0, 1], the shape of ``p``.

    Notes
    -----
    The definitions of ``statsmodels.stats.multitest.multipletests``: Bonferroni
    ``min(1, m p)``; Holm's step-down ``max_{j<=i} min(1, (m - j + 1) p_(j))``;
    Benjamini-Hochberg's step-up ``min_{j>=i} min(1, m p_(j) / j)``.

    Raises
    ------
    ValueError
        For an unknown method or values outside [0, 1].

    References
    ----------
    S. Holm, "A simple sequentially rejective multiple test procedure", Scandinavian
    Journal of Statistics 6(2), 1979; Y. Benjamini and Y. Hochberg, "Controlling the
    false discovery rate", JRSS B 57(1), 1995.

    Examples
    --------
    >>> adjust_pvalues([0.01, 0.04, 0.03], "holm").round(3).tolist()
    [0.03, 0.06, 0.06]
    """
    func = "adjust_pvalues"
    method = check_choice(method, "method", func, CORRECTIONS)
    arr = as_float_array(p, "p", func)
    if not np.isfinite(arr).all() or (arr < 0).any() or (arr > 1).any():
        raise fail("p", func, "hold p-values in [0, 1]", "values outside it")
    flat = arr.ravel()
    m = len(flat)
    if method == "none" or m == 0:
        return arr.copy()
    if method == "bonferroni":
        return np.minimum(1.0, arr * m)
    order = np.argsort(flat, kind="stable")
    ranked = flat[order]
    if method == "holm":
        adj = np.maximum.accumulate(np.minimum(1.0, ranked * (m - np.arange(m))))
    else:
        adj = np.minimum.accumulate((ranked * m / np.arange(1, m + 1))[::-1])[::-1]
        adj = np.minimum(1.0, adj)
    out = np.empty(m)
    out[order] = adj
    return out.reshape(arr.shape)


def _pairwise(
    x: np.ndarray,
    test: str,
    n_resamples: int,
    rng,
    alpha: float,
    names=None,
    chunk=None,
    func: str = "compare",
    params: str = "'table' parameter",
) -> TukeyHSDResult | RandomisedTukeyHSDResult | PairwiseTestsResult:
    """The test's record for every pair of columns of x (named ``names`` in errors).

    Errors name ``func``, the function called, and its ``params``.
    """
    if test == "tukey":
        return _tukey(x, alpha, func, params)
    if test == "randomised-tukey":
        return _randomised_tukey(x, n_resamples, rng, chunk, func, params)
    x, e = _scaled(x)
    n, m = x.shape
    names = [str(i) for i in range(m)] if names is None else names
    j, k = np.triu_indices(m, 1)
    d = x[:, j] - x[:, k]  # (n, pairs)
    mag = np.abs(x[:, j]) + np.abs(x[:, k])  # the rounding of d is within eps of it
    constant = _constant(d, mag)
    if test in ("paired-t", "bootstrap") and constant.any():
        bad = int(np.argmax(constant))
        raise ValueError(
            f"systems {names[j[bad]]} and {names[k[bad]]} differ by the same amount on every "
            f"topic (within rounding): s_d is 0 and the {test} test is undefined for them"
        )
    if test == "randomisation" and not np.any(d, axis=0).all():
        bad = int(np.argmin(np.any(d, axis=0)))
        raise ValueError(
            f"systems {names[j[bad]]} and {names[k[bad]]} score the same on every topic: "
            "there is nothing to test"
        )
    mean = d.mean(axis=0)
    sd = d.std(axis=0, ddof=1)
    effect = np.where(constant, np.nan, mean / np.where(constant, 1.0, sd))
    exact, trials = False, n_resamples
    if test == "paired-t":
        pv = 2 * _scipy_stats().t.sf(np.abs(mean / (sd / math.sqrt(n))), n - 1)
        trials = 0
    elif test == "randomisation":
        counts, trials, exact = _randomisation_counts(d, mag, n_resamples, rng, chunk)
        pv = counts / trials
    else:
        counts, _ = _bootstrap_counts(d, mag, n_resamples, rng, chunk)
        pv = counts / n_resamples
    p = np.ones((m, m))
    es = np.zeros((m, m))
    p[j, k] = p[k, j] = pv
    es[j, k], es[k, j] = effect, -effect
    diff = x.mean(axis=0)
    shown = _unscaled(
        diff[:, None] - diff[None, :], e, "every difference of system means", func, params
    )
    return PairwiseTestsResult(test, shown, p, es, exact, trials)


def discriminative_power(
    scores,
    *,
    test: str = "randomised-tukey",
    alpha: float = 0.05,
    n_resamples: int = 10000,
    seed=None,
) -> DiscriminativePowerResult:
    r"""Discriminative power of a measure (Sakai, SIGIR 2006): its ASL curve.

    Parameters
    ----------
    scores : array_like, shape (topics, systems)
        The measure's per-topic scores of every system.
    test : {'randomised-tukey', 'tukey', 'paired-t', 'randomisation', 'bootstrap'}
    alpha : float
        The significance level at which the power is counted.
    n_resamples : int
        Trials of the randomised tests (one set of trials serves every pair).
    seed : int or numpy.random.Generator, optional

    Returns
    -------
    DiscriminativePowerResult
        ``asl``: the p-values of all m(m-1)/2 pairs in increasing order; ``pairs``:
        the (j, k) of each; ``power``: the fraction of pairs with p < alpha.

    Raises
    ------
    ValueError
        For the input errors of the test, or a test that is undefined for a pair.

    Notes
    -----
    Measures are compared by their curves: the lower a measure's ASL curve, the more
    pairs it separates with the same topics. The randomised tests use one set of
    trials for every pair.

    References
    ----------
    T. Sakai, "Evaluating Evaluation Metrics based on the Bootstrap", SIGIR 2006.

    Examples
    --------
    >>> x = [[0.7, 0.5, 0.3], [0.3, 0.1, 0.1], [0.6, 0.6, 0.4], [0.5, 0.3, 0.4]]
    >>> dp = discriminative_power(x, test="tukey")
    >>> dp.pairs, dp.asl.round(3).tolist(), round(dp.power, 3)
    (((0, 2), (0, 1), (1, 2)), [0.028, 0.121, 0.505], 0.333)
    """
    func = "discriminative_power"
    x = _matrix(scores, func)
    test = check_choice(test, "test", func, TESTS)
    alpha = _alpha(alpha, func)
    n_resamples = check_int(n_resamples, "n_resamples", func, minimum=1)
    p = _pairwise(
        x, test, n_resamples, _rng(seed, func), alpha, func=func, params="'scores' parameter"
    ).pvalue
    j, k = np.triu_indices(x.shape[1], 1)
    pv = p[j, k]
    order = np.argsort(pv, kind="stable")
    pairs = tuple((int(a), int(b)) for a, b in zip(j[order], k[order], strict=True))
    return DiscriminativePowerResult(test, pv[order], pairs, alpha, float((pv < alpha).mean()))


# --------------------------------------------------------------------------- score tables
def scores_of(
    table, measure: str, *, nan_policy: str = "raise", topics: Sequence[str] | None = None
) -> tuple[np.ndarray, tuple[str, ...], int]:
    """The (topics, runs) matrix of one measure of a ScoreTable.

    Parameters
    ----------
    table : ScoreTable
    measure : str
        The measure's name, as the table prints it.
    nan_policy : {'raise', 'omit'}
        A topic where some run's value is undefined (NaN): an error, or left out.
    topics : sequence of str, optional
        Only these topics of the table (each at most once).

    Returns
    -------
    scores : ndarray, shape (topics, runs)
        The measure on the topics where it exists and is defined for every run, in the
        table's order of topics and runs.
    topics : tuple of str
        Those topics.
    n_dropped : int
        Topics left out because a value is undefined (``nan_policy='omit'``).

    Raises
    ------
    TypeError
        If ``table`` is not a ScoreTable or ``topics`` is a string.
    ValueError
        For an unknown measure or topic, a topic listed twice, or an undefined value
        with ``nan_policy='raise'``.

    Examples
    --------
    >>> from fairconv.datasets import sakai_book
    >>> x, topics, dropped = scores_of(sakai_book().table, "nDCG@5", topics=["Q1", "Q2"])
    >>> x.tolist(), topics, dropped
    ([[0.7, 0.5, 0.0], [0.3, 0.1, 0.0]], ('Q1', 'Q2'), 0)
    """
    from .results import ScoreTable

    func = "scores_of"
    if not isinstance(table, ScoreTable):
        raise TypeError(
            f"The 'table' parameter of {func} must be a ScoreTable. "
            f"Got {type(table).__name__} instead."
        )
    nan_policy = check_choice(nan_policy, "nan_policy", func, ("raise", "omit"))
    if measure not in table.measures:
        raise fail("measure", func, f"be one of {', '.join(table.measures)}", repr(measure))
    col = table.measures.index(measure)
    keep: np.ndarray = np.asarray(table.present[:, :, col].all(axis=0))
    if topics is not None:
        keep &= _topic_mask(table.topics, topics, func)
    values = table.values[:, keep, col].T  # (topics, runs)
    names = [t for t, k in zip(table.topics, keep.tolist(), strict=True) if k]
    undefined = np.isnan(values).any(axis=1)
    if undefined.any() and nan_policy == "raise":
        t = names[int(np.argmax(undefined))]
        raise ValueError(
            f"{measure} is undefined (NaN) on topic {t!r} for some run; pass "
            "nan_policy='omit' (--nan-policy omit) to leave such topics out"
        )
    return (
        values[~undefined],
        tuple(t for t, u in zip(names, undefined, strict=True) if not u),
        int(undefined.sum()),
    )


def _topic_mask(all_topics: Sequence[str], topics, func: str) -> np.ndarray:
    """Which of ``all_topics`` are in ``topics`` (a sequence of known ids, each once)."""
    if isinstance(topics, (str, bytes)) or not isinstance(topics, Sequence):
        raise TypeError(
            f"The 'topics' parameter of {func} must be a sequence of topic ids. "
            f"Got {type(topics).__name__} instead."
        )
    wanted = set(topics)
    if len(wanted) != len(topics):
        twice = next(t for i, t in enumerate(topics) if t in topics[:i])
        raise fail("topics", func, "list each topic once", f"{twice!r} twice")
    unknown = sorted(wanted - set(all_topics), key=str)
    if unknown:
        raise fail(
            "topics",
            func,
            "list topics of the scores",
            ", ".join(map(repr, unknown[:5])) + (" and more" if len(unknown) > 5 else ""),
        )
    return np.array([t in wanted for t in all_topics], dtype=bool)


def compare(
    table,
    measure: str,
    *,
    test: str = "randomised-tukey",
    n_resamples: int = 10000,
    seed=None,
    alpha: float = 0.05,
    nan_policy: str = "raise",
    topics: Sequence[str] | None = None,
    correction: str = "none",
    systems: Sequence[str] | None = None,
) -> Comparison:
    """Compare systems on one measure over topics, as a paper's results table does.

    Parameters
    ----------
    table : ScoreTable or array_like, shape (topics, systems)
        A table (its runs are the systems), or the scores themselves.
    measure : str
        The measure's name (``"GFR@10"``): the column of the table, or the label of
        the array's scores.
    test : {'randomised-tukey', 'tukey', 'paired-t', 'randomisation', 'bootstrap'}
        Default: the randomised Tukey HSD.
    n_resamples : int
        B for the randomised tests (10,000 by default).
    seed : int or numpy.random.Generator, optional
        For reproducible trials.
    alpha : float
        Significance level, and 100(1 - alpha)% CIs.
    nan_policy : {'raise', 'omit'}
        A topic where a system's value is undefined (NaN): an error, or left out and
        counted in ``n_dropped``.
    topics : sequence of str, optional
        Only these topics of the table (a table only).
    correction : {'none', 'bonferroni', 'holm', 'bh'}
        For the pairwise tests; the Tukey tests already control the familywise error
        and refuse one.
    systems : sequence of str, optional
        Names of an array's columns (default ``"0"``, ``"1"``, ...; a table only has
        its run names). A string is not a sequence of names here: a TypeError.

    Returns
    -------
    Comparison
        The systems by mean with their two-way ANOVA CIs, and every pair in that order
        with ``difference`` = mean(a) - mean(b), ``pvalue``, ``effect_size`` (mean(d) /
        s_d for the paired tests, ES_E for the Tukey tests) and ``significant``.

    Raises
    ------
    ValueError
        For the errors of the tests, an unknown measure or topic, fewer than 2 topics
        where the measure exists for every system, or a correction with a Tukey test.
    TypeError
        If ``measure`` is not a str, or ``topics`` or ``systems`` is a string.

    Notes
    -----
    A table's topics are those where the measure exists for every run; with
    ``nan_policy='omit'`` those where a run's value is undefined are left out too.

    Examples
    --------
    >>> from fairconv.datasets import sakai_book
    >>> c = compare(sakai_book().table, "nDCG@5", test="tukey")
    >>> [(p["a"], p["b"], round(p["pvalue"], 3)) for p in c.pairs][:1]
    [('X', 'Y', 0.257)]
    >>> c = compare([[0.5, 0.4], [0.7, 0.5], [0.3, 0.3]], "P@10", test="paired-t",
    ...             systems=["bm25", "qld"])
    >>> c.pairs[0]["a"], round(c.pairs[0]["pvalue"], 3)
    ('bm25', 0.225)
    """
    from .results import ScoreTable

    func = "compare"
    test = check_choice(test, "test", func, TESTS)
    correction = check_choice(correction, "correction", func, CORRECTIONS)
    if test in ("tukey", "randomised-tukey") and correction != "none":
        raise ValueError(
            f"{test} already controls the familywise error: a {correction} correction "
            "does not apply (use a pairwise test, or no correction)"
        )
    alpha = _alpha(alpha, func)
    n_resamples = check_int(n_resamples, "n_resamples", func, minimum=1)
    if not isinstance(measure, str):
        raise TypeError(
            f"The 'measure' parameter of {func} must be a str. "
            f"Got {type(measure).__name__} instead."
        )
    if systems is not None and (
        isinstance(systems, (str, bytes)) or not hasattr(systems, "__len__")
    ):
        raise TypeError(
            f"The 'systems' parameter of {func} must be a sequence of names. "
            f"Got {type(systems).__name__} instead."
        )
    if isinstance(table, ScoreTable):
        if systems is not None:
            raise fail("systems", func, "be None for a ScoreTable (its runs name them)", "names")
        x, _, dropped = scores_of(table, measure, nan_policy=nan_policy, topics=topics)
        names = list(table.runs)
    else:
        x, names, dropped = _array_scores(table, nan_policy, topics, systems, func)
    if x.shape[0] < 2:
        raise ValueError(
            f"{measure} exists for every system on {x.shape[0]} topic(s): a comparison "
            "needs at least 2"
        )
    x = _matrix(x, func)
    order = np.argsort(-_scaled(x)[0].mean(axis=0), kind="stable")
    runs = [names[i] for i in order]
    x = x[:, order]
    result = _pairwise(x, test, n_resamples, _rng(seed, func), alpha, names=runs)
    # the randomisation test stays defined where V_E is 0; the ANOVA CIs do not
    a = _anova2(x, alpha, func, "'table' parameter", undefined_ok=test == "randomisation")
    if a is None:
        scaled, e = _scaled(x)
        means = _unscaled(scaled.mean(axis=0), e, "every system mean", func, "'table' parameter")
        low = high = np.full(x.shape[1], np.nan)
    else:
        means, low, high = a.means, a.ci_low, a.ci_high
    j, k = np.triu_indices(x.shape[1], 1)
    pv = adjust_pvalues(result.pvalue[j, k], correction)
    listed = tuple(
        {"name": r, "mean": float(means[i]), "ci_low": float(low[i]), "ci_high": float(high[i])}
        for i, r in enumerate(runs)
    )
    pairs = tuple(
        {"a": runs[u], "b": runs[v], "difference": float(result.difference[u, v]),
         "pvalue": float(q), "effect_size": float(result.effect_size[u, v]),
         "significant": bool(q < alpha)}
        for u, v, q in zip(j, k, pv, strict=True)
    )  # fmt: skip
    return Comparison(
        measure, test, x.shape[0], dropped, alpha, correction, listed, pairs, result, a
    )


def _array_scores(scores, nan_policy, topics, systems, func: str):
    """(scores, names, n_dropped) of an array given to ``compare``."""
    nan_policy = check_choice(nan_policy, "nan_policy", func, ("raise", "omit"))
    if topics is not None:
        raise fail("topics", func, "be None for an array (select its rows instead)", "ids")
    x = as_float_array(scores, "table", func)
    if x.ndim != 2:
        raise fail("table", func, "be a ScoreTable or a (topics, systems) array", f"{x.shape}")
    if np.isinf(x).any():
        raise fail("table", func, "hold finite scores or NaN", "infinity")
    if systems is None:
        names = [str(i) for i in range(x.shape[1])]
    else:
        names = [str(s) for s in systems]
        if len(names) != x.shape[1] or len(set(names)) != len(names):
            raise fail("systems", func, f"give {x.shape[1]} distinct names", f"{len(names)} names")
    undefined = np.isnan(x).any(axis=1)
    if undefined.any() and nan_policy == "raise":
        raise ValueError(
            f"{func}: a score is undefined (NaN) on topic {int(np.argmax(undefined))}; pass "
            "nan_policy='omit' to leave such topics out"
        )
    return x[~undefined], names, int(undefined.sum())
