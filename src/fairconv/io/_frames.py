"""Inputs as users hold them: paths, file objects, DataFrames, dicts and record streams.

Qrels, runs and memberships may come from files (also ``.gz``), from pandas DataFrames
with the columns of ir_measures, PyTerrier or ranx, from dicts in the pytrec_eval/ranx
shape ``{query_id: {doc_id: value}}``, or from iterables of records such as
ir_datasets' ``qrels_iter()`` and ``scoreddocs_iter()``. Each is written as the text
its file format has and read by the file readers (:mod:`fairconv.io._tables`), so the
numbers and the checks are those of the files; an error names the row (``qrels DataFrame:3: ...``).

A run with an order (a file, a DataFrame or a record stream in row order) keeps it; a
dict has none and is ranked by score, ties by doc id descending (trec_eval's rule).
"""

from __future__ import annotations

import io
import math
import os
import reprlib
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from .._validation import _NOT_IN_ID
from ._json import LONE_SURROGATE
from ._tables import GroupMemberships, Qrels, Run, read_gmemb, read_qrels, read_run

__all__ = ["as_qrels", "as_run", "as_runs", "as_memberships"]

_COLUMNS = {
    "topic": ("query_id", "qid", "q_id"),
    "doc": ("doc_id", "docno"),
    "relevance": ("relevance", "label", "rel", "score"),
    "score": ("score",),
}


_MISSING = object()  # a field a record lacks (None is a value there, checked as one)


def _is_path(obj) -> bool:
    return isinstance(obj, (str, bytes, os.PathLike)) or hasattr(obj, "read")


def _is_frame(obj) -> bool:
    return hasattr(obj, "columns") and hasattr(obj, "itertuples")


def _column(frame, kind: str, what: str):
    for name in _COLUMNS[kind]:
        if name in frame.columns:
            return frame[name].tolist()
    raise ValueError(
        f"the {what} DataFrame needs a {kind} column named one of "
        f"{', '.join(_COLUMNS[kind])}; it has {', '.join(map(str, frame.columns))}"
    )


def _token(value, field: str, where: str, *, first: bool = False) -> str:
    """An id as the token of a line of its file format, or a ValueError naming the row.

    A string or an integer (not a bool); what the file could not hold as the same text
    is refused, never changed: whitespace and control characters (they would split the
    line), a byte-order mark (skipped at the start of a file, refused elsewhere), a
    lone surrogate (no UTF-8 text holds one) and, for the ``first`` token of a line, a
    leading ``#`` (the line would be a comment).
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (str, int, np.integer)):
        raise ValueError(
            f"{where}: the {field} must be a string or an integer, got "
            f"{type(value).__name__} {reprlib.repr(value)}"
        )
    text = str(value)
    if not text or _NOT_IN_ID.search(text):
        raise ValueError(
            f"{where}: the {field} {text!r} must be non-empty, without whitespace or "
            "control characters"
        )
    if "\ufeff" in text or LONE_SURROGATE.search(text):
        raise ValueError(
            f"{where}: the {field} {text!r} must be Unicode text without a byte-order mark "
            "(U+FEFF) or a lone surrogate"
        )
    if first and text.startswith("#"):
        raise ValueError(
            f"{where}: the {field} {text!r} must not start with '#' (in the file format a "
            "line starting with '#' is a comment)"
        )
    return text


def _number(value, field: str, where: str, *, integer: bool = False) -> str:
    """A number as the token of its file format, or a ValueError naming the row.

    An int, a float or a numpy integer or floating-point scalar (not a bool, a string
    or a complex number); finite, and with ``integer`` a whole number.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (int, float, np.integer, np.floating)
    ):
        raise ValueError(f"{where}: the {field} must be a number, got {reprlib.repr(value)}")
    if integer and isinstance(value, (int, np.integer)):
        return str(int(value))
    try:
        x = float(value)
    except OverflowError:  # an int beyond the doubles
        x = math.inf
    if integer and not x.is_integer():  # nor are NaN and the infinities
        raise ValueError(f"{where}: the {field} must be an integer, got {reprlib.repr(value)}")
    if not math.isfinite(x):
        raise ValueError(f"{where}: the {field} must be a finite number, got {reprlib.repr(value)}")
    return str(int(x)) if integer else repr(x)


def _records(obj, kinds: Sequence[str], what: str) -> list[tuple]:
    """(topic, doc, value) rows of a DataFrame, a dict of dicts or an iterable."""
    if _is_frame(obj):
        return list(zip(*(_column(obj, k, what) for k in kinds), strict=True))
    if isinstance(obj, Mapping):
        rows = []
        for topic, docs in obj.items():
            if not isinstance(docs, Mapping):
                raise ValueError(
                    f"the {what} dict must map query ids to {{doc_id: value}} dicts; "
                    f"query {topic!r} maps to {type(docs).__name__}"
                )
            rows += [(topic, doc, value) for doc, value in docs.items()]
        return rows
    if isinstance(obj, Iterable):
        rows = []
        for i, rec in enumerate(obj, start=1):
            fields: list = []
            for kind in kinds:
                names = _COLUMNS[kind]
                found = next((getattr(rec, n) for n in names if hasattr(rec, n)), _MISSING)
                if found is _MISSING and isinstance(rec, Mapping):
                    found = next((rec[n] for n in names if n in rec), _MISSING)
                if found is _MISSING:
                    raise ValueError(
                        f"{what} record {i}: needs a field named one of {', '.join(names)}"
                    )
                fields.append(found)
            rows.append(tuple(fields))
        return rows
    raise TypeError(
        f"{what} must be a path, a file object, a DataFrame, a {{query_id: {{doc_id: "
        f"value}}}} dict or an iterable of records; got {type(obj).__name__}"
    )


