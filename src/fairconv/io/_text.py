"""The text-input rules of every reader (docs/formats.md): bytes, tables of tokens, numbers.

- The bytes: UTF-8, no control character but tab, LF and CR, a byte-order mark only
  at the start (:func:`checked_bytes`); every error names the file and the line.
- Tables of tokens: whitespace-separated tokens, blank and ``#`` comment lines
  skipped, every row of one width (:func:`split_rows`); the line of another width is
  named.
- Numbers: the decimal grammar (:data:`DECIMAL`, :func:`floats`) and integer columns
  (:func:`integers`), and topic ids coded in order of first appearance
  (:func:`topic_codes`).

A file is read as array work over its bytes (:mod:`fairconv._accel`): token bounds in
one vectorised pass, rows of equal width found from the token count of every line,
key columns as byte-string arrays and number columns parsed in a few passes, so that
millions of lines are read without a Python loop per line. Tokens outside the fast
number forms (exponents, more than 15 digits) and bad tokens go through the one
per-token rule, which names the first bad one.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

import numpy as np

from .. import _accel
from .._validation import (
    ID_FORBIDDEN,
    LMAX_LIMIT,
    TOKEN_SEPARATORS,
    FileFormatError,
    fail_type,
    forbidden_bytes,
    kind_of,
)


# --------------------------------------------------------------------------- tokenising
@dataclass
class Rows:
    """A whitespace table: the file's padded bytes and its tokens' bounds, by row.

    ``starts[i, c]`` and ``ends[i, c]`` delimit token c of row i in ``buf``
    (:func:`fairconv._accel.table`).
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

    def same_token(self, c: int) -> bytes | None:
        """Column c's token when every row holds the same one, else None.

        Array work a byte of that token at a time, with no array of strings.
        """
        starts, ends = self.starts[:, c], self.ends[:, c]
        first = self.token(0, c)
        if not bool((ends - starts == len(first)).all()):
            return None
        for k, byte in enumerate(first):
            if not bool((self.buf[starts + k] == byte).all()):
                return None
        return first

    def column(self, c: int) -> list[bytes]:
        """Column c as a list of bytes."""
        return self.strings(c).tolist()

    def strings(self, c: int) -> np.ndarray:
        """Column c as a byte-string array."""
        return _accel.strings(self.buf, self.starts[:, c], self.ends[:, c])

    def release(self) -> None:
        """Free the bytes and the token bounds once every column is parsed.

        Line numbers stay, for the messages of the checks that follow.
        """
        self.buf = self.starts = self.ends = np.zeros((0, 0), dtype=np.int64)


def source_name(path, name: str = "path") -> str:
    """How messages name an input: its path, or a file object's name.

    Anything else (an int would be taken by ``open`` for a file descriptor, and closed
    after reading) is a ``TypeError`` naming the parameter ``name``.
    """
    if hasattr(path, "read"):
        return str(getattr(path, "name", None) or "<stream>")
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise fail_type(name, "be a path or an open file", kind_of(path))
    return os.fsdecode(path)


_BAD_BYTES = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8\xa9]")
"""Control characters other than tab, newline and carriage return (C0, DEL, C1) and the
Unicode line and paragraph separators: refused, so that no token is split or glued
differently from what the user sees."""

_BOM = b"\xef\xbb\xbf"
_SURROGATES = "".join(map(chr, range(0xD800, 0xE000)))
_BAD_TABLE_BYTES = forbidden_bytes(ID_FORBIDDEN, keep=TOKEN_SEPARATORS + _SURROGATES)
"""In a whitespace table, every character the id rule refuses
(:data:`fairconv._validation.ID_FORBIDDEN`) but the four that separate tokens: the
controls of :data:`_BAD_BYTES`, a byte-order mark after the start (as ``cat`` of two
files gives: it would hide inside a token, an invisible second id) and the Unicode
spaces (an editor shows a token holding one as two). The surrogates' bytes are not
UTF-8: the UTF-8 check that follows refuses them. A token is then an id as written."""
_STEP = 1 << 22  # bytes per step of the control-character scan


def _load(path, table: bool = True) -> np.ndarray:
    """The checked bytes of a text input (a path, a ``.gz`` path or a file object).

    They come padded (:func:`fairconv._accel.padded`). Bytes that are not UTF-8 and
    control characters are errors naming the file and line; in a whitespace table
    (``table``), a byte-order mark after the start too.
    """
    name = source_name(path)
    if hasattr(path, "read"):
        data = path.read()
        if isinstance(data, str):  # a lone surrogate stays bytes that are not UTF-8
            data = data.encode("utf-8", "surrogatepass")
        buf = _accel.padded(data)
    elif str(path).endswith(".gz"):
        import gzip

        try:
            with gzip.open(path, "rb") as f:
                buf = _accel.padded(f.read())
        except (OSError, EOFError) as exc:
            raise FileFormatError(name, None, f"is not a readable gzip file ({exc})") from None
    else:
        buf = _accel.read_padded(path)
    _refuse_bad_bytes(name, buf, _accel.PAD, table)
    return buf


