"""Match labels of RAG answers (TREC iKAT 2024): the records, their rules and their reader.

One label record per evaluated turn (docs/formats.md): its ``topic``, ``turn`` and
``run`` ids, the ``gold`` and ``extracted`` nugget ids and which of them match
(``ntn``, ``ntr``). :func:`labels_from_records` checks records and counts them into
:class:`MatchLabels`, a block of records at a time; :func:`read_labels` reads a JSON
Lines file the same way, so that the decoded records of a file are never all held.
:mod:`fairconv.nuggets` scores them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, compress, islice, repeat
from operator import itemgetter, methodcaller
from typing import Any

import numpy as np

from .._validation import (
    Where,
    check_id,
    fail,
    fail_type,
    first_bad_id,
    first_repeat,
    kind_of,
    public,
    unknown_field,
)
from ._json import Blockwise, json_repr, one_way_of_naming_runs
from ._nuggetizer import _are, refuse_near_misses
from ._text import RESERVED_TOPIC, RESERVED_TOPIC_RULE

__all__ = ["MatchLabels", "labels_from_records", "read_labels"]

_LABEL_FIELDS = ("topic", "turn", "run", "gold", "extracted", "ntn", "ntr")


@dataclass(frozen=True, eq=False)
class MatchLabels:
    """Per evaluated turn: its run, topic and turn ids and the counts behind the measures.

    Built and checked by :func:`labels_from_records` or :func:`fairconv.io.read_labels`.

    Parameters
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


def _ids(value: Any, field: str, where: str) -> list[str]:
    """A JSON array of distinct nugget ids."""
    if type(value) is not list:
        raise ValueError(
            f'{where}: "{field}" must be an array of nugget ids, got {json_repr(value)}'
        )
    ids = [check_id(v, f"{field}[{k}]", where) for k, v in enumerate(value)]
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
        response entails. Every record gives its ``run``, or none does: then the run
        is named ``run``, as an in-memory run without a name. Any other field is
        refused.
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
        from; a record without ``run`` among records with one); the message names the
        record and the field.

    See Also
    --------
    read_labels : reads a labels file.

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


IN_MEMORY_RUN = "run"
"""The run of label records given in memory that name none (a file's are its name)."""


class _LabelColumns:
    """Match labels checked and counted a block of records at a time.

    The records of a block become ids and counts (array work: C-level passes over the
    block, no Python loop per nugget), so that a reader can drop them before it
    decodes the next block. ``missing_run`` is the run of the records when none gives
    ``run`` (a reader's file name, or :data:`IN_MEMORY_RUN`), checked as an id.
    """

    def __init__(self, missing_run: str) -> None:
        self.missing_run = missing_run
        self.first: tuple[bool, str] | None = None  # whether the first record gives a run
        self.runs: list[str] = []
        self.topics: list[str] = []
        self.turns: list[str] = []
        self.counts: list[np.ndarray] = []
        self._names: dict[str, str] = {}  # one str object per distinct run or topic

    def add(self, records: list, sources: Sequence[str]) -> None:
        """Check and count a block of records; the first record breaking a rule names it."""
        if not records:
            return
        if self.first is None:
            first = records[0]
            self.first = (isinstance(first, dict) and first.get("run") is not None, sources[0])
        columns = _label_columns(records, self.missing_run, self.first[0])
        if columns is None:  # some record breaks a rule: the first one names it
            for rec, where in zip(records, sources, strict=True):
                _refuse_record(rec, where, self.missing_run, self.first)
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
    """Whether every value is an id as :func:`check_id` takes it (C-level passes)."""
    return set(map(type, values)) <= {str} and first_bad_id(values) < 0


def _lists(records: list, key: str, default) -> list | None:
    """Each record's ``key`` when every one is an array (``default`` if absent), else None."""
    values = list(map(methodcaller("get", key, default), records))
    return values if set(map(type, values)) <= {list} else None


def _distinct(lists: list[list]) -> list[set] | None:
    """The set of each list, or None when some list holds an item twice."""
    sets = list(map(set, lists))
    return sets if list(map(len, sets)) == list(map(len, lists)) else None


