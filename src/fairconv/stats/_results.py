"""The result records of :mod:`fairconv.stats`: frozen, on :class:`fairconv._records.Record`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field

import numpy as np

from .._records import Record, _short, html_table, plain, record
from .._validation import public
from ._writers import DIRECTION_TEXT as _DIRECTION
from ._writers import TEST_NAMES, comparison_latex, comparison_markdown, fixed, html_text, p_text

P_VALUE_RULE = {
    True: "exact (count / N over every permutation)",
    False: "Monte Carlo ((count + 1) / (B + 1))",
}
"""How a randomised test's p was computed, by its ``exact`` flag."""

P_COLUMNS = frozenset({"pvalue", "asl", "p_systems", "p_topics"})
"""The fields and columns that hold p-values: a notebook shows them as ``<0.001`` or
with 3 significant digits."""

DECIMALS = 4
"""Decimals of the other numbers a notebook shows (the records keep every digit)."""


def shown_columns(table, why_empty) -> tuple[dict, list[str]]:
    """A record's table as a notebook shows it, and the lines saying what it left out.

    p-values as ``<0.001`` or 3 significant digits, other floats with 4 decimals;
    a float column that is NaN in every row (an interval the test does not give) is
    left out, with a line saying why (``why_empty(column)``).
    """
    out: dict = {}
    empty: list[str] = []
    for name, column in table.items():
        values = list(column.tolist() if isinstance(column, np.ndarray) else column)
        numbers = [v for v in values if isinstance(v, float) and not isinstance(v, bool)]
        if values and len(numbers) == len(values) and all(v != v for v in numbers):
            empty.append(name)
            continue
        if name in P_COLUMNS:
            out[name] = [p_text(v) if isinstance(v, float) else v for v in values]
        else:
            out[name] = [fixed(v, DECIMALS) if isinstance(v, float) else v for v in values]
    notes: dict[str, list[str]] = {}
    for name in empty:
        notes.setdefault(why_empty(name), []).append(name)
    return out, [f"{', '.join(names)} left out: {why}" for why, names in notes.items()]


def shown_html(table, title: str, caption: str, why_empty) -> str:
    """:func:`fairconv._records.html_table` of the table :func:`shown_columns` gives."""
    shown, notes = shown_columns(table, why_empty)
    return html_table(shown, title, caption) + "".join(f"<p>{html_text(n)}</p>" for n in notes)


def _field_text(name: str, value) -> str:
    """A field as a caption shows it: a p-value by :func:`p_text`, others by ``_short``."""
    return p_text(value) if name in P_COLUMNS and isinstance(value, float) else _short(value)


class _Shown(Record):
    """The notebook display of the statistics' records: p-values and NaN columns."""

    def _why_empty(self, column: str) -> str:
        """Why a column of the record's table is NaN in every row."""
        return "undefined (NaN) in every row"

    def _repr_html_(self) -> str:
        scalars = [
            f"{name}={_field_text(name, value)}"
            for name, value in self._summary()
            if not isinstance(value, (np.ndarray, list, tuple, Sequence)) or isinstance(value, str)
        ]
        caption = ", ".join(scalars[:12]) + (", ..." if len(scalars) > 12 else "")
        return shown_html(self._table(), type(self).__name__, caption, self._why_empty)


@record
class PairedTTestResult(_Shown):
    """Paired t-test of x - y: t, df, p, mean difference, its CI and d_z.

    ``effect_size`` is d_z = mean(d) / s_d; ``ci_low`` and ``ci_high`` bound the
    100(1 - alpha)% CI of the mean difference.

    Parameters
    ----------
    statistic : float
        The t statistic, mean(d) / (s_d / sqrt(n)).
    df : int
        Its degrees of freedom, n - 1.
    pvalue : float
        Two-sided p-value, in [0, 1].
    mean_difference : float
        mean(x - y).
    ci_low, ci_high : float
        The bounds of the 100(1 - alpha)% CI of the mean difference.
    effect_size : float
        d_z = mean(d) / s_d.
    alpha : float
        The significance level of the interval.
    n_topics : int
        n, the topics (pairs) compared.

    Examples
    --------
    >>> from fairconv import stats
    >>> from fairconv.datasets import sakai_book
    >>> x, y, _ = sakai_book().scores.T
    >>> t = stats.paired_t_test(x, y)
    >>> t.df, round(t.statistic, 3), round(t.pvalue, 3), round(t.effect_size, 3)
    (19, 2.116, 0.048, 0.473)
    """

    statistic: float
    df: int
    pvalue: float
    mean_difference: float
    ci_low: float
    ci_high: float
    effect_size: float
    alpha: float
    n_topics: int


