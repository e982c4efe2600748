"""Readers of the TREC RAG and TREC iKAT 2024 nugget files.

- castorini/nuggetizer's assignment JSON Lines (``nuggetizer assign`` output), read to
  per-record nugget counts (:class:`NuggetizerAssignments`);
- CONE-RAG's files (TREC iKAT 2024): the gold nuggets, the response nuggets, NtN's
  ``nuggets_results.json`` and NtR's ``coverage_<run>.jsonl``, read to per-(run, turn)
  counts (:class:`ConeRagLabels`).

The JSON rules are those of every fairconv JSON reader (:mod:`fairconv.io._json`); a
line is decoded at a time, and the nuggets of all records are then checked and counted
as flat columns. Every error names the file, the line (JSON Lines) and the field.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from itertools import chain, compress, repeat
from operator import is_, is_not, itemgetter, methodcaller
from pathlib import PurePath
from typing import Any

import numpy as np

from .._validation import (
    Where,
    check_id,
    check_instance,
    did_you_mean,
    fail,
    fail_params,
    fail_type,
    file_error,
    first_bad_id,
    id_fault,
    notice,
    public,
)
from ._json import (
    FileRuns,
    iter_jsonl,
    json_item_error,
    json_repr,
    json_str,
    one_way_of_naming_runs,
    read_json,
)
from ._text import RESERVED_TOPIC, source_name

__all__ = [
    "NuggetizerAssignments",
    "ConeRagLabels",
    "read_nuggetizer",
    "read_cone_rag",
    "refuse_near_misses",
]

_RECORD_FIELDS = (
    "qid",
    "nuggets",
    "run_id",
    "query",
    "text",
    "answer_text",
    "response_length",
    "candidate_text",
    "docid",
    "reasoning_traces",
    "creator_reasoning_traces",
    "scoring_reasoning_traces",
)
_NUGGET_FIELDS = ("text", "importance", "assignment", "reasoning", "trace")
_IMPORTANCE = {"vital": 0, "okay": 1, "failed": 2}
_ASSIGNMENT = {"support": 0, "partial_support": 1, "not_support": 2, "failed": 3}


@dataclass(frozen=True, eq=False)
class NuggetizerAssignments:
    """nuggetizer assignment records as counts, one row per record.

    Parameters
    ----------
    runs, topics : tuple of str, length n
        The run (``run_id``, else the name given or the file's) and the topic (``qid``,
        an integer written in decimal) of each record.
    counts : ndarray of int64, shape (n, 6)
        Per record: vital nuggets, vital nuggets labelled ``support``, vital nuggets
        labelled ``partial_support``, nuggets, nuggets labelled ``support``, nuggets
        labelled ``partial_support``.
    sources : tuple of str, length n
        Where each record came from (``file:line`` or ``record i``).
    file_runs : mapping of str to str
        The runs that records without ``run_id`` took from their file's name, and the
        file: two files of one name may not give one run
        (:func:`fairconv.nuggets.nuggetizer_scores` refuses them).

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> a = read_nuggetizer(path("rag", "nuggetizer-assign.jsonl"))
    >>> a.topics, a.counts[0].tolist()
    (('q1', 'q2', 'q3'), [1, 1, 0, 3, 1, 1])
    """

    runs: tuple[str, ...]
    topics: tuple[str, ...]
    counts: np.ndarray
    sources: tuple[str, ...]
    file_runs: Mapping[str, str] = dataclass_field(default_factory=dict)
    """The runs named after their file (records without ``run_id``): run -> the file."""


@dataclass(frozen=True, eq=False)
class ConeRagLabels:
    """CONE-RAG's NtN and NtR outcomes, one row per evaluated (run, turn).

    Parameters
    ----------
    runs, turns : tuple of str, length n
        The rows: the (run, turn) pairs of the response-nuggets file (NtN) in its
        order, then the pairs only the coverage files hold.
    counts : ndarray of int64, shape (n, 6)
        Per row: gold nuggets predicted (NtN), gold nuggets of the turn, predictive
        response nuggets (NtN), extracted (``matched``) response nuggets, covered gold
        nuggets (NtR), covered plus uncovered gold nuggets (NtR).
    ntn : ndarray of bool, shape (n,)
        The rows NtN evaluated (NtN results given).
    ntr_lines : ndarray of int64
        The row of each coverage line, in the order of the files and their lines.

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> cone = path("rag", "cone-rag")
    >>> labels = read_cone_rag(
    ...     cone / "gold.json", cone / "response_nuggets.json", ntn=cone / "nuggets_results.json"
    ... )
    >>> labels.runs[:2], labels.turns[:2], labels.counts[0].tolist()
    (('runA', 'runB'), ('1_1', '1_1'), [2, 3, 2, 3, 0, 0])
    """

    runs: tuple[str, ...]
    turns: tuple[str, ...]
    counts: np.ndarray
    ntn: np.ndarray
    ntr_lines: np.ndarray


def refuse_near_misses(keys, known: Sequence[str], where: str, what: str) -> None:
    """Refuse a key one edit away from a known field (a misspelt field would be ignored).

    Other unknown keys pass: the tools writing these files add fields of their own.
    """
    for key in keys:
        if key not in known:
            near = did_you_mean(key, known)
            if near:
                raise file_error(where, f'unknown field "{key}" in {what}.{near}')


# --------------------------------------------------------------------------- nuggetizer


def _stem(path) -> str:
    """The run id nuggetizer gives a file: its name without the last suffix (``.gz`` first)."""
    name = PurePath(source_name(path)).name
    if name.endswith(".gz"):
        name = name[:-3]
    return PurePath(name).stem or name


def _qid(value, where: str) -> str:
    """The topic: a string id, or an integer written in decimal."""
    if type(value) is int:
        value = str(value)
    topic = check_id(value, "qid", where)
    if topic == "all":
        raise file_error(
            where,
            '"qid" is "all", the name of the mean rows in fairconv\'s output; rename the topic',
        )
    return topic


@public
def read_nuggetizer(path_or_records, /, *, name: str | None = None) -> NuggetizerAssignments:
    """Read nuggetizer's assignment records (``nuggetizer assign`` output) to counts.

    Parameters
    ----------
    path_or_records : str, path-like, file object, or sequence of dict
        A JSON Lines file (``.gz`` read as gzip; blank lines and a byte-order mark at
        the start skipped), or the records as decoded dicts.
    name : str, optional
        The run of the records when none gives ``run_id`` (retrieval-mode files): by
        default the file's name without its last suffix (``my.run.v2.jsonl`` -> ``my.run.v2``,
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
        (retrieval-mode files hold one per candidate passage); a record without
        ``run_id`` among records with one (or the other way round); a field one edit
        away from a field of the format (``assignement``: Did you mean 'assignment'?).

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
    if name is not None and (type(name) is not str or id_fault(name) is not None):
        raise fail(
            "name", "be a non-empty string without whitespace or control characters", repr(name)
        )
    if isinstance(path_or_records, (str, os.PathLike)) or hasattr(path_or_records, "read"):
        file = source_name(path_or_records)
        found = iter_jsonl(path_or_records, count_keys=_record_keys)
        records = [v for _, v in found]
        sources: list[str] = [Where(file, n) for n, _ in found]
        default: str | None = name if name is not None else _stem(path_or_records)
        named_by = None if name is not None else file
    elif isinstance(path_or_records, Sequence) and not isinstance(path_or_records, bytes):
        records = list(path_or_records)
        sources = [f"record {i + 1}" for i in range(len(records))]
        if not records:
            raise fail("path_or_records", "hold at least one record", "an empty sequence")
        default, named_by = name, None
    else:
        raise fail_type(
            "path_or_records",
            "be a path or a sequence of records (dicts)",
            type(path_or_records).__name__,
        )
    return _assignments(records, sources, default, named_by)


