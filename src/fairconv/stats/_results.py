"""The result records of :mod:`fairconv.stats`: frozen, with ``to_dict()`` and ``to_frame()``."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np


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
