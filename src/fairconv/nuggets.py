r"""Nugget recall and precision of RAG answers from match labels (TREC iKAT 2024).

Given, for one evaluated turn, the gold nuggets, the nuggets extracted from the
response, and labels saying which pairs match (the matching itself, by an LLM or an
NLI model, happens elsewhere):

.. math::
    Recall_{NtN} = \frac{|\{g : (e, g) \in ntn\}|}{|gold|},\quad
    Precision_{NtN} = \frac{|\{e : (e, g) \in ntn\}|}{|extracted|},\quad
    Recall_{NtR} = \frac{|ntr|}{|gold|}

0/0 is undefined (NaN) and left out of means. A run's score is the mean over its
turns (macro) or the pooled ratio over all its turns (micro).

References
----------
Z. Abbasiantaeb, S. Lupart, L. Azzopardi, J. Dalton, M. Aliannejadi. Conversational
Gold: Evaluating Personalized Conversational Search System using Gold Nuggets
(TREC iKAT 2024 resources), Eqs. 4-6.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._validation import check_choice, fail
from .io._json import json_repr, json_str
from .results import ScoreTable

__all__ = ["MatchLabels", "labels_from_records", "coverage", "MEASURES"]

MEASURES = ("Recall-NtN", "Precision-NtN", "Recall-NtR")
"""The measures of :func:`coverage`, in column order; all higher-is-better, in [0, 1]."""


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
    """

    runs: tuple[str, ...]
    topics: tuple[str, ...]
    turns: tuple[str, ...]
    counts: np.ndarray
    sources: tuple[str, ...]

    def __post_init__(self) -> None:
        func = "MatchLabels"
        n = len(self.topics)
        for name in ("runs", "turns", "sources"):
            if len(getattr(self, name)) != n:
                raise fail(
                    name, func, f"hold {n} items, one per turn", f"{len(getattr(self, name))}"
                )
        c = np.asarray(self.counts)
        ok = c.shape == (n, 5) and (c.size == 0 or np.issubdtype(c.dtype, np.integer))
        ok = ok and bool((c >= 0).all() and (c[:, 0] <= c[:, 1]).all())
        ok = ok and bool((c[:, 2] <= c[:, 3]).all() and (c[:, 4] <= c[:, 1]).all())
        if not ok:
            raise fail(
                "counts",
                func,
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
    if len(set(ids)) != len(ids):
        seen: set[str] = set()
        for x in ids:
            if x in seen:
                raise ValueError(f'{where}: "{field}" lists the nugget id {x!r} twice')
            seen.add(x)
    return ids


def labels_from_records(
    records: Sequence[dict[str, Any]], *, sources: Sequence[str] | None = None
) -> MatchLabels:
    """Check match-label records (docs/formats.md) and count them.

    Parameters
    ----------
    records : sequence of dict, length n >= 1
        One record per evaluated turn: ``topic``, ``turn`` and optional ``run`` ids
        (non-empty strings without whitespace); ``gold`` and ``extracted``, arrays of
        distinct nugget ids; optional ``ntn``, an array of ``[extracted, gold]`` pairs
        judged as entailing; optional ``ntr``, an array of distinct gold ids the whole
        response entails. A missing ``run`` is the empty string.
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
        rule; the message names the record and the field.

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
    func = "labels_from_records"
    if isinstance(records, (str, bytes, dict)) or not isinstance(records, Sequence):
        raise TypeError(
            f"The 'records' parameter of {func} must be a sequence of dicts. "
            f"Got {type(records).__name__} instead."
        )
    if len(records) == 0:
        raise fail("records", func, "hold at least one label record", "an empty sequence")
    if sources is None:
        where_of = tuple(f"record {i + 1}" for i in range(len(records)))
    else:
        if isinstance(sources, (str, bytes)) or not all(isinstance(s, str) for s in sources):
            raise TypeError(
                f"The 'sources' parameter of {func} must be a sequence of strings. "
                f"Got {sources!r} instead."
            )
        where_of = tuple(sources)
        if len(where_of) != len(records):
            raise fail(
                "sources", func, f"hold one place per record ({len(records)})", f"{len(where_of)}"
            )
    counts = np.zeros((len(records), 5), dtype=np.int64)
    runs, topics, turns = [], [], []
    for i, (rec, where) in enumerate(zip(records, where_of, strict=True)):  # one per turn
        if not isinstance(rec, dict):
            raise ValueError(f"{where}: a label record must be a JSON object, got {json_repr(rec)}")
        for key in ("topic", "turn", "gold", "extracted"):
            if key not in rec:
                raise ValueError(f'{where}: a label record needs "{key}"')
        topics.append(_id(rec["topic"], "topic", where))
        turns.append(_id(rec["turn"], "turn", where))
        runs.append("" if rec.get("run") is None else _id(rec["run"], "run", where))
        gold = set(_ids(rec["gold"], "gold", where))
        extracted = set(_ids(rec["extracted"], "extracted", where))
        pairs = rec.get("ntn", [])
        if type(pairs) is not list or not all(type(p) is list and len(p) == 2 for p in pairs):
            raise ValueError(
                f'{where}: "ntn" must be an array of [extracted, gold] pairs, '
                f"got {json_repr(pairs)}"
            )
        matched_e = {_id(e, f"ntn[{k}][0]", where) for k, (e, _) in enumerate(pairs)}
        matched_g = {_id(g, f"ntn[{k}][1]", where) for k, (_, g) in enumerate(pairs)}
        unknown = (matched_e - extracted) | (matched_g - gold)
        if unknown:
            raise ValueError(
                f'{where}: "ntn" names nuggets that are not in "extracted" or "gold": '
                f"{sorted(unknown)}"
            )
        ntr = set(_ids(rec.get("ntr", []), "ntr", where))
        if ntr - gold:
            raise ValueError(
                f'{where}: "ntr" names nuggets that are not in "gold": {sorted(ntr - gold)}'
            )
        counts[i] = (len(matched_g), len(gold), len(matched_e), len(extracted), len(ntr))
    return MatchLabels(tuple(runs), tuple(topics), tuple(turns), counts, where_of)


def _ratios(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    return np.divide(num, den, out=np.full(np.shape(num), np.nan, dtype=np.float64), where=den > 0)


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


def coverage(labels: MatchLabels, *, average: str = "macro") -> ScoreTable:
    r"""Recall-NtN, Precision-NtN and Recall-NtR per turn, and per run.

    Parameters
    ----------
    labels : MatchLabels
        From :func:`fairconv.io.read_labels` or :func:`labels_from_records`.
    average : {'macro', 'micro'}
        The run score: the mean of the defined per-turn ratios (macro), or the ratio
        of the counts pooled over the run's turns (micro).

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
        If ``average`` is not one of the choices, or one run has two records for one
        turn.

    Notes
    -----
    .. math::
        Recall_{NtN} = \frac{|\{g : \exists e, (e, g) \in ntn\}|}{|gold|},\quad
        Precision_{NtN} = \frac{|\{e : \exists g, (e, g) \in ntn\}|}{|extracted|},\quad
        Recall_{NtR} = \frac{|ntr|}{|gold|}

    References
    ----------
    Abbasiantaeb et al., Conversational Gold, Eq. 4 (Recall-NtN), Eq. 5
    (Precision-NtN) and Eq. 6 (Recall-NtR).

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> from fairconv.io import read_labels
    >>> labels = read_labels(path("rag", "ikat-labels.jsonl"))
    >>> t = coverage(labels)
    >>> [t.value("demo-run", "T1_1", m) for m in MEASURES]
    [0.5, 1.0, 0.75]
    >>> round(coverage(labels, average="micro").value("demo-run", "all", "Recall-NtN"), 4)
    0.2222
    """
    func = "coverage"
    if not isinstance(labels, MatchLabels):
        raise TypeError(
            f"The 'labels' parameter of {func} must be a MatchLabels (from read_labels or "
            f"labels_from_records). Got {type(labels).__name__} instead."
        )
    average = check_choice(average, "average", func, ("macro", "micro"))
    c = labels.counts.astype(np.float64)
    per_turn = np.column_stack(
        [_ratios(c[:, 0], c[:, 1]), _ratios(c[:, 2], c[:, 3]), _ratios(c[:, 4], c[:, 1])]
    )
    units = _units(labels.topics, labels.turns)
    table = ScoreTable.from_items(
        labels.runs, units, MEASURES, per_turn, missing=np.nan, sources=labels.sources
    )
    table = ScoreTable(
        topics=table.topics,
        runs=table.runs,
        measures=table.measures,
        values=table.values,
        present=~np.isnan(table.values) | _has_item(table, labels, units),
    )
    if average == "macro":
        return table
    run_index = {r: i for i, r in enumerate(table.runs)}
    r = np.fromiter(map(run_index.__getitem__, labels.runs), np.int64, len(labels.runs))
    pooled = np.zeros((len(table.runs), 5))
    np.add.at(pooled, r, c)
    overall = np.column_stack(
        [
            _ratios(pooled[:, 0], pooled[:, 1]),
            _ratios(pooled[:, 2], pooled[:, 3]),
            _ratios(pooled[:, 4], pooled[:, 1]),
        ]
    )
    return ScoreTable(
        topics=table.topics,
        runs=table.runs,
        measures=table.measures,
        values=table.values,
        present=table.present,
        overall=overall,
    )


def _has_item(table: ScoreTable, labels: MatchLabels, units: list[str]) -> np.ndarray:
    """Cells that a label record gives (present even when their ratio is undefined)."""
    mask = np.zeros(table.values.shape, dtype=bool)
    r_index = {r: i for i, r in enumerate(table.runs)}
    t_index = {t: i for i, t in enumerate(table.topics)}
    r = [r_index[x] for x in labels.runs]
    t = [t_index[x] for x in units]
    mask[t, r] = True
    return mask