@record
class RandomisationTestResult(_Shown):
    """Sign-flip randomisation test of the mean difference.

    ``pvalue`` is count / 2^n when ``exact`` (every sign vector enumerated), else the
    Monte Carlo (count + 1) / (B + 1).

    Parameters
    ----------
    statistic : float
        The observed mean difference, mean(x - y).
    pvalue : float
        Two-sided p-value, in (0, 1].
    exact : bool
        Whether every sign vector was enumerated.
    n_resamples : int
        B, the trials (2^n when ``exact``).
    n_topics : int
        n, the topics (pairs) compared.

    Examples
    --------
    >>> from fairconv import stats
    >>> from fairconv.datasets import sakai_book
    >>> x, y, _ = sakai_book().scores.T
    >>> r = stats.randomisation_test(x, y, n_resamples=2**20)
    >>> r.exact, r.pvalue == 69120 / 2**20
    (True, True)
    """

    statistic: float
    pvalue: float
    exact: bool
    n_resamples: int
    n_topics: int


@record
class BootstrapTestResult(_Shown):
    """Paired bootstrap test (Sakai, SIGIR 2006): t of the differences and its ASL.

    ``pvalue`` is the Monte Carlo (count + 1) / (B + 1).

    Parameters
    ----------
    statistic : float
        The observed t of the differences.
    pvalue : float
        The achieved significance level (ASL), in (0, 1].
    n_resamples : int
        B, the bootstrap samples.
    n_topics : int
        n, the topics (pairs) compared.

    Examples
    --------
    >>> from fairconv import stats
    >>> from fairconv.datasets import sakai_book
    >>> x, y, _ = sakai_book().scores.T
    >>> r = stats.bootstrap_test(x, y, n_resamples=1000, seed=1)
    >>> round(r.statistic, 3), r.n_resamples, r.n_topics
    (2.116, 1000, 20)
    """

    statistic: float
    pvalue: float
    n_resamples: int
    n_topics: int


def _names(runs: Sequence[str] | None, m: int) -> tuple[str, ...]:
    return tuple(str(i) for i in range(m)) if runs is None else tuple(runs)


@record(eq=False)
class Anova2Result(_Shown):
    """Two-way ANOVA without replication (runs x topics), with per-run intervals.

    ``ci_low``/``ci_high`` bound each run's mean by ``mean +- t(1 - alpha/2; phi_E)
    sqrt(V_E / n)``: an interval conditional on these topics (the topic effect is
    removed), not one for a population of topics.

    Parameters
    ----------
    ss_systems, ss_topics, ss_residual : float
        Sums of squares of the run effect, the topic effect and the residual.
    df_systems, df_topics, df_residual : int
        Their degrees of freedom: m - 1, n - 1 and (m - 1)(n - 1).
    ms_systems, ms_topics, ms_residual : float
        Mean squares (V_E is ``ms_residual``).
    f_systems, f_topics : float
        F statistics of the run and topic effects.
    p_systems, p_topics : float
        Their p-values, in [0, 1].
    means : ndarray of float, shape (m,)
        The mean of each run over the topics.
    ci_low, ci_high : ndarray of float, shape (m,)
        The bounds of each run's interval.
    alpha : float
        The significance level of the intervals.
    runs : tuple of str
        The run names, in the order of ``means`` (empty when none were given).

    Examples
    --------
    >>> from fairconv import stats
    >>> from fairconv.datasets import sakai_book
    >>> a = stats.anova2(sakai_book().scores)
    >>> a.df_systems, a.df_residual, round(a.f_systems, 3), round(a.p_systems, 3)
    (2, 38, 2.475, 0.098)
    """

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
    runs: tuple[str, ...] = ()

    def _table(self):
        """The ANOVA table as a paper prints it: rows systems, topics, residual."""
        nan = float("nan")
        return {
            "source": ["systems", "topics", "residual"],
            "ss": [self.ss_systems, self.ss_topics, self.ss_residual],
            "df": [self.df_systems, self.df_topics, self.df_residual],
            "ms": [self.ms_systems, self.ms_topics, self.ms_residual],
            "f": [self.f_systems, self.f_topics, nan],
            "pvalue": [self.p_systems, self.p_topics, nan],
        }