def _record_keys(values: list) -> int:
    """Keys of the records and their nuggets (``count_keys`` of :func:`iter_jsonl`).

    Objects nested deeper (a nugget's ``trace``) are not counted: a file holding them
    is decoded by the full rules, which check every object.
    """
    records = list(compress(values, _are(values, dict)))
    lists = [x for x in map(methodcaller("get", "nuggets"), records) if type(x) is list]
    flat = list(chain.from_iterable(lists))
    nuggets = list(compress(flat, _are(flat, dict)))
    return sum(map(len, records)) + sum(map(len, nuggets))


def _are(values, kind: type):
    """Whether each value is exactly of ``kind`` (an iterator of bools, C-level)."""
    return map(is_, map(type, values), repeat(kind))


def _not(values, kind: type):
    """Whether each value is not exactly of ``kind``."""
    return map(is_not, map(type, values), repeat(kind))


def _assignments(records: list, sources: list[str], default: str | None, named_by: str | None):
    """The assignments of decoded records; ``named_by``: the file whose name is ``default``."""
    n = len(records)
    for i in compress(range(n), _not(records, dict)):
        raise file_error(
            sources[i], f"an assignment record must be a JSON object, got {json_repr(records[i])}"
        )
    misspelt = _misspelt(records, _RECORD_FIELDS)
    if misspelt is not None:
        i = next(compress(range(n), map(dict.__contains__, records, repeat(misspelt))))
        refuse_near_misses(records[i], _RECORD_FIELDS, sources[i], "an assignment record")
    first = ("run_id" in records[0], sources[0])  # every record gives one, or none does
    columns = _columns(records, default, first[0])
    if columns is None:  # some record breaks a rule: the first one names it
        for rec, where in zip(records, sources, strict=True):
            _record(rec, where, default, first)
        raise AssertionError("a rule the records break was not found")  # pragma: no cover
    topics, runs, lists = columns
    if len(set(zip(runs, topics, strict=True))) == len(runs):
        file_runs = {} if first[0] or named_by is None or default is None else {default: named_by}
        return NuggetizerAssignments(
            tuple(runs), tuple(topics), _nugget_counts(lists, sources), tuple(sources), file_runs
        )
    seen: dict[tuple[str, str], int] = {}
    for i, pair in enumerate(zip(runs, topics, strict=True)):  # to name the second
        j = seen.setdefault(pair, i)
        if j != i:
            raise file_error(
                sources[i],
                f"run {pair[0]!r} has a second record for qid {pair[1]!r} (the "
                f"first at {sources[j]}); fairconv scores one answer per run and topic (a "
                "retrieval-mode file holds one record per candidate passage; an integer "
                "qid and its decimal string are one topic)",
            )
    raise AssertionError("a repeated (run, qid) was not found")  # pragma: no cover


