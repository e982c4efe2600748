r"""Compare systems over topics: significance tests, effect sizes and confidence intervals.

Every function takes scores of the same topics for each system: two (topics,) arrays
for the tests of two systems, a (topics, systems) array for the others; ``compare``
takes a :class:`~fairconv.results.ScoreTable` and a measure name. Every test is
two-sided. Definitions follow Sakai's book (*Information access evaluation
methodology*, 2015) and Sakai (SIGIR 2006) for the bootstrap test and discriminative
power; the randomised Tukey HSD is Carterette's (TOIS 2012).

Randomised tests
----------------
- A trial's statistic ties the observed one when it is within a relative tolerance
  of 1e-9 of it (or of the largest value the statistic can take, when the observed
  one is 0 on paper), so that float rounding never drops a tie that is exact on paper.
- ``p = count / B`` (Sakai's convention); ``exact`` is True when every sign vector or
  permutation was enumerated, which happens whenever there are no more of them than
  ``n_resamples``.
- A ``seed`` (int or ``numpy.random.Generator``) gives the same p on every run and for
  every chunk size: the random numbers are drawn in one stream of uniform doubles,
  trial after trial, whatever the chunking.
- Trials run in chunks of bounded memory, all pairs from one set of trials, the sign
  flips of many pairs in one matrix product.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from itertools import permutations

import numpy as np
from scipy import stats as _sp

from ._validation import as_float_array, check_choice, check_int, check_real, fail

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


# --------------------------------------------------------------------------- records
class _Record:
    """Frozen results with ``to_dict()`` and, with pandas, ``to_frame()``."""

    def to_dict(self) -> dict:
        """The fields as plain Python values (arrays as nested lists, NaN as None)."""
        return {k: _plain(v) for k, v in asdict(self).items()}  # type: ignore[call-overload]

    def to_frame(self):
        """A one-row pandas DataFrame of the scalar fields (needs the pandas extra)."""
        pd = _pandas(type(self).__name__)
        data = self.to_dict()
        return pd.DataFrame([{k: v for k, v in data.items() if not isinstance(v, list)}])


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


@dataclass(frozen=True, eq=False)
class TukeyHSDResult(_Record):
    """Two-way Tukey HSD: (m, m) matrices, entry [j, k] for system j minus system k."""

    difference: np.ndarray = field(repr=False)
    statistic: np.ndarray = field(repr=False)
    pvalue: np.ndarray = field(repr=False)
    effect_size: np.ndarray = field(repr=False)
    ci_low: np.ndarray = field(repr=False)
    ci_high: np.ndarray = field(repr=False)
    alpha: float = 0.05


@dataclass(frozen=True, eq=False)
class RandomisedTukeyHSDResult(_Record):
    """Randomised Tukey HSD: (m, m) matrices, entry [j, k] for system j minus system k."""

    difference: np.ndarray = field(repr=False)
    pvalue: np.ndarray = field(repr=False)
    effect_size: np.ndarray = field(repr=False)
    exact: bool = False
    n_resamples: int = 0


@dataclass(frozen=True, eq=False)
class DiscriminativePowerResult(_Record):
    """The ASL curve of a measure: the sorted p-values of all system pairs."""

    test: str
    asl: np.ndarray = field(repr=False)
    pairs: list = field(repr=False)
    alpha: float = 0.05
    power: float = 0.0


@dataclass(frozen=True, eq=False)
class Comparison(_Record):
    """Systems compared on one measure: what ``fairconv compare`` prints.

    ``systems`` are ordered by mean (highest first) with the two-way ANOVA CI of each;
    ``pairs`` list every pair in that order with ``difference = mean(a) - mean(b)``,
    the p-value of the test (corrected when asked), the effect size and whether
    ``p < alpha``. ``result`` is the underlying test's record.
    """

    measure: str
    test: str
    n_topics: int
    n_dropped: int
    alpha: float
    correction: str
    systems: list = field(repr=False)
    pairs: list = field(repr=False)
    result: object = field(repr=False, default=None)

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


def _pair(x, y, func: str) -> np.ndarray:
    a, b = _vector(x, "x", func), _vector(y, "y", func)
    if a.shape != b.shape:
        raise fail("y", func, f"hold the {len(a)} topics of 'x'", f"{len(b)}")
    return a - b


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


def _ties(stat: np.ndarray, observed, scale=0.0) -> np.ndarray:
    """Whether ``stat >= observed``, a tie within the relative tolerance counting.

    The tolerance is relative to the observed statistic, or to ``scale`` (the largest
    the statistic can be) when that is larger: an observed statistic that is 0 on
    paper comes out of a float sum as, say, 1e-17, and every trial ties it.
    """
    obs = np.asarray(observed, dtype=np.float64)
    return stat >= obs - TIE_TOLERANCE * np.maximum(np.abs(obs), scale)


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
        For fewer than 2 topics, different lengths, non-finite scores, or differences
        that are all equal (t is undefined).

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
    d = _pair(x, y, func)
    alpha = _alpha(alpha, func)
    n = len(d)
    mean, sd = float(d.mean()), float(d.std(ddof=1))
    if not sd > 0:
        raise ValueError(f"{func}: all {n} differences are equal ({d[0]:.6g}): t is undefined")
    se = sd / math.sqrt(n)
    t = mean / se
    p = float(2 * _sp.t.sf(abs(t), n - 1))
    margin = float(_sp.t.ppf(1 - alpha / 2, n - 1)) * se
    return PairedTTestResult(t, n - 1, p, mean, (mean - margin, mean + margin), mean / sd, alpha)


def _sign_trials(n: int, n_resamples: int, rng, exact: bool, start: int, stop: int):
    """Sign vectors (stop - start, n) of trials start..stop: enumerated or random."""
    if exact:
        idx = np.arange(start, stop, dtype=np.int64)
        bits = (idx[:, None] >> np.arange(n, dtype=np.int64)) & 1
        return 1.0 - 2.0 * bits
    return np.where(rng.random((stop - start, n)) < 0.5, -1.0, 1.0)


def _randomisation_counts(d: np.ndarray, n_resamples: int, rng, chunk: int | None):
    """Trials with |sum(s * d)| reaching |sum(d)|, for each column of d (n, pairs)."""
    n, pairs = d.shape
    exact = n < 63 and 2**n <= n_resamples
    trials = 2**n if exact else n_resamples
    observed = np.abs(d.sum(axis=0))
    scale = np.abs(d).sum(axis=0)  # the largest |sum(s * d)| can be
    counts = np.zeros(pairs, dtype=np.int64)
    size = chunk or _chunk(n + pairs)
    for start in range(0, trials, size):
        stop = min(trials, start + size)
        signs = _sign_trials(n, n_resamples, rng, exact, start, stop)
        sums = np.abs(signs @ d)  # (trials, pairs): one matrix product for every pair
        counts += _ties(sums, observed, scale).sum(axis=0)
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
    d = _pair(x, y, func)
    n_resamples = check_int(n_resamples, "n_resamples", func, minimum=1)
    if chunk is not None:
        chunk = check_int(chunk, "chunk", func, minimum=1)
    if not np.any(d):
        raise ValueError(f"{func}: every difference is 0: there is nothing to test")
    counts, trials, exact = _randomisation_counts(d[:, None], n_resamples, _rng(seed, func), chunk)
    return RandomisationTestResult(float(d.mean()), float(counts[0] / trials), exact, trials)


def _bootstrap_counts(d: np.ndarray, n_resamples: int, rng, chunk: int | None):
    """Trials whose |t*| reaches |t| for each column of d (n, pairs); t* of shifted d."""
    n, pairs = d.shape
    mean = d.mean(axis=0)
    sd = d.std(axis=0, ddof=1)
    t_obs = np.abs(mean / (sd / math.sqrt(n)))
    w = d - mean
    counts = np.zeros(pairs, dtype=np.int64)
    size = chunk or _chunk(n * (1 + pairs))
    for start in range(0, n_resamples, size):
        stop = min(n_resamples, start + size)
        idx = np.minimum((rng.random((stop - start, n)) * n).astype(np.int64), n - 1)
        sample = w[idx]  # (trials, n, pairs)
        m = sample.mean(axis=1)
        s = sample.std(axis=1, ddof=1)
        t = np.divide(m, s / math.sqrt(n), out=np.zeros_like(m), where=s > 0)
        counts += _ties(np.abs(t), t_obs).sum(axis=0)
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
    gives t* = 0.

    References
    ----------
    T. Sakai, "Evaluating Evaluation Metrics based on the Bootstrap", SIGIR 2006.
    """
    func = "bootstrap_test"
    d = _pair(x, y, func)
    n_resamples = check_int(n_resamples, "n_resamples", func, minimum=1)
    if chunk is not None:
        chunk = check_int(chunk, "chunk", func, minimum=1)
    if not float(d.std(ddof=1)) > 0:
        raise ValueError(f"{func}: all {len(d)} differences are equal: t is undefined")
    counts, t_obs = _bootstrap_counts(d[:, None], n_resamples, _rng(seed, func), chunk)
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
    return ss_a, ss_b, ss_e, col


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
        For fewer than 2 topics or systems, non-finite scores, or a zero residual
        variance (F undefined).

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
    """
    func = "anova2"
    x = _matrix(scores, func)
    alpha = _alpha(alpha, func)
    n, m = x.shape
    ss_a, ss_b, ss_e, col = _anova(x)
    df_a, df_b, df_e = m - 1, n - 1, (m - 1) * (n - 1)
    ms_a, ms_b, ms_e = ss_a / df_a, ss_b / df_b, ss_e / df_e
    if not ms_e > 0:
        raise ValueError(f"{func}: the residual variance is 0: F is undefined")
    f_a, f_b = ms_a / ms_e, ms_b / ms_e
    margin = float(_sp.t.ppf(1 - alpha / 2, df_e)) * math.sqrt(ms_e / n)
    return Anova2Result(
        ss_a, ss_b, ss_e, df_a, df_b, df_e, ms_a, ms_b, ms_e, f_a, f_b,
        float(_sp.f.sf(f_a, df_a, df_e)), float(_sp.f.sf(f_b, df_b, df_e)),
        col, col - margin, col + margin, alpha,
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
    (m - 1)(n - 1) degrees of freedom. Unlike the one-way Tukey HSD of scipy and
    statsmodels, the residual variance V_E removes the topic effect.

    References
    ----------
    T. Sakai, *Information access evaluation methodology* (2015), Chapter 5 (book
    example: ES_E 0.507 / 0.676 / 0.169; p = 0.257 for X vs Y).
    """
    func = "tukey_hsd"
    x = _matrix(scores, func)
    alpha = _alpha(alpha, func)
    n, m = x.shape
    _, _, ss_e, col = _anova(x)
    df_e = (m - 1) * (n - 1)
    ms_e = ss_e / df_e
    if not ms_e > 0:
        raise ValueError(f"{func}: the residual variance is 0: the test is undefined")
    diff = col[:, None] - col[None, :]
    se = math.sqrt(ms_e / n)
    q = np.abs(diff) / se
    p = _sp.studentized_range.sf(q, m, df_e)
    np.fill_diagonal(p, 1.0)
    margin = _q_critical(alpha, m, df_e) * se
    return TukeyHSDResult(
        diff, q, np.clip(p, 0.0, 1.0), diff / math.sqrt(ms_e), diff - margin, diff + margin, alpha
    )


