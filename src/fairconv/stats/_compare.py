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
from ..results import ScoreTable, direction_of, few
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
    pairs: tuple[np.ndarray, np.ndarray] | None = None,
) -> TukeyHSDResult | RandomisedTukeyHSDResult | PairwiseTestsResult:
    """The test's record for every pair of columns of x (named ``names``).

    Errors name the function called (``caller()``) and ``params``, the parameters that
    hold the scores. ``pairs`` (j, k) with j < k limits a test of two runs to those
    pairs (the others are NaN in its matrices); a Tukey test always takes every pair,
    its family.
    """
    _check_topics(x.shape[0], MIN_TOPICS.get(test, 2), test, params)
    names = tuple(str(i) for i in range(x.shape[1])) if names is None else names
    if test == "tukey":
        return _tukey(x, alpha, params, names)
    if test == "randomised-tukey":
        return _randomised_tukey(x, n_resamples, rng, chunk, params, names)
    return _paired(x, test, n_resamples, rng, alpha, names, chunk, params, pairs)


def _paired(
    x, test, n_resamples, rng, alpha, names, chunk, params, pairs=None
) -> PairwiseTestsResult:
    """A test of two runs on every pair (or on ``pairs``), a block of pairs at a time.

    Every block sees the same trials: the random stream is rewound to its start for
    each block, so that a pair's p does not depend on the blocks or on the other runs
    (nor on the other pairs tested). Memory is bounded by the block.
    """
    n, m = x.shape
    j, k = np.triu_indices(m, 1) if pairs is None else pairs
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
    # pairs not tested (another run than a baseline's) have no p and no effect size
    p = np.full((m, m), 1.0 if pairs is None else np.nan)
    es = np.full((m, m), 0.0 if pairs is None else np.nan)
    np.fill_diagonal(p, 1.0)
    np.fill_diagonal(es, 0.0)
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
        The scores.
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
    baseline: str | Sequence[str] | None = None,
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
        For the pairwise tests, over the pairs tested; the Tukey tests already control
        the familywise error and refuse one.
    runs : sequence of str, optional
        Names of an array's columns (default ``"0"``, ``"1"``, ...; a table has its
        run names). A string is not a sequence of names here: a TypeError.
    baseline : str or sequence of str, optional
        One run, or several: only the pairs of a baseline with another run are tested
        and listed, each as (run, baseline), baselines in the order given. A test of
        two runs is made on those pairs only and a correction runs over them; a Tukey
        test keeps its family of all pairs (its p-values are those of all pairs).

    Returns
    -------
    Comparison
        The runs best first by the measure's direction (with their two-way ANOVA
        intervals for the Tukey tests), and every pair tested with ``difference`` =
        mean(a) - mean(b), the interval of the difference that matches the test,
        ``pvalue``, ``effect_size`` (d_z = mean(d) / s_d for the pairwise tests, ES_E
        for the Tukey tests) and ``significant``; the test's B, seed and p rule.

    Raises
    ------
    ValueError
        For the errors of the tests, an unknown measure, topic or baseline, fewer
        topics than the test needs (2; 4 for the bootstrap) where the measure exists
        for every run, or a correction with a Tukey test.
    TypeError
        If ``measure`` is not a str, or ``topics``, ``runs`` or ``baseline`` is not a
        str or a sequence of them as documented.

    See Also
    --------
    report : several measures in one table, marked where runs differ.
    discriminative_power : the p-values of every pair as an ASL curve.

    Notes
    -----
    A table's topics are those where the measure exists for every run; with
    ``nan_policy='omit'`` those where a run's value is undefined are left out too.
    The measure's direction (``ScoreTable.directions``; for an array, that of its name,
    :func:`fairconv.results.direction_of`) orders the runs: highest mean first when
    higher is better, lowest first when lower is better, highest first for an
    undirected measure, where no run is better. The trials of the randomised tests are
    drawn with the runs in the order of their names and the topics in the order of
    their ids, so that a seed gives the same p whatever the order of the files, the
    runs or the topics. Run means are ranked by correctly rounded sums: means equal on
    paper tie, and are ordered by name.

    Examples
    --------
    >>> from fairconv.datasets import sakai_book
    >>> c = compare(sakai_book().table, "nDCG@5", test="tukey")
    >>> [(p["a"], p["b"], round(p["pvalue"], 3)) for p in c.pairs][:1]
    [('X', 'Y', 0.257)]
    >>> c = compare(sakai_book().table, "nDCG@5", test="paired-t", baseline="Z")
    >>> [(p["a"], p["b"], round(p["pvalue"], 3)) for p in c.pairs]
    [('X', 'Z', 0.123), ('Y', 'Z', 0.522)]
    >>> c = compare([[0.5, 0.4], [0.7, 0.5], [0.3, 0.3]], "P@10", test="paired-t",
    ...             runs=["bm25", "qld"])
    >>> c.pairs[0]["a"], round(c.pairs[0]["pvalue"], 3)
    ('bm25', 0.225)
    """
    test, correction, alpha, n_resamples = _test_options(test, correction, alpha, n_resamples)
    check_instance(measure, str, "measure")
    topic_ids = None
    if isinstance(table, ScoreTable):
        if runs is not None:
            _run_names(runs, len(runs) if hasattr(runs, "__len__") else 0, "runs")
            raise fail("runs", "be None for a ScoreTable (its runs name them)", "names")
        x, topic_ids, dropped = _scores_of(table, measure, nan_policy, topics)
        names = tuple(table.runs)
        direction = direction_in(table, measure)
    else:
        x, names, dropped = _array_scores(table, nan_policy, topics, runs)
        direction = direction_of(measure)
    baselines = _baselines(baseline, names)
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
    # best first by the direction; means equal on paper (exact sums) by name
    sign = 1.0 if direction == "lower" else -1.0
    order = np.array(
        sorted(range(len(names)), key=lambda i: (sign * means[i], names[i])), dtype=np.int64
    )
    shown = tuple(names[i] for i in order)
    at = np.argsort(canon)[order]  # position in the canonical order of each shown run
    j, k = _listed_pairs(shown, baselines)
    pairs = None
    if baselines is not None and test not in ("tukey", "randomised-tukey"):
        a, b = at[j], at[k]  # only these pairs are tested, in the canonical orientation
        pairs = (np.minimum(a, b), np.maximum(a, b))
    result = _pairwise(
        x[:, canon], test, n_resamples, _rng(seed), alpha,
        tuple(names[i] for i in canon), pairs=pairs,
    )  # fmt: skip
    # the test ran on the runs by name; show them best first
    result = _reorder(result, at, shown)
    x = x[:, order]
    tukey = test in ("tukey", "randomised-tukey")
    # the randomisation test stays defined where V_E is 0; the ANOVA intervals do not
    try:
        a_result = _anova2(x, alpha, ("table",), undefined_ok=not tukey, runs=shown)
    except ValueError:
        if tukey:
            raise
        a_result = None  # beyond the float range: the pairwise tests are scaled per pair
    nan = np.full(x.shape[1], np.nan)
    low, high = (a_result.ci_low, a_result.ci_high) if tukey and a_result else (nan, nan)
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
        measure=measure,
        direction=direction,
        test=test,
        n_topics=x.shape[0],
        n_dropped=dropped,
        alpha=alpha,
        correction=correction,
        baseline=baselines,
        n_resamples=int(getattr(result, "n_resamples", 0)),
        exact=bool(getattr(result, "exact", False)),
        seed=_seed_shown(seed),
        effect_size_name=EFFECT_SIZES[test],
        runs=listed,
        pairs=Pairs(shown, j, k, columns, alpha),
        result=result,
        anova=a_result,
    )


def direction_in(table: ScoreTable, measure: str) -> str:
    """The direction of a measure of a table (:attr:`ScoreTable.directions`)."""
    return (table.directions or {}).get(measure) or direction_of(measure)


def _test_options(test, correction, alpha, n_resamples) -> tuple[str, str, float, int]:
    """The options of a comparison checked: a Tukey test takes no correction."""
    test = check_choice(test, "test", TESTS)
    correction = check_choice(correction, "correction", CORRECTIONS)
    if test in ("tukey", "randomised-tukey") and correction != "none":
        raise fail_params(
            ("test", "correction"),
            f"not add a correction to {test}, which already controls the familywise error",
            f"{correction!r}",
            hint="use a pairwise test, or no correction",
        )
    return test, correction, _alpha(alpha), check_int(n_resamples, "n_resamples", minimum=1)


def _baselines(baseline, names: tuple[str, ...]) -> tuple[str, ...] | None:
    """``baseline`` checked: None, or runs of ``names`` (a str is one run), each once."""
    if baseline is None:
        return None
    chosen = [baseline] if isinstance(baseline, str) else check_names(baseline, "baseline", "runs")
    if not chosen:
        raise fail("baseline", "name at least one run (or be None for every pair)", "none")
    check_once(chosen, "baseline", what="run")
    unknown = [b for b in chosen if b not in names]
    if unknown:
        raise fail(
            "baseline", f"name runs of the scores ({few(names)})", few([repr(u) for u in unknown])
        )
    return tuple(chosen)


def _listed_pairs(shown: tuple[str, ...], baselines) -> tuple[np.ndarray, np.ndarray]:
    """The pairs a comparison lists, (j, k) indices into ``shown`` (best first).

    Every pair j < k; or, against baselines, (run, baseline) for each baseline in the
    order given and each other run best first, a pair of two baselines once (under the
    first of them).
    """
    m = len(shown)
    if baselines is None:
        return np.triu_indices(m, 1)
    index = {name: i for i, name in enumerate(shown)}
    base = np.array([index[b] for b in baselines], dtype=np.int64)
    rank = np.full(m, len(base))  # a run's place among the baselines (len: none)
    rank[base] = np.arange(len(base))
    j = np.tile(np.arange(m), len(base))
    k = np.repeat(base, m)
    # under the l-th baseline, every run but itself and the baselines before it
    keep = rank[j] > np.repeat(np.arange(len(base)), m)
    return j[keep], k[keep]


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
