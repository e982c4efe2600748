"""The results section in one call: runs x measures, each cell the mean, marked.

:func:`report` runs :func:`~fairconv.stats.compare` once per measure with the same
options and puts the means and the significant differences in one table, as a paper
prints it; :class:`Report` writes it as LaTeX, Markdown, TSV, JSON and HTML.
"""

from __future__ import annotations

import html
import string
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .. import _core
from .._records import HTML_ROWS, Record, html_table, plain, record
from .._validation import (
    caller,
    check_choice,
    check_instance,
    check_names,
    check_once,
    fail,
    notice,
    public,
)
from ..results import ScoreTable, unknown_measure
from ._common import MIN_TOPICS, _seed_shown
from ._compare import (
    EFFECT_SIZES,
    _baselines,
    _scores_of,
    _test_options,
    _topic_mask,
    compare,
    direction_in,
)
from ._results import Comparison
from ._writers import (
    DIRECTION_TEXT,
    EFFECT_SIZE_TEXT,
    PAIRED_TESTS,
    TEST_NAMES,
    fixed,
    interval,
    latex_text,
    markdown_text,
    number,
    p_phrase,
    p_text,
)

__all__ = ["report", "Report", "DETAILS"]

DETAILS = ("none", "cells", "table")
"""What a report shows beside the means: nothing more, effect sizes and intervals in the
cells, or every pair tested in a second table."""

LETTERS = string.ascii_lowercase + string.ascii_uppercase
"""The letters of the runs (all pairs) or of the baselines (several baselines)."""

BETTER, WORSE = "\u25b2", "\u25bc"
"""The marks of a run significantly better (worse) than a baseline: ▲ and ▼."""

LOWER, UNDIRECTED = "\u2193", "\u2218"
"""The header's marks of a lower-is-better measure (↓) and of an undirected one (∘)."""

_LATEX_SYMBOL = {
    BETTER: r"\blacktriangle",
    WORSE: r"\blacktriangledown",
    LOWER: r"\downarrow",
    UNDIRECTED: r"\circ",
}