@lru_cache(maxsize=256)
def _q_critical(alpha: float, m: int, df: int) -> float:
    """q(1 - alpha; m, df) of the studentized range (slow to compute: cached)."""
    return float(_sp.studentized_range.ppf(1 - alpha, m, df))


def _enumerated_trials(n: int, start: int, stop: int, perms: np.ndarray) -> np.ndarray:
    """Column indices (trials, n, m) of the enumerated trials start..stop.

    Trial t permutes topic i's row by the permutation of the i-th digit of t in base m!.
    """
    idx = np.arange(start, stop, dtype=np.int64)
    k = len(perms)
    digits = (idx[:, None] // (k ** np.arange(n, dtype=np.int64))) % k
    return perms[digits]


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
    """
    func = "randomised_tukey_hsd"
    x = _matrix(scores, func)
    n_resamples = check_int(n_resamples, "n_resamples", func, minimum=1)
    if chunk is not None:
        chunk = check_int(chunk, "chunk", func, minimum=1)
    rng = _rng(seed, func)
    n, m = x.shape
    _, _, ss_e, col = _anova(x)
    ms_e = ss_e / ((m - 1) * (n - 1))
    if not ms_e > 0:
        raise ValueError(f"{func}: the residual variance is 0: the test is undefined")
    sums = x.sum(axis=0)
    observed = np.abs(sums[:, None] - sums[None, :])  # in sums: means times n
    k = math.factorial(m)
    exact = n * math.log(k) <= math.log(n_resamples) + 1e-9 and k**n <= n_resamples
    trials = k**n if exact else n_resamples
    perms = np.array(list(permutations(range(m))) if exact else [], dtype=np.int64)
    ranges = np.empty(trials)
    size = chunk or _chunk(2 * n * m)
    rows = np.arange(n)[None, :, None]
    for start in range(0, trials, size):
        stop = min(trials, start + size)
        if exact:
            cols = _enumerated_trials(n, start, stop, perms)
            trial_scores = x[rows, cols]
        else:  # shuffle each topic's row of every trial in place, in C
            trial_scores = rng.permuted(np.broadcast_to(x, (stop - start, n, m)), axis=-1)
        permuted = trial_scores.sum(axis=1)  # (trials, m) system sums
        ranges[start:stop] = permuted.max(axis=1) - permuted.min(axis=1)
    ranges.sort()
    # count trials with R* reaching each observed difference (ties within the tolerance)
    scale = float((x.max(axis=1) - x.min(axis=1)).sum())  # the largest R* can be
    limits = observed - TIE_TOLERANCE * np.maximum(observed, scale)
    counts = trials - np.searchsorted(ranges, limits, side="left")
    p = counts / trials
    np.fill_diagonal(p, 1.0)
    diff = col[:, None] - col[None, :]
    return RandomisedTukeyHSDResult(diff, p, diff / math.sqrt(ms_e), exact, trials)


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


def _pairwise(x: np.ndarray, test: str, n_resamples: int, rng, alpha: float, chunk=None):
    """p-values and effect sizes (m, m) of every pair of columns of x."""
    n, m = x.shape
    j, k = np.triu_indices(m, 1)
    p = np.ones((m, m))
    es = np.zeros((m, m))
    if test in ("tukey", "randomised-tukey"):
        r: TukeyHSDResult | RandomisedTukeyHSDResult
        if test == "tukey":
            r = tukey_hsd(x, alpha=alpha)
        else:
            r = randomised_tukey_hsd(x, n_resamples=n_resamples, seed=rng, chunk=chunk)
        return r.pvalue, r.effect_size, r
    d = x[:, j] - x[:, k]  # (n, pairs)
    sd = d.std(axis=0, ddof=1)
    equal = ~(sd > 0)
    if test in ("paired-t", "bootstrap") and equal.any():
        bad = int(np.argmax(equal))
        raise ValueError(
            f"systems {j[bad]} and {k[bad]} differ by the same amount on every topic: "
            f"the {test} test is undefined for them"
        )
    if test == "randomisation" and not np.any(d, axis=0).all():
        bad = int(np.argmin(np.any(d, axis=0)))
        raise ValueError(
            f"systems {j[bad]} and {k[bad]} score the same on every topic: there is nothing to test"
        )
    mean = d.mean(axis=0)
    effect = np.divide(mean, sd, out=np.zeros_like(mean), where=sd > 0)
    if test == "paired-t":
        t = mean / (sd / math.sqrt(n))
        pv = 2 * _sp.t.sf(np.abs(t), n - 1)
    elif test == "randomisation":
        counts, trials, _ = _randomisation_counts(d, n_resamples, rng, chunk)
        pv = counts / trials
    else:
        counts, _ = _bootstrap_counts(d, n_resamples, rng, chunk)
        pv = counts / n_resamples
    p[j, k] = p[k, j] = pv
    es[j, k], es[k, j] = effect, -effect
    return p, es, None


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

    References
    ----------
    T. Sakai, "Evaluating Evaluation Metrics based on the Bootstrap", SIGIR 2006.
    """
    func = "discriminative_power"
    x = _matrix(scores, func)
    test = check_choice(test, "test", func, TESTS)
    alpha = _alpha(alpha, func)
    n_resamples = check_int(n_resamples, "n_resamples", func, minimum=1)
    p, _, _ = _pairwise(x, test, n_resamples, _rng(seed, func), alpha)
    j, k = np.triu_indices(x.shape[1], 1)
    pv = p[j, k]
    order = np.argsort(pv, kind="stable")
    pairs = [(int(a), int(b)) for a, b in zip(j[order], k[order], strict=True)]
    return DiscriminativePowerResult(test, pv[order], pairs, alpha, float((pv < alpha).mean()))


# --------------------------------------------------------------------------- score tables
def scores_of(table, measure: str, *, nan_policy: str = "raise", topics=None):
    """The (topics, runs) matrix of one measure of a ScoreTable.

    Topics where the measure exists for every run are kept (optionally only those in
    ``topics``); with ``nan_policy='omit'`` topics where a run's value is undefined
    are dropped too. Returns ``(matrix, topics, n_dropped)``.
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
        wanted = set(topics)
        keep &= np.array([t in wanted for t in table.topics], dtype=bool)
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
        [t for t, u in zip(names, undefined, strict=True) if not u],
        int(undefined.sum()),
    )


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
) -> Comparison:
    """Compare the runs of a ScoreTable on one measure over the topics.

    Parameters
    ----------
    table : ScoreTable
    measure : str
        The measure's name (``GFR@10``).
    test : {'randomised-tukey', 'tukey', 'paired-t', 'randomisation', 'bootstrap'}
        Default: the randomised Tukey HSD.
    n_resamples, seed
        For the randomised tests (B = 10,000 by default).
    alpha : float
        Significance level and CI level.
    nan_policy : {'raise', 'omit'}
        What to do with topics where a run's value is undefined.
    topics : sequence of str, optional
        Only these topics.
    correction : {'none', 'bonferroni', 'holm', 'bh'}
        For the pairwise tests; the Tukey tests already control the familywise error
        and refuse one.

    Returns
    -------
    Comparison
        Systems by mean with their two-way ANOVA CIs, and every pair.

    Examples
    --------
    >>> from fairconv.datasets import sakai_book
    >>> c = compare(sakai_book().table, "nDCG@5", test="tukey")
    >>> [(p["a"], p["b"], round(p["pvalue"], 3)) for p in c.pairs][:1]
    [('X', 'Y', 0.257)]
    """
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
    x, kept, dropped = scores_of(table, measure, nan_policy=nan_policy, topics=topics)
    if x.shape[0] < 2:
        raise ValueError(
            f"{measure} exists for every run on {x.shape[0]} topic(s): a comparison needs 2"
        )
    x = _matrix(x, func)
    means = x.mean(axis=0)
    order = np.argsort(-means, kind="stable")
    runs = [table.runs[i] for i in order]
    x = x[:, order]
    a = anova2(x, alpha=alpha)
    p, es, result = _pairwise(x, test, n_resamples, _rng(seed, func), alpha)
    j, k = np.triu_indices(x.shape[1], 1)
    pv = adjust_pvalues(p[j, k], correction)
    systems = [
        {"name": r, "mean": float(a.means[i]), "ci_low": float(a.ci_low[i]),
         "ci_high": float(a.ci_high[i])}
        for i, r in enumerate(runs)
    ]  # fmt: skip
    pairs = [
        {"a": runs[u], "b": runs[v], "difference": float(a.means[u] - a.means[v]),
         "pvalue": float(q), "effect_size": float(es[u, v]), "significant": bool(q < alpha)}
        for u, v, q in zip(j, k, pv, strict=True)
    ]  # fmt: skip
    return Comparison(
        measure, test, x.shape[0], dropped, alpha, correction, systems, pairs, result or a
    )
