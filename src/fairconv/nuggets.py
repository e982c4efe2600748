r"""Nugget scores of RAG answers (TREC iKAT 2024 and TREC RAG).

Recall and precision from match labels, the four scores of castorini/nuggetizer, and
the scores of CONE-RAG's files (TREC iKAT 2024).

Match labels give, for one evaluated turn, the gold nuggets, the nuggets extracted from
the response, and which pairs match (the matching itself, by an LLM or an NLI model,
happens elsewhere):

.. math::
    Recall\text{-}NtN = \frac{|\{g : (e, g) \in ntn\}|}{|gold|},\quad
    Precision\text{-}NtN = \frac{|\{e : (e, g) \in ntn\}|}{|extracted|},\quad
    Recall\text{-}NtR = \frac{|ntr|}{|gold|}

0/0 is undefined (NaN) and left out of means. A run's score is the mean over its
turns (macro) or the pooled ratio over all its turns (micro).

nuggetizer (castorini/nuggetizer) labels each nugget of a topic's nugget list N with an
importance (V: the nuggets labelled exactly ``vital``) and an assignment, credited
s(n) = 1 for ``support``, 1/2 for ``partial_support`` and 0 otherwise:

.. math::
    \text{strict-vital} = \frac{|\{n \in V : \text{support}\}|}{|V|},\quad
    \text{vital} = \frac{\sum_{n \in V} s(n)}{|V|}

and the same over N for ``strict-all-score`` and ``all-score``; an empty set scores 0.

References
----------
Z. Abbasiantaeb, S. Lupart, L. Azzopardi, J. Dalton, M. Aliannejadi. Conversational
Gold: Evaluating Personalized Conversational Search System using Gold Nuggets
(TREC iKAT 2024 resources), Eqs. 4-6.

R. Pradeep, N. Thakur, S. Upadhyay, D. Campos, N. Craswell, J. Lin. Initial Nugget
Evaluation Results for the TREC 2024 RAG Track with the AutoNuggetizer Framework
(castorini/nuggetizer, ``nuggetizer.core.metrics``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import numpy as np

from . import _core
from ._validation import (
    Where,
    check_choice,
    fail,
    fail_type,
    moved,
    public,
)
from .io import _labels
from .io._json import FileRuns
from .io._nuggetizer import ConeRagLabels, NuggetizerAssignments, read_cone_rag, read_nuggetizer
from .results import ScoreTable, notice_missing_topics, pick

__all__ = [
    "MEASURES",
    "NUGGETIZER_MEASURES",
    "ratios",
    "evaluate",
    "NuggetizerAssignments",
    "read_nuggetizer",
    "nuggetizer",
    "nuggetizer_scores",
    "ConeRagLabels",
    "read_cone_rag",
    "cone_rag_scores",
]

MEASURES = ("Recall-NtN", "Precision-NtN", "Recall-NtR")
"""The measures of :func:`evaluate` and :func:`cone_rag_scores`, in column order; all
higher-is-better, in [0, 1]."""

NUGGETIZER_MEASURES = ("strict-vital-score", "strict-all-score", "vital-score", "all-score")
"""nuggetizer's four scores (:func:`nuggetizer_scores`), in its column order."""


def _counts(counts, width: int, pairs: Sequence[tuple[int, int]]) -> np.ndarray:
    """Non-negative integer counts (..., width), each part at most its whole."""
    c = np.asarray(counts)
    ok = c.ndim >= 1 and c.shape[-1] == width
    ok = ok and (c.size == 0 or np.issubdtype(c.dtype, np.integer) or c.dtype == bool)
    ok = ok and bool((c >= 0).all()) and all(bool((c[..., a] <= c[..., b]).all()) for a, b in pairs)
    if not ok:
        rule = f"be non-negative integers of shape (..., {width}), each part at most its whole"
        raise fail("counts", rule, f"shape {c.shape}, dtype {c.dtype}")
    return c.astype(np.int64)


