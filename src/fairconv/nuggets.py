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
from dataclasses import dataclass
from itertools import chain, compress, islice, repeat
from operator import itemgetter, methodcaller
from typing import Any

import numpy as np

from . import _core
from ._validation import (
    check_choice,
    fail,
    fail_type,
    first_bad_id,
    first_repeat,
    kind_of,
    public,
)
from .io._json import json_repr, json_str
from .io._nuggetizer import ConeRagLabels, NuggetizerAssignments, _are, refuse_near_misses
from .io._nuggetizer import read_cone_rag as _read_cone_rag
from .io._nuggetizer import read_nuggetizer as _read_nuggetizer
from .results import ScoreTable, pick

__all__ = [
    "MEASURES",
    "NUGGETIZER_MEASURES",
    "MatchLabels",
    "labels_from_records",
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

_LABEL_FIELDS = ("topic", "turn", "run", "gold", "extracted", "ntn", "ntr")


@dataclass(frozen=True, eq=False)
class MatchLabels:
    """Per evaluated turn: its run, topic and turn ids and the counts behind the measures.

    Built and checked by :func:`labels_from_records` or :func:`fairconv.io.read_labels`.

    Attributes
    ----------
    runs, topics, turns : tuple of str, length n
        The ids of each evaluated turn.
    counts : ndarray of int, shape (n, 5)
        Per turn: matched gold nuggets, gold nuggets, matched extracted nuggets,
        extracted nuggets, gold nuggets the response entails (NtR).
    sources : tuple of str, length n
        Where each turn came from (``file:line`` or ``record i``).

    Raises
    ------
    ValueError
        If the lengths disagree or the counts are not (n, 5) non-negative integers
        with each matched count at most its total.

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> from fairconv.io import read_labels
    >>> labels = read_labels(path("rag", "ikat-labels.jsonl"))
    >>> labels.turns, labels.counts[0].tolist()
    (('T1_1', 'T1_2', 'T2_1'), [2, 4, 3, 3, 3])
    """

    runs: tuple[str, ...]
    topics: tuple[str, ...]
    turns: tuple[str, ...]
    counts: np.ndarray
    sources: tuple[str, ...]

    @public
    def __post_init__(self) -> None:
        n = len(self.topics)
        for name in ("runs", "turns", "sources"):
            if len(getattr(self, name)) != n:
                raise fail(name, f"hold {n} items, one per turn", f"{len(getattr(self, name))}")
        c = np.asarray(self.counts)
        ok = c.shape == (n, 5) and (c.size == 0 or np.issubdtype(c.dtype, np.integer))
        ok = ok and bool((c >= 0).all() and (c[:, 0] <= c[:, 1]).all())
        ok = ok and bool((c[:, 2] <= c[:, 3]).all() and (c[:, 4] <= c[:, 1]).all())
        if not ok:
            raise fail(
                "counts",
                f"be ({n}, 5) non-negative integers, each matched count at most its total",
                f"shape {c.shape}",
            )


def _id(value: Any, field: str, where: str) -> str:
    """One identifier: a non-empty JSON string without whitespace or control characters."""
    checked = json_str(value, field, where)
    assert checked is not None  # required=True never returns None
    return checked


def _ids(value: Any, field: str, where: str) -> list[str]:
    """A JSON array of distinct nugget ids."""
    if type(value) is not list:
        raise ValueError(
            f'{where}: "{field}" must be an array of nugget ids, got {json_repr(value)}'
        )
    ids = [_id(v, f"{field}[{k}]", where) for k, v in enumerate(value)]
    repeat = first_repeat(ids)
    if repeat is not None:
        raise ValueError(f'{where}: "{field}" lists the nugget id {ids[repeat[1]]!r} twice')
    return ids


class _Absent:
    """The value of a field a record does not give."""

    __slots__ = ()


_ABSENT = _Absent()
_FIELD_SET = frozenset(_LABEL_FIELDS)
_BLOCK = 1 << 14
"""Records checked and counted at a time: the sets built for them stay few."""


IN_MEMORY_RUN = "run"
"""The run of label records given in memory that name none (a file's are its name); a
run named "" could be written to a TSV but not read back."""


@public
def labels_from_records(
    records: Sequence[dict[str, Any]], /, *, sources: Sequence[str] | None = None
) -> MatchLabels:
    """Check match-label records (docs/formats.md) and count them.

    Parameters
    ----------
    records : sequence of dict, length n >= 1
        One record per evaluated turn: ``topic``, ``turn`` and optional ``run`` ids
        (non-empty strings without whitespace); ``gold`` and ``extracted``, arrays of
        distinct nugget ids; optional ``ntn``, an array of ``[extracted, gold]`` pairs
        judged as entailing; optional ``ntr``, an array of distinct gold ids the whole
        response entails. A record without ``run`` belongs to the run named ``run``
        (:data:`IN_MEMORY_RUN`), as an in-memory run without a name; any other field
        is refused.
    sources : sequence of str, length n, optional
        Where each record came from, for error messages (default ``record 1``, ...).

    Returns
    -------
    MatchLabels
        The ids and the five counts per turn.

    Raises
    ------
    TypeError
        If ``records`` is not a sequence or ``sources`` is not a sequence of strings.
    ValueError
        If there is no record, ``sources`` has another length, or a record breaks a
        rule (an unknown field included, with the known field it is one edit away
        from); the message names the record and the field.

    References
    ----------
    Abbasiantaeb et al., Conversational Gold, Eqs. 4-6 (the sets behind the counts).

    Examples
    --------
    >>> rec = {"topic": "T1", "turn": "T1_1", "run": "r", "gold": ["g1", "g2"],
    ...        "extracted": ["e1"], "ntn": [["e1", "g2"]], "ntr": ["g1", "g2"]}
    >>> labels_from_records([rec]).counts.tolist()
    [[1, 2, 1, 1, 2]]
    """
    if isinstance(records, (str, bytes, dict)) or not isinstance(records, Sequence):
        raise fail_type("records", "be a sequence of dicts", kind_of(records))
    if len(records) == 0:
        raise fail("records", "hold at least one label record", "an empty sequence")
    if sources is None:
        where_of = tuple(f"record {i + 1}" for i in range(len(records)))
    else:
        if isinstance(sources, (str, bytes)) or not all(isinstance(s, str) for s in sources):
            raise fail_type("sources", "be a sequence of strings", repr(sources))
        where_of = tuple(sources)
        if len(where_of) != len(records):
            raise fail("sources", f"hold one place per record ({len(records)})", f"{len(where_of)}")
    columns = _LabelColumns(missing_run=IN_MEMORY_RUN)
    rest = iter(records)
    for lo in range(0, len(records), _BLOCK):
        columns.add(list(islice(rest, _BLOCK)), where_of[lo : lo + _BLOCK])
    return columns.labels(where_of)


class _LabelColumns:
    """Match labels checked and counted a block of records at a time.

    The records of a block become ids and counts (array work: C-level passes over the
    block, no Python loop per nugget), so that a reader can drop them before it
    decodes the next block. ``missing_run`` is the run of a record without ``run``:
    None for the empty string, or a reader's file name, checked as an id.
    """

    def __init__(self, missing_run: str | None = None) -> None:
        self.missing_run = missing_run
        self.runs: list[str] = []
        self.topics: list[str] = []
        self.turns: list[str] = []
        self.counts: list[np.ndarray] = []
        self._names: dict[str, str] = {}  # one str object per distinct run or topic

    def add(self, records: list, sources: Sequence[str]) -> None:
        """Check and count a block of records; the first record breaking a rule names it."""
        if not records:
            return
        columns = _label_columns(records, self.missing_run)
        if columns is None:  # some record breaks a rule: the first one names it
            for rec, where in zip(records, sources, strict=True):
                _refuse_record(rec, where, self.missing_run)
            raise AssertionError("a rule the records break was not found")  # pragma: no cover
        runs, topics, turns, counts = columns
        names = self._names
        self.runs += map(names.setdefault, runs, runs)
        self.topics += map(names.setdefault, topics, topics)
        self.turns += turns
        self.counts.append(counts)

    def labels(self, sources: Sequence[str]) -> MatchLabels:
        """The labels of every block added, ``sources`` naming each record."""
        counts = np.concatenate(self.counts) if self.counts else np.zeros((0, 5), np.int64)
        return MatchLabels(
            tuple(self.runs), tuple(self.topics), tuple(self.turns), counts, tuple(sources)
        )


_FIRST, _SECOND = itemgetter(0), itemgetter(1)


def _valid_ids(values: list) -> bool:
    """Whether every value is an id as :func:`_id` takes it (C-level passes)."""
    return set(map(type, values)) <= {str} and first_bad_id(values) < 0


def _lists(records: list, key: str, default) -> list | None:
    """Each record's ``key`` when every one is an array (``default`` if absent), else None."""
    values = list(map(methodcaller("get", key, default), records))
    return values if set(map(type, values)) <= {list} else None


def _distinct(lists: list[list]) -> list[set] | None:
    """The set of each list, or None when some list holds an item twice."""
    sets = list(map(set, lists))
    return sets if list(map(len, sets)) == list(map(len, lists)) else None


def _label_columns(records: list, missing_run: str | None):
    """(runs, topics, turns, counts) of label records that keep every rule, else None.

    The rules of :func:`_refuse_record`, checked for all records at once.
    """
    if not all(map(isinstance, records, repeat(dict))):
        return None
    if not set().union(*map(dict.keys, records)) <= _FIELD_SET:
        return None
    topics = list(map(methodcaller("get", "topic", _ABSENT), records))
    turns = list(map(methodcaller("get", "turn", _ABSENT), records))
    runs = list(map(methodcaller("get", "run", _ABSENT), records))
    if not (_valid_ids(topics) and _valid_ids(turns)):
        return None
    if not set(map(type, runs)) <= {str, type(None), _Absent}:
        return None
    named = list(compress(runs, _are(runs, str)))
    if missing_run is not None and _ABSENT in runs:
        named.append(missing_run)
    if not _valid_ids(named):
        return None
    fill = dict.fromkeys((None, _ABSENT), "" if missing_run is None else missing_run)
    runs = list(map(fill.get, runs, runs))
    gold = _lists(records, "gold", _ABSENT)
    extracted = _lists(records, "extracted", _ABSENT)
    ntr = _lists(records, "ntr", [])
    ntn = _lists(records, "ntn", [])
    if gold is None or extracted is None or ntr is None or ntn is None:
        return None
    pairs = list(chain.from_iterable(ntn))
    if not (set(map(type, pairs)) <= {list} and set(map(len, pairs)) <= {2}):
        return None
    if not all(
        _valid_ids(ids)
        for ids in (
            list(chain.from_iterable(gold)),
            list(chain.from_iterable(extracted)),
            list(map(_FIRST, pairs)),
            list(map(_SECOND, pairs)),
            list(chain.from_iterable(ntr)),
        )
    ):
        return None
    del pairs
    counts = np.empty((len(records), 5), dtype=np.int64)
    # one column's sets at a time beside the gold ones, each dropped once counted
    gold_sets = _distinct(gold)
    ntr_sets = _distinct(ntr)
    if gold_sets is None or ntr_sets is None or not all(map(set.issuperset, gold_sets, ntr_sets)):
        return None
    counts[:, 4] = list(map(len, ntr_sets))
    del ntr_sets
    matched = list(map(set, map(map, repeat(_SECOND), ntn)))
    if not all(map(set.issuperset, gold_sets, matched)):
        return None
    counts[:, 0], counts[:, 1] = list(map(len, matched)), list(map(len, gold_sets))
    del matched, gold_sets
    extracted_sets = _distinct(extracted)
    matched = list(map(set, map(map, repeat(_FIRST), ntn)))
    if extracted_sets is None or not all(map(set.issuperset, extracted_sets, matched)):
        return None
    counts[:, 2], counts[:, 3] = list(map(len, matched)), list(map(len, extracted_sets))
    return runs, topics, turns, counts


def _refuse_record(rec: Any, where: str, missing_run: str | None) -> None:
    """Raise the error of the first rule a label record breaks, naming the field."""
    if not isinstance(rec, dict):
        raise ValueError(f"{where}: a label record must be a JSON object, got {json_repr(rec)}")
    _refuse_unknown(rec, where)
    for key in ("topic", "turn", "gold", "extracted"):
        if key not in rec:
            raise ValueError(f'{where}: a label record needs "{key}"')
    _id(rec["topic"], "topic", where)
    _id(rec["turn"], "turn", where)
    run = rec.get("run", missing_run)
    if run is not None:
        _id(run, "run", where)
    gold = set(_ids(rec["gold"], "gold", where))
    extracted = set(_ids(rec["extracted"], "extracted", where))
    pairs = rec.get("ntn", [])
    if type(pairs) is not list or not all(type(p) is list and len(p) == 2 for p in pairs):
        raise ValueError(
            f'{where}: "ntn" must be an array of [extracted, gold] pairs, got {json_repr(pairs)}'
        )
    matched_e = {_id(e, f"ntn[{k}][0]", where) for k, (e, _) in enumerate(pairs)}
    matched_g = {_id(g, f"ntn[{k}][1]", where) for k, (_, g) in enumerate(pairs)}
    unknown = (matched_e - extracted) | (matched_g - gold)
    if unknown:
        raise ValueError(
            f'{where}: "ntn" names nuggets that are not in "extracted" or "gold": {sorted(unknown)}'
        )
    ntr = set(_ids(rec.get("ntr", []), "ntr", where))
    if ntr - gold:
        raise ValueError(
            f'{where}: "ntr" names nuggets that are not in "gold": {sorted(ntr - gold)}'
        )


def _refuse_unknown(rec: dict, where: str) -> None:
    """A label record holds only the fields of the format."""
    refuse_near_misses(rec, _LABEL_FIELDS, where, "a label record")
    for key in rec:
        if key not in _LABEL_FIELDS:
            raise ValueError(
                f'{where}: unknown field "{key}" in a label record (the fields are '
                f"{', '.join(_LABEL_FIELDS)})"
            )


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
        :attr:`MatchLabels.counts`).

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


