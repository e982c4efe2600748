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
import json
import re
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ._keys import first_occurrences
from ._validation import LMAX_LIMIT, SUM_TOLERANCE, first_bad_distribution

__all__ = [
    "Qrels",
    "GroupMemberships",
    "Run",
    "read_qrels",
    "read_gmemb",
    "read_golddistr",
    "read_run",
    "FileFormatError",
    "iter_jsonl",
    "read_json",
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


def _name(path) -> str:
    """How messages name an input: its path, or a file object's name."""
    if hasattr(path, "read"):
        return str(getattr(path, "name", None) or "<stream>")
    return str(path)


_BAD_BYTES = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8\xa9]")
"""Control characters other than tab, newline and carriage return (C0, DEL, C1) and the
Unicode line and paragraph separators: refused, so that no token is split or glued
differently from what the user sees."""


def _read(path) -> bytes:
    """The bytes of a text input (a path, a ``.gz`` path or a file object), checked.

    A UTF-8 byte-order mark at the start is dropped; bytes that are not UTF-8 and
    control characters are errors naming the file and line.
    """
    name = _name(path)
    if hasattr(path, "read"):
        data = path.read()
        if isinstance(data, str):
            data = data.encode("utf-8")
    elif str(path).endswith(".gz"):
        import gzip

        try:
            with gzip.open(path, "rb") as f:
                data = f.read()
        except (OSError, EOFError) as exc:
            raise FileFormatError(name, None, f"is not a readable gzip file ({exc})") from None
    else:
        with open(path, "rb") as f:
            data = f.read()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    bad = _BAD_BYTES.search(data)
    if bad:
        line = data.count(b"\n", 0, bad.start()) + 1
        raise FileFormatError(
            name, line, f"a control character ({bad.group()!r}) is not allowed in a text file"
        )
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise FileFormatError(name, line, "the line is not UTF-8 text") from None
    return data


def _split_rows(path, ncols=None, what="table", min_cols=1) -> _Rows:
    """Split a file into rows of ``ncols`` tokens (or the count of its first row).

    A file with no rows (empty, or only blank and comment lines) is an error.
    """
    data = _read(path)
    name = _name(path)
    rows = None
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
                rows = _Rows(name, tokens, width, None)
    if rows is None:
        rows = _split_rows_slowly(name, data, ncols, what, min_cols)
    if len(rows) == 0:
        raise FileFormatError(name, None, f"the file is empty (no {what} rows)")
    return rows


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
    return token.decode("utf-8")  # the file was checked to be UTF-8 when read


_DECIMAL = re.compile(rb"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")
_NOT_DECIMAL = re.compile(rb"[^0-9eE+\-.\n]")


