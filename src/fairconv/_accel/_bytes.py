"""Whitespace tables parsed as array work over the bytes of a file (the readers' core).

A file is held as one ``uint8`` array with :data:`PAD` zero bytes before and after its
data, so that any token can be read as a fixed-width field without bounds checks.

- :func:`bounds` finds every token in one vectorised pass (a byte <= 32 is whitespace:
  the readers refuse every other control character first).
- :func:`table` splits the tokens into rows of equal width, skipping blank and comment
  lines; where a line has another width, it names that line (:class:`OtherWidth`),
  found from the token count of every line.
- :func:`strings` gathers a column into a fixed-width byte-string array (``S<width>``),
  or an object array of bytes when padding would cost more memory than the text (and
  for tokens longer than the pad).
- :func:`decimals` and :func:`unsigned` parse a column of numbers. A decimal of at most
  15 digits with no exponent is (its digits as an integer) / 10**k: both are exact
  doubles, so the one division gives the correctly rounded value, the double that
  ``float()`` gives. Tokens outside that form are flagged for the caller's per-token
  rule, the one grammar of the readers' numbers.
"""

from __future__ import annotations

import os
import stat
from typing import NamedTuple

import numpy as np

PAD = 256
"""Zero bytes before and after the data; longer tokens are gathered one at a time."""

_CHUNK = 1 << 20  # bytes per step of the tokeniser: temporaries stay in cache
_ROWS = 1 << 18  # rows per step of the column parsers
_MAX_DIGITS = 15  # below 2**53: the integer of the digits is an exact double
_POW10 = 10.0 ** np.arange(23)  # exact doubles up to 10**22


def _zeros(n: int) -> np.ndarray:
    """A padded array for n bytes of data (numpy's allocation: zero pages on demand)."""
    return np.zeros(n + 2 * PAD, dtype=np.uint8)


def padded(data) -> np.ndarray:
    """A bytes-like object as a padded ``uint8`` array."""
    n = len(data)
    buf = _zeros(n)
    buf[PAD : PAD + n] = np.frombuffer(data, dtype=np.uint8)
    return buf


