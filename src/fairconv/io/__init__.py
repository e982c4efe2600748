"""Readers, writers and in-memory inputs: every input type, and what turns users' data into it.

Files (docs/formats.md), each read by one reader whose errors name the file and line:

- text tables: :func:`read_qrels`, :func:`read_run`, :func:`read_gmemb`,
  :func:`read_golddistr` (giving :class:`Qrels`, :class:`Run`,
  :class:`GroupMemberships` and a target vector), :func:`load_attribute` (an attribute
  set with its memberships, :class:`AttributeData`), and the per-topic score files of
  fairconv, trec_eval, ir_measures and ranx, :func:`read_scores` and :func:`read_topics`
  (:func:`from_ir_measures` takes ``ir_measures.iter_calc`` results in memory);
- JSON: :func:`read_json` and :func:`iter_jsonl` (the rules of every JSON input),
  :func:`read_attribute_sets`; conversations (:func:`read_conversations`, giving a
  :class:`ConversationBatch` of :class:`Conversation` records; :func:`batch_from_records`
  and :func:`batch_from_conversations` build one in memory); RAG answers
  (:func:`read_answers`, :class:`Answers`); match labels (:func:`read_labels`,
  :func:`labels_from_records`, :class:`MatchLabels`); nuggetizer's assignments
  (:func:`read_nuggetizer`) and CONE-RAG's files (:func:`read_cone_rag`);
- writers: :func:`write_conversations` and :func:`write_nev` (the organisers'
  ``.GFRnev`` layout), under the output rule of every writer (never over a file
  unasked, atomic).

In-memory inputs: qrels, runs, memberships and answers from DataFrames, dicts and record
streams, straight to the readers' arrays (:func:`as_qrels`, :func:`as_run`,
:func:`as_runs`, :func:`as_memberships`, :func:`as_answers`).

The conversation helpers :func:`turns_of`, :func:`find_span` and :func:`word_at` read
the words and turns of a conversation's text as the records count them.

Examples
--------
>>> from fairconv import io
>>> q = io.as_qrels({"T1": {"a": 2, "b": 0}})
>>> q.topics, q.levels.tolist()
(('T1',), [2, 0])
"""

from __future__ import annotations

from ._answers import Answers, as_answers, read_answers
from ._attributes import AttributeData, load_attribute
from ._conversation_records import (
    Conversation,
    ConversationBatch,
    Nugget,
    Turn,
    batch_from_conversations,
    batch_from_records,
    find_span,
    turns_of,
    word_at,
)
from ._conversations import read_attribute_sets, read_conversations, write_conversations
from ._frames import as_memberships, as_qrels, as_run, as_runs
from ._json import MAX_JSON_DEPTH, Unreadable, iter_jsonl, read_json
from ._labels import MatchLabels, labels_from_records, read_labels
from ._nev import write_nev
from ._nuggetizer import ConeRagLabels, NuggetizerAssignments, read_cone_rag, read_nuggetizer
from ._scores import SCORE_FORMATS, from_ir_measures, read_scores, read_topics
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

__all__ = [
    "Answers",
    "AttributeData",
    "ConeRagLabels",
    "Conversation",
    "ConversationBatch",
    "FileFormatError",
    "GroupMemberships",
    "MAX_JSON_DEPTH",
    "MatchLabels",
    "Nugget",
    "NuggetizerAssignments",
    "Qrels",
    "Run",
    "SCORE_FORMATS",
    "Turn",
    "Unreadable",
    "as_answers",
    "as_memberships",
    "as_qrels",
    "as_run",
    "as_runs",
    "batch_from_conversations",
    "batch_from_records",
    "find_span",
    "from_ir_measures",
    "iter_jsonl",
    "labels_from_records",
    "load_attribute",
    "read_answers",
    "read_attribute_sets",
    "read_conversations",
    "read_cone_rag",
    "read_gmemb",
    "read_golddistr",
    "read_json",
    "read_labels",
    "read_nuggetizer",
    "read_qrels",
    "read_run",
    "read_scores",
    "read_topics",
    "turns_of",
    "word_at",
    "write_conversations",
    "write_nev",
]
