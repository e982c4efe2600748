"""Readers for the files FairWeb participants have on disk (docs/formats.md).

qrels (NTCIR ``topic doc L<level>`` or TREC ``topic iter doc level``), gmemb
(``topic doc p1 .. pG``), golddistr (one probability per line) and TREC runs
(``topic Q0 doc rank score tag``). Empty lines and lines starting with ``#`` are
ignored. Every error names the file and the line.

A file is read as array work over its bytes (:mod:`fairconv._bytes`): token bounds in
one vectorised pass, rows of equal width, key columns as byte-string arrays and number
columns parsed in a few passes, so that millions of lines are read without a Python
loop per line; (topic, doc) keys are joined by hashing (:mod:`fairconv._keys`). A file
with a line of another width is read again line by line, the reference route, which
names the first bad line; tokens outside the fast number forms (exponents, more than
15 digits) and bad tokens go through the plain per-token rule.
"""

from __future__ import annotations

import gc
import json
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from . import _bytes, _fast
from ._keys import KeyTable, first_occurrences, string_hashes
from ._validation import LMAX_LIMIT, SUM_TOLERANCE, _json, first_bad_distribution

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
    """A whitespace table: the file's padded bytes and its tokens' bounds, by row.

    ``starts[i, c]`` and ``ends[i, c]`` delimit token c of row i in ``buf``
    (:mod:`fairconv._bytes`).
    """

    path: str
    buf: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    line_numbers: np.ndarray | None  # None: row i is on line i + 1

    def __len__(self):
        return self.starts.shape[0]

    @property
    def width(self) -> int:
        return self.starts.shape[1]

    def line(self, row: int) -> int:
        return row + 1 if self.line_numbers is None else int(self.line_numbers[row])

    def token(self, row: int, c: int) -> bytes:
        return self.buf[self.starts[row, c] : self.ends[row, c]].tobytes()

    def column(self, c: int) -> list[bytes]:
        """Column c as a list of bytes."""
        return self.strings(c).tolist()

    def strings(self, c: int) -> np.ndarray:
        """Column c as a byte-string array."""
        return _bytes.strings(self.buf, self.starts[:, c], self.ends[:, c])

    def release(self) -> None:
        """Free the bytes and the token bounds once every column is parsed.

        Line numbers stay, for the messages of the checks that follow.
        """
        self.buf = self.starts = self.ends = np.zeros((0, 0), dtype=np.int64)


def _name(path) -> str:
    """How messages name an input: its path, or a file object's name."""
    if hasattr(path, "read"):
        return str(getattr(path, "name", None) or "<stream>")
    return str(path)


_BAD_BYTES = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8\xa9]")
"""Control characters other than tab, newline and carriage return (C0, DEL, C1) and the
Unicode line and paragraph separators: refused, so that no token is split or glued
differently from what the user sees."""

_BOM = b"\xef\xbb\xbf"
_BAD_TABLE_BYTES = re.compile(_BAD_BYTES.pattern + b"|" + _BOM)
""":data:`_BAD_BYTES` and, in a whitespace table, a byte-order mark after the start (as
``cat`` of two files gives): it would hide inside a token, an invisible second id."""
_STEP = 1 << 22  # bytes per step of the control-character scan


def _load(path, table: bool = True) -> np.ndarray:
    """The checked bytes of a text input (a path, a ``.gz`` path or a file object).

    They come padded (:func:`fairconv._bytes.padded`). Bytes that are not UTF-8 and
    control characters are errors naming the file and line; in a whitespace table
    (``table``), a byte-order mark after the start too.
    """
    name = _name(path)
    if hasattr(path, "read"):
        data = path.read()
        if isinstance(data, str):  # a lone surrogate stays bytes that are not UTF-8
            data = data.encode("utf-8", "surrogatepass")
        buf = _bytes.padded(data)
    elif str(path).endswith(".gz"):
        import gzip

        try:
            with gzip.open(path, "rb") as f:
                buf = _bytes.padded(f.read())
        except (OSError, EOFError) as exc:
            raise FileFormatError(name, None, f"is not a readable gzip file ({exc})") from None
    else:
        buf = _bytes.read_padded(path)
    _refuse_bad_bytes(name, buf, _bytes.PAD, table)
    return buf