@record(eq=False)
class Report(Record):
    r"""A paper's results table: runs x measures, each cell the mean, marked.

    Each measure is compared by :func:`~fairconv.stats.compare` with the report's
    options: ``comparisons[i]`` is exactly ``stats.compare(table, measures[i], ...)``,
    and the marks are its significant pairs (``pvalue < alpha``, corrected when asked).

    - All pairs (``baseline`` None): every run has a letter (``letters``, a, b, ...
      in the order of ``runs``); a cell carries the letters of the runs it is
      significantly better than (ranx's convention).
    - Against baselines: a cell carries ▲ where the run is significantly better than
      a baseline and ▼ where it is significantly worse; with several baselines each
      has a letter, written after its mark (``▲a▼b``), in the order given.

    "Better" follows each measure's direction (``directions``): a lower-is-better
    measure's best mean is its lowest. An undirected measure's cells carry no mark and
    no best (its tests are in ``comparisons``). ``best`` marks the best mean of each
    directed measure (ties all best), ``means`` the means over the ``n_topics[i]``
    topics where every run has measure i (``n_dropped[i]`` more left out for undefined
    values). A measure on fewer topics than the test needs (2; 4 for the bootstrap)
    has its means and no test: its comparison is None. ``details`` says what the
    tables add: ``'cells'`` (effect sizes and intervals in the cells), ``'table'`` (a
    second table of every pair tested) or ``'none'``.

    Parameters
    ----------
    measures : tuple of str, length M
        The measures, in the order of the columns.
    directions : tuple of {'higher', 'lower', 'undirected'}, length M
        Each measure's direction.
    runs : tuple of str, length R
        The runs, in the order of the rows.
    letters : tuple of str, length R
        Each run's letter (all pairs) or each baseline's (against baselines).
    baseline : tuple of str or None
        The baseline runs, or None when every pair is compared.
    test : str
        The test of every comparison.
    n_resamples : int
        B of the randomised tests (0 for the others).
    seed : int or None
        The int seed (None for a Generator).
    alpha : float
        The significance level.
    correction : str
        The multiple-comparison correction, per measure.
    details : {'cells', 'table', 'none'}
        What the tables add to the means and marks.
    n_topics, n_dropped : tuple of int, length M
        Topics each measure was compared on, and topics left out for undefined values.
    means : ndarray of float, shape (R, M)
        The mean of each run on each measure.
    marks : tuple of tuple of str, shape (R, M)
        The marks of each cell.
    best : ndarray of bool, shape (R, M)
        Whether the cell holds its measure's best mean.
    comparisons : tuple of Comparison or None, length M
        Each measure's :class:`~fairconv.stats.Comparison`, or None where it was not
        tested.

    Examples
    --------
    >>> from fairconv import stats
    >>> from fairconv.datasets import sakai_book
    >>> r = stats.report(sakai_book().table, ["nDCG@5"], test="paired-t")
    >>> r.letters, [m[0] for m in r.marks]
    (('a', 'b', 'c'), ['b', '', ''])
    """

    measures: tuple[str, ...]
    directions: tuple[str, ...]
    runs: tuple[str, ...]
    letters: tuple[str, ...]
    baseline: tuple[str, ...] | None
    test: str
    n_resamples: int
    seed: int | None
    alpha: float
    correction: str
    details: str
    n_topics: tuple[int, ...]
    n_dropped: tuple[int, ...]
    means: np.ndarray = field(repr=False)
    marks: tuple[tuple[str, ...], ...] = field(repr=False)
    best: np.ndarray = field(repr=False)
    comparisons: tuple[Comparison | None, ...] = field(repr=False)

    def _table(self):
        """One row per run: its letter, then each measure's mean and marks."""
        out: dict = {"run": list(self.runs), "letter": list(self.letters)}
        for i, m in enumerate(self.measures):
            out[m] = self.means[:, i]
            out[f"{m} marks"] = [row[i] for row in self.marks]
        return out

    @public
    def to_dict(self) -> dict:
        """The report as ``fairconv report --format json`` prints it: every digit.

        Returns
        -------
        dict
            The options, the ``caption`` in words, the ``runs`` (``name``,
            ``letter``) and per measure its comparison
            (:meth:`Comparison.to_dict`: unrounded means and p-values; for a measure
            not tested, its ``measure``, ``direction``, ``n_topics``, ``n_dropped`` and
            ``tested: false``) with its ``cells`` in the order of the runs (``run``,
            ``mean``, ``marks``, ``best``).

        Examples
        --------
        >>> from fairconv import stats
        >>> from fairconv.datasets import sakai_book
        >>> d = stats.report(sakai_book().table, ["nDCG@5"], test="tukey").to_dict()
        >>> [(c["run"], round(c["mean"], 4), c["best"]) for c in d["measures"][0]["cells"]]
        [('X', 0.345, True), ('Y', 0.27, False), ('Z', 0.245, False)]
        """
        out = {
            k: plain(getattr(self, k))
            for k in ("test", "n_resamples", "seed", "alpha", "correction", "baseline", "details")
        }
        out["caption"] = " ".join(_caption(self, _PLAIN))
        out["runs"] = [
            {"name": r, "letter": x} for r, x in zip(self.runs, self.letters, strict=True)
        ]
        out["measures"] = []
        for i, c in enumerate(self.comparisons):
            d = c.to_dict() if c is not None else {
                "measure": self.measures[i], "direction": self.directions[i],
                "n_topics": self.n_topics[i], "n_dropped": self.n_dropped[i], "tested": False,
            }  # fmt: skip
            d["cells"] = [
                {"run": r, "mean": float(self.means[k, i]), "marks": self.marks[k][i],
                 "best": bool(self.best[k, i])}
                for k, r in enumerate(self.runs)
            ]  # fmt: skip
            out["measures"].append(d)
        return out

    @public
    def to_latex(self, *, decimals: int = 4) -> str:
        r"""The report as a LaTeX table, ready for a paper (booktabs).

        Parameters
        ----------
        decimals : int
            Decimals of the means (4 by default).

        Returns
        -------
        str
            A ``table`` float: one row per run, its letter and its name each in a cell
            of its own (names escaped), a column per measure (``$\downarrow$`` after a
            lower-is-better measure's name, ``$^\circ$`` after an undirected one's),
            the best mean in bold, a mark as a superscript (a cell without one is
            padded by ``\hphantom`` only, so that the numbers align), and a caption
            stating the test, B, the seed, alpha, the correction, the number of
            topics and the meaning of the marks. Needs ``\usepackage{booktabs}`` and,
            for the baseline marks, ``\usepackage{amssymb}``.

        See Also
        --------
        to_markdown : the same table as Markdown.

        Examples
        --------
        >>> from fairconv import stats
        >>> from fairconv.datasets import sakai_book
        >>> r = stats.report(sakai_book().table, ["nDCG@5"], test="paired-t")
        >>> print(r.to_latex().splitlines()[7])
        a & X & \textbf{0.3450}\rlap{$^{\mathrm{b}}$}\hphantom{$^{\mathrm{b}}$} \\
        """
        return _latex(self, _decimals(decimals))

    @public
    def to_markdown(self, *, decimals: int = 4) -> str:
        r"""The report as a Markdown table (GitHub's), with its caption after it.

        Parameters
        ----------
        decimals : int
            Decimals of the means (4 by default).

        Returns
        -------
        str
            The table (marks as ``<sup>`` superscripts, the best mean in bold, names
            escaped), then the caption as a paragraph.

        See Also
        --------
        to_latex : the same table as LaTeX.

        Examples
        --------
        >>> from fairconv import stats
        >>> from fairconv.datasets import sakai_book
        >>> r = stats.report(sakai_book().table, ["nDCG@5"], test="paired-t")
        >>> print("\n".join(r.to_markdown().splitlines()[:3]))
        |  | Run | nDCG@5 |
        | :-- | :-- | --: |
        | a | X | **0.3450**<sup>b</sup> |
        """
        return _markdown(self, _decimals(decimals))

    def _repr_html_(self) -> str:
        """The table as a notebook shows it: bold best, superscript marks, a caption."""
        return _html(self)


