"""The JSON rules of every JSON reader, and the checks of the fields they read.

Decoding (docs/formats.md, JSON inputs): the text rules of every reader hold (UTF-8, a
byte-order mark only at the start, no control character); a key twice in one object
and nesting deeper than :data:`MAX_JSON_DEPTH` are refused; ``NaN``, ``Infinity`` and
numbers fairconv cannot hold decode to :class:`Unreadable`, which the check of their
field refuses by name; a string holding a lone surrogate is refused. With the ``fast``
extra, orjson decodes where it gives the same values (:func:`fairconv._accel.json_decoder`),
and the same checks run on what it returns. Every error names the file and the line.

The field checks (:func:`json_str`, :func:`json_ints`, :func:`json_vectors`,
:func:`json_groups`, :func:`json_item_error`) check what records give, naming the
record (``file:line``), the item and the field.
"""

from __future__ import annotations

import json
import re
from itertools import chain, compress, repeat
from operator import is_not

import numpy as np

from .. import _accel
from .._validation import (
    _INT_LIMIT,
    SUM_TOLERANCE,
    Where,
    check_id,
    file_error,
    first_bad_distribution,
    json_repr,
    public,
)
from ._text import FileFormatError, checked_bytes, source_name

__all__ = [
    "iter_jsonl",
    "iter_jsonl_blocks",
    "read_json",
    "MAX_JSON_DEPTH",
    "Unreadable",
    "json_str",
    "json_ints",
    "json_vectors",
    "json_groups",
    "json_item_error",
    "json_repr",
    "one_way_of_naming_runs",
    "FileRuns",
    "Blockwise",
]

MAX_JSON_DEPTH = 16
"""Nesting deeper than this in a JSON input is refused (no format of fairconv's has it)."""


class _KeyTwice(Exception):
    """Signal of the decoding hook: an object holds ``key`` twice.

    Not an error users see: :func:`_decode` turns it into the :class:`FileFormatError`
    naming the file and line.
    """

    def __init__(self, key):
        super().__init__(key)
        self.key = key


def _pairs(pairs):
    obj = dict(pairs)
    if len(obj) != len(pairs):  # a key twice: name the first one repeated
        keys = [k for k, _ in pairs]
        twice = next(k for i, k in enumerate(keys) if k in keys[:i])
        raise _KeyTwice(twice)
    return obj


class Unreadable:
    """A JSON number fairconv cannot hold: NaN, Infinity, or too many digits.

    It stands in the decoded value where the number was, so that the check of the field
    it is in refuses it and names that field.

    Parameters
    ----------
    text : str
        The number as the JSON text has it.

    Examples
    --------
    >>> from fairconv.io import read_json
    >>> import io
    >>> read_json(io.StringIO('{"level": NaN}'))["level"]
    NaN
    >>> type(_).__name__
    'Unreadable'
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
    shapes = _shapes(data)
    short = _short(shapes)
    return _plain(shapes, short), short


def _shapes(data: bytes) -> bytes:
    """The text with digits as ``0``, ``e`` and ``E`` as ``e``, signs deleted, all else a space."""
    return data.translate(_NUMBER_SHAPES, b"+-")


def _short(shapes: bytes) -> bool:
    """The second flag of :func:`_number_shapes`: no 19 digits follow each other."""
    return b"0" * 19 not in shapes


def _plain(shapes: bytes, short: bool) -> bool:
    """The first flag of :func:`_number_shapes` (``short`` is the second, known already)."""
    return (short or b"0" * 21 not in shapes) and b"0e000" not in shapes


_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'"[]{}:')
_STEP = np.zeros(256, dtype=np.int8)
_STEP[[91, 123]] = 1  # [ and { open a level
_STEP[[93, 125]] = -1  # ] and } close one


def _structure(data: bytes) -> tuple[int, int]:
    """The deepest nesting and the number of keys of a valid JSON text (or JSON Lines).

    The one depth rule of the JSON readers, read from the text rather than the decoded
    values: escaped backslashes and quotes are dropped, every other quote opens or
    closes a string, and the brackets outside strings are counted. The keys are the
    colons outside strings: one per key of every object, a key given twice counted
    twice.

    Among the quotes and brackets, two quotes side by side are dropped first: whether
    they close and open or open and close a string, nothing lies between them, so no
    mark changes sides. Most strings hold no mark, so most quotes go before the
    array work.
    """
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    text = data.translate(None, _NOT_STRUCTURE).replace(b'""', b"")
    marks = np.frombuffer(text, dtype=np.uint8)
    if len(marks) == 0:
        return 0, 0
    outside = ~np.logical_xor.accumulate(marks == 34)
    step = _STEP[marks]
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

LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""A UTF-16 surrogate alone in a str: not a character, so no UTF-8 text can hold it."""