@public
def ratios(counts, /) -> dict[str, np.ndarray]:
    r"""Recall-NtN, Precision-NtN and Recall-NtR from per-turn nugget counts.

    Parameters
    ----------
    counts : array_like of int, shape (..., 5)
        Per turn: matched gold nuggets, gold nuggets, matched extracted nuggets,
        extracted nuggets, gold nuggets the response entails (as
        :attr:`fairconv.io.MatchLabels.counts`).

    Returns
    -------
    dict of str to ndarray
        ``{"Recall-NtN", "Precision-NtN", "Recall-NtR"}``, each of shape (...), NaN
        where the denominator is 0.

    Raises
    ------
    ValueError
        If ``counts`` is not non-negative integers of shape (..., 5) with each matched
        count at most its total.

    See Also
    --------
    evaluate : the same ratios of labelled turns, as a table.

    Notes
    -----
    .. math::
        Recall\text{-}NtN = \frac{c_0}{c_1},\quad Precision\text{-}NtN = \frac{c_2}{c_3},
        \quad Recall\text{-}NtR = \frac{c_4}{c_1}

    References
    ----------
    Abbasiantaeb et al., Conversational Gold, Eqs. 4-6.

    Examples
    --------
    >>> r = ratios([[1, 2, 1, 1, 2], [0, 0, 0, 3, 0]])
    >>> r["Recall-NtN"].tolist(), r["Precision-NtN"].tolist()
    ([0.5, nan], [1.0, 0.0])
    """
    c = _counts(counts, 5, ((0, 1), (2, 3), (4, 1)))
    return dict(zip(MEASURES, _core.match_ratios(c), strict=True))


def _units(topics: Sequence[str], turns: Sequence[str]) -> list[str]:
    """The row name of each turn; two distinct (topic, turn) pairs never share one.

    The turn id alone when it starts with its topic id (``T1_3`` of ``T1``), holds no
    ``/`` and no other topic has a turn of that id; else ``<topic>/<turn>`` with ``%``
    and ``/`` inside the ids written ``%25`` and ``%2F``. Names of the first kind hold
    no ``/`` and those of the second exactly one, between two ids that it decodes.
    """
    owners: dict[str, set[str]] = {}
    for topic, turn in zip(topics, turns, strict=True):
        if _named(topic, turn):
            owners.setdefault(turn, set()).add(topic)
    return [
        turn if _named(topic, turn) and len(owners[turn]) == 1 else f"{_esc(topic)}/{_esc(turn)}"
        for topic, turn in zip(topics, turns, strict=True)
    ]


def _named(topic: str, turn: str) -> bool:
    """The turn id names its topic: it starts with the topic id, then ends or a non-alnum."""
    if "/" in turn or not turn.startswith(topic):
        return False
    return len(turn) == len(topic) or not turn[len(topic)].isalnum()


def _esc(name: str) -> str:
    return name.replace("%", "%25").replace("/", "%2F")


def _table(runs, topics, measures, values, *, item, tool, present=None, overall=None, sources=None):
    """A ScoreTable with one cell per item: runs in order of first appearance, topics sorted.

    ``present`` (items, M) says which cells exist (all by default); cells no item gives
    do not exist: a run without an ``item`` for a topic that another run has is left out
    there, with the notice of every family (``tool``: whose rule that is). Two items of
    one (run, topic) are an error naming their sources.
    """
    base = ScoreTable.from_items(runs, topics, measures, values, missing=np.nan, sources=sources)
    r_index = {r: i for i, r in enumerate(base.runs)}
    t_index = {t: i for i, t in enumerate(base.topics)}
    r = np.fromiter(map(r_index.__getitem__, runs), np.int64, len(runs))
    t = np.fromiter(map(t_index.__getitem__, topics), np.int64, len(topics))
    mask = np.zeros(base.values.shape, dtype=bool)  # (topics, runs, measures)
    mask[t, r] = True if present is None else present
    given = np.zeros(base.values.shape[:2], dtype=bool)
    given[t, r] = True
    action = "they are left out of its mean" + (f", as {tool} leaves them out" if tool else "")
    missing = notice_missing_topics(base.topics, base.runs, ~given, item=item, action=action)
    return ScoreTable(
        topics=base.topics,
        runs=base.runs,
        measures=base.measures,
        values=base.values,
        present=mask,
        overall=overall,
        notices={"topics_scored": len(base.topics), "topics_missing": missing},
    )