# --------------------------------------------------------------------------- building
@public
def report(
    table,
    measures: Sequence[str],
    /,
    *,
    baseline: str | Sequence[str] | None = None,
    test: str = "randomised-tukey",
    n_resamples: int = 10000,
    seed=0,
    alpha: float = 0.05,
    correction: str = "none",
    nan_policy: str = "raise",
    topics: Sequence[str] | None = None,
    details: str = "none",
) -> Report:
    r"""A paper's results table: runs x measures, the means marked where runs differ.

    Parameters
    ----------
    table : ScoreTable
        Per-topic scores of every run (any family's table, scores read from another
        tool's files, or tables joined).
    measures : sequence of str
        The measures, one column each, in this order.
    baseline : str or sequence of str, optional
        None (default): every pair of runs is tested, and a cell carries the letters
        of the runs it is significantly better than. One run or several: only the
        pairs of a baseline with another run are tested (:func:`compare`'s
        ``baseline``), and a cell carries ▲ (significantly better) or ▼ (worse), with
        the baseline's letter when there are several.
    test : {'randomised-tukey', 'tukey', 'paired-t', 'randomisation', 'bootstrap'}
        :func:`compare`'s test, per measure (default: the randomised Tukey HSD).
    n_resamples : int
        B of the randomised tests (10,000).
    seed : int or numpy.random.Generator, optional
        Default 0 (the same p every run); None draws a fresh seed.
    alpha : float
        The significance level of the marks.
    correction : {'none', 'bonferroni', 'holm', 'bh'}
        For the pairwise tests, over the pairs of each measure (a Tukey test refuses
        one).
    nan_policy : {'raise', 'omit'}
        A topic where a run's value is undefined: an error, or left out.
    topics : sequence of str, optional
        Only these topics of the table.
    details : {'none', 'cells', 'table'}
        ``'cells'``: against baselines, each cell adds the effect size of the run
        against each baseline (and the interval of the difference where the test
        gives one); for all pairs, the run's interval (the Tukey tests' two-way ANOVA
        interval). ``'table'``: a second table of every pair tested, with its
        difference, interval, p and effect size.

    Returns
    -------
    Report
        The means (runs in the table's order), the marks, the best of each measure,
        and the comparison of each measure.

    Raises
    ------
    TypeError
        If ``table`` is not a ScoreTable, or ``measures`` or ``baseline`` is not a
        str or a sequence of them as documented.
    ValueError
        For an unknown or repeated measure, run or topic, more than 52 runs for the
        letters of all pairs (give a baseline), ``details='cells'`` for all pairs with
        a test that gives no interval per run, and the errors of :func:`compare`
        (naming the measure).

    See Also
    --------
    compare : one measure, every number of its tests.

    Notes
    -----
    The p-values and the marks are exactly those of
    ``compare(table, measure, test=..., n_resamples=..., seed=..., alpha=...,
    correction=..., nan_policy=..., topics=..., baseline=...)`` for each measure: a
    pair is marked where its p is below alpha. Run i is better than run j on a
    measure when its mean is higher (lower, for a lower-is-better measure); the
    letters of the all-pairs mode are ranx's convention, the triangles against a
    baseline PyTerrier users' (with one symbol per baseline).

    Examples
    --------
    >>> from fairconv import stats
    >>> from fairconv.datasets import fairweb1_pilot
    >>> from fairconv import gfr
    >>> p = fairweb1_pilot()
    >>> table = gfr.evaluate(p.qrels, p.runs, p.attributes, measures=["GFR@10", "ERR@10"])
    >>> r = stats.report(table, ["GFR@10", "ERR@10"])
    >>> r.runs, r.n_topics
    (('Anserini-bm25', 'Anserini-qld', 'Anserini-qljm'), (4, 4))
    >>> r.best[:, 0].tolist(), r.comparisons[0].exact
    ([True, False, False], True)
    """
    check_instance(table, ScoreTable, "table", what="a ScoreTable")
    names = check_names(measures, "measures", "measure names")
    if not names:
        raise fail("measures", "name at least one measure", "none")
    check_once(names, "measures", what="measure")
    for m in names:
        if m not in table.measures:
            raise fail(
                "measures", f"name measures of the table ({', '.join(table.measures)})",
                unknown_measure(m, table.measures),
            )  # fmt: skip
    test, correction, alpha, n_resamples = _test_options(test, correction, alpha, n_resamples)
    details = check_choice(details, "details", DETAILS)
    nan_policy = check_choice(nan_policy, "nan_policy", ("raise", "omit"))
    baselines = _baselines(baseline, tuple(table.runs))
    if topics is not None:
        _topic_mask(table.topics, topics)
    if baselines is None and len(table.runs) > len(LETTERS):
        raise fail(
            "table",
            f"have at most {len(LETTERS)} runs for the letters of all pairs",
            f"{len(table.runs)} runs",
        )
    if details == "cells" and baselines is None and test in PAIRED_TESTS:
        raise fail(
            "details",
            "be 'table' or 'none' for all pairs with a test of two runs ('cells' shows "
            f"each run's interval, which the {TEST_NAMES[test]} does not give)",
            repr(details),
        )
    minimum = MIN_TOPICS.get(test, 2)
    columns = []
    for m in names:
        try:
            x, _, dropped = _scores_of(table, m, nan_policy, topics)
            if x.shape[0] == 0:
                raise ValueError("no topic has a value of every run: there is no mean to report")
            c = None
            if x.shape[0] >= minimum:
                c = compare(table, m, test=test, n_resamples=n_resamples, seed=seed,
                            alpha=alpha, nan_policy=nan_policy, topics=topics,
                            correction=correction, baseline=baselines)  # fmt: skip
        except ValueError as exc:  # a data error of one measure: name it
            message = str(exc).removeprefix(f"{caller()}: ")
            raise ValueError(f"{caller()}: measure {m!r}: {message}") from None
        means = _core.fsum_means(x)  # the runs in the table's order
        columns.append(_Column(m, direction_in(table, m), x.shape[0], dropped, means, c))
    untested = [col for col in columns if col.comparison is None]
    if untested:
        counts = ", ".join(f"{col.measure!r} on {col.n_topics}" for col in untested)
        notice(
            f"{caller()}: the {TEST_NAMES[test]} needs {minimum} topics where every run has "
            f"the measure; {counts}: reported without a test (means only, no mark)"
        )
    return _built(
        tuple(table.runs), columns, baselines, test, n_resamples, _seed_shown(seed), alpha,
        correction, details,
    )  # fmt: skip