def _refuse_bad_bytes(name: str, whole, pad: int, table: bool) -> None:
    """Refuse bytes that are not UTF-8 and control characters, naming the file and line.

    ``whole`` (bytes, or a padded ``uint8`` array) holds the text between ``pad`` zero
    bytes at each end. In a whitespace table (``table``), a byte-order mark after the
    start is refused too.
    """
    view = memoryview(whole)
    plain = _plain_text(np.frombuffer(whole, dtype=np.uint8)[pad : len(whole) - pad])
    if not plain or not _bytes.FAST:
        data = bytes(view[pad : len(view) - pad])
        refused = _BAD_TABLE_BYTES if table else _BAD_BYTES
        bad = refused.search(data, len(_BOM) if data.startswith(_BOM) else 0)
        if bad:
            line = data.count(b"\n", 0, bad.start()) + 1
            if bad.group() == _BOM:
                raise FileFormatError(
                    name,
                    line,
                    "a byte-order mark (U+FEFF) is allowed only at the start of a file: "
                    "here it would be an invisible part of a token (two files joined?)",
                )
            raise FileFormatError(
                name, line, f"a control character ({bad.group()!r}) is not allowed in a text file"
            )
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            raise FileFormatError(name, line, "the line is not UTF-8 text") from None


def _plain_text(data: np.ndarray) -> bool:
    """True when ``data`` (``uint8``) is ASCII with no control character but tab, LF, CR.

    Array work, a step at a time, which runs without the GIL (the bytes methods hold
    it): no byte of 127 (DEL) or above, and no byte below 32 but those three. False
    leaves the byte that breaks the rule, if any, to :func:`_refuse_bad_bytes`'s search.
    """
    low = np.empty(min(len(data), _STEP), dtype=bool)
    for lo in range(0, len(data), _STEP):
        step = data[lo : lo + _STEP]
        if int(step.max()) >= 127:
            return False
        mask = low[: len(step)]
        left = int(np.count_nonzero(np.less(step, 32, out=mask)))
        for allowed in (10, 9, 13):  # newlines first: most files have no tab or CR
            if left:
                left -= int(np.count_nonzero(np.equal(step, allowed, out=mask)))
        if left:
            return False
    return True


def _read(path, table: bool = False) -> bytes:
    """The checked bytes of a text input (the rules of :func:`_load`), without a BOM.

    ``table``: the input is a whitespace table, as for :func:`_load`; JSON is not.
    """
    if hasattr(path, "read") or str(path).endswith(".gz"):
        buf = _load(path, table)
        data = buf[_bytes.PAD : _bytes.PAD + _bytes.size(buf)].tobytes()
    else:  # straight from the file, with no padded copy
        with open(path, "rb") as f:
            data = f.read()
        _refuse_bad_bytes(_name(path), data, 0, table)
    return data[3:] if data.startswith(_BOM) else data


def _split_rows(path, ncols=None, what="table", min_cols=1) -> _Rows:
    """Split a file into rows of ``ncols`` tokens (or the count of its first row).

    A file with no rows (empty, or only blank and comment lines) is an error.
    """
    buf = _load(path)
    name = _name(path)
    if buf[_bytes.PAD : _bytes.PAD + 3].tobytes() == _BOM:
        buf[_bytes.PAD : _bytes.PAD + 3] = 32  # whitespace before the first token
    shaped = None
    if _bytes.FAST:
        shaped = _bytes.table(buf, *_bytes.bounds(buf), ncols, min_cols)
    if shaped is None:
        shaped = _split_rows_slowly(name, buf, ncols, what, min_cols)
    return _Rows(name, buf, *shaped)