@public
def evaluate(
    labels: _labels.MatchLabels, /, *, average: str = "macro", measures: Sequence[str] | None = None
) -> ScoreTable:
    r"""Recall-NtN, Precision-NtN and Recall-NtR per turn, and per run.

    Parameters
    ----------
    labels : MatchLabels
        From :func:`fairconv.io.read_labels` or :func:`fairconv.io.labels_from_records`.
    average : {'macro', 'micro'}
        The run score: the mean of the defined per-turn ratios (macro), or the ratio
        of the counts pooled over the run's turns (micro).
    measures : sequence of str, optional
        Only these of :data:`MEASURES`, in this order (default all).

    Returns
    -------
    ScoreTable
        Measures :data:`MEASURES`, each in [0, 1], higher is better. Rows are turns,
        named ``<topic>/<turn>`` unless the turn id already starts with the topic id
        (``T1_3``), holds no ``/`` and belongs to no other topic; in ``<topic>/<turn>``
        a ``/`` or ``%`` inside an id is written ``%2F`` or ``%25``, so distinct
        (topic, turn) pairs never share a row. The run scores are the ``all`` rows. A
        0/0 ratio (no gold or no extracted nugget) is NaN: the cell exists but is left
        out of macro means.

    Raises
    ------
    TypeError
        If ``labels`` is not a :class:`~fairconv.io.MatchLabels`.
    ValueError
        If ``average`` is not one of the choices, ``measures`` names another measure,
        or one run has two records for one turn.

    See Also
    --------
    ratios : the same ratios of count arrays, as a dict.
    fairconv.io.read_labels : reads the labels.

    Notes
    -----
    Per turn (:func:`ratios`):

    .. math::
        Recall\text{-}NtN = \frac{|\{g : \exists e, (e, g) \in ntn\}|}{|gold|},\quad
        Precision\text{-}NtN = \frac{|\{e : \exists g, (e, g) \in ntn\}|}{|extracted|},\quad
        Recall\text{-}NtR = \frac{|ntr|}{|gold|}

    References
    ----------
    Abbasiantaeb et al., Conversational Gold, Eq. 4 (Recall-NtN), Eq. 5
    (Precision-NtN) and Eq. 6 (Recall-NtR).

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> from fairconv.io import read_labels
    >>> labels = read_labels(path("rag", "ikat-labels.jsonl"))
    >>> t = evaluate(labels)
    >>> [t.value("demo-run", "T1_1", m) for m in MEASURES]
    [0.5, 1.0, 0.75]
    >>> round(evaluate(labels, average="micro").value("demo-run", "all", "Recall-NtN"), 4)
    0.2222
    """
    if not isinstance(labels, _labels.MatchLabels):
        raise fail_type(
            "labels",
            "be a MatchLabels (from read_labels or labels_from_records)",
            type(labels).__name__,
        )
    average = check_choice(average, "average", ("macro", "micro"))
    per = ratios(labels.counts)
    values = np.column_stack([per[m] for m in MEASURES])
    units = _units(labels.topics, labels.turns)
    overall = None
    if average == "micro":
        runs = tuple(dict.fromkeys(labels.runs))
        run_index = {r: i for i, r in enumerate(runs)}
        r = np.fromiter(map(run_index.__getitem__, labels.runs), np.int64, len(labels.runs))
        pooled = np.zeros((len(runs), 5), dtype=np.int64)
        np.add.at(pooled, r, labels.counts)
        per_run = ratios(pooled)
        overall = np.column_stack([per_run[m] for m in MEASURES])
    table = _table(
        labels.runs,
        units,
        MEASURES,
        values,
        item="match labels",
        tool=None,
        overall=overall,
        sources=labels.sources,
    )
    return pick(table, measures)


# --------------------------------------------------------------------------- nuggetizer


@public
def nuggetizer(counts, /) -> dict[str, np.ndarray]:
    r"""The four scores of nuggetizer from per-record nugget counts.

    Parameters
    ----------
    counts : array_like of int, shape (..., 6)
        Per record (as :attr:`NuggetizerAssignments.counts`): vital nuggets ``|V|``, vital
        nuggets labelled ``support``, vital nuggets labelled ``partial_support``,
        nuggets ``|N|``, nuggets labelled ``support``, nuggets labelled
        ``partial_support``.

    Returns
    -------
    dict of str to ndarray
        :data:`NUGGETIZER_MEASURES` to arrays of shape (...); 0.0 where the set is
        empty, as nuggetizer scores it.

    Raises
    ------
    ValueError
        If ``counts`` is not non-negative integers of shape (..., 6) with each labelled
        count at most its set, and the support plus partial-support counts at most
        the set.

    See Also
    --------
    nuggetizer_scores : the same measures of nuggetizer assignments, as a table.

    Notes
    -----
    With s(n) = 1 for ``support``, 1/2 for ``partial_support``, 0 otherwise:

    .. math::
        \text{strict-vital} = \frac{|\{n \in V : s(n) = 1\}|}{|V|},\quad
        \text{vital} = \frac{\sum_{n \in V} s(n)}{|V|},\quad
        \text{strict-all} = \frac{|\{n \in N : s(n) = 1\}|}{|N|},\quad
        \text{all} = \frac{\sum_{n \in N} s(n)}{|N|}

    Each is 0 when its denominator is 0. Each score is one IEEE division of exact
    operands, as in ``nuggetizer.core.metrics.calculate_nugget_scores``.

    References
    ----------
    Pradeep et al., Initial Nugget Evaluation Results for the TREC 2024 RAG Track with
    the AutoNuggetizer Framework; castorini/nuggetizer ``calculate_nugget_scores``.

    Examples
    --------
    >>> s = nuggetizer([[2, 1, 1, 4, 1, 2]])
    >>> [float(s[m][0]) for m in NUGGETIZER_MEASURES]
    [0.5, 0.25, 0.75, 0.5]
    >>> float(nuggetizer([0, 0, 0, 1, 1, 0])["vital-score"])
    0.0
    """
    c = _counts(counts, 6, ((1, 0), (2, 0), (4, 3), (5, 3)))
    if not (
        bool((c[..., 1] + c[..., 2] <= c[..., 0]).all())
        and bool((c[..., 4] + c[..., 5] <= c[..., 3]).all())
    ):
        raise fail(
            "counts",
            "count at most one label per nugget",
            "more support and partial_support nuggets than nuggets",
        )
    return dict(zip(NUGGETIZER_MEASURES, _core.nuggetizer_scores(c), strict=True))


