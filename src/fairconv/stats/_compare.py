"""Systems compared on per-topic score tables.

:func:`compare`, the discriminative power of a measure, and the (topics, systems)
matrix of a :class:`~fairconv.results.ScoreTable` (:func:`scores_of`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .._validation import as_float_array, caller, check_choice, check_int, fail, public
from ..results import ScoreTable
from ._anova import _anova2, _randomised_tukey, _tukey
from ._common import _alpha, _constant, _matrix, _rng, _scaled, _scipy_stats, _unscaled
from ._corrections import CORRECTIONS, adjust_pvalues
from ._pairs import _bootstrap_counts, _randomisation_counts
from ._results import (
    Comparison,
    DiscriminativePowerResult,
    PairwiseTestsResult,
    RandomisedTukeyHSDResult,
    TukeyHSDResult,
)

TESTS = ("randomised-tukey", "tukey", "paired-t", "randomisation", "bootstrap")
"""Test names, the same in the API (``test=``) and on the command line (``--test``)."""


def _pairwise(
    x: np.ndarray,
    test: str,
    n_resamples: int,
    rng,
    alpha: float,
    names=None,
    chunk=None,
    params: str = "'table' parameter",
) -> TukeyHSDResult | RandomisedTukeyHSDResult | PairwiseTestsResult:
    """The test's record for every pair of columns of x (named ``names`` in errors).

    Errors name ``func``, the function called, and its ``params``.
    """
    if test == "tukey":
        return _tukey(x, alpha, params)
    if test == "randomised-tukey":
        return _randomised_tukey(x, n_resamples, rng, chunk, params)
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
    shown = _unscaled(diff[:, None] - diff[None, :], e, "every difference of system means", params)
    return PairwiseTestsResult(test, shown, p, es, exact, trials)


@public
def discriminative_power(
    scores,
    /,
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
    x = _matrix(scores)
    test = check_choice(test, "test", TESTS)
    alpha = _alpha(alpha)
    n_resamples = check_int(n_resamples, "n_resamples", minimum=1)
    p = _pairwise(x, test, n_resamples, _rng(seed), alpha, params="'scores' parameter").pvalue
    j, k = np.triu_indices(x.shape[1], 1)
    pv = p[j, k]
    order = np.argsort(pv, kind="stable")
    pairs = tuple((int(a), int(b)) for a, b in zip(j[order], k[order], strict=True))
    return DiscriminativePowerResult(test, pv[order], pairs, alpha, float((pv < alpha).mean()))


# --------------------------------------------------------------------------- score tables
@public
def scores_of(
    table, measure: str, /, *, nan_policy: str = "raise", topics: Sequence[str] | None = None
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
    if not isinstance(table, ScoreTable):
        raise TypeError(
            f"The 'table' parameter of {caller()} must be a ScoreTable. "
            f"Got {type(table).__name__} instead."
        )
    nan_policy = check_choice(nan_policy, "nan_policy", ("raise", "omit"))
    if measure not in table.measures:
        raise fail("measure", f"be one of {', '.join(table.measures)}", repr(measure))
    col = table.measures.index(measure)
    keep: np.ndarray = np.asarray(table.present[:, :, col].all(axis=1))
    if topics is not None:
        keep &= _topic_mask(table.topics, topics)
    values = table.values[keep, :, col]  # (topics, runs)
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


def _topic_mask(all_topics: Sequence[str], topics) -> np.ndarray:
    """Which of ``all_topics`` are in ``topics`` (a sequence of known ids, each once)."""
    if isinstance(topics, (str, bytes)) or not isinstance(topics, Sequence):
        raise TypeError(
            f"The 'topics' parameter of {caller()} must be a sequence of topic ids. "
            f"Got {type(topics).__name__} instead."
        )
    wanted = set(topics)
    if len(wanted) != len(topics):
        twice = next(t for i, t in enumerate(topics) if t in topics[:i])
        raise fail("topics", "list each topic once", f"{twice!r} twice")
    unknown = sorted(wanted - set(all_topics), key=str)
    if unknown:
        raise fail(
            "topics",
            "list topics of the scores",
            ", ".join(map(repr, unknown[:5])) + (" and more" if len(unknown) > 5 else ""),
        )
    return np.array([t in wanted for t in all_topics], dtype=bool)


@public
def compare(
    table,
    measure: str,
    /,
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
    test = check_choice(test, "test", TESTS)
    correction = check_choice(correction, "correction", CORRECTIONS)
    if test in ("tukey", "randomised-tukey") and correction != "none":
        raise ValueError(
            f"{test} already controls the familywise error: a {correction} correction "
            "does not apply (use a pairwise test, or no correction)"
        )
    alpha = _alpha(alpha)
    n_resamples = check_int(n_resamples, "n_resamples", minimum=1)
    if not isinstance(measure, str):
        raise TypeError(
            f"The 'measure' parameter of {caller()} must be a str. "
            f"Got {type(measure).__name__} instead."
        )
    if systems is not None and (
        isinstance(systems, (str, bytes)) or not hasattr(systems, "__len__")
    ):
        raise TypeError(
            f"The 'systems' parameter of {caller()} must be a sequence of names. "
            f"Got {type(systems).__name__} instead."
        )
    if isinstance(table, ScoreTable):
        if systems is not None:
            raise fail("systems", "be None for a ScoreTable (its runs name them)", "names")
        x, _, dropped = scores_of(table, measure, nan_policy=nan_policy, topics=topics)
        names = list(table.runs)
    else:
        x, names, dropped = _array_scores(table, nan_policy, topics, systems)
    if x.shape[0] < 2:
        raise ValueError(
            f"{measure} exists for every system on {x.shape[0]} topic(s): a comparison "
            "needs at least 2"
        )
    x = _matrix(x)
    order = np.argsort(-_scaled(x)[0].mean(axis=0), kind="stable")
    runs = [names[i] for i in order]
    x = x[:, order]
    result = _pairwise(x, test, n_resamples, _rng(seed), alpha, names=runs)
    # the randomisation test stays defined where V_E is 0; the ANOVA CIs do not
    a = _anova2(x, alpha, "'table' parameter", undefined_ok=test == "randomisation")
    if a is None:
        scaled, e = _scaled(x)
        means = _unscaled(scaled.mean(axis=0), e, "every system mean", "'table' parameter")
        low = high = np.full(x.shape[1], np.nan)
    else:
        means, low, high = a.means, a.ci_low, a.ci_high
    j, k = np.triu_indices(x.shape[1], 1)
    pv = adjust_pvalues(result.pvalue[j, k], method=correction)
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


def _array_scores(scores, nan_policy, topics, systems):
    """(scores, names, n_dropped) of an array given to ``compare``."""
    nan_policy = check_choice(nan_policy, "nan_policy", ("raise", "omit"))
    if topics is not None:
        raise fail("topics", "be None for an array (select its rows instead)", "ids")
    x = as_float_array(scores, "table")
    if x.ndim != 2:
        raise fail("table", "be a ScoreTable or a (topics, systems) array", f"{x.shape}")
    if np.isinf(x).any():
        raise fail("table", "hold finite scores or NaN", "infinity")
    if systems is None:
        names = [str(i) for i in range(x.shape[1])]
    else:
        names = [str(s) for s in systems]
        if len(names) != x.shape[1] or len(set(names)) != len(names):
            raise fail("systems", f"give {x.shape[1]} distinct names", f"{len(names)} names")
    undefined = np.isnan(x).any(axis=1)
    if undefined.any() and nan_policy == "raise":
        raise ValueError(
            f"{caller()}: a score is undefined (NaN) on topic {int(np.argmax(undefined))}; pass "
            "nan_policy='omit' to leave such topics out"
        )
    return x[~undefined], names, int(undefined.sum())