def read_padded(path) -> np.ndarray:
    """A file's bytes as a padded ``uint8`` array (read straight into it)."""
    with open(path, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # a FIFO or a device: no size
            return padded(f.read())
        f.seek(0, 2)
        n = f.tell()
        f.seek(0)
        buf = _zeros(n)
        view = buf.data[PAD : PAD + n]
        got = 0
        while got < n:
            k = f.readinto(view[got:])
            if not k:
                break
            got += k
        rest = f.read()
    if got < n or rest:  # the file changed while it was read
        with open(path, "rb") as f:
            return padded(f.read())
    return buf


def size(buf: np.ndarray) -> int:
    """The number of data bytes in a padded array."""
    return len(buf) - 2 * PAD


def bounds(buf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end (exclusive) of every token, as positions in ``buf``.

    The output is written in place into arrays sized for the most tokens the data can
    hold (one per two bytes): pages the tokens do not reach are never touched, so the
    memory in use is that of the tokens found, with no second copy.
    """
    hi = PAD + size(buf)
    dtype = np.dtype(np.int32 if len(buf) < 2**31 else np.int64)
    most = size(buf) // 2 + 1
    starts, ends = np.empty(most, dtype), np.empty(most, dtype)
    ws = np.empty(_CHUNK + 1, dtype=bool)
    change = np.empty(_CHUNK, dtype=bool)
    n_edges = 0
    for lo in range(PAD, hi, _CHUNK):
        top = min(hi, lo + _CHUNK)
        w = ws[: top - lo + 1]
        np.less_equal(buf[lo - 1 : top], 32, out=w)  # the byte before lo is in the pad
        c = change[: top - lo]
        np.not_equal(w[1:], w[:-1], out=c)
        found = np.flatnonzero(c).astype(dtype)
        found += lo
        # edges alternate start, end, start...: the parity so far says which comes first
        first = n_edges % 2
        opened, closed = found[first::2], found[1 - first :: 2]
        a, b = (n_edges + 1) // 2, n_edges // 2
        starts[a : a + len(opened)] = opened
        ends[b : b + len(closed)] = closed
        n_edges += len(found)
    if n_edges % 2:  # the last token ends at the end of the data
        ends[n_edges // 2] = hi
        n_edges += 1
    return starts[: n_edges // 2], ends[: n_edges // 2]


class Table(NamedTuple):
    """The rows of a whitespace table, as the bounds of their tokens in the buffer."""

    starts: np.ndarray
    """(rows, width) start of every token."""
    ends: np.ndarray
    """(rows, width) end (exclusive) of every token."""
    line_numbers: np.ndarray | None
    """The line of each row; None when row i is on line i + 1."""


class OtherWidth(NamedTuple):
    """The first line whose token count breaks the width of a table."""

    line: int
    """Its line number (1-based)."""
    found: int
    """Its tokens."""
    width: int
    """The tokens expected: ``ncols``, the first row's count, or ``min_cols`` (narrow)."""
    narrow: bool
    """True: the first row has fewer than ``min_cols`` tokens (``ncols`` None)."""


def table(buf: np.ndarray, ncols: int | None, min_cols: int) -> Table | OtherWidth | None:
    """The rows of the whitespace table in a padded buffer, or the line that breaks it.

    Tokens are split at bytes <= 32 (:func:`bounds`). A blank line holds no row, nor
    does a line whose first token starts with ``#`` (a comment). Every other line is a
    row of ``ncols`` tokens or, when ``ncols`` is None, of as many as the first row,
    which must have at least ``min_cols``.

    Returns
    -------
    Table
        The rows.
    OtherWidth
        The first line (in file order) whose token count breaks that rule, found from
        the token count of every line.
    None
        When no line holds a row.
    """
    starts, ends = bounds(buf)
    n = len(starts)
    if n == 0:
        return None
    regular = _one_row_a_line(buf, starts, ends, ncols, min_cols)
    if regular is not None:
        return regular
    # a line break before token i: a newline right before it, or one in a longer gap
    breaks = buf[starts - 1] == 10
    long = np.flatnonzero(starts[1:] - ends[:-1] > 1) + 1
    if starts[0] > PAD:  # whitespace before the first token
        long = np.append(0, long)
    counts = None  # newlines before each token, when some gap may hold more than one
    if len(long):
        newlines = np.flatnonzero(buf[PAD : PAD + size(buf)] == 10) + PAD
        prev_end = np.where(long > 0, ends[long - 1], PAD)
        in_gap = np.searchsorted(newlines, starts[long]) - np.searchsorted(newlines, prev_end)
        breaks[long] = in_gap > 0
        if (in_gap > 1).any() or (long[0] == 0 and in_gap[0] > 0):
            counts = breaks.astype(np.int64)
            counts[long] = in_gap
    breaks[0] = True
    heads = np.flatnonzero(breaks)  # the first token of every line that has one
    per_line = np.diff(np.append(heads, n))
    comment = buf[starts[heads]] == 35  # '#'
    content = ~comment
    if not content.any():
        return None
    # the line of each line's first token: one line per head, unless a gap holds more
    head_lines = np.arange(1, len(heads) + 1) if counts is None else np.cumsum(counts)[heads] + 1
    widths, lines = per_line[content], head_lines[content]
    width = int(widths[0]) if ncols is None else ncols
    if ncols is None and width < min_cols:
        return OtherWidth(int(lines[0]), width, min_cols, True)
    other = np.flatnonzero(widths != width)
    if len(other):
        k = int(other[0])
        return OtherWidth(int(lines[k]), int(widths[k]), width, False)
    numbers = lines if counts is not None or comment.any() else None
    if comment.any():
        keep = np.repeat(content, per_line)
        starts, ends = starts[keep], ends[keep]
    rows = len(starts) // width
    return Table(starts.reshape(rows, width), ends.reshape(rows, width), numbers)


def _one_row_a_line(buf, starts, ends, ncols, min_cols):
    """:func:`table` of a file whose every line holds one row and nothing else, or None.

    Such a file (no blank or comment line, nothing before its first token) is told by
    its newlines: one right before the first token of each row but the first, and
    none elsewhere before the last token. Counting them costs a pass over the bytes;
    finding the line of every token, as :func:`table` does otherwise, costs several.
    """
    n = len(starts)
    if starts[0] != PAD:
        return None
    width = ncols
    if width is None:  # the first line's tokens
        head = np.flatnonzero(buf[starts[1 : min(n, 4096)] - 1] == 10)
        if len(head) == 0 and n > 4096:
            return None
        width = int(head[0]) + 1 if len(head) else n
    if width < min_cols or n % width:
        return None
    rows = n // width
    heads = starts[::width]
    if (buf[heads] == 35).any() or (buf[heads[1:] - 1] != 10).any():
        return None
    last = int(ends[-1])
    before_last = sum(
        int(np.count_nonzero(buf[lo : min(last, lo + _CHUNK)] == 10))
        for lo in range(PAD, last, _CHUNK)
    )
    if before_last != rows - 1:
        return None
    return Table(starts.reshape(rows, width), ends.reshape(rows, width), None)


def strings(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The tokens as a byte-string array.

    Fixed width (``S<w>``, w the longest token rounded up to a multiple of 8, zero
    bytes after each token), or an object array of bytes when that padding would cost
    more memory than the text.
    """
    n = len(starts)
    if n == 0:
        return np.zeros(0, dtype="S8")
    lens = ends - starts
    w = -(-int(lens.max()) // 8) * 8
    if w > PAD:  # tokens longer than the pad: each cut out on its own
        out = np.empty(n, dtype=object)
        out[:] = [buf[s:e].tobytes() for s, e in zip(starts.tolist(), ends.tolist(), strict=True)]
        return out
    if n * w <= 2 * int(lens.sum()) + (1 << 20):
        return _fixed(buf, starts, lens, w)
    # ragged: fixed width a step at a time, each step's tokens kept as bytes objects
    out = np.empty(n, dtype=object)
    for lo in range(0, n, _ROWS):
        ln = lens[lo : lo + _ROWS]
        step = _fixed(buf, starts[lo : lo + _ROWS], ln, -(-int(ln.max()) // 8) * 8)
        out[lo : lo + _ROWS] = step.astype(object)  # drops the zero bytes after each token
    return out


def _windows(buf, width: int) -> np.ndarray:
    """Every ``width`` bytes of ``buf`` from each position, as one void item (``V<width>``).

    A gather of void items runs without the GIL, where one of ``S<width>`` items holds
    it: the readers' threads then gather their files' columns at once.
    """
    return np.ndarray((len(buf) - width + 1,), dtype=f"V{width}", buffer=buf, strides=(1,))


_KEEP = np.frombuffer(b"".join(b"\xff" * k + b"\0" * (8 - k) for k in range(9)), np.uint64)
"""_KEEP[k]: the 64-bit word that keeps the first k bytes of a word and zeroes the rest."""


def _fixed(buf, starts, lens, w: int) -> np.ndarray:
    """Tokens as ``S<w>`` (w a multiple of 8 >= the longest, at most :data:`PAD`).

    The bytes after each token are zero: each 8-byte word past the shortest token is
    masked to the bytes of the token it holds.
    """
    out = _windows(buf, w)[starts].view(f"S{w}")
    words = out.view(np.uint64).reshape(len(starts), w // 8)
    shortest = int(lens.min())
    uniform = shortest == int(lens.max())  # fixed-format ids: one mask per word
    for k in range(shortest // 8, w // 8):
        if uniform:
            words[:, k] &= _KEEP[max(0, min(8, shortest - 8 * k))]
        else:
            words[:, k] &= _KEEP[np.clip(lens - 8 * k, 0, 8)]
    return out


def _columns(buf, ends, width):
    """The last ``width`` bytes of every token, column-major: (width, rows).

    Row j holds byte j of each token's last ``width`` bytes. The bytes of a token are
    gathered at once, as one fixed-width string, and seen transposed.
    """
    if width == 0:
        return np.empty((0, len(ends)), dtype=np.uint8)
    return _windows(buf, width)[ends - width].view(np.uint8).reshape(len(ends), width).T


def _chunks(buf, starts, ends, max_width: int):
    """Steps of :data:`_ROWS` tokens: (slice, lengths, width, :func:`_columns` bytes).

    The width is the longest token of the step, at most ``max_width``.
    """
    lens = ends - starts
    for lo in range(0, len(starts), _ROWS):
        sl = slice(lo, lo + _ROWS)
        ln = lens[sl]
        width = int(min(ln.max(), max_width))
        yield sl, ln, width, _columns(buf, ends[sl], width)


def decimals(buf, starts, ends) -> tuple[np.ndarray, np.ndarray]:
    """(values, ok) of decimal tokens.

    ok where the token is ``[+-]digits[.digits]`` or ``[+-][digits].digits`` with 1 to
    15 digits; values[ok] is then its double.
    """
    n = len(starts)
    values = np.zeros(n)
    ok = np.zeros(n, dtype=bool)
    if n == 0:
        return values, ok
    for sl, ln, width, m in _chunks(buf, starts, ends, _MAX_DIGITS + 2):
        if int(ln.min()) == width and _fixed_point(m, values[sl], ok[sl]):
            continue
        k = len(ln)
        mantissa = np.zeros(k)
        n_digits = np.zeros(k, dtype=np.int32)
        n_dots = np.zeros(k, dtype=np.int32)
        scale = np.zeros(k, dtype=np.intp)
        for j in range(width):
            inside = ln >= width - j
            digit = m[j] - np.uint8(48)
            is_digit = (digit < 10) & inside
            is_dot = (m[j] == 46) & inside
            n_digits += is_digit
            n_dots += is_dot
            mantissa = np.where(is_digit, mantissa * 10 + digit, mantissa)
            scale[is_dot] = width - 1 - j
        first = buf[starts[sl]]
        sign = (first == 43) | (first == 45)
        ok[sl] = (
            (ln <= width)
            & (n_digits + n_dots + sign == ln)
            & (n_dots <= 1)
            & (n_digits >= 1)
            & (n_digits <= _MAX_DIGITS)
        )
        v = mantissa / _POW10[np.minimum(scale, len(_POW10) - 1)]
        values[sl] = np.where(first == 45, -v, v)
    return values, ok


def _fixed_point(m, values, ok) -> bool:
    """Parse tokens that share one layout (as a formatted column does), or return False.

    The layout is ``digits[.digits]`` with the point in one place; the general route
    takes any other.
    """
    width = m.shape[0]
    dots = np.flatnonzero(m[:, 0] == 46)
    dot = int(dots[0]) if len(dots) else -1
    digits = [j for j in range(width) if j != dot]
    if not 1 <= len(digits) <= _MAX_DIGITS or (dot >= 0 and not (m[dot] == 46).all()):
        return False
    mantissa = np.zeros(m.shape[1])
    for p, j in enumerate(reversed(digits)):
        digit = m[j] - np.uint8(48)
        if not (digit < 10).all():
            return False
        mantissa += digit * _POW10[p]
    values[:] = mantissa / _POW10[width - 1 - dot] if dot >= 0 else mantissa
    ok[:] = True
    return True


def unsigned(buf, starts, ends, max_digits: int) -> tuple[np.ndarray, np.ndarray]:
    """(values, ok) of tokens of 1 to ``max_digits`` (<= 18) decimal digits."""
    n = len(starts)
    values = np.zeros(n, dtype=np.int64)
    ok = np.zeros(n, dtype=bool)
    if n == 0:
        return values, ok
    for sl, ln, width, m in _chunks(buf, starts, ends, max_digits):
        value = np.zeros(len(ln), dtype=np.int64)
        n_digits = np.zeros(len(ln), dtype=np.int32)
        for j in range(width):
            digit = m[j] - np.uint8(48)
            is_digit = (digit < 10) & (ln >= width - j)
            n_digits += is_digit
            value = np.where(is_digit, value * 10 + digit, value)
        ok[sl] = (ln >= 1) & (ln <= width) & (n_digits == ln)
        values[sl] = value
    return values, ok