@public
def nuggetizer_scores(assignments, /, *, measures: Sequence[str] | None = None) -> ScoreTable:
    r"""The four scores of nuggetizer per topic and run, and each run's mean.

    Parameters
    ----------
    assignments : NuggetizerAssignments or sequence of them
        From :func:`read_nuggetizer` (one per file).
    measures : sequence of str, optional
        Only these of :data:`NUGGETIZER_MEASURES`, in this order (default all).

    Returns
    -------
    ScoreTable
        Measures :data:`NUGGETIZER_MEASURES`, in [0, 1], higher is better; a cell per
        record. The ``all`` value of a run is the mean over its records, rounded once
        as ``statistics.mean`` rounds it: nuggetizer's ``all`` row when the file holds
        one run.

    Raises
    ------
    TypeError
        If ``assignments`` is not what :func:`read_nuggetizer` returns.
    ValueError
        If one run has a topic twice across the inputs, two files of one name (in
        different folders) give one run by their name, or ``measures`` names another
        measure.

    See Also
    --------
    nuggetizer : the same measures of count arrays, as a dict.
    fairconv.io.read_nuggetizer : reads the assignments.

    Notes
    -----
    Per record, :func:`nuggetizer`. nuggetizer's own ``all`` row averages every record
    of a file, whatever its ``run_id``; fairconv averages per run.

    References
    ----------
    castorini/nuggetizer ``calculate_nugget_scores`` and ``calculate_global_metrics``.

    Examples
    --------
    >>> recs = [{"qid": q, "run_id": "r", "nuggets": [
    ...     {"importance": "vital", "assignment": a}]} for q, a in
    ...     [("q1", "support"), ("q2", "partial_support"), ("q3", "not_support")]]
    >>> t = nuggetizer_scores(read_nuggetizer(recs))
    >>> t.value("r", "q2", "vital-score"), t.value("r", "all", "vital-score")
    (0.5, 0.5)
    """
    parts = [assignments] if isinstance(assignments, NuggetizerAssignments) else assignments
    if (
        not isinstance(parts, Sequence)
        or not parts
        or not all(isinstance(p, NuggetizerAssignments) for p in parts)
    ):
        raise fail_type(
            "assignments",
            "be what read_nuggetizer returns, or a non-empty sequence of them",
            type(assignments).__name__,
        )
    file_runs = FileRuns(
        'the records have no "run_id" and take their file\'s name',
        'Give the records a "run_id", or read each file with a name of its own (name=...).',
    )
    for part in parts:
        for run, file in part.file_runs.items():
            file_runs.add(run, file, Where(file))
    runs = tuple(chain.from_iterable(p.runs for p in parts))
    topics = tuple(chain.from_iterable(p.topics for p in parts))
    sources = tuple(chain.from_iterable(p.sources for p in parts))
    counts = np.concatenate([p.counts for p in parts])
    per = nuggetizer(counts)
    values = np.column_stack([per[m] for m in NUGGETIZER_MEASURES])
    order = {r: i for i, r in enumerate(dict.fromkeys(runs))}
    run_of = np.fromiter(map(order.__getitem__, runs), np.int64, len(runs))
    overall = np.array(
        [[_core.exact_mean(values[run_of == i, m]) for m in range(4)] for i in range(len(order))]
    )
    table = _table(
        runs,
        topics,
        NUGGETIZER_MEASURES,
        values,
        item="assignment record",
        tool="nuggetizer",
        overall=overall,
        sources=sources,
    )
    return pick(table, measures)


# --------------------------------------------------------------------------- CONE-RAG


