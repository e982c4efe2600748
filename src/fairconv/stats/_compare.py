"""Systems compared on per-topic score tables.

:func:`compare`, the discriminative power of a measure, and the (topics, systems)
matrix of a :class:`~fairconv.results.ScoreTable` (:func:`scores_of`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .. import _core
from .._validation import (
    as_float_array,
    caller,
    check_choice,
    check_instance,
    check_int,
    check_names,
    check_once,
    fail,
    fail_params,
    public,
)
from ..results import ScoreTable
from ._anova import _anova2, _randomised_tukey, _tukey
from ._common import (
    MIN_TOPICS,
    _alpha,
    _canonical,
    _check_topics,
    _constant,
    _matrix,
    _p_values,
    _rng,
    _run_names,
    _scipy_stats,
    _seed_shown,
)
from ._corrections import CORRECTIONS, adjust_pvalues
from ._pairs import _bootstrap_counts, _pair_blocks, _randomisation_counts, _t_critical
from ._results import (
    Comparison,
    DiscriminativePowerResult,
    Pairs,
    PairwiseTestsResult,
    RandomisedTukeyHSDResult,
    TukeyHSDResult,
)

TESTS = ("randomised-tukey", "tukey", "paired-t", "randomisation", "bootstrap")
"""Test names, the same in the API (``test=``) and on the command line (``--test``)."""

EFFECT_SIZES = {
    "randomised-tukey": "ES_E",
    "tukey": "ES_E",
    "paired-t": "d_z",
    "randomisation": "d_z",
    "bootstrap": "d_z",
}
"""The effect size of each test: ES_E = d / sqrt(V_E) (ANOVA-based), d_z = mean(d) / s_d."""


def _pairwise(
    x: np.ndarray,
    test: str,
    n_resamples: int,
    rng,
    alpha: float,
    names: tuple[str, ...] | None = None,
    chunk=None,
    params: tuple[str, ...] = ("table",),
) -> TukeyHSDResult | RandomisedTukeyHSDResult | PairwiseTestsResult:
    """The test's record for every pair of columns of x (named ``names``).

    Errors name the function called (``caller()``) and ``params``, the parameters that
    hold the scores.
    """
    _check_topics(x.shape[0], MIN_TOPICS.get(test, 2), test, params)
    names = tuple(str(i) for i in range(x.shape[1])) if names is None else names
    if test == "tukey":
        return _tukey(x, alpha, params, names)
    if test == "randomised-tukey":
        return _randomised_tukey(x, n_resamples, rng, chunk, params, names)
    return _paired(x, test, n_resamples, rng, alpha, names, chunk, params)


def _paired(x, test, n_resamples, rng, alpha, names, chunk, params) -> PairwiseTestsResult:
    """A test of two runs on every pair, a block of pairs at a time (bounded memory).

    Every block sees the same trials: the random stream is rewound to its start for
    each block, so that a pair's p does not depend on the blocks or on the other runs.
    """
    n, m = x.shape
    j, k = np.triu_indices(m, 1)
    pv = np.empty(len(j))
    effect = np.empty(len(j))
    low = np.full(len(j), np.nan)
    high = np.full(len(j), np.nan)
    start_state = rng.bit_generator.state
    exact, trials = False, n_resamples
    for start, stop, d, mag, e in _pair_blocks(x, j, k):
        constant = _constant(d, mag)
        if test in ("paired-t", "bootstrap") and constant.any():
            bad = start + int(np.argmax(constant))
            raise ValueError(
                f"runs {names[j[bad]]} and {names[k[bad]]} differ by the same amount on every "
                f"topic (within rounding): s_d is 0 and the {test} test is undefined for them"
            )
        if test == "randomisation" and not np.any(d, axis=0).all():
            bad = start + int(np.argmin(np.any(d, axis=0)))
            raise ValueError(
                f"runs {names[j[bad]]} and {names[k[bad]]} score the same on every topic: "
                "there is nothing to test"
            )
        mean = d.mean(axis=0)
        sd = d.std(axis=0, ddof=1)
        effect[start:stop] = np.where(constant, np.nan, mean / np.where(constant, 1.0, sd))
        if test == "paired-t":
            se = sd / math.sqrt(n)
            pv[start:stop] = 2 * _scipy_stats().t.sf(np.abs(mean / se), n - 1)
            margin = _t_critical(alpha, n - 1) * se
            with np.errstate(over="ignore"):
                lo, hi = np.ldexp(mean - margin, e), np.ldexp(mean + margin, e)
            if not (np.isfinite(lo).all() and np.isfinite(hi).all()):
                bad = start + int(np.argmin(np.isfinite(lo) & np.isfinite(hi)))
                raise fail_params(
                    params,
                    "hold scores small enough that the CI of every difference is a finite float",
                    f"runs {names[j[bad]]} and {names[k[bad]]}, for which it exceeds 1.8e308,",
                    hint="divide the scores by a constant",
                )
            low[start:stop], high[start:stop] = lo, hi
            continue
        rng.bit_generator.state = start_state  # the same trials for every block
        if test == "randomisation":
            counts, trials, exact = _randomisation_counts(d, mag, n_resamples, rng, chunk)
        else:
            counts, _ = _bootstrap_counts(d, mag, n_resamples, rng, chunk)
        pv[start:stop] = _p_values(counts, trials, exact)
    if test == "paired-t":
        trials = 0
    p = np.ones((m, m))
    es = np.zeros((m, m))
    lo_m = np.full((m, m), np.nan)
    hi_m = np.full((m, m), np.nan)
    p[j, k] = p[k, j] = pv
    es[j, k], es[k, j] = effect, -effect
    lo_m[j, k], hi_m[j, k] = low, high
    lo_m[k, j], hi_m[k, j] = -high, -low
    means = _core.fsum_means(x)
    with np.errstate(over="ignore", invalid="ignore"):
        diff = means[:, None] - means[None, :]
    if not np.isfinite(diff).all():
        raise fail_params(
            params,
            "hold scores small enough that every difference of run means is a finite float",
            "scores for which it exceeds 1.8e308",
            hint="divide them by a constant",
        )
    return PairwiseTestsResult(test, diff, p, es, lo_m, hi_m, exact, trials, names)


def _reorder(result, order: np.ndarray, names: tuple[str, ...]):
    """The record with its (m, m) matrices and names in ``order``."""
    fields = {}
    for key, value in vars(result).items():
        if isinstance(value, np.ndarray) and value.ndim == 2:
            fields[key] = value[np.ix_(order, order)]
        else:
            fields[key] = value
    fields["runs"] = names
    return type(result)(**fields)


@public
def discriminative_power(
    scores,
    /,
    *,
    test: str = "randomised-tukey",
    alpha: float = 0.05,
    n_resamples: int = 10000,
    seed=0,
    runs=None,
) -> DiscriminativePowerResult:
    r"""Discriminative power of a measure (Sakai, SIGIR 2006): its ASL curve.

    Parameters
    ----------
    scores : array_like, shape (topics, runs)
        The measure's per-topic scores of every run.
    test : {'randomised-tukey', 'tukey', 'paired-t', 'randomisation', 'bootstrap'}
    alpha : float
        The significance level at which the power is counted.
    n_resamples : int
        Trials of the randomised tests (one set of trials serves every pair).
    seed : int or numpy.random.Generator, optional
        Default 0; None draws a fresh seed.
    runs : sequence of str, optional
        Names of the columns (default ``"0"``, ``"1"``, ...). The trials are drawn
        with the runs in the order of their names, as :func:`compare` draws them: a
        pair's ASL is the p that ``compare`` gives it (without correction).

    Returns
    -------
    DiscriminativePowerResult
        ``asl``: the p-values of all m(m-1)/2 pairs in increasing order; ``pairs``:
        the (j, k) of each, indices into ``runs``; ``power``: the fraction of pairs
        with p < alpha; the test's B, seed and whether its p is exact.

    Raises
    ------
    ValueError
        For the input errors of the test, a test that is undefined for a pair, or
        fewer topics than the test needs (4 for the bootstrap).

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
    names = _run_names(runs, x.shape[1], "runs")
    return _discriminative_power(x, names, None, test, alpha, n_resamples, seed)