class _PairMatrices(_Shown):
    """Records of (m, m) matrices: the table has one row per pair j < k, by run name."""

    runs: tuple[str, ...]

    def _table(self):
        matrices = {
            k: v for k, v in vars(self).items() if isinstance(v, np.ndarray) and v.ndim == 2
        }
        m = len(next(iter(matrices.values())))
        j, k = np.triu_indices(m, 1)
        names = np.asarray(_names(self.runs or None, m), dtype=object)
        return {"a": names[j], "b": names[k], **{name: v[j, k] for name, v in matrices.items()}}


@record(eq=False)
class TukeyHSDResult(_PairMatrices):
    """Two-way Tukey HSD: (m, m) matrices, entry [j, k] for run j minus run k.

    ``effect_size`` is ES_E = difference / sqrt(V_E); ``ci_low``/``ci_high`` the
    simultaneous 100(1 - alpha)% CIs of the differences.

    Parameters
    ----------
    difference : ndarray of float, shape (m, m)
        ``difference[j, k]`` is mean(run j) - mean(run k).
    statistic : ndarray of float, shape (m, m)
        The studentized range statistic of each pair.
    pvalue : ndarray of float, shape (m, m)
        The p-values, in [0, 1], from the studentized range distribution.
    effect_size : ndarray of float, shape (m, m)
        ES_E = difference / sqrt(V_E).
    ci_low, ci_high : ndarray of float, shape (m, m)
        The bounds of the simultaneous CIs of the differences.
    alpha : float
        The family-wise significance level of the intervals.
    runs : tuple of str
        The run names, in the order of the rows (empty when none were given).

    Examples
    --------
    >>> from fairconv import stats
    >>> from fairconv.datasets import sakai_book
    >>> t = stats.tukey_hsd(sakai_book().scores)
    >>> t.pvalue.round(3)[0, 1:].tolist(), t.effect_size.round(3)[0, 1:].tolist()
    ([0.257, 0.096], [0.507, 0.676])
    """

    difference: np.ndarray = field(repr=False)
    statistic: np.ndarray = field(repr=False)
    pvalue: np.ndarray = field(repr=False)
    effect_size: np.ndarray = field(repr=False)
    ci_low: np.ndarray = field(repr=False)
    ci_high: np.ndarray = field(repr=False)
    alpha: float = 0.05
    runs: tuple[str, ...] = ()


@record(eq=False)
class RandomisedTukeyHSDResult(_PairMatrices):
    """Randomised Tukey HSD: (m, m) matrices, entry [j, k] for run j minus run k.

    ``effect_size`` is ES_E; ``pvalue`` count / (m!)^n when ``exact``, else
    (count + 1) / (B + 1). A pair's p depends on the other runs too (through the range
    of all the means in each trial).

    Parameters
    ----------
    difference : ndarray of float, shape (m, m)
        ``difference[j, k]`` is mean(run j) - mean(run k).
    pvalue : ndarray of float, shape (m, m)
        The p-values, in (0, 1].
    effect_size : ndarray of float, shape (m, m)
        ES_E = difference / sqrt(V_E).
    exact : bool
        Whether every permutation was enumerated.
    n_resamples : int
        B, the trials ((m!)^n when ``exact``).
    runs : tuple of str
        The run names, in the order of the rows (empty when none were given).

    Examples
    --------
    >>> from fairconv import stats
    >>> from fairconv.datasets import sakai_book
    >>> r = stats.randomised_tukey_hsd(sakai_book().scores, n_resamples=1000, seed=1)
    >>> r.exact, r.pvalue.shape, round(float(r.effect_size[0, 1]), 3)
    (False, (3, 3), 0.507)
    """

    difference: np.ndarray = field(repr=False)
    pvalue: np.ndarray = field(repr=False)
    effect_size: np.ndarray = field(repr=False)
    exact: bool = False
    n_resamples: int = 0
    runs: tuple[str, ...] = ()