def _refuse_lone_surrogates(name: str, data: bytes, numbered) -> None:
    r"""Refuse a decoded string (or key) holding a lone surrogate, naming line and field.

    Only a ``\u`` escape can give one (the bytes were checked to be UTF-8), so the
    values are searched only when the text has such an escape.
    """
    # a backslash is looked for first: one byte is found at memchr's speed, while a search
    # for the two bytes of "\u" checks every "u" of the text
    if b"\\" not in data or b"\\u" not in data:
        return
    if not _SURROGATE_ESCAPE.search(data.replace(b"\\\\", b"__")):
        return
    for line, value in numbered:
        found = _first_lone_surrogate(value, ())
        if found is not None:
            place, text = found
            char = LONE_SURROGATE.findall(text)[0]
            raise FileFormatError(
                name,
                line,
                f"{place} must be valid Unicode text, got {json_repr(text)} (\\u{ord(char):04x} "
                "is a lone surrogate, not a character)",
            )


def _first_lone_surrogate(value, steps: tuple) -> tuple[str, str] | None:
    """(how a message names it, the string) of the first string holding a lone surrogate.

    ``steps`` are the keys and indices from the decoded value's top to ``value``.
    """
    if type(value) is str:
        return (_place(steps), value) if LONE_SURROGATE.search(value) else None
    if type(value) is dict:
        for key, item in value.items():
            if LONE_SURROGATE.search(key):
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
    return " of ".join(f"item {s + 1}" if type(s) is int else json_repr(s) for s in reversed(steps))


def _loads(text: str, plain_numbers: bool = False, keys_checked: bool = True):
    """Decode by fairconv's rules; ``keys_checked=False`` leaves duplicate keys to the caller."""
    hooks: dict = {"object_pairs_hook": _pairs} if keys_checked else {}
    if not plain_numbers:
        hooks.update(parse_int=_integer, parse_float=_real)
    return json.loads(text, parse_constant=Unreadable, **hooks)


def _decode(text: str, name: str, line: int | None, max_depth: int, plain_numbers=False):
    where = Where(name, line)
    try:
        value = _loads(text, plain_numbers)
    except json.JSONDecodeError as exc:
        at = exc.lineno + (line - 1 if line is not None else 0)
        raise FileFormatError(name, at, f"invalid JSON: {exc.msg} (column {exc.colno})") from None
    except _KeyTwice as exc:
        raise file_error(where, f"the key {exc.key!r} appears twice in one object") from None
    except (RecursionError, ValueError):
        raise file_error(where, "the JSON nests too deeply or a number is too long") from None
    if _structure(text.encode("utf-8"))[0] > max_depth:
        raise file_error(where, f"the JSON nests deeper than {max_depth} levels")
    return value