def _misspelt(objects: list[dict], known: Sequence[str]) -> str | None:
    """A key of some object one edit away from a known field (the first, sorted), or None."""
    unknown = set(chain.from_iterable(objects)).difference(known)
    return next((k for k in sorted(unknown) if did_you_mean(k, known)), None)


def _columns(records: list[dict], default: str | None, first_given: bool):
    """The topics, runs and nugget lists of valid records (array work), else None.

    Every record gives a ``run_id`` if the first one does (``first_given``), else none
    does.
    """
    try:
        qids = list(map(itemgetter("qid"), records))
        lists = list(map(itemgetter("nuggets"), records))
    except KeyError:
        return None
    given = sum(map(methodcaller("__contains__", "run_id"), records))
    if given != (len(records) if first_given else 0):
        return None
    runs = list(map(methodcaller("get", "run_id", default), records))
    if not (
        set(map(type, qids)).issubset({str, int})
        and set(map(type, runs)).issubset({str})
        and set(map(type, lists)).issubset({list})
    ):
        return None
    topics = list(map(str, qids))
    if not (_valid_ids(topics) and _valid_ids(runs)) or "all" in topics:
        return None
    return topics, runs, lists


def _valid_ids(ids: list[str]) -> bool:
    """Every item an id (:func:`fairconv._validation.first_bad_id`: the rule of json_str)."""
    return first_bad_id(ids) < 0


