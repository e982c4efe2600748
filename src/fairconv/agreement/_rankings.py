"""How alike measures rank runs: the system rankings of a score table compared.

:func:`agree` ranks the runs of a :class:`~fairconv.results.ScoreTable` by their mean
on each measure, best first by the measure's direction, and gives Kendall's tau-b,
tau_ap-b and Spearman's rho for every pair of measures (``fairconv agree``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import _core
from .._validation import check_instance, check_names, check_once, fail, notice, public
from ..results import ScoreTable, direction_of, unknown_measure
from ._correlation import _scipy_stats, correlation_matrix
from ._results import RankingAgreement

__all__ = ["agree"]


def run_means(table: ScoreTable, measure: str) -> tuple[np.ndarray, int]:
    """Each run's mean of ``measure`` over the topics where every run has a defined value.

    The means come from correctly rounded sums (:func:`fairconv._core.fsum_means`):
    runs whose sums are equal on paper tie, whatever the order of their values, and
    finite scores near 1.8e308 do not overflow. Returns the means and the number of
    topics (0, with NaN means, where no topic has the measure for every run).
    """
    m = table.measures.index(measure)
    values = table.values[:, :, m]
    defined = table.present[:, :, m] & ~np.isnan(values)
    topics = defined.all(axis=1)
    if not topics.any():
        return np.full(len(table.runs), np.nan), 0
    return _core.fsum_means(values[topics]), int(topics.sum())


def oriented(means: np.ndarray, directions: Sequence[str], names: Sequence[str]) -> np.ndarray:
    """Means that rank best first, higher on top: lower-is-better ones negated.

    An undirected measure ranks no run above another: a ``ValueError`` naming it.
    """
    for name, direction in zip(names, directions, strict=True):
        if direction == "undirected":
            raise fail(
                "measures",
                "name measures that rank the runs (higher or lower is better)",
                f"{name!r}, which is undirected",
            )
    sign = np.array([-1.0 if d == "lower" else 1.0 for d in directions])
    return means * sign[:, None]


def ranking_pairs(names: Sequence[str], means: np.ndarray, n_topics: Sequence[int]) -> list[dict]:
    """tau-b (with its p), tau_ap-b and rho for every pair of rows of ``means``.

    ``means`` (measures, runs) are oriented (higher ranks first). A coefficient that is
    undefined for a pair (every run has the same mean under one of the two measures)
    is NaN, with a notice.
    """
    constant = (means == means[:, :1]).all(axis=1)
    for i in np.flatnonzero(constant):
        notice(
            f"{names[int(i)]}: every run has the same mean ({float(abs(means[i, 0]))!r}): tau-b, "
            "tau_ap-b and rho with it are undefined (NaN)"
        )
    ok = ~constant
    full = {}
    for method in ("tau_b", "tau_ap_b", "spearman"):
        matrix = np.full((len(names), len(names)), np.nan)
        if ok.sum() >= 1:
            matrix[np.ix_(ok, ok)] = correlation_matrix(means[ok], method=method).statistic
        full[method] = matrix
    out = []
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            pvalue = float("nan")
            if ok[a] and ok[b]:
                # exact for small n without ties (scipy's "auto"): a perfect tau over 3
                # runs has p = 1/3
                pvalue = float(_scipy_stats().kendalltau(means[a], means[b]).pvalue)
            out.append(
                {
                    "a": names[a],
                    "b": names[b],
                    "tau_b": float(full["tau_b"][a, b]),
                    "tau_b_pvalue": pvalue,
                    "tau_ap": float(full["tau_ap_b"][a, b]),
                    "spearman": float(full["spearman"][a, b]),
                    "n_systems": int(means.shape[1]),
                    "n_topics": [int(n_topics[a]), int(n_topics[b])],
                }
            )
    return out


@public
def agree(table, measures: Sequence[str], /) -> RankingAgreement:
    """How alike measures rank the runs of a table: tau-b, tau_ap-b and rho per pair.

    Parameters
    ----------
    table : ScoreTable
        Per-topic scores of the runs.
    measures : sequence of str
        At least two measures of the table, each once.

    Returns
    -------
    RankingAgreement
        Each run's mean of each measure (over the topics where every run has it), and
        for every pair of measures Kendall's tau-b with its p, tau_ap-b and Spearman's
        rho of the two rankings.

    Raises
    ------
    TypeError
        If ``table`` is not a ScoreTable or ``measures`` not a sequence of str.
    ValueError
        For an unknown or repeated measure, fewer than two, an undirected measure
        (it ranks no run above another), or a measure that no topic has for every run.

    Warns
    -----
    FairconvWarning
        When every run has the same mean under a measure: its coefficients are NaN.

    See Also
    --------
    correlation_matrix : one coefficient for every pair of rows of an array.
    fairconv.stats.report : the means and their significant differences.

    Notes
    -----
    Each measure ranks the runs best first by its direction
    (:attr:`ScoreTable.directions`): a lower-is-better measure (``EE-D``) ranks the
    lowest mean first, so that a lower-is-better and a higher-is-better measure that
    agree on which runs are better give tau = +1. The coefficients are those of
    :func:`kendall_tau` (``variant="b"``), :func:`tau_ap` (``variant="b"``) and
    :func:`spearman` on the means so oriented.

    Examples
    --------
    >>> import numpy as np
    >>> from fairconv.results import ScoreTable
    >>> v = np.array([[[0.5, 0.1]], [[0.4, 0.2]], [[0.2, 0.3]]]).transpose(1, 0, 2)
    >>> table = ScoreTable(topics=("q1",), runs=("a", "b", "c"), measures=("nDCG", "EE-D[g]"),
    ...                    values=v, present=np.ones(v.shape, bool))
    >>> agree(table, ["nDCG", "EE-D[g]"]).pairs[0]["tau_b"]
    1.0
    """
    check_instance(table, ScoreTable, "table", what="a ScoreTable")
    names = check_names(measures, "measures", "measure names")
    check_once(names, "measures", what="measure")
    if len(names) < 2:
        raise fail("measures", "name at least two measures", f"{len(names)}")
    for m in names:
        if m not in table.measures:
            raise fail(
                "measures",
                f"name measures of the table ({', '.join(table.measures)})",
                unknown_measure(m, table.measures),
            )
    directions = [(table.directions or {}).get(m) or direction_of(m) for m in names]
    rows = [run_means(table, m) for m in names]
    lacking = [m for m, (_, n) in zip(names, rows, strict=True) if n == 0]
    if lacking:
        raise fail(
            "measures",
            "name measures that some topic has for every run (the run means need topics "
            "that all runs were scored on)",
            repr(lacking[0]),
        )
    means = np.stack([r[0] for r in rows])
    pairs = ranking_pairs(names, oriented(means, directions, names), [r[1] for r in rows])
    return RankingAgreement(
        measures=tuple(names),
        directions=tuple(directions),
        runs=tuple(table.runs),
        means=means,
        n_topics=tuple(r[1] for r in rows),
        pairs=tuple(pairs),
    )