def _table(runs, topics, measures, values, present=None, overall=None, sources=None):
    """A ScoreTable with one cell per item: runs in order of first appearance, topics sorted.

    ``present`` (items, M) says which cells exist (all by default); cells no item gives
    do not exist. Two items of one (run, topic) are an error naming their sources.
    """
    base = ScoreTable.from_items(runs, topics, measures, values, missing=np.nan, sources=sources)
    r_index = {r: i for i, r in enumerate(base.runs)}
    t_index = {t: i for i, t in enumerate(base.topics)}
    r = np.fromiter(map(r_index.__getitem__, runs), np.int64, len(runs))
    t = np.fromiter(map(t_index.__getitem__, topics), np.int64, len(topics))
    mask = np.zeros(base.values.shape, dtype=bool)  # (topics, runs, measures)
    mask[t, r] = True if present is None else present
    return ScoreTable(
        topics=base.topics,
        runs=base.runs,
        measures=base.measures,
        values=base.values,
        present=mask,
        overall=overall,
    )


@public
def evaluate(
    labels: MatchLabels, /, *, average: str = "macro", measures: Sequence[str] | None = None
) -> ScoreTable:
    r"""Recall-NtN, Precision-NtN and Recall-NtR per turn, and per run.

    Parameters
    ----------
    labels : MatchLabels
        From :func:`fairconv.io.read_labels` or :func:`labels_from_records`.
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
        If ``labels`` is not a :class:`MatchLabels`.
    ValueError
        If ``average`` is not one of the choices, ``measures`` names another measure,
        or one run has two records for one turn.

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
    if not isinstance(labels, MatchLabels):
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
    table = _table(labels.runs, units, MEASURES, values, overall=overall, sources=labels.sources)
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
def read_nuggetizer(path_or_records, /, *, name: str | None = None) -> NuggetizerAssignments:
    """Read nuggetizer's assignment records (``nuggetizer assign`` output) to counts.

    Parameters
    ----------
    path_or_records : str, path-like, file object, or sequence of dict
        A JSON Lines file (``.gz`` read as gzip; blank lines and a byte-order mark at
        the start skipped), or the records as decoded dicts.
    name : str, optional
        The run of the records without ``run_id`` (retrieval-mode files): by default
        the file's name without its last suffix (``my.run.v2.jsonl`` -> ``my.run.v2``,
        ``.gz`` dropped first), as nuggetizer names a run. Records given in memory
        without ``run_id`` need it.

    Returns
    -------
    NuggetizerAssignments
        Per record: run, topic and the six nugget counts.

    Raises
    ------
    TypeError
        If ``path_or_records`` is neither a path nor a sequence.
    ValueError
        Naming the file and line (or the record) and the field: invalid JSON; an empty
        file; a record that is not an object; a missing ``qid`` or ``nuggets``; a
        ``qid`` that is neither a string id nor an integer, or is ``"all"``; a
        ``nuggets`` that is not an array; a nugget that is not an object or lacks
        ``importance`` or ``assignment`` (a file where no nugget has ``assignment`` is
        named as a ``nuggetizer create`` file); two records of one run for one ``qid``
        (retrieval-mode files hold one per candidate passage); a field one edit away
        from a field of the format (``assignement``: Did you mean 'assignment'?).

    Warns
    -----
    FairconvWarning
        Once per input, listing up to five labels nuggetizer does not know (``Vital``,
        ``supported``, ``null``, ...) with where they are: they are scored as
        nuggetizer scores them, not vital and worth 0.

    Notes
    -----
    Only ``vital`` is vital, and only ``support`` (1) and ``partial_support`` (1/2)
    earn credit, case-sensitively; ``okay``, ``not_support`` and ``failed`` (the label
    nuggetizer writes when its model call fails) are known labels worth 0. Fields
    other than those of the format are ignored, as nuggetizer ignores them, unless
    they look like a misspelt field.

    Examples
    --------
    >>> rec = {"qid": "q1", "run_id": "r", "nuggets": [
    ...     {"text": "a", "importance": "vital", "assignment": "support"},
    ...     {"text": "b", "importance": "okay", "assignment": "partial_support"}]}
    >>> read_nuggetizer([rec]).counts.tolist()
    [[1, 1, 0, 2, 1, 1]]
    """
    return _read_nuggetizer(path_or_records, name=name)


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
        If one run has a topic twice across the inputs, or ``measures`` names another
        measure.

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
    table = _table(runs, topics, NUGGETIZER_MEASURES, values, overall=overall, sources=sources)
    return pick(table, measures)


# --------------------------------------------------------------------------- CONE-RAG


@public
def read_cone_rag(gold, response_nuggets=None, /, *, ntn=None, ntr=()) -> ConeRagLabels:
    """Read CONE-RAG's (TREC iKAT 2024) files to NtN and NtR counts per (run, turn).

    Parameters
    ----------
    gold : str or path-like
        The gold nuggets, JSON ``{turn: {gold_id: {"text", "relevance"}}}``.
    response_nuggets : str or path-like, optional
        The response nuggets, JSON ``{turn: {run: {"nuggets": {"matched": [...],
        "not-matched": [...]}, "response"}}}``; the extracted nuggets are ``matched``,
        named ``[1]``, ``[2]``, ... by position. Its (run, turn) pairs are those NtN
        evaluates. Needed with ``ntn``.
    ntn : str or path-like, optional
        NtN's ``nuggets_results.json``: ``{"predicted_gold_nuggets": {run: {turn:
        [gold_id...]}}, "predictive_response_nuggets": {run: {turn: ["[i]"...]}}}``.
    ntr : sequence of str or path-like
        NtR's ``coverage_<run>.jsonl`` files (the run is the name between
        ``coverage_`` and ``.jsonl``); lines ``{"topic_turn_id", "covered",
        "uncovered", "recall", "response"}``.

    Returns
    -------
    ConeRagLabels

    Raises
    ------
    TypeError
        If a path is not a path, or ``ntr`` not a sequence of them.
    ValueError
        If neither ``ntn`` nor ``ntr`` is given, ``ntn`` without ``response_nuggets``,
        or naming the file, line or key and
        the field: a response-nuggets turn missing from the gold file; a ``nuggets``
        or turn that is not an object; NtN results whose (run, turn) pairs differ from
        the response-nuggets file's, that name a gold id not of the turn, an ``[i]``
        past the turn's matched nuggets, or an id twice; a coverage line for a turn
        without gold nuggets, twice for one run and turn, whose ``covered`` and
        ``uncovered`` do not split the turn's gold ids, or whose ``recall`` is not
        ``|covered| / (|covered| + |uncovered|)``; a field one edit away from a known one.

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> labels = read_cone_rag(path("rag", "cone-rag", "gold.json"),
    ...                        path("rag", "cone-rag", "response_nuggets.json"),
    ...                        ntn=path("rag", "cone-rag", "nuggets_results.json"))
    >>> labels.turns[:2], labels.counts[0].tolist()
    (('1_1', '1_1'), [2, 3, 2, 3, 0, 0])
    """
    return _read_cone_rag(gold, response_nuggets, ntn=ntn, ntr=ntr)


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
    >>> t = cone_rag_scores(labels)
    >>> t.value("runA", "1_1", "Recall-NtN"), t.value("runA", "1_3", "Recall-NtN")
    (0.6666666666666666, 0.0)
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
    table = _table(labels.runs, labels.turns, tuple(names), values, present, overall)
    return pick(table, measures)