@public
def iter_jsonl(
    path, /, *, max_depth: int = MAX_JSON_DEPTH, count_keys=None
) -> list[tuple[int, object]]:
    """The (line number, value) of every non-blank line of a JSON Lines input.

    The text rules of every reader hold (UTF-8, BOM, control characters); then each
    line is one JSON value. A key twice in one object and nesting deeper than
    ``max_depth`` are refused; ``NaN``, ``Infinity``, integers of more than 20 digits
    and numbers out of the float range decode to :class:`Unreadable`, which the check
    of their field refuses by name. An input with no record is an error. Every error
    names the file and line.

    Parameters
    ----------
    path : str, os.PathLike or file
        A JSON Lines input.
    max_depth : int, default 16
        The deepest nesting of arrays and objects accepted.
    count_keys : callable, optional
        Given the list of decoded values, counts the keys of the objects among them
        (each object at most once). When its count equals the number of keys in the
        text, no object can hold a key twice, so the values are decoded without the
        check per object, by ``orjson`` when the ``fast`` extra is installed.
        Otherwise, and whenever the fast route meets anything it does not take, the
        values are decoded again by the full rules, which give the same values and the
        same errors.

    Returns
    -------
    list of (int, object)
        The line number (from 1) and the decoded value of every non-blank line.

    Raises
    ------
    FileFormatError
        For invalid text or JSON, a repeated key, too deep a nesting or no record,
        naming the file and line.

    See Also
    --------
    read_json : one JSON value from a file.

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> from fairconv.io import iter_jsonl
    >>> [(line, record["run"]) for line, record in iter_jsonl(path("cases", "r112-fairweb2.jsonl"))]
    [(1, 'COPWA-CS-QD-MN-2'), (2, 'ORG-CS-D-MN-1')]
    """
    name = source_name(path)
    data = checked_bytes(path)
    found = _jsonl(name, data, max_depth, count_keys)
    if not found:
        raise FileFormatError(name, None, "the file is empty (no JSON records)")
    _refuse_lone_surrogates(name, data, found)
    return found


def iter_jsonl_blocks(
    path, /, *, max_depth: int = MAX_JSON_DEPTH, count_keys=None, block_bytes: int = 1 << 20
):
    """The values of :func:`iter_jsonl`, a block of lines at a time.

    Yields lists of (line number, value) of about ``block_bytes`` of text each, so that
    a caller can turn each block into arrays and drop its values before the next is
    decoded: the decoded values of the whole input are never held at once. The values,
    the checks and the errors are those of :func:`iter_jsonl`, and so is their order:
    an invalid line raises when its block is decoded; a lone surrogate, which
    :func:`iter_jsonl` reports only when every line has decoded, is raised after the
    last block (no block is yielded after the one before it). A caller checking the
    values it is given keeps its first error until the blocks run out, for the same
    order.
    """
    name = source_name(path)
    data = checked_bytes(path)
    surrogate = None
    start, line, found = 0, 1, False
    while start < len(data):
        end = data.find(b"\n", start + block_bytes)
        end = len(data) if end < 0 else end + 1
        block = data[start:end]
        numbered = _jsonl(name, block, max_depth, count_keys, line)
        found = found or bool(numbered)
        line += block.count(b"\n")
        start = end
        if surrogate is None:
            try:
                _refuse_lone_surrogates(name, block, numbered)
            except FileFormatError as exc:
                surrogate = exc
        del block
        if surrogate is None and numbered:
            yield numbered
        del numbered
    if not found:
        raise FileFormatError(name, None, "the file is empty (no JSON records)")
    if surrogate is not None:
        raise surrogate


