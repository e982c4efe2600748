"""The inputs of a TREC Fair evaluation as given, turned into checked objects once.

Qrels (files read by the track's reader, or any input of :func:`fairconv.io.as_qrels`),
work levels and backgrounds as objects or files; the dimensions and the
pages every alignment table lists (:class:`Universe`, looked up by id). Every check
names the parameter the user wrote.
"""

from __future__ import annotations

import os

import numpy as np

from .. import _core
from .._accel import KeyTable
from .._validation import (
    check_mapping,
    check_names,
    check_once,
    check_sequence_of,
    check_unique_names,
    did_you_mean,
    fail,
    fail_type,
    kind_of,
    notice,
)
from ..io import Qrels
from ..io import _trecfair as _io
from ..io import as_qrels as io_as_qrels
from ..results import few


def dimension_list(dimensions) -> list:
    """The dimensions: a Dimension or a non-empty sequence of them, distinct names."""
    if isinstance(dimensions, _io.Dimension):
        dimensions = [dimensions]
    dimensions = check_sequence_of(dimensions, _io.Dimension, "dimensions", min_len=1)
    check_unique_names([d.name for d in dimensions], "dimensions")
    return dimensions


class Universe:
    """The pages every alignment table lists (the first table's order), and their rows.

    Pages are looked up by an exact hash join (:class:`fairconv._accel.KeyTable`); each
    table's rows are held sparse (:class:`fairconv._core.SparseRows`), in the first
    table's page order.
    """

    def __init__(self, dims):
        first = dims[0]
        self.pages = first.pages
        self.table = KeyTable(np.zeros(len(first.pages), np.int64), first.pages)
        self.sizes = [len(d.categories) for d in dims]
        self.rows = []
        self.sparse = []
        for d in dims:
            rows = d.rows
            if rows.size and not (rows.min() >= 0 and rows.max() < np.inf):  # NaN fails too
                page = d.pages[int(np.argmin((rows >= 0).all(axis=1) & (rows < np.inf).all(1)))]
                raise fail(
                    "dimensions",
                    "hold alignment rows of finite numbers >= 0",
                    f"dimension {d.name!r} ({d.source}) with a bad value for page "
                    f"{page.decode('utf-8')!r}",
                )
            if d is not first:
                at = self.table.find(np.zeros(len(d.pages), np.int64), d.pages)
                if len(d.pages) != len(first.pages) or (at < 0).any():
                    _disagree(first, d, at)
                rows = np.empty_like(d.rows)
                rows[at] = d.rows
            self.rows.append(rows)
            self.sparse.append(_core.sparse_rows(rows))

    def lookup(self, pages: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(row index, known) of each page."""
        at = self.table.find(np.zeros(len(pages), np.int64), pages)
        return np.maximum(at, 0), at >= 0

    def take(self, pos: np.ndarray) -> list:
        """The sparse rows of the pages at ``pos`` (row indices), per dimension."""
        return [_core.take_rows(r, pos) for r in self.sparse]


def _disagree(first, d, at) -> None:
    if (at < 0).any():
        a, b, page = first, d, d.pages[int(np.argmax(at < 0))]
    else:
        back = KeyTable(np.zeros(len(d.pages), np.int64), d.pages)
        lacks = back.find(np.zeros(len(first.pages), np.int64), first.pages) < 0
        a, b, page = d, first, first.pages[int(np.argmax(lacks))]
    raise ValueError(
        f"The alignment tables must list the same pages: dimension {a.name!r} "
        f"({a.source}) lacks page {page.decode('utf-8')!r}, which dimension "
        f"{b.name!r} ({b.source}) lists."
    )


def require_unknown(dims) -> None:
    """Edition 2021: every dimension has an unknown category first, and a known one."""
    for d in dims:
        if not d.has_unknown or len(d.categories) < 2:
            raise ValueError(
                f"Edition 2021 needs an unknown category first in every dimension: dimension "
                f"{d.name!r} ({d.source}) starts with {d.categories[0]!r}."
            )


def multi_hot_notice(dims, universe: Universe) -> None:
    """A notice per dimension whose rows sum to more than 1 (used as given)."""
    for d, rows in zip(dims, universe.rows, strict=True):
        with np.errstate(over="ignore"):  # a sum past float64 is more than 1 too
            over = rows.size and (rows.sum(axis=1) > 1 + 1e-9).any()
        if over:
            notice(
                f"some rows of dimension {d.name!r} sum to more than 1 (multi-hot, as in the "
                "organisers' 2022 gender file); they are used as given: such a page weighs "
                "more, and a built target can sum to more than 1"
            )


def backgrounds_for(backgrounds, dims) -> list:
    """Per dimension, None or weights over its known categories (in table order)."""
    out: list = [None] * len(dims)
    if backgrounds is None:
        return out
    check_mapping(
        backgrounds,
        "backgrounds",
        "dimension name",
        "a background (a preset name, a file, or a Background)",
    )
    names = [d.name for d in dims]
    for key, value in backgrounds.items():
        if key not in names:
            raise fail(
                "backgrounds",
                f"name dimensions of the evaluation ({', '.join(names)})",
                f"{key!r}",
            )
        d = dims[names.index(key)]
        if not d.has_unknown:
            raise fail(
                "backgrounds",
                "name only dimensions with an unknown category (first)",
                f"{key!r}, whose first category is {d.categories[0]!r}",
            )
        named = isinstance(value, str) and value not in _io.BACKGROUND_PRESETS
        if named and not os.path.exists(value):
            close = did_you_mean(value, list(_io.BACKGROUND_PRESETS))
            error = fail(
                "backgrounds",
                "map each dimension name to a preset name, a path, an open file or a Background",
                f"{value!r} for {key!r} (neither a preset nor a file)",
            )
            raise ValueError(f"{error}{close}")
        bg = given(
            value,
            "backgrounds",
            _io.Background,
            _io.read_background,
            "map each dimension name to a preset name, a Background",
            key=key,
        )
        known = list(d.categories[1:])
        missing = [c for c in known if c not in bg.categories]
        extra = [c for c in bg.categories if c not in known]
        if missing or extra or len(set(bg.categories)) != len(bg.categories):
            raise ValueError(
                f"The background of dimension {key!r} ({bg.source}) must weigh exactly its "
                f"known categories; "
                + (f"missing: {', '.join(missing)}" if missing else "")
                + ("; " if missing and extra else "")
                + (f"not categories of {key!r}: {', '.join(extra)}" if extra else "")
                + ("a category twice" if not (missing or extra) else "")
            )
        w = np.asarray(bg.weights, dtype=np.float64)
        if not (np.isfinite(w) & (w >= 0)).all() or not w.max(initial=0.0) > 0:
            raise ValueError(
                f"The background of dimension {key!r} ({bg.source}) must hold finite weights "
                ">= 0 with a positive sum."
            )
        w = _core.sum_to_one(w[None, :])[0]
        pos = {c: i for i, c in enumerate(bg.categories)}
        out[names.index(key)] = w[[pos[c] for c in known]]
    return out


def topics_of(topics, known, where: str) -> list[str]:
    """``topics`` as given: topic ids, each once, each one of ``known`` (of the ``where``).

    A typo is an error, never a topic silently left out (as ``compare --topics``).
    """
    topics = check_names(topics, "topics", "topic ids")
    check_once(topics, "topics", what="topic")
    unknown = [t for t in topics if t not in known]
    if unknown:
        raise fail("topics", f"list topics of the {where}", few([repr(t) for t in unknown]))
    return topics


def given(value, param: str, cls: type, reader, what: str, *, key: str = ""):
    """``value`` as the user gave it for ``param``: a ``cls``, or a file for ``reader``.

    Anything else is a TypeError naming ``param`` (not the reader's own parameter).
    """
    if isinstance(value, cls):
        return value
    if not (hasattr(value, "read") or isinstance(value, (str, bytes, os.PathLike))):
        got = kind_of(value) + (f" for {key!r}" if key else "")
        if hasattr(value, "columns"):  # a DataFrame
            got += f" ('{param}' is read from a file: write the frame to one)"
        raise fail_type(param, f"{what}, a path or an open file", got)
    return reader(value)


def as_qrels(qrels) -> Qrels:
    """Qrels as given: a file, or any input of :func:`fairconv.io.as_qrels`.

    A file is the track's topic file or TREC qrels; other inputs are a Qrels, a
    DataFrame, a dict or records.
    """
    if isinstance(qrels, (str, bytes, os.PathLike)) or hasattr(qrels, "read"):
        return _io.read_qrels(qrels)
    return io_as_qrels(qrels)


def relevant(qrels: Qrels) -> Qrels:
    """The relevant judgments (level above 0) of qrels, every topic kept.

    TREC Fair's relevance is binary: a page is relevant or not judged relevant.
    """
    rel = qrels.levels > 0
    if rel.all():
        return qrels
    lines = np.flatnonzero(rel) + 1 if qrels.lines is None else qrels.lines[rel]
    return Qrels(
        qrels.source,
        qrels.topics,
        qrels.topic_ids[rel],
        qrels.docs[rel],
        qrels.levels[rel],
        lines,
        index=qrels.index,
    )


def as_work(work):
    """Work levels as given: None, WorkLevels, or a file to read."""
    if work is None:
        return None
    return given(work, "work", _io.WorkLevels, _io.read_work, "be WorkLevels (read_work)")
