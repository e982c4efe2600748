"""Generated answers of RAG systems: the records, their rules and their readers.

An answer gives, for one run and topic, the entities it names with their relevance
level and one membership vector per attribute set (docs/formats.md). Its distribution
over groups, d_A, is the normalised sum of its relevant entities' vectors
(:func:`answer_distributions`). :class:`Answers` holds the distributions of many
answers, as :func:`read_answers` reads them from a file and :func:`as_answers` from a
file, a DataFrame or records; :mod:`fairconv.ragfair` scores them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice

import numpy as np

from .. import _core
from .._validation import (
    Where,
    check_id,
    check_sequence_of,
    file_error,
    public,
    unknown_field,
)
from ..divergences import AttributeSet
from ._conversation_records import _NUGGET_FIELDS, _RECORD_FIELDS
from ._frames import answer_records
from ._json import (
    Blockwise,
    json_groups,
    json_ints,
    json_item_error,
    json_str,
    one_way_of_naming_runs,
)
from ._text import RESERVED_TOPIC, RESERVED_TOPIC_RULE

__all__ = ["Answers", "answer_distributions", "answers_from_records", "read_answers", "as_answers"]


@dataclass(frozen=True, eq=False)
class Answers:
    """Generated answers: per (run, topic), each attribute set's answer distribution.

    ``distributions[name]`` is (n, G) with NaN rows for answers that name no relevant
    entity; ``runs``, ``topics`` and ``sources`` have one entry per answer.

    Examples
    --------
    >>> from fairconv.datasets import fairweb1_pilot, path
    >>> from fairconv.io import read_answers
    >>> sets = [a.attribute for a in fairweb1_pilot().attributes if a.attribute.name == "M-RATINGS"]
    >>> answers = read_answers(path("rag", "pilot-answers.jsonl"), sets)
    >>> answers.runs[0], answers.distributions["M-RATINGS"][0].tolist()
    ('Anserini-bm25', [0.0, 0.0, 0.5, 0.5])
    """

    runs: tuple
    topics: tuple
    distributions: dict
    sources: tuple

    def __len__(self) -> int:
        return len(self.topics)


@public
def answer_distributions(
    entity_lists: Sequence[Sequence[dict]],
    attribute_sets: Sequence[AttributeSet],
    /,
    *,
    sources: Sequence[str] | None = None,
) -> dict[str, np.ndarray]:
    """d_A per answer from its entities' levels and group vectors (page membership).

    Parameters
    ----------
    entity_lists : sequence of sequence of dict
        Per answer, its entities as ``{"level": l, "groups": {name: vector}}``; a
        missing or null level is 0, and entities of level 0 do not count.
    attribute_sets : sequence of AttributeSet
    sources : sequence of str, optional
        Where each answer comes from (``file:line``), for messages.

    Returns
    -------
    dict of str to ndarray (answers, G)
        The normalised sum of the relevant entities' vectors; NaN rows for answers
        without a relevant entity.

    Raises
    ------
    ValueError
        Naming the answer and the entity: a level that is not a non-negative JSON
        integer, or a relevant entity whose vector is not G numbers summing to 1.

    Examples
    --------
    >>> from fairconv import AttributeSet
        >>> origin = AttributeSet("ORIGIN", [0.5, 0.5], scale="nominal")
    >>> entities = [{"level": 2, "groups": {"ORIGIN": [1, 0]}}, {"level": 0}]
    >>> answer_distributions([entities, []], [origin])["ORIGIN"].tolist()
    [[1.0, 0.0], [nan, nan]]
    """
    sets = check_sequence_of(attribute_sets, AttributeSet, "attribute_sets")
    lists = list(entity_lists)
    src = list(sources) if sources is not None else [f"answer {i + 1}" for i in range(len(lists))]
    counts = np.array([len(e) for e in lists], dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum(counts)))
    owner = np.repeat(np.arange(len(lists)), counts)
    flat = [e for entities in lists for e in entities]
    for j, e in enumerate(flat):
        if not isinstance(e, dict):
            i = int(owner[j])
            raise file_error(src[i], f"entity {j - offsets[i] + 1}: must be a JSON object")
    level = json_ints(
        [e.get("level") for e in flat], "level", src, offsets, item="entity", default=0
    )
    if (level < 0).any():
        i = int(np.argmax(level < 0))
        raise json_item_error(src, offsets, i, "entity", f'"level" must be >= 0, got {level[i]}')
    relevant = np.flatnonzero(level > 0)
    vectors = json_groups(
        [flat[j] for j in relevant.tolist()],
        sets,
        src,
        offsets,
        item="entity",
        rows=relevant,
        required=True,
    )
    return {
        a.name: _core.normalised_sums(owner[relevant], vectors[a.name], len(lists)) for a in sets
    }


_ANSWER_FIELDS = _RECORD_FIELDS | {"entities"}
"""An answer record's fields: its entities, or those of a conversation record."""
_ENTITY_FIELDS = frozenset({"entity", "level", "groups"})
"""The fields of an entity of an answer."""