def _discriminative_power(x, names, topics, test, alpha, n_resamples, seed):
    """The ASL curve of checked scores, the trials drawn in the canonical order."""
    order, rows = _canonical(names, topics)
    canon = x[:, order] if rows is None else x[np.ix_(rows, order)]
    result = _pairwise(
        canon,
        test,
        n_resamples,
        _rng(seed),
        alpha,
        tuple(names[i] for i in order),
        params=("scores",),
    )
    # pairs in the order of the run names (ties in ASL too): the same list whatever
    # the order of the runs given; indices into ``runs`` as given
    j, k = np.triu_indices(x.shape[1], 1)
    pv = result.pvalue[j, k]
    rank = np.argsort(pv, kind="stable")
    pairs = tuple((int(a), int(b)) for a, b in zip(order[j[rank]], order[k[rank]], strict=True))
    exact = bool(getattr(result, "exact", False))
    trials = int(getattr(result, "n_resamples", 0))
    return DiscriminativePowerResult(
        test, pv[rank], pairs, alpha, float((pv < alpha).mean()), tuple(names),
        x.shape[0], trials, exact, _seed_shown(seed),
    )  # fmt: skip


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
        If ``table`` is not a ScoreTable, ``measure`` not a str, or ``topics`` is a
        string.
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
    return _scores_of(table, measure, nan_policy, topics)