@dataclass(frozen=True)
class _Column:
    """One measure of a report: its means in the table's run order, and its test."""

    measure: str
    direction: str
    n_topics: int
    n_dropped: int
    means: np.ndarray
    comparison: Comparison | None


def _built(runs, columns, baselines, test, n_resamples, seed, alpha, correction,
           details) -> Report:  # fmt: skip
    """The report of the measures' columns: means in the table's run order, marks, best."""
    row = {r: i for i, r in enumerate(runs)}
    means = np.stack([col.means for col in columns], axis=1)
    best = np.zeros(means.shape, dtype=bool)
    marks = [["" for _ in columns] for _ in runs]
    if baselines is None:
        letters = tuple(LETTERS[: len(runs)])
    elif len(baselines) == 1:
        letters = ("",) * len(runs)
    else:
        letter_of = dict(zip(baselines, LETTERS, strict=False))
        letters = tuple(letter_of.get(r, "") for r in runs)
    order = {name: k for k, name in enumerate(baselines or ())}
    for i, col in enumerate(columns):
        sign = {"higher": 1.0, "lower": -1.0}.get(col.direction)
        if sign is None:  # undirected: no run is better, no mark, no best
            continue
        scored = sign * means[:, i]
        best[:, i] = scored == scored.max()
        if col.comparison is None:
            continue
        cols = col.comparison.pairs.columns()
        got: dict[int, list[tuple[int, str]]] = {}
        for a, b, significant in zip(
            cols["a"].tolist(), cols["b"].tolist(), cols["significant"].tolist(), strict=True
        ):
            ia, ib = row[a], row[b]
            if not significant or scored[ia] == scored[ib]:
                continue
            if baselines is None:  # the better run carries the letter of the worse
                better, worse = (ia, ib) if scored[ia] > scored[ib] else (ib, ia)
                got.setdefault(better, []).append((worse, LETTERS[worse]))
                continue
            up = scored[ia] > scored[ib]
            got.setdefault(ia, []).append((order[b], (BETTER if up else WORSE) + letters[ib]))
            if a in order:  # two baselines: each cell says how it compares with the other
                got.setdefault(ib, []).append((order[a], (WORSE if up else BETTER) + letters[ia]))
        for k, found in got.items():
            marks[k][i] = "".join(text for _, text in sorted(found))
    return Report(
        measures=tuple(col.measure for col in columns),
        directions=tuple(col.direction for col in columns),
        runs=runs,
        letters=letters,
        baseline=baselines,
        test=test,
        n_resamples=n_resamples,
        seed=seed,
        alpha=alpha,
        correction=correction,
        details=details,
        n_topics=tuple(col.n_topics for col in columns),
        n_dropped=tuple(col.n_dropped for col in columns),
        means=means,
        marks=tuple(tuple(r) for r in marks),
        best=best,
        comparisons=tuple(col.comparison for col in columns),
    )