def _record(rec: dict, where: str, default: str | None, first: tuple[bool, str]) -> None:
    """Check one record by the rules :func:`_columns` applies to all, naming the field."""
    for key in ("qid", "nuggets"):
        if key not in rec:
            raise file_error(where, f'an assignment record needs "{key}"')
    _qid(rec["qid"], where)
    one_way_of_naming_runs("run_id" in rec, first[0], where, first[1], "run_id")
    run = rec.get("run_id", default)
    if run is None:
        raise file_error(where, 'the record has no "run_id"; give the run\'s name (name=...)')
    check_id(run, "run_id", where)
    if type(rec["nuggets"]) is not list:
        raise file_error(
            where, f'"nuggets" must be an array of nugget objects, got {json_repr(rec["nuggets"])}'
        )


def _nugget_counts(lists: list[list], sources: list[str]) -> np.ndarray:
    """The six counts per record, from its nuggets' labels (array work on the flat list)."""
    lengths = np.fromiter(map(len, lists), np.int64, len(lists))
    offsets = np.concatenate(([0], np.cumsum(lengths)))
    flat = list(chain.from_iterable(lists))
    if not set(map(type, flat)).issubset({dict}):
        i = next(compress(range(len(flat)), _not(flat, dict)))
        raise json_item_error(
            sources, offsets, i, "nugget", f"must be a JSON object, got {json_repr(flat[i])}"
        )
    vital = _codes(flat, "importance", _IMPORTANCE, sources, offsets) == 0
    assigned = _codes(flat, "assignment", _ASSIGNMENT, sources, offsets)
    support, partial = assigned == 0, assigned == 1
    record = np.repeat(np.arange(len(lists)), lengths)
    columns = (vital, vital & support, vital & partial, None, support, partial)
    counts = np.empty((len(lists), 6), dtype=np.int64)
    for k, column in enumerate(columns):
        if column is None:
            counts[:, k] = lengths
        else:
            counts[:, k] = np.bincount(record[column], minlength=len(lists))
    return counts


def _codes(flat: list[dict], field: str, known: dict, sources, offsets) -> np.ndarray:
    """The code in ``known`` of each nugget's label (-1 for any other), one notice if any.

    The notice lists up to five of the labels nuggetizer does not know, with where they
    are; they are scored as nuggetizer scores them (not vital, no credit). A nugget
    without the field is an error.
    """
    n = len(flat)
    try:
        code = np.fromiter(map(known.get, map(itemgetter(field), flat), repeat(-1)), np.int8, n)
    except KeyError:
        raise _missing(flat, field, sources, offsets) from None
    except TypeError:  # an unhashable label (an array, an object): never a known one
        values = list(map(itemgetter(field), flat))
        hashable = np.fromiter(_not(values, list), bool, n)
        hashable &= np.fromiter(_not(values, dict), bool, n)
        code = np.full(n, -1, dtype=np.int8)
        code[hashable] = np.fromiter(
            map(known.get, compress(values, hashable), repeat(-1)), np.int8, int(hashable.sum())
        )
    unknown = np.flatnonzero(code < 0)
    if unknown.size:
        _notice_unknown(list(map(itemgetter(field), flat)), unknown, field, sources, offsets)
    return code


