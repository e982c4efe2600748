"""The JSON readers of conversations, attribute sets, RAG answers and match labels.

Each reads JSON Lines (or one JSON document) by the rules of :mod:`fairconv.io._json`
and hands the decoded records to the builder that checks them and makes arrays of
them: :func:`fairconv.conversation.batch_from_records`,
:func:`fairconv.ragfair.answer_distributions`, :func:`fairconv.nuggets.labels_from_records`
(match labels a block of lines at a time, so that the decoded records of a file are
never all held). Every error names the file, the line and the field.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from itertools import chain, compress
from operator import itemgetter, methodcaller
from pathlib import Path

from .._accel import paused_gc
from .._validation import Where, fail_type, file_error, kind_of, public, unknown_field
from ..conversation import Conversation, ConversationBatch, batch_from_records
from ..divergences import AttributeSet
from ..nuggets import _FIELD_SET as _LABEL_FIELDS
from ..nuggets import MatchLabels, _LabelColumns
from ..ragfair import Answers, answers_from_records
from ._frames import answer_records
from ._json import iter_jsonl, iter_jsonl_blocks, json_repr, json_str, read_json
from ._nuggetizer import _are
from ._tables import read_golddistr
from ._text import RESERVED_TOPIC, RESERVED_TOPIC_RULE, FileFormatError, source_name

__all__ = [
    "read_attribute_sets",
    "read_conversations",
    "write_conversations",
    "read_answers",
    "read_labels",
    "golddistr_path",
]


def golddistr_path(path, target: str) -> Path:
    """Where an attribute-set JSON's ``"target"`` file is: next to the JSON ``path``."""
    return Path(str(path)).parent / target


@public
def read_attribute_sets(path, /) -> list[AttributeSet]:
    """Read the attribute-set JSON of docs/formats.md.

    The file is an object mapping each set's name to ``{"target": [...] | "golddistr
    path", "scale": "nominal" | "ordinal", "divergence": optional}``.

    Raises
    ------
    ValueError
        Naming the file and the set: invalid JSON or UTF-8, an empty file, a field of
        the wrong type, a target that is not a distribution.

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> from fairconv.io import read_attribute_sets
    >>> sets = read_attribute_sets(path("cases", "r112-attributes.json"))
    >>> [(s.name, s.scale, s.divergence) for s in sets]
    [('PRONOUN', 'nominal', 'JSD'), ('HINDEX', 'ordinal', 'RNOD')]
    """
    spec = read_json(path)
    where = Where(source_name(path))
    if not isinstance(spec, dict) or not spec:
        raise file_error(
            where,
            "expected an object mapping attribute-set names to "
            '{"target": [...], "scale": "nominal" | "ordinal"}',
        )
    out = []
    for name, entry in spec.items():
        json_str(name, "attribute-set name", where)
        if not isinstance(entry, dict) or "target" not in entry or "scale" not in entry:
            raise file_error(where, f'attribute set {name!r} needs a "target" and a "scale"')
        unknown = set(entry) - {"target", "scale", "divergence"}
        if unknown:
            raise file_error(
                where, f"attribute set {name!r}: unknown field(s) {', '.join(sorted(unknown))}"
            )
        target = entry["target"]
        for key in ("scale", "divergence"):
            value = entry.get(key)
            if key in entry and type(value) is not str:
                raise file_error(
                    where,
                    f'attribute set {name!r}: "{key}" must be a string, got {json_repr(value)}',
                )
        if isinstance(target, str):
            golddistr = golddistr_path(path, target)
            try:
                target = read_golddistr(golddistr)
            except FileFormatError:
                raise
            except (OSError, ValueError) as exc:  # missing, a folder, a NUL byte
                raise file_error(
                    where,
                    f'attribute set {name!r}: the "target" file {str(golddistr)!r} '
                    f"cannot be read ({getattr(exc, 'strerror', None) or exc})",
                ) from None
        elif not isinstance(target, list) or not all(type(x) in (int, float) for x in target):
            raise file_error(
                where,
                f'attribute set {name!r}: "target" must be an array of numbers or a '
                f"golddistr path, got {json_repr(target)}",
            )
        try:
            out.append(AttributeSet(name, target, entry["scale"], entry.get("divergence")))
        except (ValueError, TypeError) as exc:
            raise file_error(where, f"attribute set {name!r}: {exc}") from None
    return out