def _split_rows_slowly(path, buf, ncols, what, min_cols):
    """Line by line: the reference route, and the one that names a bad line."""
    pad = _bytes.PAD
    data = buf[pad : pad + _bytes.size(buf)].tobytes()
    starts, ends, numbers = [], [], []
    width = ncols
    offset = pad
    for number, raw in enumerate(data.split(b"\n"), start=1):
        found = list(_bytes._TOKEN.finditer(raw))
        at = offset
        offset += len(raw) + 1
        if not found or raw[found[0].start()] == 35:  # blank, or a '#' comment
            continue
        if width is None:
            width = len(found)
            if width < min_cols:
                raise FileFormatError(
                    path, number, f"a {what} line needs at least {min_cols} columns; found {width}"
                )
        if len(found) != width:
            raise FileFormatError(
                path, number, f"expected {width} columns in this {what} line, found {len(found)}"
            )
        starts += [at + m.start() for m in found]
        ends += [at + m.end() for m in found]
        numbers.append(number)
    if not numbers:
        raise FileFormatError(path, None, f"the file is empty (no {what} rows)")
    shape = (len(numbers), width)
    lines = np.array(numbers, dtype=np.int64)
    in_order = bool((lines == np.arange(1, len(lines) + 1)).all())
    return (
        np.array(starts, dtype=np.int64).reshape(shape),
        np.array(ends, dtype=np.int64).reshape(shape),
        None if in_order else lines,
    )


def _text(token: bytes) -> str:
    return bytes(token).decode("utf-8")  # the file was checked to be UTF-8 when read


_DECIMAL = re.compile(rb"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")
_ALL_DECIMALS = re.compile(rb"(?:%s\n)*%s" % ((_DECIMAL.pattern[1:-1],) * 2))


def _decimal(token: bytes) -> float | None:
    """The finite value of a decimal token; None when it is not one (the rule)."""
    if not _DECIMAL.match(token):
        return None
    value = float(token)
    return value if np.isfinite(value) else None


def _floats(rows: _Rows, columns, what, col_label) -> np.ndarray:
    """Columns parsed as finite decimals: (rows, columns).

    Tokens outside the fast forms of :func:`fairconv._bytes.decimals` (exponents, more
    than 15 digits) are checked against the rule in one regex pass and parsed by
    ``float`` in one C-level map; the first bad token, in file order, names its line.
    """
    values = np.empty((len(rows), len(columns)))
    ok = np.empty((len(rows), len(columns)), dtype=bool)
    for k, c in enumerate(columns):  # column by column: no copy of the token bounds
        values[:, k], ok[:, k] = _bytes.decimals(rows.buf, rows.starts[:, c], rows.ends[:, c])
    i, j = np.nonzero(~ok)  # row-major: file order
    if len(i) == 0:
        return values
    cols = np.asarray(columns)[j]
    tokens = _bytes.strings(rows.buf, rows.starts[i, cols], rows.ends[i, cols]).tolist()
    if _ALL_DECIMALS.fullmatch(b"\n".join(tokens)):
        rest = np.fromiter(map(float, tokens), np.float64, len(tokens))
        if np.isfinite(rest).all():
            values[i, j] = rest
            return values
    for row, token in zip(i.tolist(), tokens, strict=True):
        if _decimal(token) is None:
            raise FileFormatError(
                rows.path,
                rows.line(row),
                f"the {col_label} of a {what} line must be a finite number; found {_text(token)!r}",
            )
    raise AssertionError("unreachable")  # pragma: no cover


_NTCIR_LEVEL = re.compile(rb"^L([0-9]{1,2}|100)$")
_TREC_LEVEL = re.compile(rb"^(-?[0-9]{1,18})$")
_RANK = re.compile(rb"^[0-9]{1,18}$")