def _label_columns(records: list, missing_run: str, first_given: bool):
    """(runs, topics, turns, counts) of label records that keep every rule, else None.

    The rules of :func:`_refuse_record`, checked for all records at once; every record
    gives a run if the input's first one does (``first_given``), else none does.
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
    if len(named) != (len(runs) if first_given else 0):  # all records give a run, or none
        return None
    if not _valid_ids(named or [missing_run]):
        return None
    if not first_given:
        runs = [missing_run] * len(runs)
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


def _refuse_record(rec: Any, where: str, missing_run: str, first: tuple[bool, str]) -> None:
    """Raise the error of the first rule a label record breaks, naming the field."""
    if not isinstance(rec, dict):
        raise ValueError(f"{where}: a label record must be a JSON object, got {json_repr(rec)}")
    _refuse_unknown(rec, where)
    for key in ("topic", "turn", "gold", "extracted"):
        if key not in rec:
            raise ValueError(f'{where}: a label record needs "{key}"')
    check_id(rec["topic"], "topic", where)
    check_id(rec["turn"], "turn", where)
    run = rec.get("run")
    one_way_of_naming_runs(run is not None, first[0], where, first[1], "run")
    check_id(missing_run if run is None else run, "run", where)
    gold = set(_ids(rec["gold"], "gold", where))
    extracted = set(_ids(rec["extracted"], "extracted", where))
    pairs = rec.get("ntn", [])
    if type(pairs) is not list or not all(type(p) is list and len(p) == 2 for p in pairs):
        raise ValueError(
            f'{where}: "ntn" must be an array of [extracted, gold] pairs, got {json_repr(pairs)}'
        )
    matched_e = {check_id(e, f"ntn[{k}][0]", where) for k, (e, _) in enumerate(pairs)}
    matched_g = {check_id(g, f"ntn[{k}][1]", where) for k, (_, g) in enumerate(pairs)}
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


@public
def read_labels(path: str | os.PathLike[str], /) -> MatchLabels:
    """Read match labels, one evaluated turn per line (JSON Lines, docs/formats.md).

    Parameters
    ----------
    path : str or path-like
        The file. Every record gives its ``run``, or none does: then the file's name
        is the run.

    Returns
    -------
    MatchLabels
        One row per evaluated turn: its run, topic and turn ids and counts.

    Raises
    ------
    TypeError
        If ``path`` is not a path.
    ValueError
        Naming the file, the line and the field: invalid JSON or UTF-8, an empty file,
        and every rule of :func:`fairconv.io.labels_from_records`.

    See Also
    --------
    labels_from_records : the same labels from records.

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> labels = read_labels(path("rag", "ikat-labels.jsonl"))
    >>> labels.turns
    ('T1_1', 'T1_2', 'T2_1')
    """
    if not isinstance(path, (str, os.PathLike)):
        raise fail_type("path", "be a path", repr(path))
    # the records are checked and counted a block at a time and dropped, so that the
    # decoded records of the whole file are never held at once (and the collector's
    # passes over the objects alive stay short)
    return _read_labels(path)


_BLOCK_BYTES = 1 << 16
"""Text of the label records decoded at a time. Their values and sets take about ten times
as much for a moment, a fixed part that a small file would feel; smaller blocks read no
faster or slower."""


def _read_labels(path) -> MatchLabels:
    name = os.fspath(path)
    columns = _LabelColumns(missing_run=os.path.basename(name))
    sources: list[str] = []

    def known(_, block) -> None:  # the reader's own rules, over every line first
        _refuse_unknown_and_reserved([r for _, r in block], block, name)

    def count(_, block) -> None:
        wheres = [Where(name, line) for line, _ in block]
        columns.add(list(map(itemgetter(1), block)), wheres)
        sources.extend(wheres)

    blocks = Blockwise(known, count)
    blocks.read(path, count_keys=_label_keys, block_bytes=_BLOCK_BYTES)
    blocks.check()
    return columns.labels(sources)


def _label_keys(values: list) -> int:
    """Keys of the label records (``count_keys`` of :func:`iter_jsonl_blocks`).

    A record holds no object: a file with one is decoded by the full rules.
    """
    return sum(map(len, compress(values, _are(values, dict))))


def _refuse_unknown_and_reserved(records: list, block: list, name: str) -> None:
    """Refuse the first record of a block with an unknown field or the reserved topic."""
    objects = [r for r in records if isinstance(r, dict)]
    keys = set().union(*map(dict.keys, objects))
    topics = list(map(methodcaller("get", "topic"), objects))
    if keys <= _FIELD_SET and RESERVED_TOPIC not in topics:
        return
    for line, rec in block:
        if isinstance(rec, dict):
            if not rec.keys() <= _FIELD_SET:
                extra = unknown_field([rec], _FIELD_SET, "a record")[1]
                raise ValueError(f"{name}:{line}: {extra}")
            if rec.get("topic") == RESERVED_TOPIC:
                raise ValueError(f'{name}:{line}: "topic": {RESERVED_TOPIC_RULE}')
    raise AssertionError("an unknown field or reserved topic was not found")  # pragma: no cover
