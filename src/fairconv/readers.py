"""Readers for the files FairWeb participants have on disk (docs/formats.md).

qrels (NTCIR ``topic doc L<level>`` or TREC ``topic iter doc level``), gmemb
(``topic doc p1 .. pG``), golddistr (one probability per line) and TREC runs
(``topic Q0 doc rank score tag``). Empty lines and lines starting with ``#`` are
ignored. Every error names the file and the line.

A file is split into tokens in one pass and checked to have the same number of
separators on every line; (topic, doc) keys are then joined by hashing
(:mod:`fairconv._keys`), so a run of millions of lines is read without a Python loop
per line. A file that does not pass the quick shape check (comments, blank lines,
mixed or repeated separators, a bad line) is read again line by line, which finds and
names the first bad line.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ._keys import KeyTable, first_occurrences
from ._validation import SUM_TOLERANCE

__all__ = [
    "Qrels",
    "GroupMemberships",
    "Run",
    "read_qrels",
    "read_gmemb",
    "read_golddistr",
    "read_run",
    "FileFormatError",
]


class FileFormatError(ValueError):
    """A file that does not follow its format; the message starts with ``file:line:``."""

    def __init__(self, path, line, message):
        self.path, self.line = str(path), line
        where = f"{path}:{line}" if line else f"{path}"
        super().__init__(f"{where}: {message}")


# --------------------------------------------------------------------------- tokenising
@dataclass
class _Rows:
    """A whitespace table: ``tokens`` row-major, ``width`` tokens per content row."""

    path: str
    tokens: list
    width: int
    line_numbers: list | None  # None: row i is on line i + 1

    def __len__(self):
        return len(self.tokens) // self.width if self.width else 0

    def line(self, row: int) -> int:
        return row + 1 if self.line_numbers is None else self.line_numbers[row]

    def column(self, c: int) -> list:
        """Token c of every row (a new list)."""
        return self.tokens[c :: self.width]


def _read(path) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _split_rows(path, ncols=None, what="table", min_cols=1) -> _Rows:
    """Split a file into rows of ``ncols`` tokens (or the count of its first row)."""
    data = _read(path)
    sep = b"\t" if b" " not in data else (b" " if b"\t" not in data else None)
    if data and sep and b"#" not in data and b"\r" not in data and sep * 2 not in data:
        lines = data.split(b"\n")
        if not lines[-1]:
            lines.pop()  # the final newline
        width = ncols or lines[0].count(sep) + 1
        per_line = np.fromiter(map(bytes.count, lines, itertools.repeat(sep)), np.int64, len(lines))
        if width >= min_cols and (per_line == width - 1).all():
            tokens = data.split()
            if len(tokens) == width * len(lines):  # no line starts or ends with sep
                return _Rows(str(path), tokens, width, None)
    return _split_rows_slowly(path, data, ncols, what, min_cols)


def _split_rows_slowly(path, data, ncols, what, min_cols) -> _Rows:
    tokens, numbers = [], []
    width = ncols
    for number, raw in enumerate(data.split(b"\n"), start=1):
        parts = raw.split()
        if not parts or parts[0].startswith(b"#"):
            continue
        if width is None:
            width = len(parts)
            if width < min_cols:
                raise FileFormatError(
                    path, number, f"a {what} line needs at least {min_cols} columns; found {width}"
                )
        if len(parts) != width:
            raise FileFormatError(
                path, number, f"expected {width} columns in this {what} line, found {len(parts)}"
            )
        tokens += parts
        numbers.append(number)
    return _Rows(str(path), tokens, width or 0, numbers)


def _text(token: bytes) -> str:
    return token.decode("utf-8", errors="replace")


def _floats(rows: _Rows, tokens, what, col_label, per_row=1) -> np.ndarray:
    """Parse tokens as finite floats (C-level map); on failure name the first bad line.

    ``tokens`` is row-major with ``per_row`` tokens for each row.
    """
    try:
        values = np.fromiter(map(float, tokens), np.float64, len(tokens))
        if np.isfinite(values).all():
            return values
    except ValueError:
        pass
    for i, tok in enumerate(tokens):
        try:
            ok = np.isfinite(float(tok))
        except ValueError:
            ok = False
        if not ok:
            raise FileFormatError(
                rows.path,
                rows.line(i // per_row),
                f"the {col_label} of a {what} line must be a finite number; found {_text(tok)!r}",
            )
    raise AssertionError("unreachable")  # pragma: no cover


def _topic_ids(topics: list):
    """(names in order of first appearance, id of each row's topic)."""
    order = list(dict.fromkeys(topics))
    index = dict(zip(order, range(len(order)), strict=False))
    return tuple(_text(t) for t in order), lookup(topics, index)


def _check_unique(rows: _Rows, topic_ids, docs, names, what):
    """A (topic, doc) key listed twice is an error naming its second line."""
    first = first_occurrences(topic_ids, docs)
    repeated = np.flatnonzero(first != np.arange(len(first)))
    if len(repeated):
        i = int(repeated[0])
        raise FileFormatError(
            rows.path,
            rows.line(i),
            f"doc {_text(docs[i])!r} of topic "
            f"{names[topic_ids[i]]!r} {what} (first on line "
            f"{rows.line(int(first[i]))})",
        )


@dataclass(frozen=True, eq=False)
class _Keyed:
    """Rows keyed by (topic, doc): ``topics[topic_ids[i]]`` and ``docs[i]`` of row i."""

    source: str
    topics: tuple  # names, in order of first appearance
    topic_ids: np.ndarray = field(repr=False)
    docs: list = field(repr=False)  # bytes

    @cached_property
    def _table(self) -> KeyTable:
        return KeyTable(self.topic_ids, self.docs)

    def row(self, topic: str, doc: str) -> int:
        """Row of (topic, doc), or -1."""
        if topic not in self.topics:
            return -1
        return int(self._table.find(np.array([self.topics.index(topic)]), [doc.encode()])[0])

    def rows_of(self, topic_ids: np.ndarray, docs: list) -> np.ndarray:
        """Rows of many keys at once (topic ids index ``topics``); -1 where absent."""
        return self._table.find(topic_ids, docs)


# --------------------------------------------------------------------------- qrels
@dataclass(frozen=True, eq=False)
class Qrels(_Keyed):
    """Relevance judgments: a level per judged (topic, doc); unjudged docs are level 0."""

    levels: np.ndarray = field(repr=False)

    def level(self, topic: str, doc: str) -> int:
        """The level of one judged doc (0 when unjudged)."""
        i = self.row(topic, doc)
        return 0 if i < 0 else int(self.levels[i])

    @property
    def max_level(self) -> int:
        """The highest level in the file (0 when empty)."""
        return int(self.levels.max()) if len(self.levels) else 0

    @cached_property
    def n_relevant(self) -> dict:
        """Judged relevant docs per topic."""
        rel = np.bincount(self.topic_ids, weights=self.levels > 0, minlength=len(self.topics))
        return dict(zip(self.topics, rel.astype(int).tolist(), strict=False))

    @cached_property
    def n_nonrelevant(self) -> dict:
        """Judged nonrelevant docs (level 0) per topic."""
        non = np.bincount(self.topic_ids, weights=self.levels == 0, minlength=len(self.topics))
        return dict(zip(self.topics, non.astype(int).tolist(), strict=False))


def read_qrels(path) -> Qrels:
    """Read NTCIR (``topic doc L<level>``) or TREC (``topic iter doc level``) qrels.

    Negative TREC levels (junk pages) count as nonrelevant, as in trec_eval. A
    (topic, doc) judged twice is an error.
    """
    rows = _split_rows(path, None, "qrels")
    if len(rows) == 0:
        raise FileFormatError(path, None, "the qrels file has no judgments")
    width = rows.width
    if width == 3:
        topics, docs, raw = (rows.column(c) for c in range(3))
        labels = np.array(raw, dtype=np.bytes_)
        ok = np.strings.startswith(labels, b"L")
        try:
            if not ok.all():
                raise ValueError
            levels = np.strings.slice(labels, 1, None).astype(np.int64)
        except ValueError:
            bad = next(i for i, t in enumerate(raw) if not (t[:1] == b"L" and t[1:].isdigit()))
            raise FileFormatError(
                path,
                rows.line(bad),
                f"an NTCIR qrels level must look like L0, L1, L2...; found {_text(raw[bad])!r}",
            ) from None
    elif width == 4:
        topics, docs, raw = (rows.column(c) for c in (0, 2, 3))
        try:
            levels = np.array(raw, dtype=np.bytes_).astype(np.int64)
        except ValueError:
            bad = next(i for i, t in enumerate(raw) if not t.lstrip(b"-").isdigit())
            raise FileFormatError(
                path,
                rows.line(bad),
                f"a TREC qrels level must be an integer; found {_text(raw[bad])!r}",
            ) from None
        levels = np.maximum(levels, 0)
    else:
        raise FileFormatError(
            path,
            rows.line(0),
            "expected NTCIR qrels "
            "(topic doc L<level>) or TREC qrels (topic iter doc level); "
            f"found {width} columns",
        )
    names, ids = _topic_ids(topics)
    _check_unique(rows, ids, docs, names, "is judged twice")
    return Qrels(str(path), names, ids, docs, levels)


# --------------------------------------------------------------------------- gmemb
@dataclass(frozen=True, eq=False)
class GroupMemberships(_Keyed):
    """Group membership vectors of judged docs for one attribute set (a gmemb file).

    Its topics are the topics the attribute set covers.
    """

    matrix: np.ndarray = field(repr=False)

    @property
    def n_groups(self) -> int:
        """The number of groups G of every vector."""
        return int(self.matrix.shape[1])

    def membership(self, topic: str, doc: str):
        """The membership vector of (topic, doc), or None when it is not listed."""
        i = self.row(topic, doc)
        return None if i < 0 else self.matrix[i]


def read_gmemb(path, n_groups: int | None = None) -> GroupMemberships:
    """Read a gmemb file: ``topic doc p1 ... pG`` per line, each row summing to 1.

    Parameters
    ----------
    n_groups : int, optional
        Expected G (e.g. the target's length); a row with another count is an error.
    """
    rows = _split_rows(path, None, "gmemb", min_cols=4)
    if len(rows) == 0:
        raise FileFormatError(path, None, "the gmemb file has no rows")
    width = rows.width
    if n_groups is not None and width != n_groups + 2:
        raise FileFormatError(
            path,
            rows.line(0),
            f"expected {n_groups} group probabilities "
            f"(the target has {n_groups} groups), found {width - 2}",
        )
    numbers = list(rows.tokens)
    del numbers[0::width]  # topic column
    del numbers[0 :: width - 1]  # doc column
    matrix = _floats(rows, numbers, "gmemb", "group probability", width - 2)
    matrix = matrix.reshape(-1, width - 2)
    bad = ~np.isfinite(matrix).all(axis=1) | (matrix < 0).any(axis=1)
    sums = matrix.sum(axis=1)
    bad |= np.abs(sums - 1.0) > SUM_TOLERANCE
    if bad.any():
        i = int(np.argmax(bad))
        raise FileFormatError(
            path,
            rows.line(i),
            "group probabilities must be finite, "
            f"non-negative and sum to 1 (within {SUM_TOLERANCE:g}); found "
            f"{matrix[i].tolist()} with sum {sums[i]:.10g}",
        )
    names, ids = _topic_ids(rows.column(0))
    docs = rows.column(1)
    _check_unique(rows, ids, docs, names, "is listed twice")
    return GroupMemberships(str(path), names, ids, docs, matrix)


def read_golddistr(path) -> np.ndarray:
    """Read a target distribution: one probability per line (checked by AttributeSet)."""
    rows = _split_rows(path, 1, "golddistr")
    if len(rows) < 2:
        raise FileFormatError(
            path,
            None,
            "a golddistr file needs one probability per "
            f"group and at least 2 groups; found {len(rows)} lines",
        )
    return _floats(rows, rows.column(0), "golddistr", "probability")


# --------------------------------------------------------------------------- runs
@dataclass(frozen=True, eq=False)
class Run(_Keyed):
    """A TREC run: its lines' topics, docs and scores, in file order."""

    tag: str
    scores: np.ndarray = field(repr=False)
    lines: list | None = field(repr=False)  # line numbers, None = i + 1

    def __len__(self):
        return len(self.docs)

    def line(self, i: int) -> int:
        """The file line of record i."""
        return i + 1 if self.lines is None else self.lines[i]


def read_run(path, tag: str | None = None) -> Run:
    """Read a TREC run ``topic Q0 doc rank score tag``.

    The tag is the 6th column of the first line (the file's base name when the file
    is empty or ``tag`` is given explicitly). Rank order is decided when the run is
    evaluated (file order by default, or trec_eval's score order).
    """
    rows = _split_rows(path, 6, "run")
    if len(rows) == 0:
        return Run(
            str(path),
            (),
            np.zeros(0, np.int64),
            [],
            tag or os.path.basename(str(path)),
            np.zeros(0),
            [],
        )
    topics, docs, scores = (rows.column(c) for c in (0, 2, 4))
    tags = rows.tokens[5:6]
    values = _floats(rows, scores, "run", "score (5th column)")
    names, ids = _topic_ids(topics)
    return Run(str(path), names, ids, docs, tag or _text(tags[0]), values, rows.line_numbers)


def lookup(keys, index: dict, missing: int = -1) -> np.ndarray:
    """Look every key up in ``index`` (no Python loop: map over the C dict.get)."""
    return np.fromiter(map(index.get, keys, itertools.repeat(missing)), np.int64, len(keys))