class Blockwise:
    """Checks run over JSON Lines inputs a block of lines at a time, errors in their order.

    Each of ``steps`` takes an input's name and a block of it, a list of (line number,
    value); together they turn the block into arrays, so that its values are dropped
    before the next block is decoded and few decoded objects are alive at once. The
    errors come as if each check ran over every input before the next: the JSON of
    every line (a block raises it when decoded), then the first error of each step in
    turn. A step stops once it, or a step before it, has failed: the later steps have
    nothing to build on.
    """

    def __init__(self, *steps) -> None:
        self.steps = steps
        self.faults: list[Exception | None] = [None] * len(steps)

    def read(self, path, *, count_keys=None, block_bytes: int) -> None:
        """Run the steps over the blocks of one input (:func:`iter_jsonl_blocks`)."""
        name = source_name(path)
        for block in iter_jsonl_blocks(path, count_keys=count_keys, block_bytes=block_bytes):
            for k, step in enumerate(self.steps):
                if any(self.faults[: k + 1]):
                    break
                try:
                    step(name, block)
                except (ValueError, TypeError) as exc:
                    self.faults[k] = exc
            del block

    def check(self) -> None:
        """Raise the first error of the first step that failed, if any."""
        for fault in self.faults:
            if fault is not None:
                raise fault


def _jsonl(
    name: str, data: bytes, max_depth: int, count_keys, first: int = 1
) -> list[tuple[int, object]]:
    """The (line number, value) of the non-blank lines of ``data``, numbered from ``first``."""
    shapes = _shapes(data)
    short = _short(shapes)
    depth, keys = _structure(data)
    if count_keys is not None and depth <= max_depth:
        found = _unchecked_jsonl(data, shapes, short, first)
        if found is not None and count_keys([v for _, v in found]) == keys:
            return found
    plain = _plain(shapes, short)  # the flag the decoders below need, read only now
    numbered = _lines(data, first)
    if not numbered:
        return []
    if depth <= max_depth:
        try:  # one C call for a valid file
            return _joined(numbered, plain, keys_checked=True)
        except (ValueError, RecursionError, _KeyTwice):  # named by the line-by-line route
            pass
    out = [(n, _decode(s, name, n, max_depth, plain)) for n, s in numbered]
    if len(out) != len(numbered):  # pragma: no cover - each line gave one value
        raise FileFormatError(name, None, "expected one JSON value per line")
    return out


def _lines(data: bytes, first: int = 1) -> list[tuple[int, str]]:
    """The (line number, text) of the non-blank lines, the first numbered ``first``."""
    lines = enumerate(data.decode("utf-8").split("\n"), start=first)
    return [(n, s) for n, s in lines if s.strip()]


def _joined(numbered, plain: bool, keys_checked: bool) -> list[tuple[int, object]]:
    """The lines decoded as one JSON array; ValueError unless each gives one value."""
    values = _loads("[" + ",".join(s for _, s in numbered) + "]", plain, keys_checked)
    if len(values) != len(numbered):
        raise ValueError("a line holds more than one value")
    return [(n, v) for (n, _), v in zip(numbered, values, strict=True)]


def _unchecked_jsonl(data: bytes, shapes: bytes, short: bool, first: int = 1):
    """The lines' values decoded without the duplicate-key check, or None.

    ``orjson`` decodes when installed and every integer fits in 64 bits (``short``);
    it refuses NaN, lone surrogates and what JSON refuses, and then this gives None.
    Otherwise the standard decoder does, when the numbers need no hooks (the first
    flag of :func:`_number_shapes`, read from ``shapes``).
    """
    fast = _accel.json_decoder() if short else None
    try:
        if fast is not None:
            lines = enumerate(data.split(b"\n"), start=first)
            return [(n, fast(s)) for n, s in lines if s.strip()] or None
        if _plain(shapes, short):
            return _joined(_lines(data, first), True, keys_checked=False) or None
    except (ValueError, RecursionError):
        pass
    return None