def _missing(flat: list[dict], field: str, sources, offsets) -> ValueError:
    """The error naming the first nugget without ``field``, and why it may lack it."""
    has = np.fromiter(map(methodcaller("__contains__", field), flat), bool, len(flat))
    i = int(np.argmin(has))
    misspelt = _misspelt([flat[i]], _NUGGET_FIELDS)
    if misspelt is not None:
        hint = f' (it has "{misspelt}".{did_you_mean(misspelt, _NUGGET_FIELDS)})'
    elif field == "assignment" and not has.any():
        hint = (
            " (no nugget of the input has one: a nuggets file, the output of nuggetizer "
            "create, rather than an assignment file?)"
        )
    else:
        hint = ""
    return json_item_error(sources, offsets, i, "nugget", f'needs "{field}"{hint}')


def _notice_unknown(values: list, unknown: np.ndarray, field: str, sources, offsets) -> None:
    first: dict[str, int] = {}
    for i in unknown.tolist():  # the distinct unknown labels, for the message
        first.setdefault(json_repr(values[i]), i)
        if len(first) == 5:
            break
    listed = ", ".join(
        f"{text} ({json_item_error(sources, offsets, i, 'nugget', '').args[0][:-2]})"
        for text, i in first.items()
    )
    rule = (
        'only "vital" is vital'
        if field == "importance"
        else '"support" earns 1, "partial_support" 1/2, anything else 0'
    )
    more = "" if len(first) < 5 else ", ..."
    notice(
        f"{unknown.size} nugget(s) have an {field} nuggetizer does not know: "
        f"{listed}{more}; scored as nuggetizer scores them ({rule})"
    )


# --------------------------------------------------------------------------- CONE-RAG


def _object(value, where: str, what: str) -> dict:
    if type(value) is not dict:
        raise file_error(where, f"{what} must be a JSON object, got {json_repr(value)}")
    return value


def _turn(turn, where, field: str = "turn id") -> str:
    """A turn id (a row of the table): an id by the rule of every reader, but not ``all``."""
    check_id(turn, field, where)
    if turn == RESERVED_TOPIC:
        raise file_error(
            where,
            f'the {field} "all" is the name of the mean rows in fairconv\'s output; '
            "rename the turn",
        )
    return turn


def _gold(path) -> dict[str, list[str]]:
    """Map each turn id to its gold nugget ids, in file order."""
    file = Where(source_name(path))
    data = _object(read_json(path), file, "the gold nuggets file")
    gold = {}
    for turn, nuggets in data.items():  # one per turn
        _turn(turn, Where(file, None, "a key of the gold nuggets file"))
        where = Where(file, None, f'turn "{turn}"')
        _object(nuggets, where, "the turn's gold nuggets")
        for gid in compress(nuggets, _not(nuggets.values(), dict)):
            place = Where(file, None, f'turn "{turn}", gold nugget "{gid}"')
            _object(nuggets[gid], place, "a gold nugget")
        gold[turn] = list(nuggets)
    return gold


def _response_nuggets(path, gold) -> list[tuple[str, str, int]]:
    """(run, turn, number of matched nuggets) for every entry, in file order."""
    file = Where(source_name(path))
    data = _object(read_json(path), file, "the response nuggets file")
    out = []
    for turn, runs in data.items():  # one per turn
        _turn(turn, Where(file, None, "a key of the response nuggets file"))
        where = Where(file, None, f'turn "{turn}"')
        _object(runs, where, "the turn's runs")
        if turn not in gold:
            raise file_error(
                file,
                f'turn "{turn}" is not in the gold nuggets file (CONE-RAG\'s NtN stops with a '
                "KeyError there)",
            )
        for run, entry in runs.items():
            at = Where(file.path, None, f'turn "{turn}", run "{run}"')
            json_str(run, "run", at)
            _object(entry, at, "an entry")
            refuse_near_misses(entry, ("nuggets", "response"), at, "an entry")
            nuggets = _object(entry.get("nuggets", {}), at, '"nuggets"')
            refuse_near_misses(nuggets, ("matched", "not-matched"), at, '"nuggets"')
            matched = nuggets.get("matched", [])
            if type(matched) is not list:
                raise file_error(at, f'"matched" must be an array, got {json_repr(matched)}')
            out.append((run, turn, len(matched)))
    return out