def _decimals(decimals) -> int:
    from .._validation import check_int

    return check_int(decimals, "decimals", minimum=0, maximum=12)


# --------------------------------------------------------------------------- the caption
class _Style:
    """How a format writes the caption's names and symbols."""

    def __init__(self, name, symbol, alpha, percent, effect, below=None):
        self.name, self.symbol, self.alpha = name, symbol, alpha
        self.percent, self.effect = percent, effect
        self.below = below or (lambda a: f"p < {a:g}")


_PLAIN = _Style(str, str, lambda a: f"alpha = {a:g}", "%", EFFECT_SIZE_TEXT.__getitem__)
_MARKDOWN = _Style(
    markdown_text, str, lambda a: f"alpha = {a:g}", "%",
    lambda e: markdown_text(EFFECT_SIZE_TEXT[e]),
)  # fmt: skip


def _latex_symbol(symbol: str) -> str:
    """A mark of the caption or the header as LaTeX (the undirected circle raised)."""
    if symbol == UNDIRECTED:
        return r"$^{\circ}$"
    return f"${_LATEX_SYMBOL[symbol]}$"


_LATEX_EFFECT = {
    "ES_E": r"$ES_E = (\bar a - \bar b)/\sqrt{V_E}$, $V_E$ the two-way ANOVA residual variance",
    "d_z": r"$d_z = \bar d / s_d$ of the per-topic differences $d = a - b$",
}
_LATEX = _Style(
    latex_text, _latex_symbol, lambda a: f"$\\alpha = {a:g}$", r"\%", _LATEX_EFFECT.__getitem__,
    lambda a: f"$p < {a:g}$",
)  # fmt: skip


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _caption(r: Report, style: _Style) -> list[str]:
    """The caption's sentences: topics, test, marks, bold and symbols, details."""
    name = style.name
    tested = [c for c in r.comparisons if c is not None]
    sentences = []
    # the topics compared
    if len(set(r.n_topics)) == 1:
        topics = f"Means over {r.n_topics[0]} topics"
    else:
        groups: dict[int, list[str]] = {}
        for m, n in zip(r.measures, r.n_topics, strict=True):
            groups.setdefault(n, []).append(name(m))
        each = ", ".join(f"{n} ({_listed(ms)})" for n, ms in groups.items())
        topics = f"Means over the topics where every run has the measure: {each}"
    dropped = [f"{name(m)}: {n}" for m, n in zip(r.measures, r.n_dropped, strict=True) if n]
    if dropped:
        topics += f" (left out for undefined values: {'; '.join(dropped)})"
    sentences.append(topics + ".")
    # the test, B, the seed, alpha, the correction
    test = f"Significance per measure: {TEST_NAMES[r.test]}"
    if r.test in ("paired-t", "tukey"):
        test += f", p from the {'t' if r.test == 'paired-t' else 'studentized range'} distribution"
    else:
        seed = "a fresh seed" if r.seed is None else f"seed {r.seed}"
        test += f" with B = {r.n_resamples:,} and {seed}"
        exact = [c for c in tested if c.exact]
        if tested and len(exact) == len(tested):
            sizes = sorted({c.n_resamples for c in tested})
            test += f"; exact p over all {' or '.join(f'{n:,}' for n in sizes)} permutations"
            test += " (no more than B)"
        else:
            test += "; Monte Carlo p = (count + 1)/(B + 1)"
            if exact:
                listed = _listed([name(c.measure) for c in exact])
                test += f" (exact p over every permutation for {listed})"
    test += f"; {style.alpha(r.alpha)}; correction: {r.correction}"
    if r.correction != "none":
        test += " over the pairs of each measure"
    sentences.append(test + ".")
    if r.baseline is not None and r.test not in PAIRED_TESTS:
        sentences.append(f"The {TEST_NAMES[r.test]} p-values are those of its family of all pairs.")
    if any(c is None for c in r.comparisons):
        need = 4 if r.test == "bootstrap" else 2
        sentences.append(
            f"Not tested: the measures on fewer than {need} topics (the test's minimum); "
            "they carry no mark."
        )
    # the marks
    if any(c.direction != "undirected" for c in tested):
        level = style.below(r.alpha)
        if r.baseline is None:
            sentences.append(
                "A superscript lists the runs (by the letters beside their names) that a run "
                f"is significantly better than ({level})."
            )
        elif len(r.baseline) == 1:
            sentences.append(
                f"{style.symbol(BETTER)}/{style.symbol(WORSE)}: significantly better/worse than "
                f"the baseline {name(r.baseline[0])} ({level})."
            )
        else:
            letters = ", ".join(
                f"{x}: {name(b)}" for x, b in zip(LETTERS, r.baseline, strict=False)
            )
            sentences.append(
                f"{style.symbol(BETTER)}x/{style.symbol(WORSE)}x: significantly better/worse "
                f"than the baseline of letter x ({letters}; {level})."
            )
    if any(d != "undirected" for d in r.directions):
        sentences.append("Bold: the best mean of each measure (ties all bold).")
    if "lower" in r.directions:
        sentences.append(f"{style.symbol(LOWER)}: lower is better.")
    undirected = [
        name(m) for m, d in zip(r.measures, r.directions, strict=True) if d == "undirected"
    ]
    if undirected:
        where = "the second table" if r.details == "table" else "the TSV and JSON outputs"
        sentences.append(
            f"{style.symbol(UNDIRECTED)}: undirected, no run is better: no mark and no bold "
            f"for {_listed(undirected)} (their p-values are in {where})."
        )
    # what the details add
    level = f"{100 * (1 - r.alpha):g}{style.percent}"
    effect = EFFECT_SIZES[r.test]
    baselines = r.baseline or ()
    if r.details == "cells" and not baselines:
        sentences.append(
            f"In brackets: the two-way ANOVA {level} interval of each mean, conditional on "
            "these topics."
        )
    elif r.details == "cells":
        ci = _pair_interval(r.test, level)
        per = "per baseline in order, " if len(baselines) > 1 else ""
        sentences.append(
            f"In parentheses, {per}the effect size {name(effect)} of the run against the "
            f"baseline" + (f" and {ci} of the difference" if ci else "") + "."
        )
    elif r.details == "table":
        ci = _pair_interval(r.test, level)
        sentences.append(
            "Second table: every pair tested, with difference = mean(a) - mean(b)"
            + (f", {ci}" if ci else "")
            + f", p and the effect size {style.effect(effect)}."
        )
    return sentences