@public
def read_json(path, /, *, max_depth: int = MAX_JSON_DEPTH):
    """The one JSON value of a file, by the rules of :func:`iter_jsonl`.

    Parameters
    ----------
    path : str, os.PathLike or file
        A UTF-8 JSON file.
    max_depth : int, optional
        The deepest nesting of arrays and objects accepted.

    Returns
    -------
    object
        The decoded value (dict, list, str, int, float, bool or None).

    Raises
    ------
    FileFormatError
        For an empty file, bytes that are not UTF-8, text that is not one JSON value,
        a duplicate key, a lone surrogate or nesting deeper than ``max_depth``.

    See Also
    --------
    iter_jsonl : a JSON Lines input, line by line.

    Examples
    --------
    >>> from fairconv.datasets import path
    >>> from fairconv.io import read_json
    >>> read_json(path("cases", "r112-attributes.json"))["HINDEX"]["target"]
    [0.25, 0.25, 0.25, 0.25]
    """
    name = source_name(path)
    data = checked_bytes(path)
    text = data.decode("utf-8")
    if not text.strip():
        raise FileFormatError(name, None, "the file is empty")
    value = _decode(text, name, None, max_depth, _number_shapes(data)[0])
    _refuse_lone_surrogates(name, data, [(None, value)])
    return value


# --------------------------------------------------------------------------- fields


def json_item_error(sources, offsets, i: int, item: str, message: str) -> ValueError:
    """ValueError naming the record (``file:line``) and the item i of the flat list."""
    c = int(np.searchsorted(offsets, i, side="right") - 1)
    return file_error(sources[c], f"{item} {i - int(offsets[c]) + 1}: {message}")


def json_ints(
    values: list,
    field: str,
    sources,
    offsets,
    *,
    item: str = "nugget",
    default: int | None = None,
    rows=None,
) -> np.ndarray:
    """Check that each value is a JSON integer (not a bool, string or float).

    ``None`` (a missing or null field) takes ``default`` when one is given and is an
    error otherwise. ``rows`` gives the flat item index of each value (default: its
    position). Returns an int64 array.
    """
    allowed = {int} if default is None else {int, type(None)}
    if set(map(type, values)) <= allowed:
        filled = values if default is None else [default if v is None else v for v in values]
        try:
            arr = np.array(filled, dtype=np.int64)
        except OverflowError:
            arr = None
        if arr is not None and (len(arr) == 0 or np.abs(arr).max() <= _INT_LIMIT):
            return arr
    for k, v in enumerate(values):
        if (v is None and default is not None) or (type(v) is int and abs(v) <= _INT_LIMIT):
            continue
        i = k if rows is None else int(rows[k])
        rule = "an integer" if type(v) is not int else "an integer within +-2^53"
        raise json_item_error(
            sources, offsets, i, item, f'"{field}" must be {rule}, got {json_repr(v)}'
        )
    raise AssertionError("unreachable")  # pragma: no cover


def json_vectors(
    vectors: list,
    attribute,
    sources,
    offsets,
    *,
    item: str = "nugget",
    rows=None,
    required: bool = False,
) -> np.ndarray:
    """Check membership vectors of one attribute set given in JSON; (n, G) float64.

    Each vector is a JSON array of G numbers (not bools or strings), finite,
    non-negative and summing to 1 within :data:`SUM_TOLERANCE`. ``None`` (no vector) is
    an all-NaN row, or an error when ``required``.
    """
    g = attribute.n_groups
    n = len(vectors)
    out = np.full((n, g), np.nan)

    def where(k: int, message: str) -> ValueError:
        i = k if rows is None else int(rows[k])
        return json_item_error(sources, offsets, i, item, message)

    name = f'"groups"."{attribute.name}"'
    given = np.fromiter(map(is_not, vectors, repeat(None)), bool, n)
    if required and not given.all():
        k = int(np.argmin(given))
        raise where(k, f"it is relevant but gives no {attribute.name} membership ({name})")
    present = vectors if given.all() else list(compress(vectors, given))
    values = None
    if set(map(type, present)) <= {list} and set(map(len, present)) <= {g}:
        if set(map(type, chain.from_iterable(present))) <= {int, float}:
            try:
                flat = chain.from_iterable(present)
                values = np.fromiter(flat, np.float64, len(present) * g).reshape(-1, g)
            except OverflowError:
                values = None
    if values is None:
        for k, v in enumerate(vectors):
            if v is None:
                continue
            ok = type(v) is list and len(v) == g and all(type(x) in (int, float) for x in v)
            if ok:
                try:
                    np.array(v, dtype=np.float64)
                except OverflowError:
                    ok = False
            if not ok:
                raise where(
                    k,
                    f"{name} must be an array of {g} numbers (the groups of "
                    f"{attribute.name}), got {json_repr(v)}",
                )
        raise AssertionError("unreachable")  # pragma: no cover
    first = first_bad_distribution(values)
    if first >= 0:
        k = int(np.flatnonzero(given)[first])
        raise where(
            k,
            f"{name} must be finite non-negative numbers summing to 1 (within "
            f"{SUM_TOLERANCE:g}), got {json_repr(vectors[k])}",
        )
    out[given] = values
    return out