def _floats(rows: _Rows, tokens, what, col_label, per_row=1) -> np.ndarray:
    """Parse tokens as finite floats (C-level map); on failure name the first bad line.

    ``tokens`` is row-major with ``per_row`` tokens for each row.
    """
    # only digits, signs, points and exponents: float() alone would take 1_0, inf, nan
    if not _NOT_DECIMAL.search(b"\n".join(tokens)):
        try:
            values = np.fromiter(map(float, tokens), np.float64, len(tokens))
            if np.isfinite(values).all():
                return values
        except ValueError:
            pass
    for i, tok in enumerate(tokens):
        ok = bool(_DECIMAL.match(tok))
        if ok:
            ok = bool(np.isfinite(float(tok)))
        if not ok:
            raise FileFormatError(
                rows.path,
                rows.line(i // per_row),
                f"the {col_label} of a {what} line must be a finite number; found {_text(tok)!r}",
            )
    raise AssertionError("unreachable")  # pragma: no cover


_NTCIR_LEVEL = re.compile(rb"^L([0-9]{1,2}|100)$")
_TREC_LEVEL = re.compile(rb"^(-?[0-9]{1,18})$")
_RANK = re.compile(rb"^[0-9]{1,18}$")


def _integers(rows: _Rows, tokens, pattern, skip: int, message: str) -> np.ndarray:
    """Integers of tokens matching ``pattern`` (``skip`` leading characters dropped).

    The first token that does not match is an error naming its line.
    """
    joined = b"\n".join(tokens)
    whole = re.compile(b"(?:" + pattern.pattern[1:-1] + b"\n)*" + pattern.pattern[1:-1])
    if whole.fullmatch(joined):
        values = np.array(tokens, dtype=np.bytes_)
        if skip:
            values = np.array(joined.replace(b"L", b"").split(b"\n"), dtype=np.bytes_)
        out = values.astype(np.int64)
        if pattern is not _TREC_LEVEL or (out <= LMAX_LIMIT).all():
            return out
    for i, tok in enumerate(tokens):
        if not pattern.match(tok) or (pattern is _TREC_LEVEL and int(tok) > LMAX_LIMIT):
            raise FileFormatError(rows.path, rows.line(i), f"{message}; found {_text(tok)!r}")
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


# --------------------------------------------------------------------------- qrels
@dataclass(frozen=True, eq=False)
class Qrels(_Keyed):
    """Relevance judgments: a level per judged (topic, doc); unjudged docs are level 0."""

    levels: np.ndarray = field(repr=False)
    lines: list | None = field(default=None, repr=False)  # line numbers, None = i + 1

    def line(self, i: int) -> int:
        """The file line of judgment i."""
        return i + 1 if self.lines is None else self.lines[i]

    def check_gains(self, n_levels: int) -> None:
        """Every level must have a gain: a higher one is an error naming its line."""
        above = np.flatnonzero(self.levels > n_levels)
        if len(above):
            i = int(above[0])
            raise FileFormatError(
                self.source,
                self.line(i),
                f"level L{int(self.levels[i])} but the gain table covers levels 1..{n_levels}; "
                "give a gain for every level (e.g. gains=(1, 3, 7), --gains 1:3:7)",
            )

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
    width = rows.width
    if width == 3:
        topics, docs, raw = (rows.column(c) for c in range(3))
        levels = _integers(
            rows,
            raw,
            _NTCIR_LEVEL,
            1,
            "an NTCIR qrels level must look like L0, L1, L2... (at most L100)",
        )
    elif width == 4:
        topics, docs, raw = (rows.column(c) for c in (0, 2, 3))
        levels = _integers(
            rows, raw, _TREC_LEVEL, 0, "a TREC qrels level must be an integer (at most 100)"
        )
        levels = np.maximum(levels, 0)  # negative levels are nonrelevant, as in trec_eval
    else:
        raise FileFormatError(
            rows.path,
            rows.line(0),
            "expected NTCIR qrels "
            "(topic doc L<level>) or TREC qrels (topic iter doc level); "
            f"found {width} columns",
        )
    names, ids = _topic_ids(topics)
    _check_unique(rows, ids, docs, names, "is judged twice")
    return Qrels(rows.path, names, ids, docs, levels, rows.line_numbers)


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


def read_gmemb(path, n_groups: int | None = None) -> GroupMemberships:
    """Read a gmemb file: ``topic doc p1 ... pG`` per line, each row summing to 1.

    Parameters
    ----------
    n_groups : int, optional
        Expected G (e.g. the target's length); a row with another count is an error.
    """
    rows = _split_rows(path, None, "gmemb", min_cols=4)
    width = rows.width
    if n_groups is not None and width != n_groups + 2:
        raise FileFormatError(
            rows.path,
            rows.line(0),
            f"expected {n_groups} group probabilities "
            f"(the target has {n_groups} groups), found {width - 2}",
        )
    numbers = list(rows.tokens)
    del numbers[0::width]  # topic column
    del numbers[0 :: width - 1]  # doc column
    matrix = _floats(rows, numbers, "gmemb", "group probability", width - 2)
    matrix = matrix.reshape(-1, width - 2)
    i = first_bad_distribution(matrix)
    if i >= 0:
        raise FileFormatError(
            rows.path,
            rows.line(i),
            "group probabilities must be finite, in [0, 1] and sum to 1 (within "
            f"{SUM_TOLERANCE:g}); found {matrix[i].tolist()} with sum {matrix[i].sum():.10g}",
        )
    names, ids = _topic_ids(rows.column(0))
    docs = rows.column(1)
    _check_unique(rows, ids, docs, names, "is listed twice")
    return GroupMemberships(rows.path, names, ids, docs, matrix)


def read_golddistr(path) -> np.ndarray:
    """Read a target distribution: one probability per line (checked by AttributeSet)."""
    rows = _split_rows(path, 1, "golddistr")
    if len(rows) < 2:
        raise FileFormatError(
            rows.path,
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
    _integers(rows, rows.column(3), _RANK, 0, "a rank (4th column) must be an integer >= 0")
    topics, docs, scores = (rows.column(c) for c in (0, 2, 4))
    tags = rows.tokens[5:6]
    values = _floats(rows, scores, "run", "score (5th column)")
    names, ids = _topic_ids(topics)
    return Run(rows.path, names, ids, docs, tag or _text(tags[0]), values, rows.line_numbers)


def lookup(keys, index: dict, missing: int = -1) -> np.ndarray:
    """Look every key up in ``index`` (no Python loop: map over the C dict.get)."""
    return np.fromiter(map(index.get, keys, itertools.repeat(missing)), np.int64, len(keys))


# --------------------------------------------------------------------------- JSON
MAX_JSON_DEPTH = 16
"""Nesting deeper than this in a JSON input is refused (no format of fairconv's has it)."""


class _JSONError(ValueError):
    """A value that JSON can hold but fairconv's JSON formats refuse."""


def _pairs(pairs):
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        twice = next(k for i, k in enumerate(keys) if k in keys[:i])
        raise _JSONError(f"the key {twice!r} appears twice in one object")
    return dict(pairs)


class Unreadable:
    """A JSON number fairconv cannot hold: NaN, Infinity, or too many digits.

    It stands in the decoded value where the number was, so that the check of the field
    it is in refuses it and names that field.
    """

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text if len(self.text) <= 20 else self.text[:17] + "..."


def _integer(text: str):
    return Unreadable(text) if len(text.lstrip("-")) > 20 else int(text)


def _real(text: str):
    value = float(text) if len(text) <= 100 else float("nan")
    return value if np.isfinite(value) else Unreadable(text)


def _depth(value, limit: int) -> bool:
    """Whether ``value`` nests deeper than ``limit`` (iteratively: no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            if level > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level + 1) for child in children)
    return False


def _loads(text: str):
    return json.loads(
        text,
        object_pairs_hook=_pairs,
        parse_constant=Unreadable,
        parse_int=_integer,
        parse_float=_real,
    )


def _decode(text: str, name: str, line: int | None, max_depth: int):
    where = f"{name}:{line}" if line is not None else name
    try:
        value = _loads(text)
    except json.JSONDecodeError as exc:
        at = exc.lineno + (line - 1 if line is not None else 0)
        raise FileFormatError(name, at, f"invalid JSON: {exc.msg} (column {exc.colno})") from None
    except _JSONError as exc:
        raise ValueError(f"{where}: {exc}") from None
    except (RecursionError, ValueError):
        raise ValueError(f"{where}: the JSON nests too deeply or a number is too long") from None
    if _depth(value, max_depth):
        raise ValueError(f"{where}: the JSON nests deeper than {max_depth} levels")
    return value


def iter_jsonl(path, *, max_depth: int = MAX_JSON_DEPTH) -> list[tuple[int, object]]:
    """The (line number, value) of every non-blank line of a JSON Lines input.

    The text rules of every reader hold (UTF-8, BOM, control characters); then each
    line is one JSON value. A key twice in one object and nesting deeper than
    ``max_depth`` are refused; ``NaN``, ``Infinity``, integers of more than 20 digits
    and numbers out of the float range decode to :class:`Unreadable`, which the check
    of their field refuses by name. An input with no record is an error. Every error
    names the file and line.
    """
    name = _name(path)
    text = _read(path).decode("utf-8")
    numbered = [(i, s) for i, s in enumerate(text.split("\n"), start=1) if s.strip()]
    if not numbered:
        raise FileFormatError(name, None, "the file is empty (no JSON records)")
    try:  # one C call for a valid file
        values = _loads("[" + ",".join(s for _, s in numbered) + "]")
        if len(values) == len(numbered) and not _depth(values, max_depth + 1):
            return [(n, v) for (n, _), v in zip(numbered, values, strict=True)]
    except (ValueError, RecursionError):
        pass
    out = [(n, _decode(s, name, n, max_depth)) for n, s in numbered]
    if len(out) != len(numbered):  # pragma: no cover - each line gave one value
        raise FileFormatError(name, None, "expected one JSON value per line")
    return out


def read_json(path, *, max_depth: int = MAX_JSON_DEPTH):
    """The one JSON value of a file, by the rules of :func:`iter_jsonl`."""
    name = _name(path)
    text = _read(path).decode("utf-8")
    if not text.strip():
        raise FileFormatError(name, None, "the file is empty")
    return _decode(text, name, None, max_depth)