def _pair_interval(test: str, level: str) -> str:
    """The interval of a difference a test gives, in words ('' for none)."""
    if test == "tukey":
        return f"Tukey's simultaneous {level} CI"
    if test == "paired-t":
        return f"the paired-t {level} CI"
    return ""


# --------------------------------------------------------------------------- cells
def _details(r: Report, decimals: int) -> list[list[str]]:
    """What ``details='cells'`` adds to each cell, [run][measure] ('' for none)."""
    out = [["" for _ in r.measures] for _ in r.runs]
    if r.details != "cells":
        return out
    with_ci = r.test in ("tukey", "paired-t")
    for i, c in enumerate(r.comparisons):
        if c is None:
            continue
        if r.baseline is None:  # each run's own interval
            at = {s["name"]: s for s in c.runs}
            for k, run in enumerate(r.runs):
                out[k][i] = interval(at[run]["ci_low"], at[run]["ci_high"], decimals)
            continue
        cols = c.pairs.columns()
        # each tested pair, oriented run - baseline either way round
        found: dict[tuple[str, str], tuple[float, float, float]] = {}
        for a, b, es, low, high in zip(
            *(cols[key].tolist() for key in ("a", "b", "effect_size", "ci_low", "ci_high")),
            strict=True,
        ):
            found[a, b] = (es, low, high)
            found[b, a] = (-es, -high, -low)
        for k, run in enumerate(r.runs):
            parts = []
            for letter, b in zip(LETTERS, r.baseline, strict=False):
                if b == run:
                    continue
                es, low, high = found[run, b]
                text = fixed(es, 2) + (f" {interval(low, high, decimals)}" if with_ci else "")
                parts.append(f"{letter}: {text}" if len(r.baseline) > 1 else text)
            out[k][i] = f"({'; '.join(parts)})" if parts else ""
    return out


def _header(r: Report, i: int, name, symbol) -> str:
    mark = {"lower": LOWER, "undirected": UNDIRECTED}.get(r.directions[i])
    return name(r.measures[i]) + ("" if mark is None else symbol(mark))


# --------------------------------------------------------------------------- LaTeX
def _latex_mark(mark: str) -> str:
    """A mark as LaTeX math: letters upright, triangles as amssymb's."""
    out, letters = [], ""
    for ch in mark:
        if ch in _LATEX_SYMBOL:
            if letters:
                out.append(f"\\mathrm{{{letters}}}")
                letters = ""
            out.append(_LATEX_SYMBOL[ch])
        else:
            letters += ch
    if letters:
        out.append(f"\\mathrm{{{letters}}}")
    return "".join(out)


def _latex_measure(name: str) -> str:
    """A measure's name as a column header: ``GF-JSD@10[M-ORIGIN]`` on two lines.

    The attribute set goes under the measure (a nested tabular, no package needed), so
    that a table of one measure per attribute set stays narrow.
    """
    base, bracket, rest = name.partition("[")
    if not bracket or not base or not rest.endswith("]"):
        return latex_text(name)
    return (
        f"\\begin{{tabular}}[b]{{@{{}}r@{{}}}}{latex_text(base)}\\\\"
        f"{latex_text(bracket + rest)}\\end{{tabular}}"
    )