def _ids(value, where: str, field: str) -> list[str]:
    if type(value) is not list or not all(_are(value, str)):
        raise file_error(where, f'"{field}" must be an array of ids, got {json_repr(value)}')
    if len(set(value)) != len(value):
        twice = next(x for k, x in enumerate(value) if x in value[:k])
        raise file_error(where, f'"{field}" lists {twice!r} twice')
    return value


def _ntn(path, gold, entries) -> dict[tuple[str, str], tuple[int, int]]:
    """(run, turn) -> (predicted gold nuggets, predictive response nuggets)."""
    file = Where(source_name(path))
    data = _object(read_json(path), file, "the NtN results file")
    fields = ("predicted_gold_nuggets", "predictive_response_nuggets")
    refuse_near_misses(data, fields, file, "the NtN results file")
    for field in fields:
        if field not in data:
            raise file_error(file, f'the NtN results file needs "{field}"')
        _object(data[field], Where(file, None, f'"{field}"'), "the field")
    matched = {(run, turn): m for run, turn, m in entries}
    gold_sets = {turn: set(ids) for turn, ids in gold.items()}
    out: dict[tuple[str, str], tuple[int, int]] = {}
    for field in fields:
        pairs = set()
        for run, turns in data[field].items():
            _object(turns, Where(file, None, f'"{field}" of run "{run}"'), "the run's turns")
            for turn, ids in turns.items():
                _turn(turn, Where(file, None, f'"{field}" of run "{run}"'))
                where = Where(file, None, f'"{field}", run "{run}", turn "{turn}"')
                if (run, turn) not in matched:
                    raise file_error(
                        where,
                        "the response nuggets file has no entry for this run and "
                        "turn (the NtN results come from other inputs)",
                    )
                ids = _ids(ids, where, field)
                valid = gold_sets[turn] if field == fields[0] else _positions(matched[run, turn])
                if not valid.issuperset(ids):
                    bad = next(x for x in ids if x not in valid)  # the error's place
                    raise file_error(where, _not_an_id(bad, field == fields[0], matched[run, turn]))
                old = out.get((run, turn), (0, 0))
                out[run, turn] = (len(ids), old[1]) if field == fields[0] else (old[0], len(ids))
                pairs.add((run, turn))
        missing = [p for p in matched if p not in pairs]
        if missing:
            run, turn = missing[0]
            raise file_error(
                file,
                f'"{field}" has no turn "{turn}" for run "{run}", which the response '
                "nuggets file holds (the NtN results come from other inputs)",
            )
    return out


def _positions(n: int) -> set[str]:
    """The ids NtN gives n extracted nuggets: ``[1]`` to ``[n]``."""
    return set(map("[{}]".format, range(1, n + 1)))


def _not_an_id(bad: str, gold: bool, matched: int) -> str:
    if gold:
        return f"{bad!r} is not a gold nugget of the turn"
    return (
        f"{bad!r} is not the id of one of the turn's {matched} matched response "
        "nuggets ([1], [2], ...)"
    )


def _coverage_run(path) -> str:
    name = PurePath(source_name(path)).name
    m = re.fullmatch(r"coverage_(.+)\.jsonl(?:\.gz)?", name)
    return m[1] if m else _stem(path)