@record(eq=False)
class PairwiseTestsResult(_PairMatrices):
    """A test of two runs made on every pair: (m, m) matrices, [j, k] for j minus k.

    ``pvalue`` is uncorrected (``compare`` applies a correction to the family);
    ``effect_size`` is d_z = mean(d) / s_d; ``ci_low``/``ci_high`` the paired-t CI of
    each difference (NaN for the randomised tests); ``exact`` and ``n_resamples``
    describe the trials of the randomised tests (one set of trials for every pair).

    Parameters
    ----------
    test : str
        The test made on each pair (``'paired-t'``, ``'randomisation'``, ``'bootstrap'``).
    difference : ndarray of float, shape (m, m)
        ``difference[j, k]`` is mean(run j) - mean(run k).
    pvalue : ndarray of float, shape (m, m)
        Uncorrected p-values, in [0, 1].
    effect_size : ndarray of float, shape (m, m)
        d_z = mean(d) / s_d.
    ci_low, ci_high : ndarray of float, shape (m, m)
        The bounds of the paired-t CI of each difference (NaN for the randomised tests).
    exact : bool
        Whether the randomised trials enumerated every case.
    n_resamples : int
        B of the randomised tests (0 for the t-test).
    runs : tuple of str
        The run names, in the order of the rows (empty when none were given).

    Examples
    --------
    >>> from fairconv import stats
    >>> from fairconv.datasets import sakai_book
    >>> result = stats.compare(sakai_book().table, "nDCG@5", test="paired-t").result
    >>> result.test, round(float(result.pvalue[0, 1]), 3)
    ('paired-t', 0.048)
    """

    test: str
    difference: np.ndarray = field(repr=False)
    pvalue: np.ndarray = field(repr=False)
    effect_size: np.ndarray = field(repr=False)
    ci_low: np.ndarray = field(repr=False)
    ci_high: np.ndarray = field(repr=False)
    exact: bool
    n_resamples: int
    runs: tuple[str, ...] = ()

    def _why_empty(self, column: str) -> str:
        if column in ("ci_low", "ci_high"):
            return f"the {TEST_NAMES[self.test]} gives no interval of a difference"
        return super()._why_empty(column)


@record(eq=False)
class DiscriminativePowerResult(_Shown):
    """The ASL curve of a measure: the sorted p-values of all run pairs.

    ``pairs`` hold (j, k) indices into ``runs``, in increasing order of ASL.

    Parameters
    ----------
    test : str
        The test that gave the p-values.
    asl : ndarray of float, shape (m (m - 1) / 2,)
        The achieved significance level of every pair, in increasing order.
    pairs : tuple of (int, int)
        The (j, k) indices into ``runs`` of each entry of ``asl``.
    alpha : float
        The significance level.
    power : float
        The discriminative power: the fraction of pairs with ASL < alpha, in [0, 1].
    runs : tuple of str
        The run names (empty when none were given).
    n_topics : int
        The topics the tests used.
    n_resamples : int
        B of the randomised tests (0 for the others).
    exact : bool
        Whether the randomised trials enumerated every case.
    seed : int or None
        The int seed of the trials (None for a Generator).

    Examples
    --------
    >>> from fairconv import stats
    >>> from fairconv.datasets import sakai_book
    >>> d = stats.discriminative_power(sakai_book().scores, test="tukey", runs=("X", "Y", "Z"))
    >>> d.asl.round(3).tolist(), d.power
    ([0.096, 0.257, 0.855], 0.0)
    """

    test: str
    asl: np.ndarray = field(repr=False)
    pairs: tuple[tuple[int, int], ...] = field(repr=False)
    alpha: float = 0.05
    power: float = 0.0
    runs: tuple[str, ...] = ()
    n_topics: int = 0
    n_resamples: int = 0
    exact: bool = False
    seed: int | None = 0

    def _table(self):
        """One row per pair in increasing order of ASL: rank, a, b, asl."""
        names = _names(self.runs or None, 1 + max((max(p) for p in self.pairs), default=0))
        return {
            "rank": np.arange(1, len(self.asl) + 1),
            "a": [names[a] for a, _ in self.pairs],
            "b": [names[b] for _, b in self.pairs],
            "asl": self.asl,
        }

    @public
    def to_dict(self) -> dict:
        """The fields, with ``pairs`` as ``{"a", "b", "asl"}`` by run name.

        Returns
        -------
        dict
            The fields as JSON values, with ``pairs`` as a list of ``{"a", "b", "asl"}``
            dicts in increasing order of ASL.

        Examples
        --------
        >>> from fairconv import stats
        >>> from fairconv.datasets import sakai_book
        >>> d = stats.discriminative_power(sakai_book().scores, test="tukey", runs=("X", "Y", "Z"))
        >>> [(p["a"], p["b"], round(p["asl"], 3)) for p in d.to_dict()["pairs"]]
        [('X', 'Z', 0.096), ('X', 'Y', 0.257), ('Y', 'Z', 0.855)]
        """
        out = {k: plain(getattr(self, k)) for k in self._fields() if k not in ("asl", "pairs")}
        table = self._table()
        out["pairs"] = [
            {"a": a, "b": b, "asl": float(p)}
            for a, b, p in zip(table["a"], table["b"], self.asl.tolist(), strict=True)
        ]
        return out