def _latex(r: Report, decimals: int) -> str:
    caption = " ".join(_caption(r, _LATEX))
    head = [_header(r, i, _latex_measure, _latex_symbol) for i in range(len(r.measures))]
    lettered = any(r.letters)
    out = ["\\begin{table}[t]\n\\centering\n", f"\\caption{{{caption}}}\n"]
    spec = ("l" if lettered else "") + "l" + "r" * len(r.measures)
    out.append(f"\\begin{{tabular}}{{{spec}}}\n\\toprule\n")
    out.append(("& " if lettered else "") + "Run & " + " & ".join(head) + " \\\\\n\\midrule\n")
    widest = [max((row[i] for row in r.marks), key=len) for i in range(len(r.measures))]
    details = _details(r, decimals)
    for k, run in enumerate(r.runs):
        cells = []
        for i in range(len(r.measures)):
            value = fixed(r.means[k, i], decimals)
            cell = f"\\textbf{{{value}}}" if r.best[k, i] else value
            if widest[i]:
                if r.marks[k][i]:
                    cell += f"\\rlap{{$^{{{_latex_mark(r.marks[k][i])}}}$}}"
                cell += f"\\hphantom{{$^{{{_latex_mark(widest[i])}}}$}}"
            cells.append(cell + (f" {details[k][i]}" if details[k][i] else ""))
        letter = f"{r.letters[k]} & " if lettered else ""
        out.append(f"{letter}{latex_text(run)} & {' & '.join(cells)} \\\\\n")
    out.append("\\bottomrule\n\\end{tabular}\n")
    if r.details == "table":
        out.append(_latex_pairs(r, decimals))
    out.append("\\end{table}\n")
    return "".join(out)


def _pair_rows(r: Report, decimals: int):
    """The rows of the second table: measure, a, b, difference, CI, p, effect size, mark."""
    for c in r.comparisons:
        if c is None:
            continue
        for p in c.pairs:
            yield (c.measure, p["a"], p["b"], fixed(p["difference"], decimals),
                   interval(p["ci_low"], p["ci_high"], decimals), p_text(p["pvalue"]),
                   fixed(p["effect_size"], 3), p["significant"])  # fmt: skip


def _latex_pairs(r: Report, decimals: int) -> str:
    with_ci = r.test in ("tukey", "paired-t")
    a, b = ("Run", "Baseline") if r.baseline is not None else ("A", "B")
    effect = EFFECT_SIZES[r.test]
    out = ["\n\\medskip\n\\begin{tabular}{lllr" + ("r" if with_ci else "") + "rr}\n\\toprule\n"]
    out.append(f"Measure & {a} & {b} & Difference" + (" & CI" if with_ci else "")
               + f" & $p$ & ${effect}$ \\\\\n\\midrule\n")  # fmt: skip
    for m, x, y, diff, ci, p, es, sig in _pair_rows(r, decimals):
        shown = p.replace("<", "$<$") + ("$^{*}$" if sig else "")
        out.append(f"{latex_text(m)} & {latex_text(x)} & {latex_text(y)} & {diff}"
                   + (f" & {ci}" if with_ci else "") + f" & {shown} & {es} \\\\\n")  # fmt: skip
    out.append(
        f"\\bottomrule\n\\end{{tabular}}\n\\\\[2pt]{{\\footnotesize $^{{*}}$: $p < {r.alpha:g}$}}\n"
    )
    return "".join(out)


# --------------------------------------------------------------------------- Markdown, HTML
def _cell_text(r: Report, k: int, i: int, decimals: int, detail: str, bold, sup) -> str:
    """A cell as Markdown or HTML writes it: the mean (bold where best), marks, details."""
    value = fixed(r.means[k, i], decimals)
    text = bold(value) if r.best[k, i] else value
    if r.marks[k][i]:
        text += sup(r.marks[k][i])
    return text + (f" {detail}" if detail else "")