def _ntr(paths, gold) -> list[tuple[str, str, int, int]]:
    """(run, turn, covered, covered + uncovered) of every coverage line."""
    out = []
    seen: dict[tuple[str, str], str] = {}
    fields = ("topic_turn_id", "covered", "uncovered", "recall", "response")
    file_runs = FileRuns(
        "the coverage file names its run",
        "Give the files different run names (coverage_<run>.jsonl).",
    )
    for path in paths:
        run = _coverage_run(path)
        file = source_name(path)
        json_str(run, "run", Where(file, None, "the run named by the file name"))
        file_runs.add(run, file, Where(file))
        for line, rec in iter_jsonl(path):
            where = Where(file, line)
            rec = _object(rec, where, "a coverage line")
            refuse_near_misses(rec, fields, where, "a coverage line")
            for key in fields[:4]:
                if key not in rec:
                    raise file_error(where, f'a coverage line needs "{key}"')
            turn = _turn(rec["topic_turn_id"], where, "topic_turn_id")
            if not gold.get(turn):
                raise file_error(
                    where,
                    f'turn "{turn}" has no gold nugget in the gold nuggets file '
                    "(CONE-RAG's NtR scores no such turn)",
                )
            if (run, turn) in seen:
                raise file_error(
                    where,
                    f'run "{run}" has a second coverage line for turn "{turn}" '
                    f"(the first at {seen[run, turn]})",
                )
            seen[run, turn] = where
            covered = _ids(rec["covered"], where, "covered")
            uncovered = _ids(rec["uncovered"], where, "uncovered")
            both = covered + uncovered
            if len(set(both)) != len(both) or set(both) != set(gold[turn]):
                raise file_error(
                    where,
                    f'"covered" and "uncovered" must split the turn\'s gold nuggets '
                    f"{gold[turn]} between them",
                )
            recall = rec["recall"]
            if type(recall) not in (int, float) or abs(recall - len(covered) / len(both)) > 1e-12:
                raise file_error(
                    where,
                    f'"recall" must be |covered| / (|covered| + |uncovered|) = '
                    f"{len(covered) / len(both)!r}, got {json_repr(recall)}",
                )
            out.append((run, turn, len(covered), len(both)))
    return out


@public
def read_cone_rag(
    gold, response_nuggets=None, /, *, ntn=None, ntr: Sequence[Any] = ()
) -> ConeRagLabels:
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
        One row per evaluated (run, turn): the NtN and NtR counts.

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
    check_instance(gold, (str, os.PathLike), "gold", what="a path")
    if response_nuggets is not None:
        check_instance(response_nuggets, (str, os.PathLike), "response_nuggets", what="a path")
    if isinstance(ntr, (str, os.PathLike)) or not isinstance(ntr, Sequence):
        raise fail_type("ntr", "be a sequence of paths", repr(ntr))
    if ntn is None and not ntr:
        raise fail_params(("ntn", "ntr"), "give NtN results, coverage files or both", "neither")
    if ntn is not None and response_nuggets is None:
        raise fail(
            "response_nuggets",
            "be given with 'ntn' (NtN's results count the matched nuggets it lists)",
            "None",
        )
    gold_ids = _gold(gold)
    entries = [] if response_nuggets is None else _response_nuggets(response_nuggets, gold_ids)
    ntn_counts = {} if ntn is None else _ntn(ntn, gold_ids, entries)
    if ntn is None:
        entries = []  # checked; without NtN results they score nothing
    lines = _ntr(list(ntr), gold_ids)
    rows: dict[tuple[str, str], int] = {}
    for run, turn, _ in entries:
        rows.setdefault((run, turn), len(rows))
    for run, turn, _, _ in lines:
        rows.setdefault((run, turn), len(rows))
    counts = np.zeros((len(rows), 6), dtype=np.int64)
    has_ntn = np.zeros(len(rows), dtype=bool)
    for run, turn, matched in entries:
        i = rows[run, turn]
        predicted, predictive = ntn_counts.get((run, turn), (0, 0))
        counts[i, :4] = (predicted, len(gold_ids[turn]), predictive, matched)
        has_ntn[i] = ntn is not None
    at = np.fromiter((rows[run, turn] for run, turn, _, _ in lines), np.int64, len(lines))
    if lines:
        counts[at, 4:] = [(covered, total) for _, _, covered, total in lines]
        counts[at, 1] = counts[at, 5]
    runs = tuple(r for r, _ in rows)
    turns = tuple(t for _, t in rows)
    return ConeRagLabels(runs, turns, counts, has_ntn, at)