class Pairs(Sequence):
    """The pairs of a :class:`Comparison`: a sequence of dicts built on access.

    Each dict has ``a``, ``b``, ``difference``, ``ci_low``, ``ci_high``, ``pvalue``,
    ``effect_size`` and ``significant``. The columns are kept as arrays, so that the
    pairs of 600 runs (179,700 of them) cost arrays, not dicts.

    Parameters
    ----------
    names : sequence of str
        The run names, indexed by ``a`` and ``b``.
    a, b : array_like of int, shape (P,)
        The indices into ``names`` of each pair's two runs.
    columns : dict of str to ndarray of float, shape (P,)
        The numbers of each pair, by name; ``pvalue`` among them.
    alpha : float
        The significance level that decides ``significant``.

    Examples
    --------
    >>> from fairconv import stats
    >>> from fairconv.datasets import sakai_book
    >>> pairs = stats.compare(sakai_book().table, "nDCG@5", test="tukey").pairs
    >>> len(pairs), pairs[0]["a"], pairs[0]["b"], round(pairs[0]["difference"], 4)
    (3, 'X', 'Y', 0.075)
    """

    __slots__ = ("_names", "_a", "_b", "_columns", "_alpha")

    def __init__(self, names, a, b, columns: dict[str, np.ndarray], alpha: float):
        self._names = tuple(names)
        self._a, self._b = np.asarray(a), np.asarray(b)
        self._columns = columns
        self._alpha = alpha

    def __len__(self) -> int:
        return len(self._a)

    def _one(self, i: int) -> dict:
        out: dict = {"a": self._names[self._a[i]], "b": self._names[self._b[i]]}
        for key, col in self._columns.items():
            out[key] = float(col[i])
        out["significant"] = bool(out["pvalue"] < self._alpha)
        return out

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._one(k) for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("pair index out of range")
        return self._one(int(i))

    @public
    def columns(self) -> dict[str, np.ndarray]:
        """The pairs as columns: ``a``, ``b`` (names), the numbers and ``significant``.

        Returns
        -------
        dict of str to ndarray, shape (P,)
            ``a`` and ``b`` (object arrays of names), the numbers, and ``significant`` (bool).

        Examples
        --------
        >>> from fairconv import stats
        >>> from fairconv.datasets import sakai_book
        >>> pairs = stats.compare(sakai_book().table, "nDCG@5", test="tukey").pairs
        >>> pairs.columns()["pvalue"].round(3).tolist()
        [0.257, 0.096, 0.855]
        """
        names = np.asarray(self._names, dtype=object)
        return {
            "a": names[self._a] if len(self) else np.array([], dtype=object),
            "b": names[self._b] if len(self) else np.array([], dtype=object),
            **self._columns,
            "significant": self._columns["pvalue"] < self._alpha,
        }

    def __eq__(self, other) -> bool:
        if isinstance(other, Pairs):
            other = list(other)
        # NaN (an interval the test does not give) equals NaN here, as None in to_dict
        return isinstance(other, (list, tuple)) and plain(list(self)) == plain(list(other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{len(self)} pairs>"


@record(eq=False)
class Comparison(_Shown):
    """Runs compared on one measure: what ``fairconv compare`` prints.

    ``direction`` is the measure's (``'higher'``, ``'lower'`` or ``'undirected'``).
    ``runs`` are ordered best first by it (the highest mean first, or the lowest when
    lower is better; the highest first for an undirected measure, where no run is
    better; means that are equal on paper, by exact sums, tie and are ordered by
    name), each a dict with ``name``, ``mean``, ``ci_low`` and ``ci_high``: for the
    Tukey tests the two-way ANOVA interval of the mean, conditional on these topics;
    NaN for the pairwise tests, to which it does not belong. ``pairs`` list every pair
    in that order (:class:`Pairs`), or, against a ``baseline`` (the runs named, in
    the order given), each (run, baseline) pair, with
    ``difference = mean(a) - mean(b)``, the interval of the difference that matches
    the test (``ci_low``/``ci_high``: the paired-t CI for ``paired-t``, Tukey's
    simultaneous CI for ``tukey``, NaN for the randomised tests), ``pvalue`` (corrected
    when asked), ``effect_size`` (``effect_size_name``: ES_E = d / sqrt(V_E) for the
    Tukey tests, d_z = mean(d) / s_d for the pairwise ones) and ``significant``
    (``pvalue < alpha``).

    ``n_resamples`` is B of the randomised tests (the number of permutations when
    ``exact``; 0 for the others), ``seed`` the int seed (None for a Generator).
    ``n_dropped`` topics were left out for undefined values. ``result`` is the
    test's record, its (m, m) matrices in the order of ``runs``; ``anova`` the
    two-way ANOVA in that order, or None where the residual variance V_E is 0 (or, for
    the pairwise tests, where its sums of squares exceed the float range).

    Parameters
    ----------
    measure : str
        The measure compared.
    direction : {'higher', 'lower', 'undirected'}
        The measure's direction.
    test : str
        The test (``'tukey'``, ``'randomised-tukey'``, ``'paired-t'``, ...).
    n_topics : int
        The topics compared.
    n_dropped : int
        Topics left out for undefined values.
    alpha : float
        The significance level.
    correction : str
        The multiple-comparison correction applied to the p-values.
    baseline : tuple of str or None
        The baseline runs, or None when every pair is compared.
    n_resamples : int
        B of the randomised tests (the permutations when ``exact``; 0 for the others).
    exact : bool
        Whether the randomised trials enumerated every case.
    seed : int or None
        The int seed (None for a Generator).
    effect_size_name : str
        The effect size reported (ES_E or d_z).
    runs : tuple of dict
        The runs best first, each with ``name``, ``mean``, ``ci_low`` and ``ci_high``.
    pairs : Pairs
        The pairs, with their difference, interval, p-value, effect size and
        ``significant``.
    result : TukeyHSDResult or RandomisedTukeyHSDResult or PairwiseTestsResult
        The test's record, its (m, m) matrices in the order of ``runs``.
    anova : Anova2Result or None
        The two-way ANOVA in the order of ``runs``, or None (see above).

    Examples
    --------
    >>> from fairconv import stats
    >>> from fairconv.datasets import sakai_book
    >>> c = stats.compare(sakai_book().table, "nDCG@5", test="tukey")
    >>> [(p["a"], p["b"], round(p["pvalue"], 3)) for p in c.pairs]
    [('X', 'Y', 0.257), ('X', 'Z', 0.096), ('Y', 'Z', 0.855)]
    """

    measure: str
    direction: str
    test: str
    n_topics: int
    n_dropped: int
    alpha: float
    correction: str
    baseline: tuple[str, ...] | None
    n_resamples: int
    exact: bool
    seed: int | None
    effect_size_name: str
    runs: tuple[dict, ...] = field(repr=False)
    pairs: Pairs = field(repr=False)
    result: TukeyHSDResult | RandomisedTukeyHSDResult | PairwiseTestsResult = field(repr=False)
    anova: Anova2Result | None = field(repr=False)

    @property
    def p_value_rule(self) -> str:
        """How the p-values were computed: exact, Monte Carlo, or from a distribution."""
        if self.test in ("paired-t", "tukey"):
            return "from the " + ("t" if self.test == "paired-t" else "studentized range")
        return P_VALUE_RULE[bool(self.exact)]

    @public
    def to_dict(self) -> dict:
        """The comparison as ``fairconv compare --format json`` prints it.

        Returns
        -------
        dict
            The fields as JSON values, with ``p_value`` (how the p-values were computed),
            ``runs`` and ``pairs`` as lists of dicts; without ``result`` and ``anova``.

        Examples
        --------
        >>> from fairconv import stats
        >>> from fairconv.datasets import sakai_book
        >>> c = stats.compare(sakai_book().table, "nDCG@5", test="tukey").to_dict()
        >>> c["test"], c["n_topics"], [r["name"] for r in c["runs"]]
        ('tukey', 20, ['X', 'Y', 'Z'])
        """
        out = {
            k: plain(getattr(self, k))
            for k in self._fields()
            if k not in ("runs", "pairs", "result", "anova")
        }
        out["p_value"] = self.p_value_rule
        out["runs"] = plain(self.runs)
        out["pairs"] = [self.pairs[i] for i in range(len(self.pairs))]
        out["pairs"] = plain(out["pairs"])
        return out

    def _table(self):
        """The pairs, one row each, by run name."""
        return self.pairs.columns()

    def _why_empty(self, column: str) -> str:
        if column in ("ci_low", "ci_high"):
            return f"the {TEST_NAMES[self.test]} gives no such interval"
        return super()._why_empty(column)

    def _repr_html_(self) -> str:
        """The runs best first, then the pairs (each at most 20 rows).

        p-values show as ``<0.001`` or with 3 significant digits; interval columns the
        test does not give are left out, with a line saying so.
        """
        runs = {k: [r[k] for r in self.runs] for k in ("name", "mean", "ci_low", "ci_high")}
        against = "" if self.baseline is None else f", against {', '.join(self.baseline)}"
        caption = (
            f"of {len(self.runs)} runs on {self.measure} ({_DIRECTION[self.direction]}): "
            f"{self.test}, {self.n_topics} topics, alpha {self.alpha:g}, correction "
            f"{self.correction}{against}, effect size {self.effect_size_name}, p "
            f"{self.p_value_rule}"
        )
        return shown_html(runs, "Comparison", caption, self._why_empty) + shown_html(
            self._table(), "Pairs", "", self._why_empty
        )

    @public
    def to_latex(self) -> str:
        r"""The comparison as a LaTeX table: what ``fairconv compare --format latex`` prints.

        Returns
        -------
        str
            A ``table`` float with two booktabs tabulars (the runs best first, then the
            pairs) and a caption stating the measure and its direction, the test, how
            the p-values were made (B and the seed, or the exact enumeration), alpha,
            the correction, the number of topics and the effect size. Names are
            escaped; p below 0.001 prints as <0.001. Needs ``\usepackage{booktabs}``.

        See Also
        --------
        to_markdown : the same as Markdown.

        Examples
        --------
        >>> from fairconv import stats
        >>> from fairconv.datasets import sakai_book
        >>> c = stats.compare(sakai_book().table, "nDCG@5", test="tukey")
        >>> print(c.to_latex().splitlines()[1])
        \centering
        """
        return comparison_latex(self)

    @public
    def to_markdown(self) -> str:
        """The comparison as Markdown: ``fairconv compare --format markdown``.

        Returns
        -------
        str
            The caption as a paragraph, then the runs and the pairs as two tables
            (GitHub's tables; names escaped).

        See Also
        --------
        to_latex : the same as LaTeX.

        Examples
        --------
        >>> from fairconv import stats
        >>> from fairconv.datasets import sakai_book
        >>> c = stats.compare(sakai_book().table, "nDCG@5", test="tukey")
        >>> print(c.to_markdown().splitlines()[2])
        | Run | Mean | Interval |
        """
        return comparison_markdown(self)