def _markdown(r: Report, decimals: int) -> str:
    lettered = any(r.letters)
    head = [_header(r, i, markdown_text, lambda s: f" {s}") for i in range(len(r.measures))]
    out = [("|  | " if lettered else "| ") + "Run | " + " | ".join(head) + " |\n"]
    out.append(("| :-- " if lettered else "") + "| :-- |" + " --: |" * len(r.measures) + "\n")
    details = _details(r, decimals)
    for k, run in enumerate(r.runs):
        cells = [
            _cell_text(r, k, i, decimals, details[k][i], "**{}**".format, "<sup>{}</sup>".format)
            for i in range(len(r.measures))
        ]
        letter = f"| {r.letters[k]} " if lettered else ""
        out.append(f"{letter}| {markdown_text(run)} | {' | '.join(cells)} |\n")
    if r.details == "table":
        with_ci = r.test in ("tukey", "paired-t")
        a, b = ("Run", "Baseline") if r.baseline is not None else ("A", "B")
        effect = markdown_text(EFFECT_SIZES[r.test])
        out.append(f"\n| Measure | {a} | {b} | Difference |" + (" CI |" if with_ci else "")
                   + f" p | {effect} |\n| :-- | :-- | :-- | --: |" + (" :-- |" if with_ci else "")
                   + " --: | --: |\n")  # fmt: skip
        for m, x, y, diff, ci, p, es, sig in _pair_rows(r, decimals):
            mark = "<sup>\\*</sup>" if sig else ""
            out.append(f"| {markdown_text(m)} | {markdown_text(x)} | {markdown_text(y)} | {diff} |"
                       + (f" {ci} |" if with_ci else "")
                       + f" {markdown_text(p)}{mark} | {es} |\n")  # fmt: skip
        out.append(f"\n<sup>\\*</sup>: p < {r.alpha:g}\n")
    out.append("\n" + " ".join(_caption(r, _MARKDOWN)) + "\n")
    return "".join(out)


def _html(r: Report) -> str:
    lettered = any(r.letters)
    shown = min(len(r.runs), HTML_ROWS)
    head = "".join(
        f"<th>{_header(r, i, html.escape, lambda s: ' ' + s)}</th>" for i in range(len(r.measures))
    )
    rows = []
    details = _details(r, 4)
    for k in range(shown):
        cells = "".join(
            "<td>"
            + _cell_text(
                r,
                k,
                i,
                4,
                html.escape(details[k][i]),
                lambda v: f"<b>{v}</b>",
                lambda m: f"<sup>{html.escape(m)}</sup>",
            )  # fmt: skip
            + "</td>"
            for i in range(len(r.measures))
        )
        letter = f"<td>{html.escape(r.letters[k])}</td>" if lettered else ""
        rows.append(f"<tr>{letter}<td>{html.escape(r.runs[k])}</td>{cells}</tr>")
    more = f"<p>{len(r.runs) - shown} more rows not shown</p>" if len(r.runs) > shown else ""
    caption = html.escape(" ".join(_caption(r, _PLAIN)))
    out = (
        f"<div><p><b>Report</b> {caption}</p><table><thead><tr>"
        + ("<th></th>" if lettered else "")
        + f"<th>run</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>{more}</div>"
    )
    if r.details == "table":
        pairs: dict[str, list] = {
            k: [] for k in ("measure", "a", "b", "difference", "ci", "p", "effect_size")
        }
        for m, x, y, diff, ci, p, es, sig in _pair_rows(r, 4):
            for key, value in zip(
                pairs, (m, x, y, diff, ci, p + ("*" if sig else ""), es), strict=True
            ):
                pairs[key].append(value)
        out += html_table(pairs, "Pairs", f"*: p < {r.alpha:g}")
    return out


def _tsv(r: Report) -> str:
    """The report as ``fairconv report`` prints it: statements, cells, pairs (unrounded)."""
    out = [f"# report: {len(r.runs)} runs x {len(r.measures)} measures\n"]
    out += [f"# {s}\n" for s in _caption(r, _PLAIN)]
    for m, d, n, c in zip(r.measures, r.directions, r.n_topics, r.comparisons, strict=True):
        how = "not tested" if c is None else p_phrase(c)
        out.append(f"# {m}: {DIRECTION_TEXT[d]}; {n} topic{'' if n == 1 else 's'}; {how}\n")
    out.append("measure\tdirection\tn_topics\trun\tletter\tmean\tmarks\tbest\n")
    for i, (m, d, n) in enumerate(zip(r.measures, r.directions, r.n_topics, strict=True)):
        for k, run in enumerate(r.runs):
            best = "yes" if r.best[k, i] else "no"
            out.append(f"{m}\t{d}\t{n}\t{run}\t{r.letters[k]}\t{number(r.means[k, i])}\t"
                       f"{r.marks[k][i]}\t{best}\n")  # fmt: skip
    out.append("measure\ta\tb\tdifference\tci_low\tci_high\tpvalue\teffect_size\tsignificant\n")
    keys = ("a", "b", "difference", "ci_low", "ci_high", "pvalue", "effect_size", "significant")
    for c in r.comparisons:
        if c is None:
            continue
        cols = c.pairs.columns()
        for a, b, diff, lo, hi, p, es, sig in zip(*(cols[k].tolist() for k in keys), strict=True):
            out.append(f"{c.measure}\t{a}\t{b}\t{number(diff)}\t{number(lo)}\t{number(hi)}\t"
                       f"{number(p)}\t{number(es)}\t{'yes' if sig else 'no'}\n")  # fmt: skip
    return "".join(out)