def _scores_of(table, measure, nan_policy, topics):
    """:func:`scores_of`, its errors naming the function the user called."""
    check_instance(table, ScoreTable, "table")
    check_instance(measure, str, "measure")
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
            f"{caller()}: {measure} is undefined (NaN) on topic {t!r} for some run; pass "
            "nan_policy='omit' (--nan-policy omit) to leave such topics out"
        )
    return (
        values[~undefined],
        tuple(t for t, u in zip(names, undefined, strict=True) if not u),
        int(undefined.sum()),
    )


def _topic_mask(all_topics: Sequence[str], topics) -> np.ndarray:
    """Which of ``all_topics`` are in ``topics`` (a sequence of known ids, each once)."""
    topics = check_names(topics, "topics", "topic ids")
    check_once(topics, "topics", what="topic")
    wanted = set(topics)
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
    seed=0,
    alpha: float = 0.05,
    nan_policy: str = "raise",
    topics: Sequence[str] | None = None,
    correction: str = "none",
    runs: Sequence[str] | None = None,
) -> Comparison:
    """Compare runs on one measure over topics, as a paper's results table does.

    Parameters
    ----------
    table : ScoreTable or array_like, shape (topics, runs)
        A table, or the scores themselves.
    measure : str
        The measure's name (``"GFR@10"``): the column of the table, or the label of
        the array's scores.
    test : {'randomised-tukey', 'tukey', 'paired-t', 'randomisation', 'bootstrap'}
        Default: the randomised Tukey HSD.
    n_resamples : int
        B for the randomised tests (10,000 by default).
    seed : int or numpy.random.Generator, optional
        For reproducible trials: default 0, so that two calls print the same p; None
        draws a fresh seed.
    alpha : float
        Significance level, and 100(1 - alpha)% intervals.
    nan_policy : {'raise', 'omit'}
        A topic where a run's value is undefined (NaN): an error, or left out and
        counted in ``n_dropped``.
    topics : sequence of str, optional
        Only these topics of the table (a table only).
    correction : {'none', 'bonferroni', 'holm', 'bh'}
        For the pairwise tests; the Tukey tests already control the familywise error
        and refuse one.
    runs : sequence of str, optional
        Names of an array's columns (default ``"0"``, ``"1"``, ...; a table has its
        run names). A string is not a sequence of names here: a TypeError.

    Returns
    -------
    Comparison
        The runs by mean (with their two-way ANOVA intervals for the Tukey tests),
        and every pair in that order with ``difference`` = mean(a) - mean(b), the
        interval of the difference that matches the test, ``pvalue``,
        ``effect_size`` (d_z = mean(d) / s_d for the pairwise tests, ES_E for the
        Tukey tests) and ``significant``; the test's B, seed and p rule.

    Raises
    ------
    ValueError
        For the errors of the tests, an unknown measure or topic, fewer topics than
        the test needs (2; 4 for the bootstrap) where the measure exists for every
        run, or a correction with a Tukey test.
    TypeError
        If ``measure`` is not a str, or ``topics`` or ``runs`` is a string, or a name
        in ``runs`` is not a str.

    Notes
    -----
    A table's topics are those where the measure exists for every run; with
    ``nan_policy='omit'`` those where a run's value is undefined are left out too.
    The trials of the randomised tests are drawn with the runs in the order of their
    names and the topics in the order of their ids, so that a seed gives the same p
    whatever the order of the files, the runs or the topics. Run means are ranked by
    correctly rounded sums: means equal on paper tie.

    Examples
    --------
    >>> from fairconv.datasets import sakai_book
    >>> c = compare(sakai_book().table, "nDCG@5", test="tukey")
    >>> [(p["a"], p["b"], round(p["pvalue"], 3)) for p in c.pairs][:1]
    [('X', 'Y', 0.257)]
    >>> c = compare([[0.5, 0.4], [0.7, 0.5], [0.3, 0.3]], "P@10", test="paired-t",
    ...             runs=["bm25", "qld"])
    >>> c.pairs[0]["a"], round(c.pairs[0]["pvalue"], 3)
    ('bm25', 0.225)
    """
    test = check_choice(test, "test", TESTS)
    correction = check_choice(correction, "correction", CORRECTIONS)
    if test in ("tukey", "randomised-tukey") and correction != "none":
        raise fail_params(
            ("test", "correction"),
            f"not add a correction to {test}, which already controls the familywise error",
            f"{correction!r}",
            hint="use a pairwise test, or no correction",
        )
    alpha = _alpha(alpha)
    n_resamples = check_int(n_resamples, "n_resamples", minimum=1)
    check_instance(measure, str, "measure")
    topic_ids = None
    if isinstance(table, ScoreTable):
        if runs is not None:
            _run_names(runs, len(runs) if hasattr(runs, "__len__") else 0, "runs")
            raise fail("runs", "be None for a ScoreTable (its runs name them)", "names")
        x, topic_ids, dropped = _scores_of(table, measure, nan_policy, topics)
        names = tuple(table.runs)
    else:
        x, names, dropped = _array_scores(table, nan_policy, topics, runs)
    if x.shape[0] < 2:
        raise ValueError(
            f"{measure} exists for every run on {x.shape[0]} topic(s): a comparison "
            "needs at least 2"
        )
    x = _matrix(x)
    canon, rows = _canonical(names, topic_ids)
    if rows is not None:
        x = x[rows]
    means = _core.fsum_means(x)
    # highest mean first; means equal on paper (exact sums) by name
    order = np.array(sorted(range(len(names)), key=lambda i: (-means[i], names[i])), dtype=np.int64)
    shown = tuple(names[i] for i in order)
    result = _pairwise(
        x[:, canon], test, n_resamples, _rng(seed), alpha,
        tuple(names[i] for i in canon),
    )  # fmt: skip
    # the test ran on the runs by name; show them by mean
    at = np.argsort(canon)[order]
    result = _reorder(result, at, shown)
    x = x[:, order]
    tukey = test in ("tukey", "randomised-tukey")
    # the randomisation test stays defined where V_E is 0; the ANOVA intervals do not
    try:
        a = _anova2(x, alpha, ("table",), undefined_ok=not tukey, runs=shown)
    except ValueError:
        if tukey:
            raise
        a = None  # beyond the float range: the pairwise tests are scaled per pair
    nan = np.full(x.shape[1], np.nan)
    low, high = (a.ci_low, a.ci_high) if tukey and a is not None else (nan, nan)
    j, k = np.triu_indices(x.shape[1], 1)
    pv = adjust_pvalues(result.pvalue[j, k], correction=correction)
    listed = tuple(
        {"name": r, "mean": float(means[order[i]]), "ci_low": float(low[i]),
         "ci_high": float(high[i])}
        for i, r in enumerate(shown)
    )  # fmt: skip
    ci = getattr(result, "ci_low", None)
    columns = {
        "difference": result.difference[j, k],
        "ci_low": result.ci_low[j, k] if ci is not None else np.full(len(j), np.nan),
        "ci_high": result.ci_high[j, k] if ci is not None else np.full(len(j), np.nan),
        "pvalue": np.asarray(pv, dtype=np.float64),
        "effect_size": result.effect_size[j, k],
    }
    return Comparison(
        measure, test, x.shape[0], dropped, alpha, correction,
        int(getattr(result, "n_resamples", 0)), bool(getattr(result, "exact", False)),
        _seed_shown(seed), EFFECT_SIZES[test], listed, Pairs(shown, j, k, columns, alpha),
        result, a,
    )  # fmt: skip


def _array_scores(scores, nan_policy, topics, runs):
    """(scores, names, n_dropped) of an array given to ``compare``."""
    nan_policy = check_choice(nan_policy, "nan_policy", ("raise", "omit"))
    if topics is not None:
        raise fail("topics", "be None for an array (select its rows instead)", "ids")
    x = as_float_array(scores, "table")
    if x.ndim != 2:
        raise fail("table", "be a ScoreTable or a (topics, runs) array", f"{x.shape}")
    if np.isinf(x).any():
        raise fail("table", "hold finite scores or NaN", "infinity")
    names = _run_names(runs, x.shape[1], "runs")
    undefined = np.isnan(x).any(axis=1)
    if undefined.any() and nan_policy == "raise":
        raise ValueError(
            f"{caller()}: a score is undefined (NaN) on topic {int(np.argmax(undefined))}; pass "
            "nan_policy='omit' to leave such topics out"
        )
    return x[~undefined], names, int(undefined.sum())