@public
def cone_rag_scores(
    labels: ConeRagLabels, /, *, measures: Sequence[str] | None = None
) -> ScoreTable:
    r"""Recall-NtN, Precision-NtN and Recall-NtR per turn as CONE-RAG computes them.

    Parameters
    ----------
    labels : ConeRagLabels
        From :func:`read_cone_rag`.
    measures : sequence of str, optional
        Only these of the measures the files give, in this order (default all).

    Returns
    -------
    ScoreTable
        Rows are turn ids; measures :data:`MEASURES` (the NtN ones when NtN results
        were read, Recall-NtR when coverage files were). NaN where CONE-RAG leaves the
        turn out of that measure's mean. The ``all`` values are CONE-RAG's run values.

    Raises
    ------
    TypeError
        If ``labels`` is not a :class:`ConeRagLabels`.
    ValueError
        If ``measures`` names a measure the files do not give.

    See Also
    --------
    fairconv.io.read_cone_rag : reads CONE-RAG's outcomes.

    Notes
    -----
    .. math::
        Recall\text{-}NtN = \frac{|\text{predicted gold}|}{|gold|},\quad
        Precision\text{-}NtN = \frac{|\text{predictive}|}{|matched|},\quad
        Recall\text{-}NtR = \frac{|covered|}{|covered| + |uncovered|}

    CONE-RAG's choices, reproduced: Recall-NtN is 0 (not NaN) on a turn without gold
    nuggets, and counts in the mean; Precision-NtN is left out on a turn with no
    extracted nugget, and a run with none anywhere gets 0; Recall-NtR exists on the
    turns with a coverage line (NtR skips turns without gold nuggets or with an empty
    answer). Run values are plain means added in file order.

    References
    ----------
    Abbasiantaeb et al., Conversational Gold, Eqs. 4-6; irlabamsterdam/CONE-RAG
    ``matching/NtN.py`` and ``matching/NtR.py``.

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> labels = read_cone_rag(path("rag", "cone-rag", "gold.json"),
    ...                        path("rag", "cone-rag", "response_nuggets.json"),
    ...                        ntn=path("rag", "cone-rag", "nuggets_results.json"))
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as notices:
    ...     warnings.simplefilter("always")
    ...     t = cone_rag_scores(labels)
    >>> t.value("runA", "1_1", "Recall-NtN"), t.value("runA", "1_3", "Recall-NtN")
    (0.6666666666666666, 0.0)
    >>> str(notices[0].message)[:59]  # runA is not in turn 2_2 of the response nuggets
    "run 'runA' has no NtN or NtR result for 1 of the 5 topics s"
    >>> t.notices["topics_missing"]
    {'runA': 1, 'runB': 0}
    """
    if not isinstance(labels, ConeRagLabels):
        raise fail_type("labels", "be what read_cone_rag returns", type(labels).__name__)
    c = labels.counts
    n = len(labels.runs)
    has_ntr = np.zeros(n, dtype=bool)
    has_ntr[labels.ntr_lines] = True
    columns: list[np.ndarray] = []
    names: list[str] = []
    if labels.ntn.any():
        columns.append(np.where(labels.ntn, _core.ratio(c[:, 0], c[:, 1], 0.0), np.nan))
        columns.append(np.where(labels.ntn, _core.ratio(c[:, 2], c[:, 3], np.nan), np.nan))
        names += MEASURES[:2]
    if labels.ntr_lines.size:
        columns.append(np.where(has_ntr, _core.ratio(c[:, 4], c[:, 5], np.nan), np.nan))
        names.append(MEASURES[2])
    values = np.column_stack(columns)
    present = np.ones(values.shape, dtype=bool)
    order = tuple(dict.fromkeys(labels.runs))
    runs = np.asarray(labels.runs, dtype=object)
    overall = np.full((len(order), len(names)), np.nan)
    for i, run in enumerate(order):  # one per run
        mine = runs == run
        for k, m in enumerate(names):
            if m == MEASURES[2]:
                lines = labels.ntr_lines[mine[labels.ntr_lines]]
                if lines.size:
                    overall[i, k] = _core.sequential_mean(values[lines, k])
            elif (labels.ntn & mine).any():
                cells = values[labels.ntn & mine, k]
                overall[i, k] = _core.sequential_mean(cells[~np.isnan(cells)])
    table = _table(
        labels.runs,
        labels.turns,
        tuple(names),
        values,
        item="NtN or NtR result",
        tool="CONE-RAG",
        present=present,
        overall=overall,
    )
    return pick(table, measures)


__getattr__ = moved(
    __name__,
    "fairconv.io",
    {"MatchLabels": _labels.MatchLabels, "labels_from_records": _labels.labels_from_records},
)