@public
def read_conversations(paths, attribute_sets: Sequence[AttributeSet], /) -> ConversationBatch:
    """Read annotated conversations (JSON Lines, docs/formats.md) into a checked batch.

    Parameters
    ----------
    paths : path or sequence of paths
        One file or several; a record without ``run`` takes its file's name.
    attribute_sets : sequence of AttributeSet
        The sets the nuggets give memberships for (:func:`read_attribute_sets`).

    Returns
    -------
    ConversationBatch

    Raises
    ------
    ValueError
        Naming the file, the line and the field: invalid JSON or UTF-8, an empty
        file, and every rule of :func:`fairconv.conversation.batch_from_records`.

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> from fairconv.io import read_attribute_sets, read_conversations
    >>> sets = read_attribute_sets(path("cases", "r112-attributes.json"))
    >>> batch = read_conversations(path("cases", "r112-fairweb2.jsonl"), sets)
    >>> batch.runs, batch.topics
    (('COPWA-CS-QD-MN-2', 'ORG-CS-D-MN-1'), ('R112', 'R112'))
    """
    if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__") or hasattr(paths, "read"):
        paths = [paths]
    elif not isinstance(paths, Sequence):
        raise fail_type("paths", "be a path, an open file or a sequence of them", kind_of(paths))
    for path in paths:
        source_name(path, "paths")
    # the records hold no reference cycles: the collector's passes over the objects being
    # built would cost more than the reading (restored on leaving, errors included)
    with paused_gc():
        return _read_conversations(paths, attribute_sets)


def _read_conversations(paths, attribute_sets) -> ConversationBatch:
    records: list = []
    sources: list[str] = []
    named_by: dict[str, str] = {}  # a run named after its file -> that file
    for path in paths:
        name = source_name(path)
        run = os.path.basename(name)
        for line, rec in iter_jsonl(path, count_keys=_record_keys):
            where = Where(name, line)
            if isinstance(rec, dict) and "run" not in rec:
                first = named_by.setdefault(run, name)
                if first != name:
                    raise file_error(
                        where,
                        f'the record has no "run" and takes its file\'s name '
                        f"{run!r}, which {first} gives its records too: two runs would "
                        'merge. Give the records a "run" field, or the files different names.',
                    )
                rec = dict(rec, run=run)
            records.append(rec)
            sources.append(where)
    return batch_from_records(records, attribute_sets, sources=sources)


def _record_keys(values: list) -> int:
    """Keys of the objects conversations are read from (``count_keys`` of :func:`iter_jsonl`).

    The records, their nuggets and turns, and the nuggets' groups.
    """
    records = [v for v in values if type(v) is dict]
    lists = [x for r in records for x in (r.get("nuggets"), r.get("turns")) if type(x) is list]
    items = [x for x in chain.from_iterable(lists) if type(x) is dict]
    groups = [g for g in map(methodcaller("get", "groups"), items) if type(g) is dict]
    return sum(map(len, records)) + sum(map(len, items)) + sum(map(len, groups))


@public
def write_conversations(conversations: Sequence[Conversation], path, /) -> None:
    """Write conversations as JSON Lines, one record per conversation.

    Parameters
    ----------
    conversations : sequence of Conversation
    path : str or os.PathLike
        The file to write (replaced if it exists).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from fairconv.conversation import Conversation, Nugget
    >>> from fairconv.io import iter_jsonl, write_conversations
    >>> c = Conversation("T1", "A", [Nugget(4, 5, level=2)], text="U: hi S: a b c")
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     write_conversations([c], Path(folder) / "c.jsonl")
    ...     iter_jsonl(Path(folder) / "c.jsonl")[0][1]["nuggets"]
    [{'start': 4, 'end': 5, 'level': 2}]
    """
    with open(path, "w", encoding="utf-8") as f:
        for c in conversations:
            f.write(json.dumps(c.to_json(), ensure_ascii=False) + "\n")


@public
def read_answers(path, attribute_sets: Sequence[AttributeSet], /) -> Answers:
    """Read RAG answers (JSON Lines, docs/formats.md).

    Each record gives ``topic``, ``run`` and ``entities`` (objects with ``level`` and
    ``groups``); an annotated conversation record is accepted too, its ``nuggets``
    being the entities.

    Raises
    ------
    ValueError
        Naming file, line and field: invalid JSON or UTF-8, an empty file, fields of
        the wrong type, memberships of the wrong length or not summing to 1.

    Examples
    --------
    >>> from fairconv.datasets import fairweb1_pilot, path
    >>> from fairconv.io import read_answers
    >>> movies = [a.attribute for a in fairweb1_pilot().attributes if a.attribute.name[0] == "M"]
    >>> answers = read_answers(path("rag", "pilot-answers.jsonl"), movies)
    >>> answers.runs, answers.topics
    (('Anserini-bm25', 'Anserini-qld', 'Anserini-qljm'), ('P002', 'P002', 'P002'))
    >>> answers.distributions["M-RATINGS"][0].tolist()
    [0.0, 0.0, 0.5, 0.5]
    """
    return answers_from_records(answer_records(path, "path"), attribute_sets)


