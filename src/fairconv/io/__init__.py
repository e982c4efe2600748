"""Readers, writers and in-memory inputs: everything that turns what users hold into arrays.

Files (docs/formats.md), each read by one reader whose errors name the file and line:

- text tables: :func:`read_qrels`, :func:`read_run`, :func:`read_gmemb`,
  :func:`read_golddistr` (giving :class:`Qrels`, :class:`Run`,
  :class:`GroupMemberships` and a target vector), and the per-topic score files of
  fairconv, trec_eval, ir_measures and ranx, :func:`read_scores` and :func:`read_topics`
  (:func:`from_ir_measures` takes ``ir_measures.iter_calc`` results in memory);
- JSON: :func:`read_json` and :func:`iter_jsonl` (the rules of every JSON input),
  :func:`read_conversations`, :func:`read_attribute_sets`, :func:`read_answers` and
  :func:`read_labels`;
- writers: :func:`write_conversations` and :func:`write_nev` (the organisers'
  ``.GFRnev`` layout).

In-memory inputs: qrels, runs, memberships and answers from DataFrames, dicts and record
streams, straight to the readers' arrays (:func:`as_qrels`, :func:`as_run`,
:func:`as_runs`, :func:`as_memberships`, :func:`as_answers`).

The readers of conversations, answers, labels and score tables and the nev writer are
imported on first use: the records they build (:mod:`fairconv.conversation`,
:mod:`fairconv.results`, ...) read through this package's rules themselves, so
importing them here would close a loop.

Examples
--------
>>> from fairconv import io
>>> q = io.as_qrels({"T1": {"a": 2, "b": 0}})
>>> q.topics, q.levels.tolist()
(('T1',), [2, 0])
"""

from __future__ import annotations

import importlib

from ._frames import as_memberships, as_qrels, as_run, as_runs
from ._json import MAX_JSON_DEPTH, Unreadable, iter_jsonl, read_json
from ._tables import (
    GroupMemberships,
    Qrels,
    Run,
    read_gmemb,
    read_golddistr,
    read_qrels,
    read_run,
)
from ._text import FileFormatError

_ON_FIRST_USE = {
    "read_conversations": "_conversations",
    "write_conversations": "_conversations",
    "read_attribute_sets": "_conversations",
    "read_answers": "_conversations",
    "as_answers": "_conversations",
    "read_labels": "_conversations",
    "read_scores": "_scores",
    "read_topics": "_scores",
    "from_ir_measures": "_scores",
    "SCORE_FORMATS": "_scores",
    "write_nev": "_nev",
}

__all__ = [
    "FileFormatError",
    "GroupMemberships",
    "MAX_JSON_DEPTH",
    "Qrels",
    "Run",
    "SCORE_FORMATS",
    "Unreadable",
    "as_answers",
    "as_memberships",
    "as_qrels",
    "as_run",
    "as_runs",
    "from_ir_measures",
    "iter_jsonl",
    "read_answers",
    "read_attribute_sets",
    "read_conversations",
    "read_gmemb",
    "read_golddistr",
    "read_json",
    "read_labels",
    "read_qrels",
    "read_run",
    "read_scores",
    "read_topics",
    "write_conversations",
    "write_nev",
]


def __getattr__(name: str):
    module = _ON_FIRST_USE.get(name)
    if module is None:
        raise AttributeError(f"module 'fairconv.io' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