def json_groups(
    items: list,
    attribute_sets,
    sources,
    offsets,
    *,
    item: str = "nugget",
    rows=None,
    required: bool = False,
) -> dict:
    """The membership vectors that items (nuggets, entities) give under ``groups``.

    ``groups`` must be a JSON object (or absent); returns ``{set name: (n, G) array}``
    checked by :func:`json_vectors`, NaN rows where an item gives no vector.
    """
    groups = [entry.get("groups") for entry in items]
    if not set(map(type, groups)) <= {dict, type(None)}:  # a dict subclass, or not a dict
        for k, g in enumerate(groups):
            if g is not None and not isinstance(g, dict):
                i = k if rows is None else int(rows[k])
                raise json_item_error(
                    sources, offsets, i, item, f'"groups" must be an object, got {json_repr(g)}'
                )
    if None in groups:
        groups = [g or {} for g in groups]
    return {
        a.name: json_vectors(
            [g.get(a.name) for g in groups],
            a,
            sources,
            offsets,
            item=item,
            rows=rows,
            required=required,
        )
        for a in attribute_sets
    }


def json_str(value, field: str, where: str, *, required: bool = True) -> str | None:
    """An identifier: a non-empty JSON string by the id rule (:func:`check_id`).

    Identifiers end up in TSV rows, so whitespace (tabs and newlines included) and
    control characters are refused: no value can forge an output row.
    """
    if value is None and not required:
        return None
    return check_id(value, field, where)


# --------------------------------------------------------------------------- runs
def one_way_of_naming_runs(given: bool, first_given: bool, where, first_where, field: str) -> None:
    """The rule of every input whose records name their run in ``field``: all or none do.

    A record that gives its run where the input's first record (at ``first_where``)
    gives none, or none where that record gives one, is an error naming both: a record
    without a run among records with one would otherwise become a run of its own.
    """
    if given == first_given:
        return
    if given:
        told = f'the record gives a "{field}", while {first_where} gives none'
    else:
        told = f'the record has no "{field}", while {first_where} gives one'
    raise file_error(where, f'{told}: give every record its "{field}", or none')


class FileRuns:
    """The runs that inputs take from their file's name, for the rule of one name, one file.

    Two files of one name in different folders (``bm25/assign.jsonl`` and
    ``splade/assign.jsonl``) would give one run: :meth:`add` refuses the second file.
    ``told`` says how a file names its run, ``hint`` what to do instead.
    """

    def __init__(self, told: str, hint: str) -> None:
        self.told, self.hint = told, hint
        self.files: dict[str, str] = {}  # run -> the file that names it

    def add(self, run: str, file: str, where) -> None:
        """Record that ``file`` gives ``run`` its name; a second file is an error at ``where``."""
        first = self.files.setdefault(run, file)
        if first != file:
            raise file_error(
                where,
                f"{self.told} {run!r}, as {first} does: two runs would merge. {self.hint}",
            )