def _stream(lines: list[str], name: str) -> io.BytesIO:
    f = io.BytesIO(("\n".join(lines) + "\n").encode("utf-8") if lines else b"")
    f.name = name
    return f


def _kind(obj) -> str:
    if _is_frame(obj):
        return "DataFrame"
    if isinstance(obj, Mapping):
        return "dict"
    return "records"


def as_qrels(qrels) -> Qrels:
    """Qrels from a file, a DataFrame, a dict or records (see the module's docstring).

    Relevance values are integers (negative: nonrelevant, as trec_eval reads them).

    Examples
    --------
    >>> q = as_qrels({"T1": {"a": 2, "b": 0}})
    >>> q.topics, q.levels.tolist()
    (('T1',), [2, 0])
    """
    if isinstance(qrels, Qrels):
        return qrels
    if _is_path(qrels):
        return read_qrels(qrels)
    name = f"qrels {_kind(qrels)}"
    rows = _records(qrels, ("topic", "doc", "relevance"), name)
    lines = [
        f"{_token(t, 'query id', f'{name}:{i}', first=True)} 0 "
        f"{_token(d, 'doc id', f'{name}:{i}')} "
        f"{_number(v, 'relevance', f'{name}:{i}', integer=True)}"
        for i, (t, d, v) in enumerate(rows, start=1)
    ]
    return read_qrels(_stream(lines, name))


def as_run(run, *, name: str | None = None) -> Run:
    """A run from a file, a DataFrame, a dict or records (see the module's docstring).

    ``name`` is the run's name (its tag); files keep the tag they have.

    Examples
    --------
    >>> r = as_run({"T1": {"a": 0.5, "b": 0.9}}, name="bm25")
    >>> r.tag, [d.decode() for d in r.docs]
    ('bm25', ['b', 'a'])
    """
    if isinstance(run, Run):
        return run
    tag = "run" if name is None else _token(name, "run name", "run")
    if _is_path(run):
        return read_run(run, tag=None if name is None else tag)
    where = f"run {tag!r} ({_kind(run)})"
    rows = _records(run, ("topic", "doc", "score"), where)
    scored = [
        (_token(t, "query id", f"{where}:{i}", first=True), _token(d, "doc id", f"{where}:{i}"),
         _number(v, "score", f"{where}:{i}"))
        for i, (t, d, v) in enumerate(rows, start=1)
    ]  # fmt: skip
    if isinstance(run, Mapping):  # no order: by score, ties by doc id descending
        scored.sort(key=lambda r: r[1], reverse=True)
        scored.sort(key=lambda r: float(r[2]), reverse=True)
        scored.sort(key=lambda r: r[0])
    lines = [f"{t} Q0 {d} {i} {s} {tag}" for i, (t, d, s) in enumerate(scored, start=1)]
    return read_run(_stream(lines, where), tag=tag)


def as_runs(runs) -> list[Run]:
    """Runs from a sequence of runs or a mapping from run name to run."""
    if isinstance(runs, Mapping):
        return [as_run(r, name=n) for n, r in runs.items()]
    if _is_path(runs) or _is_frame(runs) or isinstance(runs, Run):
        return [as_run(runs)]
    if not isinstance(runs, Iterable):
        raise TypeError(
            "runs must be a run (a path, a file object, a DataFrame, a Run), a sequence of "
            f"runs or a {{name: run}} dict; got {type(runs).__name__}"
        )
    return [as_run(r) for r in runs]


def as_memberships(memberships, n_groups: int | None = None) -> GroupMemberships:
    """Group memberships from a file, a DataFrame or a dict.

    A DataFrame has the query and doc id columns, then one column per group in the
    target's order; a dict maps query ids to ``{doc_id: vector}``.

    Examples
    --------
    >>> m = as_memberships({"T1": {"a": [1, 0], "b": [0.5, 0.5]}})
    >>> m.matrix.tolist()
    [[1.0, 0.0], [0.5, 0.5]]
    """
    if isinstance(memberships, GroupMemberships):
        return memberships
    if _is_path(memberships):
        return read_gmemb(memberships, n_groups)
    name = f"memberships {_kind(memberships)}"
    if _is_frame(memberships):
        topics = _column(memberships, "topic", name)
        docs = _column(memberships, "doc", name)
        groups = [c for c in memberships.columns if c not in (*_COLUMNS["topic"], *_COLUMNS["doc"])]
        vectors = memberships[groups].to_numpy().tolist()
        rows = list(zip(topics, docs, vectors, strict=True))
    else:
        rows = _records(memberships, ("topic", "doc", "relevance"), name)
    lines = []
    for i, (t, d, vector) in enumerate(rows, start=1):
        where = f"{name}:{i}"
        if isinstance(vector, (str, bytes)) or not isinstance(vector, Iterable):
            raise ValueError(f"{where}: a membership vector must be a sequence of numbers")
        values = " ".join(_number(x, "group probability", where) for x in vector)
        lines.append(
            f"{_token(t, 'query id', where, first=True)} {_token(d, 'doc id', where)} {values}"
        )
    return read_gmemb(_stream(lines, name), n_groups)