class _AnswerBlocks:
    """Answers built a block of records at a time (the readers' way).

    Each block of ``(where, record)`` pairs is checked and turned into distributions,
    so that its records can be dropped before the next is decoded; :meth:`answers`
    joins the blocks. Every record gives its ``run``, or none does (then each answer
    is the only run's, named ``""``).
    """

    def __init__(self, sets: Sequence[AttributeSet]) -> None:
        self.sets = check_sequence_of(sets, AttributeSet, "attribute_sets")
        self.runs: list[str] = []
        self.topics: list[str] = []
        self.sources: list[str] = []
        self.parts: list[dict] = []
        self.first: tuple[bool, str] | None = None  # whether the first record gives a run

    def add(self, pairs) -> None:
        """Check a block of ``(where, record)`` pairs; the first bad record names itself."""
        entity_lists: list = []
        runs: list[str] = []
        topics: list[str] = []
        sources: list[str] = []
        for where, rec in pairs:
            if not isinstance(rec, dict):
                raise file_error(where, "an answer record must be a JSON object")
            if not rec.keys() <= _ANSWER_FIELDS:
                raise file_error(where, f"{unknown_field([rec], _ANSWER_FIELDS, 'a record')[1]}")
            topics.append(check_id(rec.get("topic"), "topic", where))
            run = rec.get("run")
            if self.first is None:
                self.first = (run is not None, where)
            one_way_of_naming_runs(run is not None, self.first[0], where, self.first[1], "run")
            runs.append(json_str(run, "run", where, required=False) or "")
            key = "entities" if "entities" in rec else "nuggets"
            entities = rec.get(key)
            if not isinstance(entities, list) or not all(isinstance(e, dict) for e in entities):
                raise file_error(
                    where,
                    f'"{key}" must be an array of objects (an answer record needs '
                    '"entities", or "nuggets")',
                )
            item = "entity" if key == "entities" else "nugget"
            extra = unknown_field(
                entities,
                _ENTITY_FIELDS if item == "entity" else _NUGGET_FIELDS,
                "an entity" if item == "entity" else "a nugget",
            )
            if extra is not None:
                raise file_error(where, f"{item} {extra[0] + 1}: {extra[1]}")
            entity_lists.append(entities)
            sources.append(where)
        if RESERVED_TOPIC in topics:
            at = sources[topics.index(RESERVED_TOPIC)]
            raise file_error(at, f'"topic": {RESERVED_TOPIC_RULE}')
        self.parts.append(answer_distributions(entity_lists, self.sets, sources=sources))
        self.runs += runs
        self.topics += topics
        self.sources += sources

    def answers(self) -> Answers:
        """The answers of every block added."""
        distributions = {
            a.name: np.concatenate([p[a.name] for p in self.parts] or [np.zeros((0, a.n_groups))])
            for a in self.sets
        }
        return Answers(tuple(self.runs), tuple(self.topics), distributions, tuple(self.sources))


_BLOCK_BYTES = 1 << 18
"""Text of answer records decoded at a time (their objects are then dropped), as for
conversations (:data:`fairconv.io._conversations._BLOCK_BYTES`)."""
_BLOCK = 1 << 14
"""Answers given in memory checked at a time."""


def answers_from_records(records, attribute_sets: Sequence[AttributeSet]) -> Answers:
    """Answers from ``(where, record)`` pairs, each record as a line of an answer file.

    ``where`` names the record in messages (``file:line``, ``answers records:3``); see
    :func:`fairconv.io.read_answers` for the fields.
    """
    blocks = _AnswerBlocks(attribute_sets)
    rest = iter(records)
    while block := list(islice(rest, _BLOCK)):
        blocks.add(block)
    return blocks.answers()


@public
def read_answers(path, attribute_sets: Sequence[AttributeSet], /) -> Answers:
    """Read RAG answers (JSON Lines, docs/formats.md).

    Each record gives ``topic``, ``run`` and ``entities`` (objects with ``level`` and
    ``groups``); an annotated conversation record is accepted too, its ``nuggets``
    being the entities. Every record gives its ``run``, or none does: then every answer
    is the only run's.

    Parameters
    ----------
    path : str, os.PathLike or text file
        The answer file (JSON Lines).
    attribute_sets : sequence of AttributeSet
        The sets whose vectors the entities give.

    Returns
    -------
    Answers

    Raises
    ------
    ValueError
        Naming file, line and field: invalid JSON or UTF-8, an empty file, fields of
        the wrong type, a record without ``run`` among records with one, memberships
        of the wrong length or not summing to 1.

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
    blocks = _AnswerBlocks(attribute_sets)
    reader = Blockwise(lambda name, block: blocks.add((Where(name, n), r) for n, r in block))
    reader.read(path, block_bytes=_BLOCK_BYTES)
    reader.check()
    return blocks.answers()


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
    Answers

    Raises
    ------
    ValueError
        Naming the record (``file:line``, ``answers (DataFrame, index 2)``, ``answers
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
    if isinstance(answers, (str, bytes, os.PathLike)) or hasattr(answers, "read"):
        return read_answers(answers, attribute_sets)
    return answers_from_records(answer_records(answers), attribute_sets)