def _refuse_bad_bytes(name: str, whole, pad: int, table: bool) -> None:
    """Refuse bytes that are not UTF-8 and control characters, naming the file and line.

    ``whole`` (bytes, or a padded ``uint8`` array) holds the text between ``pad`` zero
    bytes at each end. In a whitespace table (``table``), a byte-order mark after the
    start is refused too.
    """
    view = memoryview(whole)
    plain = _plain_text(np.frombuffer(whole, dtype=np.uint8)[pad : len(whole) - pad])
    if not plain:  # the search names the byte that breaks the rule
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
            char = bad.group().decode("utf-8")
            if char.isspace() and not _BAD_BYTES.fullmatch(bad.group()):
                raise FileFormatError(
                    name,
                    line,
                    f"a Unicode space (U+{ord(char):04X}) is not allowed in a whitespace table: "
                    "only spaces and tabs separate tokens, and a token holding one would "
                    "look like two",
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


def checked_bytes(path, *, table: bool = False) -> bytes:
    """The checked bytes of a text input (the rules of :func:`_load`), without a BOM.

    ``table``: the input is a whitespace table, as for :func:`_load`; JSON is not.
    """
    name = source_name(path)
    if hasattr(path, "read") or str(path).endswith(".gz"):
        buf = _load(path, table)
        data = buf[_accel.PAD : _accel.PAD + _accel.size(buf)].tobytes()
    else:  # straight from the file, with no padded copy
        with open(path, "rb") as f:
            data = f.read()
        _refuse_bad_bytes(name, data, 0, table)
    return data[3:] if data.startswith(_BOM) else data


def split_rows(path, ncols=None, what="table", min_cols=1) -> Rows:
    """Split a file into rows of ``ncols`` tokens (or the count of its first row).

    When ``ncols`` is None, the first row must have at least ``min_cols`` tokens. A
    line of another width, and a file with no rows (empty, or only blank and comment
    lines), are errors naming the file (and the line).
    """
    buf = _load(path)
    name = source_name(path)
    if buf[_accel.PAD : _accel.PAD + 3].tobytes() == _BOM:
        buf[_accel.PAD : _accel.PAD + 3] = 32  # whitespace before the first token
    shaped = _accel.table(buf, ncols, min_cols)
    if shaped is None:
        raise FileFormatError(name, None, f"the file is empty (no {what} rows)")
    if isinstance(shaped, _accel.OtherWidth):
        if shaped.narrow:
            message = f"a {what} line needs at least {shaped.width} columns; found {shaped.found}"
        else:
            message = f"expected {shaped.width} columns in this {what} line, found {shaped.found}"
        raise FileFormatError(name, shaped.line, message)
    return Rows(name, buf, *shaped)


def decoded(token: bytes) -> str:
    return bytes(token).decode("utf-8")  # the file was checked to be UTF-8 when read


DECIMAL = re.compile(rb"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")
"""The decimal grammar of every text input: an optional sign, digits with an optional
point (or a point and digits), an optional exponent. What Python's ``float`` takes
beyond it (``1_0``, ``inf``, ``nan``, ``infinity``) is refused; :func:`decimal` adds that
the value must be finite. The fast route (:func:`fairconv._accel.decimals`) takes a
subset of it and leaves every other token to this pattern."""
ALL_DECIMALS = re.compile(rb"(?:%s\n)*%s" % ((DECIMAL.pattern[1:-1],) * 2))
"""Tokens joined by newlines, each matching :data:`DECIMAL`: one regex pass for many."""


def decimal(token: bytes) -> float | None:
    """The finite value of a decimal token; None when it is not one (the rule)."""
    if not DECIMAL.match(token):
        return None
    value = float(token)
    return value if np.isfinite(value) else None


def floats(rows: Rows, columns, what, col_label) -> np.ndarray:
    """Columns parsed as finite decimals: (rows, columns).

    Tokens outside the fast forms of :func:`fairconv._accel.decimals` (exponents, more
    than 15 digits) are checked against the rule in one regex pass and parsed by
    ``float`` in one C-level map; the first bad token, in file order, names its line.
    """
    values = np.empty((len(rows), len(columns)))
    ok = np.empty((len(rows), len(columns)), dtype=bool)
    for k, c in enumerate(columns):  # column by column: no copy of the token bounds
        values[:, k], ok[:, k] = _accel.decimals(rows.buf, rows.starts[:, c], rows.ends[:, c])
    i, j = np.nonzero(~ok)  # row-major: file order
    if len(i) == 0:
        return values
    cols = np.asarray(columns)[j]
    tokens = _accel.strings(rows.buf, rows.starts[i, cols], rows.ends[i, cols]).tolist()
    if ALL_DECIMALS.fullmatch(b"\n".join(tokens)):
        rest = np.fromiter(map(float, tokens), np.float64, len(tokens))
        if np.isfinite(rest).all():
            values[i, j] = rest
            return values
    for row, token in zip(i.tolist(), tokens, strict=True):
        if decimal(token) is None:
            raise FileFormatError(
                rows.path,
                rows.line(row),
                f"the {col_label} of a {what} line must be a finite number; "
                f"found {decoded(token)!r}",
            )
    raise AssertionError("unreachable")  # pragma: no cover


_LIMIT_DIGITS = len(str(LMAX_LIMIT))
assert LMAX_LIMIT == 10 ** (_LIMIT_DIGITS - 1), (
    "an NTCIR level is 'L' and fewer digits, or the limit"
)
NTCIR_LEVEL = re.compile(rb"^L([0-9]{1,%d}|%d)$" % (_LIMIT_DIGITS - 1, LMAX_LIMIT))
"""An NTCIR qrels level: ``L`` and one or two digits (``L07`` is 7), or ``L100``
(:data:`fairconv._validation.LMAX_LIMIT`)."""
INTEGER = re.compile(rb"^(-?[0-9]{1,18})$")
"""The integer grammar of the text inputs: an optional minus and 1 to 18 digits (any
such integer fits in 64 bits)."""
TREC_LEVEL = INTEGER  # a TREC qrels level: an integer, at most LMAX_LIMIT
RANK = re.compile(rb"^[0-9]{1,18}$")
"""A rank: :data:`INTEGER` without the minus."""


def integers(
    rows: Rows, column: int, pattern, message: str, *, maximum: int | None = None
) -> np.ndarray:
    """A column parsed as integers matching ``pattern`` (at most ``maximum``).

    ``pattern``: :data:`INTEGER`, :data:`RANK` or :data:`NTCIR_LEVEL` (whose ``L`` is
    dropped). The first bad token names its line. The fast route takes the tokens that
    match the pattern as written (digit counts included, leading zeros counted); the
    pattern itself decides every other token.
    """
    starts, ends = rows.starts[:, column], rows.ends[:, column]
    lead = {NTCIR_LEVEL: ord("L"), INTEGER: ord("-")}.get(pattern)  # dropped first
    skip = rows.buf[starts] == lead if lead is not None else np.zeros(len(starts), bool)
    values, ok = _accel.unsigned(rows.buf, starts + skip, ends, 18)
    if pattern is NTCIR_LEVEL:  # L and 1 or 2 digits, or L100
        digits = ends - starts - 1
        top = (digits == _LIMIT_DIGITS) & (values == LMAX_LIMIT)
        ok &= skip & ((digits < _LIMIT_DIGITS) | top)
    elif pattern is INTEGER:
        values = np.where(skip, -values, values)
    if maximum is not None:
        ok &= values <= maximum
    for i in np.flatnonzero(~ok).tolist():
        token = rows.buf[starts[i] : ends[i]].tobytes()
        good = pattern.match(token)
        value = int(token.lstrip(b"L")) if good else None
        if value is None or (maximum is not None and value > maximum):
            raise FileFormatError(rows.path, rows.line(i), f"{message}; found {decoded(token)!r}")
        values[i] = value
    return values


def topic_codes(topics: np.ndarray):
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
    return tuple(decoded(t) for t in unique[order]), ids


def one_sample(name: bytes, n: int):
    """The sample codes of ``n`` rows of one sample id: its name, a view of a single 0.

    Most runs hold one sample id (``Q0`` on every line): its codes take no memory.
    """
    return (decoded(name),), np.broadcast_to(np.int64(0), (n,))


def sample_codes(samples: np.ndarray):
    """(names in order of first appearance, code of each row), as :func:`topic_codes`.

    For the sample ids of a run (column 2 of a TREC run line); one id on every row
    gives :func:`one_sample`'s codes.
    """
    n = len(samples)
    if n and bool((samples[1:] == samples[0]).all()):
        return one_sample(samples[0], n)
    return topic_codes(samples)


RESERVED_TOPIC = "all"
"""The topic of the mean rows in score files (the trec_eval -q habit): no input topic."""
RESERVED_TOPIC_RULE = (
    "the topic id 'all' is reserved for the mean over topics in score files; rename the topic"
)


def refuse_reserved_topic(rows, names, ids) -> None:
    """A file error at the first line whose topic is :data:`RESERVED_TOPIC`, if any."""
    if RESERVED_TOPIC in names:
        row = int(np.argmax(ids == names.index(RESERVED_TOPIC)))
        raise FileFormatError(rows.path, rows.line(row), RESERVED_TOPIC_RULE)