@public
def as_answers(answers, attribute_sets: Sequence[AttributeSet], /) -> Answers:
    """Generated answers from a file, a DataFrame or records.

    Parameters
    ----------
    answers : Answers, path, file object, DataFrame or iterable of dict
        A file or records as the answer files of docs/formats.md (per answer a
        ``topic``, a ``run``, optional when there is one run, and its ``entities``).
        A DataFrame has one answer per row: a topic column (``topic``, ``query_id``,
        ``qid`` or ``q_id``), a run column (``run_id``, ``run``, ``tag``, ``name`` or
        ``system``; optional) and an ``entities`` (or ``nuggets``) column holding each
        answer's list of entity dicts.
    attribute_sets : sequence of AttributeSet
        The sets whose vectors the entities give.

    Returns
    -------
    fairconv.ragfair.Answers

    Raises
    ------
    ValueError
        Naming the record (``file:line``, ``answers DataFrame:2``, ``answers
        records:2``) and the field.
    TypeError
        For an input of another kind.

    Examples
    --------
    >>> from fairconv import AttributeSet
    >>> sets = [AttributeSet("A", [0.5, 0.5], "nominal")]
    >>> rec = {"topic": "T1", "run": "r", "entities": [{"level": 1, "groups": {"A": [1, 0]}}]}
    >>> as_answers([rec], sets).distributions["A"].tolist()
    [[1.0, 0.0]]
    """
    if isinstance(answers, Answers):
        return answers
    return answers_from_records(answer_records(answers), attribute_sets)


@public
def read_labels(path: str | os.PathLike[str], /) -> MatchLabels:
    """Read match labels, one evaluated turn per line (JSON Lines, docs/formats.md).

    Parameters
    ----------
    path : str or path-like
        The file; a record without ``run`` takes the file's name.

    Returns
    -------
    MatchLabels

    Raises
    ------
    TypeError
        If ``path`` is not a path.
    ValueError
        Naming the file, the line and the field: invalid JSON or UTF-8, an empty file,
        and every rule of :func:`fairconv.nuggets.labels_from_records`.

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
    # decoded records of the whole file are never held at once; they hold no reference
    # cycles (the collector's passes would cost more than the reading)
    with paused_gc():
        return _read_labels(path)


_BLOCK_BYTES = 1 << 16
"""Text of the label records decoded at a time. Their values and sets take about ten times
as much for a moment, a fixed part that a small file would feel; smaller blocks read no
faster or slower."""


def _read_labels(path) -> MatchLabels:
    name = os.fspath(path)
    columns = _LabelColumns(missing_run=os.path.basename(name))
    sources: list[str] = []
    # errors in the order of the checks: a record's field or repeat (counting) comes
    # after the unknown fields and reserved topics of every line, which come after the
    # JSON of every line (iter_jsonl_blocks raises that); each keeps its first error
    unread: ValueError | None = None
    uncounted: Exception | None = None
    for block in iter_jsonl_blocks(path, count_keys=_label_keys, block_bytes=_BLOCK_BYTES):
        records = list(map(itemgetter(1), block))
        if unread is None:
            unread = _unreadable(records, block, name)
        if unread is not None or uncounted is not None:
            continue
        wheres = [f"{name}:{line}" for line, _ in block]
        try:
            columns.add(records, wheres)
        except (ValueError, TypeError) as exc:
            uncounted = exc
            continue
        sources += wheres
    if unread is not None:
        raise unread
    if uncounted is not None:
        raise uncounted
    return columns.labels(sources)


def _label_keys(values: list) -> int:
    """Keys of the label records (``count_keys`` of :func:`iter_jsonl_blocks`).

    A record holds no object: a file with one is decoded by the full rules.
    """
    return sum(map(len, compress(values, _are(values, dict))))


def _unreadable(records: list, block: list, name: str) -> ValueError | None:
    """The error of the first record of a block with an unknown field or the reserved topic."""
    objects = [r for r in records if isinstance(r, dict)]
    keys = set().union(*map(dict.keys, objects))
    topics = list(map(methodcaller("get", "topic"), objects))
    if keys <= _LABEL_FIELDS and RESERVED_TOPIC not in topics:
        return None
    for line, rec in block:
        if isinstance(rec, dict):
            if not rec.keys() <= _LABEL_FIELDS:
                extra = unknown_field([rec], _LABEL_FIELDS, "a record")[1]
                return ValueError(f"{name}:{line}: {extra}")
            if rec.get("topic") == RESERVED_TOPIC:
                return ValueError(f'{name}:{line}: "topic": {RESERVED_TOPIC_RULE}')
    raise AssertionError("an unknown field or reserved topic was not found")  # pragma: no cover