def _integers(rows: _Rows, column: int, pattern, message: str) -> np.ndarray:
    """A column parsed as integers matching ``pattern``.

    An NTCIR level's ``L`` is dropped; TREC levels are at most :data:`LMAX_LIMIT`. The
    first bad token names its line. The fast route takes the tokens that match the
    pattern as written (digit counts included, leading zeros counted); the pattern
    itself decides every other token.
    """
    starts, ends = rows.starts[:, column], rows.ends[:, column]
    lead = {_NTCIR_LEVEL: ord("L"), _TREC_LEVEL: ord("-")}.get(pattern)  # dropped first
    skip = rows.buf[starts] == lead if lead is not None else np.zeros(len(starts), bool)
    values, ok = _bytes.unsigned(rows.buf, starts + skip, ends, 18)
    if pattern is _NTCIR_LEVEL:  # L and 1 or 2 digits, or L100
        digits = ends - starts - 1
        ok &= skip & ((digits <= 2) | ((digits == 3) & (values == 100)))
    elif pattern is _TREC_LEVEL:
        values = np.where(skip, -values, values)
        ok &= values <= LMAX_LIMIT
    for i in np.flatnonzero(~ok).tolist():
        token = rows.buf[starts[i] : ends[i]].tobytes()
        good = pattern.match(token)
        value = int(token.lstrip(b"L")) if good else None
        if value is None or (pattern is _TREC_LEVEL and value > LMAX_LIMIT):
            raise FileFormatError(rows.path, rows.line(i), f"{message}; found {_text(token)!r}")
        values[i] = value
    return values


def _topic_ids(topics: np.ndarray):
    """(names in order of first appearance, id of each row's topic)."""
    n = len(topics)
    change = np.ones(n, dtype=bool)
    np.not_equal(topics[1:], topics[:-1], out=change[1:])
    heads = np.flatnonzero(change)
    unique, first, inverse = np.unique(topics[heads], return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    ids = rank[inverse.ravel()][np.cumsum(change) - 1]
    return tuple(_text(t) for t in unique[order]), ids


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
    """Rows keyed by (topic, doc): ``topics[topic_ids[i]]`` and ``docs[i]`` of row i.

    ``docs`` is an array of byte strings (fixed width, or object for ragged ids).
    """

    source: str
    topics: tuple  # names, in order of first appearance
    topic_ids: np.ndarray = field(repr=False)
    docs: np.ndarray = field(repr=False)

    @property
    def doc_hashes(self) -> np.ndarray:
        """64-bit hash of every doc (:func:`fairconv._keys.string_hashes`).

        Computed on each access, so that the rows hold no more than the file gave.
        """
        return string_hashes(self.docs)


# --------------------------------------------------------------------------- qrels
@dataclass(frozen=True, eq=False)
class Qrels(_Keyed):
    """Relevance judgments: a level per judged (topic, doc); unjudged docs are level 0."""

    levels: np.ndarray = field(repr=False)
    lines: np.ndarray | None = field(default=None, repr=False)  # None: line i + 1

    def line(self, i: int) -> int:
        """The file line of judgment i."""
        return i + 1 if self.lines is None else int(self.lines[i])

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
    def key_table(self) -> KeyTable:
        """The judgments' (topic, doc) keys, for lookups (topics by their id here).

        Built once, on first use: the command line builds it on its reading threads.
        """
        return KeyTable(self.topic_ids, self.docs, self.doc_hashes)

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
        doc_col = 1
        levels = _integers(
            rows,
            2,
            _NTCIR_LEVEL,
            "an NTCIR qrels level must look like L0, L1, L2... (at most L100)",
        )
    elif width == 4:
        doc_col = 2
        levels = _integers(
            rows, 3, _TREC_LEVEL, "a TREC qrels level must be an integer (at most 100)"
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
    names, ids = _topic_ids(rows.strings(0))
    docs = rows.strings(doc_col)
    rows.release()
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
    matrix = _floats(rows, list(range(2, width)), "gmemb", "group probability")
    names, ids = _topic_ids(rows.strings(0))
    docs = rows.strings(1)
    rows.release()
    i = first_bad_distribution(matrix)
    if i >= 0:
        raise FileFormatError(
            rows.path,
            rows.line(i),
            "group probabilities must be finite, in [0, 1] and sum to 1 (within "
            f"{SUM_TOLERANCE:g}); found {matrix[i].tolist()} with sum {matrix[i].sum():.10g}",
        )
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
    return _floats(rows, [0], "golddistr", "probability")[:, 0]


# --------------------------------------------------------------------------- runs
@dataclass(frozen=True, eq=False)
class Run(_Keyed):
    """A TREC run: its lines' topics, docs and scores, in file order."""

    tag: str
    scores: np.ndarray = field(repr=False)
    lines: np.ndarray | None = field(repr=False)  # None: line i + 1

    def __len__(self):
        return len(self.docs)

    def line(self, i: int) -> int:
        """The file line of record i."""
        return i + 1 if self.lines is None else int(self.lines[i])


def read_run(path, tag: str | None = None) -> Run:
    """Read a TREC run ``topic Q0 doc rank score tag``.

    The tag is the 6th column of the first line (the file's base name when the file
    is empty or ``tag`` is given explicitly). Rank order is decided when the run is
    evaluated (file order by default, or trec_eval's score order).
    """
    rows = _split_rows(path, 6, "run")
    _integers(rows, 3, _RANK, "a rank (4th column) must be an integer >= 0")
    values = _floats(rows, [4], "run", "score (5th column)")[:, 0]
    names, ids = _topic_ids(rows.strings(0))
    docs = rows.strings(2)
    return Run(
        rows.path, names, ids, docs, tag or _text(rows.token(0, 5)), values, rows.line_numbers
    )


# --------------------------------------------------------------------------- JSON
MAX_JSON_DEPTH = 16
"""Nesting deeper than this in a JSON input is refused (no format of fairconv's has it)."""


class _JSONError(ValueError):
    """A value that JSON can hold but fairconv's JSON formats refuse."""


def _pairs(pairs):
    obj = dict(pairs)
    if len(obj) != len(pairs):  # a key twice: name the first one repeated
        keys = [k for k, _ in pairs]
        twice = next(k for i, k in enumerate(keys) if k in keys[:i])
        raise _JSONError(f"the key {twice!r} appears twice in one object")
    return obj


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


_NUMBER_SHAPES = bytes(
    48 if 48 <= b <= 57 else 101 if b in b"eE" else 32 for b in range(256)
)  # digits as 0, e and E as e, all else a space; signs are deleted


def _number_shapes(data: bytes) -> tuple[bool, bool]:
    """Whether the numbers of a JSON text read the same without the number hooks.

    The first flag: no 21 digits follow each other and no exponent (``e`` or ``E``
    right after a digit, then an optional sign) has three digits. Every integer then
    has at most 20 digits and every other number is short and finite, so ``int`` and
    ``float`` give what :func:`_integer` and :func:`_real` would. The second flag: no
    19 digits follow each other, so every integer fits in 64 bits and every number
    has at most 100 characters, as the fast decoder needs (it refuses numbers out of
    the float range itself). Text inside strings can only make a flag False, which
    costs time, never a value.
    """
    shapes = data.translate(_NUMBER_SHAPES, b"+-")
    if b"0" * 19 not in shapes:
        return b"0e000" not in shapes, True
    return b"0" * 21 not in shapes and b"0e000" not in shapes, False


_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'"[]{}:')


def _structure(data: bytes) -> tuple[int, int]:
    """The deepest nesting and the number of keys of a valid JSON text (or JSON Lines).

    The one depth rule of the JSON readers, read from the text rather than the decoded
    values: escaped backslashes and quotes are dropped, every other quote opens or
    closes a string, and the brackets outside strings are counted. The keys are the
    colons outside strings: one per key of every object, a key given twice counted
    twice.
    """
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    marks = np.frombuffer(data.translate(None, _NOT_STRUCTURE), dtype=np.uint8)
    if len(marks) == 0:
        return 0, 0
    outside = ~np.logical_xor.accumulate(marks == 34)
    step = ((marks == 91) | (marks == 123)).astype(np.int8)
    step -= (marks == 93) | (marks == 125)
    step[~outside] = 0
    depth = int(np.cumsum(step, dtype=np.int32).max(initial=0))
    return depth, int(np.count_nonzero((marks == 58) & outside))


_SURROGATE_ESCAPE = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)
"""The escape of a surrogate without its pair, in a JSON text whose escaped backslashes
are replaced by two other characters (so that they neither escape nor join what they
separate): a high one (``\\ud800``) not followed by a low one, or a low one not
preceded by a high one. The decoders pair the others into one character."""

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""A UTF-16 surrogate alone in a str: not a character, so no UTF-8 text can hold it."""


def _refuse_lone_surrogates(name: str, data: bytes, numbered) -> None:
    r"""Refuse a decoded string (or key) holding a lone surrogate, naming line and field.

    Only a ``\u`` escape can give one (the bytes were checked to be UTF-8), so the
    values are searched only when the text has such an escape.
    """
    if b"\\u" not in data or not _SURROGATE_ESCAPE.search(data.replace(b"\\\\", b"__")):
        return
    for line, value in numbered:
        found = _first_lone_surrogate(value, ())
        if found is not None:
            place, text = found
            char = _LONE_SURROGATE.findall(text)[0]
            raise FileFormatError(
                name,
                line,
                f"{place} must be valid Unicode text, got {_json(text)} (\\u{ord(char):04x} "
                "is a lone surrogate, not a character)",
            )


def _first_lone_surrogate(value, steps: tuple) -> tuple[str, str] | None:
    """(how a message names it, the string) of the first string holding a lone surrogate.

    ``steps`` are the keys and indices from the decoded value's top to ``value``.
    """
    if type(value) is str:
        return (_place(steps), value) if _LONE_SURROGATE.search(value) else None
    if type(value) is dict:
        for key, item in value.items():
            if _LONE_SURROGATE.search(key):
                return ("a key" + (f" of {_place(steps)}" if steps else ""), key)
            found = _first_lone_surrogate(item, (*steps, key))
            if found is not None:
                return found
    if type(value) is list:
        for i, item in enumerate(value):
            found = _first_lone_surrogate(item, (*steps, i))
            if found is not None:
                return found
    return None


def _place(steps: tuple) -> str:
    """A place in a decoded value as messages name it: '"entity" of item 2 of "nuggets"'."""
    if not steps:
        return "the value"
    return " of ".join(f"item {s + 1}" if type(s) is int else _json(s) for s in reversed(steps))


def _loads(text: str, plain_numbers: bool = False, keys_checked: bool = True):
    """Decode by fairconv's rules; ``keys_checked=False`` leaves duplicate keys to the caller."""
    hooks: dict = {"object_pairs_hook": _pairs} if keys_checked else {}
    if not plain_numbers:
        hooks.update(parse_int=_integer, parse_float=_real)
    return json.loads(text, parse_constant=Unreadable, **hooks)


def _fast_decoder():
    """``orjson.loads`` when the ``fast`` extra is installed and FAIRCONV_PURE is unset."""
    orjson = _fast.module("orjson")
    return None if orjson is None else orjson.loads


def _decode(text: str, name: str, line: int | None, max_depth: int, plain_numbers=False):
    where = f"{name}:{line}" if line is not None else name
    try:
        value = _loads(text, plain_numbers)
    except json.JSONDecodeError as exc:
        at = exc.lineno + (line - 1 if line is not None else 0)
        raise FileFormatError(name, at, f"invalid JSON: {exc.msg} (column {exc.colno})") from None
    except _JSONError as exc:
        raise ValueError(f"{where}: {exc}") from None
    except (RecursionError, ValueError):
        raise ValueError(f"{where}: the JSON nests too deeply or a number is too long") from None
    if _structure(text.encode("utf-8"))[0] > max_depth:
        raise ValueError(f"{where}: the JSON nests deeper than {max_depth} levels")
    return value


@contextmanager
def without_gc():
    """Pause Python's cycle collector while a reader builds millions of objects.

    Decoded JSON holds no reference cycles, yet each collection would walk every
    object built so far: without the pause, the collections cost more than the
    decoding itself.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def iter_jsonl(
    path, *, max_depth: int = MAX_JSON_DEPTH, count_keys=None
) -> list[tuple[int, object]]:
    """The (line number, value) of every non-blank line of a JSON Lines input.

    The text rules of every reader hold (UTF-8, BOM, control characters); then each
    line is one JSON value. A key twice in one object and nesting deeper than
    ``max_depth`` are refused; ``NaN``, ``Infinity``, integers of more than 20 digits
    and numbers out of the float range decode to :class:`Unreadable`, which the check
    of their field refuses by name. An input with no record is an error. Every error
    names the file and line.

    ``count_keys``, optional, counts the keys of objects among the decoded values (each
    object at most once). When its count equals the number of keys in the text, no
    object can hold a key twice, so the values are decoded without the check per
    object, by ``orjson`` when the ``fast`` extra is installed. Otherwise, and whenever
    the fast route meets anything it does not take, the values are decoded again by
    the full rules, which give the same values and the same errors.
    """
    name = _name(path)
    data = _read(path)
    with without_gc():
        found = _jsonl(name, data, max_depth, count_keys)
    _refuse_lone_surrogates(name, data, found)
    return found


def _jsonl(name: str, data: bytes, max_depth: int, count_keys) -> list[tuple[int, object]]:
    plain, short = _number_shapes(data)
    depth, keys = _structure(data)
    if count_keys is not None and depth <= max_depth:
        found = _unchecked_jsonl(data, plain, short)
        if found is not None and count_keys([v for _, v in found]) == keys:
            return found
    numbered = _lines(data)
    if not numbered:
        raise FileFormatError(name, None, "the file is empty (no JSON records)")
    if depth <= max_depth:
        try:  # one C call for a valid file
            return _joined(numbered, plain, keys_checked=True)
        except (ValueError, RecursionError):
            pass
    out = [(n, _decode(s, name, n, max_depth, plain)) for n, s in numbered]
    if len(out) != len(numbered):  # pragma: no cover - each line gave one value
        raise FileFormatError(name, None, "expected one JSON value per line")
    return out


def _lines(data: bytes) -> list[tuple[int, str]]:
    """The (line number, text) of the non-blank lines."""
    return [(n, s) for n, s in enumerate(data.decode("utf-8").split("\n"), start=1) if s.strip()]


def _joined(numbered, plain: bool, keys_checked: bool) -> list[tuple[int, object]]:
    """The lines decoded as one JSON array; ValueError unless each gives one value."""
    values = _loads("[" + ",".join(s for _, s in numbered) + "]", plain, keys_checked)
    if len(values) != len(numbered):
        raise ValueError("a line holds more than one value")
    return [(n, v) for (n, _), v in zip(numbered, values, strict=True)]


def _unchecked_jsonl(data: bytes, plain: bool, short: bool):
    """The lines' values decoded without the duplicate-key check, or None.

    ``orjson`` decodes when installed and every integer fits in 64 bits (``short``);
    it refuses NaN, lone surrogates and what JSON refuses, and then this gives None.
    Otherwise the standard decoder does, when the numbers need no hooks (``plain``).
    """
    fast = _fast_decoder() if short else None
    try:
        if fast is not None:
            lines = enumerate(data.split(b"\n"), start=1)
            return [(n, fast(s)) for n, s in lines if s.strip()] or None
        if plain:
            return _joined(_lines(data), True, keys_checked=False) or None
    except (ValueError, RecursionError):
        pass
    return None


def read_json(path, *, max_depth: int = MAX_JSON_DEPTH):
    """The one JSON value of a file, by the rules of :func:`iter_jsonl`."""
    name = _name(path)
    data = _read(path)
    text = data.decode("utf-8")
    if not text.strip():
        raise FileFormatError(name, None, "the file is empty")
    value = _decode(text, name, None, max_depth, _number_shapes(data)[0])
    _refuse_lone_surrogates(name, data, [(None, value)])
    return value
