"""Inputs as users hold them: paths, file objects, DataFrames, dicts and record streams.

Qrels, runs and memberships may come from files (also ``.gz``), from pandas DataFrames
with the columns of ir_measures, PyTerrier or ranx, from dicts in the pytrec_eval/ranx
shape ``{query_id: {doc_id: value}}``, or from iterables of records such as
ir_datasets' ``qrels_iter()`` and ``scoreddocs_iter()``.

Every in-memory input becomes columns first (a DataFrame's own columns; a dict's or a
record stream's fields gathered once), and the columns become the arrays the file
readers of :mod:`fairconv.io._tables` give (byte-string ids, topic codes, levels,
scores, membership rows), with no text in between. The rules are those of the files,
applied once per column as array work:

- an id is a string or an integer (not a bool), non-empty, of UTF-8 text without
  whitespace, control characters, a byte-order mark or a lone surrogate; a query id
  does not start with ``#``;
- a number is an int or a float (numpy's included, not a bool or a string), finite; a
  relevance is a whole number of at most 100 (a negative one is nonrelevant);
- a missing value (``None``, ``NaN``, ``pd.NA``) is refused where the file could not
  hold it;
- a (topic, doc) key listed twice is an error;
- two different ids of one column that read as one id (``1`` and ``"1"``) are an
  error naming both rows, never one id.

An error names a DataFrame's row by its index label, what ``df.loc`` takes, never by
its position: ``qrels (DataFrame, index 5): ...``, ``run 'bm25' (DataFrame, index 'x'):
...``; a dict's or records' row by its position, 1-based as a file's line:
``qrels records:3: ...``.

Rank order: a file keeps its order (the organisers' rule); a run from a DataFrame, a
dict or records is ranked by score, ties by doc id descending (trec_eval's rule, which
ir_measures and pytrec_eval follow; a ``rank`` column is ignored, as they ignore it),
unless the caller asks for ``order='file'`` (row order). A DataFrame with a run column
(``run_id``, ``run``, ``tag``, ``name`` or ``system``) holds one run per value. A run's
optional ``sample`` column (a record's ``sample`` field) gives each row's sample id,
column 2 of a TREC run line.
"""

from __future__ import annotations

import math
import os
import reprlib
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain
from operator import attrgetter, call, itemgetter, methodcaller
from typing import Any, NoReturn, cast

import numpy as np

from .. import _accel
from .._validation import (
    ID_MARK,
    LMAX_LIMIT,
    NOT_IN_ID,
    NOT_IN_ID_BYTES,
    SUM_TOLERANCE,
    IndexLabel,
    Where,
    at_line,
    fail_type,
    file_error,
    first_bad_distribution,
    id_fault,
    kind_of,
    public,
)
from ._tables import (
    GroupMemberships,
    Qrels,
    Run,
    _check_unique,
    read_gmemb,
    read_qrels,
    read_run,
)
from ._text import FileFormatError, one_sample, sample_codes, topic_codes

__all__ = ["as_qrels", "as_run", "as_runs", "as_memberships", "RUN_COLUMNS"]

_COLUMNS = {
    "topic": ("query_id", "qid", "q_id"),
    "doc": ("doc_id", "docno"),
    "relevance": ("relevance", "label", "rel", "score"),
    "score": ("score",),
    "run": ("run_id", "run", "tag", "name", "system"),
    "sample": ("sample",),
}
RUN_COLUMNS = _COLUMNS["run"]
"""The columns that name a DataFrame's runs: a frame with one holds one run per value."""

_MISSING = object()  # a field a record lacks (None is a value there, checked as one)
_ASCII_NOT_IN_ID = bytes(b for b in range(128) if NOT_IN_ID.match(chr(b)))
# the id rule on ASCII bytes, which the array work below tests as two comparisons
assert _ASCII_NOT_IN_ID == bytes(range(33)) + b"\x7f", "the id rule's ASCII part changed"


def _is_path(obj) -> bool:
    return isinstance(obj, (str, bytes, os.PathLike)) or hasattr(obj, "read")


def _is_frame(obj) -> bool:
    return hasattr(obj, "columns") and hasattr(obj, "itertuples")


def _is_ranx(obj) -> bool:
    """A ranx ``Qrels`` or ``Run`` (duck-typed: ranx is no dependency of fairconv).

    It gives its ``{query_id: {doc_id: value}}`` dict by ``to_dict()`` and has a
    ``name``; a DataFrame or a Series, which have both, is not one.
    """
    return (
        hasattr(obj, "to_dict")
        and hasattr(obj, "name")
        and not _is_frame(obj)
        and not _is_series(obj)
        and not isinstance(obj, (Qrels, Run))
    )


def _is_series(obj) -> bool:
    return hasattr(obj, "dtype") and hasattr(obj, "iloc") and not hasattr(obj, "columns")


def _is_missing(value) -> bool:
    """None, a NaN or pandas' ``NA``/``NaT`` (a scalar)."""
    if value is None:
        return True
    if isinstance(value, (float, np.floating)):
        return bool(value != value)
    pd = sys.modules.get("pandas")
    return pd is not None and (value is pd.NA or value is pd.NaT)


# --------------------------------------------------------------------------- places
@dataclass(frozen=True)
class _Place:
    """How errors name the rows of one input.

    A DataFrame's row by its index label, what ``df.loc`` takes (``index``: the
    frame's index): ``run 'bm25' (DataFrame, index 5)``; a dict's or records' row by
    its position, 1-based as a file's line: ``run 'bm25' (records):3``.
    ``positions``: the input's row of each row here (for the runs of a frame split by
    its run column).
    """

    name: str
    index: Any = None
    positions: np.ndarray | None = None

    @property
    def path(self) -> str:  # the name FileFormatError gives an input
        return self.name

    def row(self, i: int) -> int:
        """The input's row (0-based) of row i."""
        return int(i if self.positions is None else self.positions[i])

    def line(self, i: int) -> int | IndexLabel:
        pos = self.row(i)
        return pos + 1 if self.index is None else IndexLabel(self.index[pos])

    def at(self, i: int) -> Where:
        return Where(self.name, self.line(i))

    def lines(self) -> np.ndarray | None:
        return None if self.positions is None else self.positions + 1


# --------------------------------------------------------------------------- one value
def _shown(value) -> str:
    """A value as the user wrote it, for messages: ``nan``, never ``np.float64(nan)``."""
    return reprlib.repr(value.item() if isinstance(value, np.generic) else value)


def _token(value, field: str, where: str, *, first: bool = False) -> str:
    """An id as the text of its file format, or a ValueError naming the row.

    A string or an integer (not a bool); what a file could not hold as the same text
    is refused, never changed: whitespace and control characters (they would split the
    line), a byte-order mark (skipped at the start of a file, refused elsewhere), a
    lone surrogate (no UTF-8 text holds one) and, for the ``first`` token of a line, a
    leading ``#`` (the line would be a comment).
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (str, int, np.integer)):
        if _is_missing(value):
            raise file_error(where, f"the {field} is missing ({_shown(value)})")
        raise file_error(
            where,
            f"the {field} must be a string or an integer, got "
            f"{type(value).__name__} {_shown(value)}",
        )
    text = str(value)
    fault = id_fault(text)
    if fault is not None and fault != ID_MARK:
        raise file_error(
            where,
            f"the {field} {text!r} must be non-empty, without whitespace or control characters",
        )
    if fault is not None:
        raise file_error(
            where,
            f"the {field} {text!r} must be Unicode text without a byte-order mark "
            "(U+FEFF) or a lone surrogate",
        )
    if first and text.startswith("#"):
        raise file_error(
            where,
            f"the {field} {text!r} must not start with '#' (in the file format a "
            "line starting with '#' is a comment)",
        )
    return text


def _number(value, field: str, where: str, *, integer: bool = False) -> float | int:
    """A number, or a ValueError naming the row.

    An int, a float or a numpy integer or floating-point scalar (not a bool, a string
    or a complex number); finite, and with ``integer`` a whole number.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (int, float, np.integer, np.floating)
    ):
        if _is_missing(value) and value is not None:
            raise file_error(where, f"the {field} is missing ({_shown(value)})")
        raise file_error(where, f"the {field} must be a number, got {_shown(value)}")
    if integer and isinstance(value, (int, np.integer)):
        return int(value)
    try:
        x = float(value)
    except OverflowError:  # an int beyond the doubles
        x = math.inf
    if integer and not x.is_integer():  # nor are NaN and the infinities
        raise file_error(where, f"the {field} must be an integer, got {_shown(value)}")
    if not math.isfinite(x):
        raise file_error(where, f"the {field} must be a finite number, got {_shown(value)}")
    return int(x) if integer else x


def _level(value, where: str) -> int:
    """A relevance level: a whole number of at most :data:`LMAX_LIMIT` (as TREC qrels)."""
    level = _number(value, "relevance", where, integer=True)
    if not -(10**18) < level <= LMAX_LIMIT:
        raise file_error(
            where,
            f"a TREC qrels level must be an integer (at most {LMAX_LIMIT}); found {str(level)!r}",
        )
    return int(level)


# --------------------------------------------------------------------------- columns
class _Column:
    """One input column: its values as an object array or a typed array, and its rows.

    ``values`` is what the input holds (a pandas Series, a list or an array); ``get(i)``
    gives row i's value for messages.
    """

    def __init__(self, values, place: _Place):
        self.values = values
        self.place = place

    def __len__(self):
        return len(self.values)

    def get(self, i: int):
        v = self.values
        return v.iloc[i] if _is_series(v) else v[i]


def _objects(values) -> np.ndarray:
    """Values as a 1-d object array (a Series' missing values as NaN or None)."""
    if _is_series(values):
        return values.to_numpy(dtype=object)
    if isinstance(values, np.ndarray) and values.ndim == 1:
        return values.astype(object, copy=False)
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _missing(values, objects: np.ndarray) -> np.ndarray:
    if _is_series(values):
        return np.asarray(values.isna(), dtype=bool)
    pd = sys.modules.get("pandas")
    if pd is not None:
        return np.asarray(pd.isna(objects), dtype=bool)
    return np.fromiter(map(_is_missing, objects), bool, len(objects))


def _first(mask: np.ndarray) -> int:
    """The first True of ``mask``, or its length."""
    return int(np.argmax(mask)) if mask.any() else len(mask)


def _kind_of(arr: np.ndarray) -> str:
    """The kind of values: pandas' ``infer_dtype``, or (no pandas) by their types."""
    pd = sys.modules.get("pandas")
    if pd is not None:
        return pd.api.types.infer_dtype(arr, skipna=False)
    types = set(map(type, arr))
    if types <= {str}:
        return "string"
    if all(issubclass(t, (int, np.integer)) and not issubclass(t, bool) for t in types):
        return "integer"
    return "mixed"


def _id_type_ok(t: type) -> bool:
    return issubclass(t, (str, int, np.integer)) and not issubclass(t, (bool, np.bool_))


def _int_texts(ints: np.ndarray) -> np.ndarray:
    """Integers as their decimal text (an object array of str), one per distinct value."""
    unique, inverse = np.unique(ints, return_inverse=True)
    return np.array(unique.astype(str).tolist(), dtype=object)[inverse.ravel()]


def _texts(col: _Column, field: str = "id") -> tuple[np.ndarray | None, int]:
    """The ids of a column as an object array of str, and the first bad row (or n).

    A bad row is one whose value is missing or neither a string nor an integer. Two
    different values that read as one id (``1`` and ``"1"``) are an error naming both
    rows (:func:`_refuse_merged_ids`); ``field`` names the column's ids there.
    """
    values, n = col.values, len(col)
    kind = getattr(getattr(values, "dtype", None), "kind", "O")
    if kind in "iu" and _is_series(values) and str(values.dtype) != "category":
        missing = np.asarray(values.isna(), dtype=bool)  # nullable Int64, pyarrow ints
        if missing.any():
            return None, _first(missing)
        return _int_texts(values.to_numpy(dtype=np.uint64 if kind == "u" else np.int64)), n
    if kind in "iu" and isinstance(values, np.ndarray):
        return _int_texts(values), n
    arr = _objects(values)
    kind = _kind_of(arr)
    if kind == "string":
        return arr, n
    if kind == "integer":
        try:
            return _int_texts(arr.astype(np.int64)), n
        except OverflowError:
            return np.array(list(map(str, arr)), dtype=object), n
    missing = _missing(values, arr)
    ok = ~missing
    ok[ok] = _by_type(arr[ok], _id_type_ok, bool)
    bad = _first(~ok)
    if bad < n:
        return None, bad
    texts = np.array(list(map(str, arr)), dtype=object)
    _refuse_merged_ids(arr, texts, col.place, field)
    return texts, n


def _refuse_merged_ids(cells: np.ndarray, texts: np.ndarray, place: _Place, field: str) -> None:
    """Refuse two different ids of a column that read as one (``1`` and ``"1"``).

    ``cells``: the column's values (strings and integers), ``texts`` their ids. Such
    ids are never merged into one: the error names both rows.
    """
    if len(set(map(type, cells))) < 2:
        return
    distinct = dict.fromkeys(cells)
    if len(set(map(str, distinct))) == len(distinct):
        return
    first: dict[str, int] = {}
    for i, text in enumerate(texts.tolist()):  # an error's rows: a plain search
        j = first.setdefault(text, i)
        if type(cells[j]) is not type(cells[i]) and cells[j] != cells[i]:
            raise file_error(
                place.at(i),
                f"the {field} {_shown(cells[i])} and the {field} {_shown(cells[j])} "
                f"{at_line(place.line(j))} are different values of one id {text!r}; give "
                f"every {field} as a str, or every one as an integer",
            )


def _runs_of(arr: np.ndarray) -> np.ndarray:
    """Start of each run of equal neighbours of an object array (no missing values)."""
    change = np.ones(len(arr), dtype=bool)
    if len(arr) > 1:
        change[1:] = arr[1:] != arr[:-1]
    return np.flatnonzero(change)


def _id_bytes(texts: np.ndarray, *, first: bool) -> tuple[np.ndarray, int]:
    """The ids (str) as an array of UTF-8 byte strings, and the first row breaking the id rule.

    The array is what the file readers give (:func:`fairconv._accel.strings`: fixed
    width, or bytes objects for ragged ids). The rule is checked on the bytes at once:
    no byte up to space and no DEL in any id, no empty id, no ``#`` first (``first``);
    ids with other than ASCII are checked by the id rule itself.
    """
    n = len(texts)
    lengths = np.fromiter(map(len, texts), np.int64, n)
    joined = "".join(texts)
    ascii_only = joined.isascii()
    if ascii_only:
        data = joined.encode("ascii")
    else:
        encoded = list(map(methodcaller("encode", "utf-8", "surrogatepass"), texts))
        lengths = np.fromiter(map(len, encoded), np.int64, n)
        data = b"".join(encoded)
    del joined
    buf = _accel.padded(data)
    del data
    ends = np.cumsum(lengths) + _accel.PAD
    starts = ends - lengths
    body = buf[_accel.PAD : int(ends[-1])] if n else buf[:0]
    bad = n
    if n:
        # reductions first: the masks only when a byte may break the rule
        if int(body.min(initial=255)) <= 32 or (ascii_only and int(body.max(initial=0)) == 127):
            at = np.flatnonzero((body <= 32) | (body == 127))
            if len(at):
                bad = int(np.searchsorted(ends - _accel.PAD, at[0], side="right"))
        if int(lengths.min()) == 0:
            bad = min(bad, _first(lengths == 0))
        if not ascii_only:  # the id rule on the UTF-8 bytes, in one search
            found = NOT_IN_ID_BYTES.search(body.data)
            if found is not None:
                row = int(np.searchsorted(ends - _accel.PAD, found.start(), side="right"))
                bad = min(bad, row)
        if first:
            hashes = lengths > 0
            hashes[hashes] = buf[starts[hashes]] == ord("#")
            bad = min(bad, _first(hashes))
    return _accel.strings(buf, starts, ends), bad


def _ids(
    col: _Column, *, first: bool = False, runs: bool = False, field: str = "id"
) -> tuple[np.ndarray | None, int]:
    """A column of ids as byte strings, and its first bad row (n when none).

    ``runs``: the column holds long runs of one id (a topic column); each run is
    converted once. ``field`` names the ids in messages (:func:`_texts`).
    """
    values, n = col.values, len(col)
    dtype = getattr(values, "dtype", None)
    if dtype is not None and str(dtype) == "category":
        if _kind_of(_objects(values.cat.categories)) not in ("string", "integer"):
            # categories of strings and integers: the rows' values, checked as any column
            return _ids(_Column(values.astype(object), col.place), first=first, field=field)
        codes = np.asarray(values.cat.codes, dtype=np.int64)
        missing = codes < 0
        cats = _Column(values.cat.categories, col.place)
        named, bad_cat = _ids(cats, first=first)
        bad = _first(missing)
        if bad_cat < len(cats):
            bad = min(bad, _first(codes == bad_cat))
        if bad < n or named is None:
            return None, bad
        return named[codes], n
    texts, bad = _texts(col, field)
    if texts is None:
        return None, bad
    if runs and n:
        heads = _runs_of(texts)
        if len(heads) < n // 2:
            named, bad_head = _id_bytes(texts[heads], first=first)
            if bad_head < len(heads):
                return None, int(heads[bad_head])
            lengths = np.diff(np.append(heads, n))
            return np.repeat(named, lengths), n
    return _id_bytes(texts, first=first)


def _numbers(col: _Column, *, integer: bool = False) -> tuple[np.ndarray | None, int]:
    """A column of numbers as float64 (int64 with ``integer``) and its first bad row.

    A bad row holds a missing value, a bool, a string or another non-number, a NaN or
    an infinity, or (``integer``) a fraction or a level beyond the limit.
    """
    values, n = col.values, len(col)
    dtype = getattr(values, "dtype", None)
    kind = getattr(dtype, "kind", "O")
    arr: np.ndarray
    if _is_series(values) and dtype is not None and str(dtype) != "category" and kind in "iuf":
        # numpy, nullable (Int64, Float64) and pyarrow numbers: missing values first
        missing = np.asarray(values.isna(), dtype=bool)
        if missing.any():
            return None, _first(missing)
        arr = values.to_numpy(dtype=np.float64 if kind == "f" else np.int64)
    elif isinstance(values, np.ndarray) and kind in "iuf":
        arr = values
    else:
        objects = _objects(values)
        inferred = _kind_of(objects)
        try:
            if inferred == "integer":
                arr = objects.astype(np.int64)
            elif inferred in ("floating", "mixed-integer-float"):
                arr = objects.astype(np.float64)
            else:
                raise TypeError
        except (TypeError, OverflowError):
            good = np.fromiter(map(_number_ok, objects), bool, n)
            bad = _first(~good)
            if bad < n:
                return None, bad
            arr = np.array(list(map(float, objects)), dtype=np.float64)
    if arr.dtype.kind in "iu":
        if not integer:
            return arr.astype(np.float64), n
        big = arr > LMAX_LIMIT if arr.dtype.kind == "u" else (arr > LMAX_LIMIT) | (arr <= -(10**18))
        return arr.astype(np.int64), _first(big)
    arr = arr.astype(np.float64, copy=False)
    bad = ~np.isfinite(arr)
    if integer:
        bad |= arr != np.floor(arr)
        bad |= (arr > LMAX_LIMIT) | (arr <= -(10.0**18))
        return np.where(bad, 0, arr).astype(np.int64), _first(bad)
    return arr, _first(bad)


def _number_ok(value) -> bool:
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (int, float, np.integer, np.floating)
    ):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _raise_at(row: int, checks) -> NoReturn:
    """Raise the error of the first bad row: each (column, check) in input order."""
    for col, check in checks:
        check(col.get(row), col.place.at(row))
    raise AssertionError("unreachable")  # pragma: no cover


# --------------------------------------------------------------------------- gathering
def _frame_column(frame, kind: str, what: str):
    """The column of ``kind`` (the first of its names present), or None."""
    names = list(map(str, frame.columns))
    for name in _COLUMNS[kind]:
        count = names.count(name)
        if count > 1:
            raise ValueError(
                f"the {what} has {count} columns named {name!r}; keep one "
                "(e.g. frame.loc[:, ~frame.columns.duplicated()])"
            )
        if count:
            return frame.iloc[:, names.index(name)], name
    return None, None


def _needed(frame, kind: str, what: str):
    col, _ = _frame_column(frame, kind, what)
    if col is None:
        raise ValueError(
            f"the {what} needs a {kind} column named one of "
            f"{', '.join(_COLUMNS[kind])}; it has {', '.join(map(str, frame.columns))}"
        )
    return col


def _dict_columns(obj: Mapping, what: str) -> list:
    """The (topic, doc, value) columns of a ``{topic: {doc: value}}`` dict."""
    inner = list(obj.values())
    for topic, docs in zip(obj, inner, strict=True):
        if not isinstance(docs, Mapping):
            raise ValueError(
                f"the {what} must map query ids to {{doc_id: value}} dicts; "
                f"query {topic!r} maps to {type(docs).__name__}"
            )
    sizes = np.fromiter(map(len, inner), np.int64, len(inner))
    topics = np.empty(len(inner), dtype=object)
    topics[:] = list(obj)
    return [
        np.repeat(topics, sizes),
        list(chain.from_iterable(inner)),
        list(chain.from_iterable(d.values() for d in inner)),
    ]


def _has_field(names: Sequence[str]):
    """A test of whether a record (named tuple, object or dict) has one of ``names``."""

    def has(rec) -> bool:
        return any(hasattr(rec, n) for n in names) or (
            isinstance(rec, Mapping) and any(n in rec for n in names)
        )

    return has


def _optional_column(records: Sequence, kind: str, what: str) -> list | None:
    """The column of an optional field that every record has, or none does (None).

    A record that differs from the first (it lacks the field the first has, or has the
    one the first lacks) is an error naming it.
    """
    names = _COLUMNS[kind]
    has = np.fromiter(map(_has_field(names), records), bool, len(records))
    if not has.any():
        return None
    if not has.all():
        i = _first(has != has[0])
        field = " or ".join(names)
        if has[0]:
            message = f"the record has no field {field}, which record 1 has"
        else:
            message = f"the record has a field {field}, which record 1 lacks"
        raise FileFormatError(what, i + 1, f"{message}: give it in every record or in none")
    return _record_columns(records, [kind], what)[0]


def _record_columns(obj: Iterable, kinds: Sequence[str], what: str) -> list:
    """The columns of records (named tuples, objects with attributes, or dicts)."""
    records = obj if isinstance(obj, Sequence) else list(obj)
    columns: list = []
    for kind in kinds:
        names = _COLUMNS[kind]
        column = None
        if len(records):
            rec = records[0]
            name = next((n for n in names if hasattr(rec, n)), None)
            getter: Any = attrgetter(name) if name is not None else None
            if getter is None and isinstance(rec, Mapping):
                name = next((n for n in names if n in rec), None)
                getter = itemgetter(name) if name is not None else None
            if getter is not None:
                try:
                    column = list(map(getter, records))
                except (AttributeError, KeyError, TypeError):
                    column = None
        if column is None:  # the first record lacking the field names itself
            for i, rec in enumerate(records, start=1):
                found = next((getattr(rec, n) for n in names if hasattr(rec, n)), _MISSING)
                if found is _MISSING and isinstance(rec, Mapping):
                    found = next((rec[n] for n in names if n in rec), _MISSING)
                if found is _MISSING:
                    raise FileFormatError(
                        what, i, f"the record needs a field named one of {', '.join(names)}"
                    )
            if not len(records):
                column = []
            else:  # fields found under different names in different records
                column = [
                    next(
                        (getattr(r, n) for n in names if hasattr(r, n)),
                        next((r[n] for n in names if isinstance(r, Mapping) and n in r), None),
                    )
                    for r in records
                ]
        columns.append(column)
    return columns


def _kind(obj) -> str:
    if _is_frame(obj):
        return "DataFrame"
    if isinstance(obj, Mapping):
        return "dict"
    return "records"


def _frame_name(what: str) -> str:
    """A DataFrame input as its rows' messages name it: ``qrels (DataFrame)``."""
    return (
        what if what.endswith("(DataFrame)") else f"{what.removesuffix(' DataFrame')} (DataFrame)"
    )


def _columns(
    obj, kinds: Sequence[str], what: str, param: str, optional: Sequence[str] = ()
) -> tuple[list, _Place]:
    """The columns of ``kinds`` of a DataFrame, a dict of dicts or records.

    ``what`` names the input in messages about its rows, ``param`` the parameter that
    gave it (for an object of another kind). Each kind of ``optional`` adds its column,
    or None where the input has none (a dict never has one).
    """
    if _is_frame(obj):
        needed = [_needed(obj, k, what) for k in kinds]
        extra = [_frame_column(obj, k, what)[0] for k in optional]
        return needed + extra, _Place(_frame_name(what), obj.index)
    if isinstance(obj, Mapping):
        return _dict_columns(obj, what) + [None] * len(optional), _Place(what)
    if isinstance(obj, Iterable) and not isinstance(obj, (str, bytes)):
        records = obj if isinstance(obj, Sequence) else list(obj)
        extra = [_optional_column(records, k, what) for k in optional]
        return _record_columns(records, kinds, what) + extra, _Place(what)
    raise fail_type(
        param,
        "be a path, a file object, a DataFrame, a {query_id: {doc_id: value}} dict or an "
        "iterable of records",
        kind_of(obj),
    )


def _empty(place: _Place, what: str) -> FileFormatError:
    return FileFormatError(place.name, None, f"has no rows (no {what})")


def _keyed(topic: _Column, doc: _Column, others) -> tuple:
    """Topic codes, doc ids and the other columns' arrays, or the first bad row's error.

    ``others``: (column, converter, check) of each value column; the converter gives
    (array, first bad row), the check raises the message of a bad value.
    """
    topics, bad_t = _ids(topic, first=True, runs=True, field="query id")
    docs, bad_d = _ids(doc, field="doc id")
    arrays, bad = [], min(bad_t, bad_d)
    for col, convert, _ in others:
        array, b = convert(col)
        arrays.append(array)
        bad = min(bad, b)
    if bad < len(topic):
        _raise_at(
            bad,
            [
                (topic, lambda v, w: _token(v, "query id", w, first=True)),
                (doc, lambda v, w: _token(v, "doc id", w)),
                *[(col, check) for col, _, check in others],
            ],
        )
    names, ids = topic_codes(cast(np.ndarray, topics))
    return names, ids, docs, arrays


# --------------------------------------------------------------------------- the inputs
@public
def as_qrels(qrels, /) -> Qrels:
    """Qrels from a file, a DataFrame, a dict or records.

    Parameters
    ----------
    qrels : Qrels, path, file object, DataFrame, dict, ranx Qrels or iterable of records
        A DataFrame has a query id column (``query_id``, ``qid`` or ``q_id``), a doc id
        column (``doc_id`` or ``docno``) and a relevance column (``relevance``,
        ``label``, ``rel`` or ``score``); a dict maps query ids to ``{doc_id: level}``;
        records (named tuples, objects or dicts) have those fields.

    Returns
    -------
    Qrels
        Levels are whole numbers of at most 100; a negative one is nonrelevant (0), as
        trec_eval reads it.

    Raises
    ------
    ValueError
        Naming the row (see the module's docstring) for a bad id or level, a missing
        value, or a (topic, doc) judged twice.
    TypeError
        For an input of another kind.

    Examples
    --------
    >>> q = as_qrels({"T1": {"a": 2, "b": 0}})
    >>> q.topics, q.levels.tolist()
    (('T1',), [2, 0])
    """
    if isinstance(qrels, Qrels):
        return qrels
    if _is_ranx(qrels):
        qrels = qrels.to_dict()
    if _is_path(qrels):
        return read_qrels(qrels)
    what = f"qrels {_kind(qrels)}"
    (t, d, v), place = _columns(qrels, ("topic", "doc", "relevance"), what, "qrels")
    if not len(t):
        raise _empty(place, "judgments")
    topic, doc, value = (_Column(c, place) for c in (t, d, v))
    names, ids, docs, (levels,) = _keyed(
        topic, doc, [(value, lambda c: _numbers(c, integer=True), _level)]
    )
    levels = np.maximum(levels, 0)  # negative levels are nonrelevant, as in trec_eval
    _check_unique(cast(Any, place), ids, docs, names, "is judged twice")
    return Qrels(place.name, names, ids, docs, levels, place.lines(), index=place.index)


def _run_name(value, where: str) -> str:
    return _token(value, "run name", where)


def _one_run(cols, place: _Place, name: str) -> Run:
    """A run from its topic, doc, score and sample (or None) columns."""
    topic, doc, score = (_Column(c, place) for c in cols[:3])
    if not len(topic):
        raise _empty(place, "ranked docs")
    checks: list[tuple[_Column, Callable, Callable]] = [
        (score, _numbers, lambda v, w: _number(v, "score", w))
    ]
    if cols[3] is not None:  # the sample ids, checked before the scores (a TREC line's order)
        sample = _Column(cols[3], place)
        checks.insert(
            0,
            (
                sample,
                partial(_ids, runs=True, field="sample id"),
                lambda v, w: _token(v, "sample id", w),
            ),
        )
    names, ids, docs, arrays = _keyed(topic, doc, checks)
    scores = arrays[-1]
    samples, sample_ids = (
        sample_codes(arrays[0]) if len(arrays) > 1 else one_sample(b"Q0", len(scores))
    )
    return Run(
        place.name,
        names,
        ids,
        docs,
        name,
        scores,
        place.lines(),
        index=place.index,
        order="score",
        samples=samples,
        sample_ids=sample_ids,
    )


def _frame_runs(frame, name: str | None) -> list[Run]:
    """The runs of a DataFrame: one per value of its run column, or one."""
    probe = f"run {name!r} (DataFrame)" if name is not None else "run DataFrame"
    column, label = _frame_column(frame, "run", probe)
    cols = [_needed(frame, k, probe) for k in ("topic", "doc", "score")]
    cols.append(_frame_column(frame, "sample", probe)[0])
    index = frame.index
    if column is None:
        tag = "run" if name is None else name
        return [_one_run(cols, _Place(f"run {tag!r} (DataFrame)", index), tag)]
    place = _Place("runs (DataFrame)", index)
    col = _Column(column, place)
    values, bad = _texts(col, "run name")
    if values is None:
        _raise_at(bad, [(col, _run_name)])
    heads = _runs_of(values)  # rows of one run come in long stretches
    unique, first, inverse = np.unique(values[heads], return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # runs in order of first appearance
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    code = np.repeat(rank[inverse.ravel()], np.diff(np.append(heads, len(values))))
    names = unique[order]
    for i in heads[first[order]].tolist():
        _run_name(values[i], place.at(i))
    if name is not None and len(names) > 1:
        raise ValueError(
            f"the run {name!r} (a DataFrame) holds {len(names)} runs by its column "
            f"{label!r} ({', '.join(map(repr, names[:3].tolist()))}"
            f"{', ...' if len(names) > 3 else ''}); pass it as runs, one run per value"
        )
    rows_of = np.argsort(code, kind="stable")
    bounds = np.searchsorted(code[rows_of], np.arange(len(names) + 1))
    runs = []
    for k, tag in enumerate(names.tolist()):
        rows = rows_of[bounds[k] : bounds[k + 1]]
        run_name = tag if name is None else name
        sub = [None if c is None else _take(c, rows) for c in cols]
        runs.append(_one_run(sub, _Place(f"run {run_name!r} (DataFrame)", index, rows), run_name))
    return runs


def _take(column, rows: np.ndarray):
    """Rows of a Series (kept a Series, its dtype as it is)."""
    return column.iloc[rows]


@public
def as_run(run, /, *, name: str | None = None) -> Run:
    """A run from a file, a DataFrame, a dict or records.

    Parameters
    ----------
    run : Run, path, file object, DataFrame, dict, ranx Run or iterable of records
        A DataFrame has a query id column (``query_id``, ``qid`` or ``q_id``), a doc id
        column (``doc_id`` or ``docno``) and a ``score`` column; a ``rank`` column is
        ignored; an optional ``sample`` column gives each row's sample id
        (:attr:`Run.samples`; without it every row is in the sample ``Q0``). A dict maps
        query ids to ``{doc_id: score}`` (pytrec_eval's shape); records (named tuples,
        objects or dicts) have those fields (``sample`` in every record or in none). A ranx
        ``Run`` is read by its ``to_dict()`` and named by its ``name``.
    name : str, optional
        The run's name; files keep the tag they have, a DataFrame with a run column
        takes its value, other inputs are named ``run``.

    Returns
    -------
    Run
        In-memory runs are ranked by score, ties by doc id descending, unless the
        evaluation asks for ``order='file'`` (row order); files keep their order.

    Raises
    ------
    ValueError
        Naming the row for a bad id or score, or a missing value; for a DataFrame
        holding several runs by its run column (:func:`as_runs` takes it).
    TypeError
        For an input of another kind.

    Examples
    --------
    >>> r = as_run({"T1": {"a": 0.5, "b": 0.9}}, name="bm25")
    >>> r.name, [d.decode() for d in r.docs], r.scores.tolist()
    ('bm25', ['a', 'b'], [0.5, 0.9])
    """
    if isinstance(run, Run):
        return run
    if _is_ranx(run):
        name = run.name if name is None and run.name is not None else name
        run = run.to_dict()
    tag = None if name is None else _run_name(name, "run")
    if _is_path(run):
        return read_run(run, name=tag)
    if _is_frame(run):
        runs = _frame_runs(run, tag)
        if len(runs) > 1:
            raise ValueError(
                f"the run DataFrame holds {len(runs)} runs by its run column "
                f"({', '.join(repr(r.name) for r in runs[:3])}{', ...' * (len(runs) > 3)}); "
                "pass it as runs (as_runs) to score each"
            )
        return runs[0]
    tag = "run" if tag is None else tag
    where = f"run {tag!r} ({_kind(run)})"
    cols, place = _columns(run, ("topic", "doc", "score"), where, "run", optional=("sample",))
    return _one_run(cols, place, tag)


def _single_run_dict(runs: Mapping) -> bool:
    """A pytrec_eval run ``{query_id: {doc_id: score}}`` rather than ``{name: run}``."""
    for value in runs.values():
        if not isinstance(value, Mapping) or not value:
            return False
        inner = next(iter(value.values()))
        return isinstance(inner, (int, float, np.integer, np.floating)) and not isinstance(
            inner, (bool, np.bool_)
        )
    return False


@public
def as_runs(runs, /) -> list[Run]:
    """Runs from a run, a sequence of runs or a mapping from run name to run.

    Parameters
    ----------
    runs : run, sequence of runs, or mapping of str to run
        Each run is any input of :func:`as_run`. A DataFrame with a run column
        (``run_id``, ``run``, ``tag``, ``name`` or ``system``) gives one run per value
        of that column, named by it.

    Returns
    -------
    list of Run

    Raises
    ------
    TypeError
        For something that is neither a run nor a collection of runs.
    ValueError
        For a single run in pytrec_eval's shape given where runs are expected (it
        would read its query ids as run names), or two mapping keys naming one run
        (``1`` and ``'1'``).

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"run_id": ["a", "a", "b"], "query_id": ["T1"] * 3,
    ...                       "doc_id": ["d1", "d2", "d1"], "score": [2.0, 1.0, 3.0]})
    >>> [r.name for r in as_runs(frame)]
    ['a', 'b']
    """
    return list(chain.from_iterable(job() for job in _run_jobs(runs)))


def _run_jobs(runs) -> list[partial[list[Run]]]:
    """The conversions :func:`as_runs` makes, one per run (or DataFrame of runs).

    The checks of the collection itself (its kind, the mapping's keys) are made here;
    each job converts one input and gives its runs.
    """
    if _is_ranx(runs):
        return [partial(_listed_run, runs)]
    if isinstance(runs, Mapping):
        if _single_run_dict(runs):
            raise ValueError(
                "runs takes runs or a {name: run} mapping; got one run in pytrec_eval's "
                "shape {query_id: {doc_id: score}} (its query ids would be read as run "
                "names): pass [run] or {'name': run}"
            )
        seen: dict[str, object] = {}
        for key in runs:
            text = key if isinstance(key, str) else str(key)
            if text in seen and seen[text] is not key and seen[text] != key:
                raise ValueError(
                    f"the runs mapping has the keys {seen[text]!r} and {key!r}, which name "
                    f"one run {text!r}; give each run its own name"
                )
            seen[text] = key
        return [partial(_listed_run, r, n) for n, r in runs.items()]
    if _is_frame(runs):
        return [partial(_frame_runs, runs, None)]
    if _is_path(runs) or isinstance(runs, Run):
        return [partial(_listed_run, runs)]
    if not isinstance(runs, Iterable):
        raise fail_type(
            "runs",
            "be a run (a path, a file object, a DataFrame, a Run), a sequence of runs or a "
            "{name: run} dict",
            kind_of(runs),
        )
    return [
        partial(_frame_runs, r, None) if _is_frame(r) else partial(_listed_run, r) for r in runs
    ]


def _listed_run(run, key=None) -> list[Run]:
    """``[as_run(run)]``, named by its mapping ``key`` when it has one."""
    return [as_run(run, name=None if key is None else _run_name(key, "run"))]


def as_inputs(qrels, runs, /, *, n_jobs: int | None = None) -> tuple[Qrels, list[Run]]:
    """``as_qrels(qrels), as_runs(runs)``, the inputs converted on ``n_jobs`` threads.

    Most of a conversion is array work that releases the interpreter's lock, so the
    qrels and the runs convert side by side. The error raised is the one the calls in
    order would raise: the qrels' first, then the runs' in their order.
    """
    fault = None
    try:
        jobs = _run_jobs(runs)
    except (TypeError, ValueError) as error:
        fault = error
    if fault is not None:
        as_qrels(qrels)  # the qrels' error comes first
        raise fault
    if isinstance(qrels, Qrels) and all(isinstance(job.args[0], Run) for job in jobs):
        n_jobs = 1  # read already (the command line's files): nothing to convert
    done = _accel.thread_map(call, [partial(as_qrels, qrels), *jobs], n_jobs=n_jobs)
    return done[0], list(chain.from_iterable(done[1:]))


# --------------------------------------------------------------------------- memberships
def _vector_type(t: type) -> int:
    """0: a sequence of numbers may be; 1: a mapping or a set (TypeError); 2: not one."""
    if issubclass(t, (Mapping, set, frozenset)):
        return 1
    if issubclass(t, (str, bytes)) or not issubclass(t, (Sequence, np.ndarray)):
        return 2
    return 0


def _by_type(values, classify, dtype) -> np.ndarray:
    """``classify(type(v))`` of every value, each distinct type classified once."""
    types = list(map(type, values))
    table = {t: classify(t) for t in set(types)}
    return np.fromiter(map(table.__getitem__, types), dtype, len(types))


def _vectors(col: _Column, what: str) -> tuple[_Column, int]:
    """Membership vectors (a column of sequences) as a column of their entries and G."""
    values = col.values
    kinds = _by_type(values, _vector_type, np.int64)
    bad = _first(kinds != 0)
    if bad < len(values):
        where = col.place.at(bad)
        vector = col.get(bad)
        if kinds[bad] == 1:
            raise TypeError(
                f"{where}: a membership vector must be a sequence of numbers in the target's "
                f"group order, not a {type(vector).__name__} ({reprlib.repr(vector)}): a "
                "mapping or a set has no order of its own"
            )
        raise file_error(where, "a membership vector must be a sequence of numbers")
    sizes = np.fromiter(map(len, values), np.int64, len(values))
    g = int(sizes[0]) if len(sizes) else 0
    other = _first(sizes != g)
    if other < len(sizes):
        raise FileFormatError(
            col.place.name,
            col.place.line(other),
            f"a membership vector of {int(sizes[other])} groups where row "
            f"{col.place.line(0)} has {g}",
        )
    flat = np.empty(int(sizes.sum()), dtype=object)
    flat[:] = list(chain.from_iterable(values))
    return _Column(flat, col.place), g


@public
def as_memberships(memberships, /, *, n_groups: int | None = None) -> GroupMemberships:
    """Group memberships from a file, a DataFrame, a dict or records.

    Parameters
    ----------
    memberships : GroupMemberships, path, file object, DataFrame, dict or records
        A DataFrame has the query and doc id columns, then one column per group in the
        target's order; a dict maps query ids to ``{doc_id: vector}``, each vector a
        sequence of G probabilities (a list, a tuple or an array: not a mapping or a
        set, which have no group order).
    n_groups : int, optional
        The target's G: vectors of another length are an error.

    Returns
    -------
    GroupMemberships

    Raises
    ------
    ValueError
        Naming the row: a bad id, a probability that is not a finite number, a vector
        that is not a distribution (in [0, 1], summing to 1 within 1e-5) or of another
        length, a (topic, doc) listed twice.
    TypeError
        Naming the row: a vector given as a mapping or a set.

    Examples
    --------
    >>> m = as_memberships({"T1": {"a": [1, 0], "b": [0.5, 0.5]}})
    >>> m.matrix.tolist()
    [[1.0, 0.0], [0.5, 0.5]]
    """
    if isinstance(memberships, GroupMemberships):
        return memberships
    if _is_path(memberships):
        return read_gmemb(memberships, n_groups=n_groups)
    what = f"memberships {_kind(memberships)}"
    if _is_frame(memberships):
        place = _Place(_frame_name(what), memberships.index)
        topic = _Column(_needed(memberships, "topic", what), place)
        doc = _Column(_needed(memberships, "doc", what), place)
        skip = {*_COLUMNS["topic"], *_COLUMNS["doc"]}
        groups = [i for i, c in enumerate(memberships.columns) if str(c) not in skip]
        block = memberships.iloc[:, groups]
        entries: list[_Column]
        plain = all(isinstance(t, np.dtype) and t.kind == "f" for t in block.dtypes)
        if len(groups) and plain:
            entries = [_Block(block.to_numpy(dtype=np.float64), place)]  # one (n, G) block
        else:
            entries = [_Column(block.iloc[:, k], place) for k in range(len(groups))]
        g = len(groups)
    else:
        (t, d, v), place = _columns(memberships, ("topic", "doc", "relevance"), what, "memberships")
        topic, doc = _Column(t, place), _Column(d, place)
        flat, g = _vectors(_Column(v, place), what)
        entries = [flat]
    n = len(topic)
    if not n:
        raise _empty(place, "membership vectors")
    if n_groups is not None and g != n_groups:
        raise FileFormatError(
            place.name,
            place.line(0),
            f"expected {n_groups} group probabilities (the target has {n_groups} groups), "
            f"found {g}",
        )
    if g < 2:
        raise FileFormatError(
            place.name, place.line(0), f"a membership vector needs at least 2 groups; found {g}"
        )

    def check(value, where):
        return _number(value, "group probability", where)

    if len(entries) == 1 and isinstance(entries[0], _Block):

        def block_numbers(col):
            matrix = col.values
            bad = ~np.isfinite(matrix).all(axis=1)
            return matrix, _first(bad)

        names, ids, docs, (matrix,) = _keyed(topic, doc, [(entries[0], block_numbers, check)])
    elif len(entries) == 1 and len(entries[0]) != n:  # one flat column: check row-wise
        row_col = _RowEntries(entries[0], g, place)
        names, ids, docs, (flat,) = _keyed(topic, doc, [(row_col, _row_probabilities, check)])
        matrix = flat.reshape(n, g)
    else:
        names, ids, docs, columns = _keyed(topic, doc, [(c, _numbers, check) for c in entries])
        matrix = np.column_stack(columns) if columns else np.zeros((n, 0))
    i = first_bad_distribution(matrix)
    if i >= 0:
        raise FileFormatError(
            place.name,
            place.line(i),
            "group probabilities must be finite, in [0, 1] and sum to 1 (within "
            f"{SUM_TOLERANCE:g}); found {matrix[i].tolist()} with sum {matrix[i].sum():.10g}",
        )
    _check_unique(cast(Any, place), ids, docs, names, "is listed twice")
    return GroupMemberships(place.name, names, ids, docs, matrix, place.lines(), place.index)


class _Block(_Column):
    """An (n, G) float block, whose row i (for messages) is its first non-finite entry."""

    def get(self, i: int):
        row = self.values[i]
        bad = ~np.isfinite(row)
        return row[int(np.argmax(bad))] if bad.any() else row[0]


class _RowEntries(_Column):
    """The flat entries of G per row, whose row i (for messages) is its first bad entry."""

    def __init__(self, flat: _Column, g: int, place: _Place):
        super().__init__(flat.values, place)
        self.g = g

    def __len__(self):
        return len(self.values) // self.g

    def get(self, i: int):
        row = self.values[i * self.g : (i + 1) * self.g]
        good = np.fromiter(map(_number_ok, row), bool, self.g)
        return row[_first(~good)] if not good.all() else row[0]


def _row_probabilities(col: _RowEntries):
    values, bad = _numbers(_Column(col.values, col.place))
    n = len(col)
    return values, (bad // col.g if bad < len(col.values) else n)


# --------------------------------------------------------------------------- answers
_ANSWER_TOPIC = ("topic", *_COLUMNS["topic"])
_ANSWER_ENTITIES = ("entities", "nuggets")


def _answer_field(frame, names: Sequence[str], what: str, *, required: bool = True):
    taken = [str(c) for c in frame.columns]
    for name in names:
        if taken.count(name) > 1:
            raise ValueError(f"the {what} has {taken.count(name)} columns named {name!r}; keep one")
        if name in taken:
            return frame.iloc[:, taken.index(name)].tolist()
    if required:
        raise ValueError(
            f"the {what} needs a column named one of {', '.join(names)}; it has {', '.join(taken)}"
        )
    return None


def _answer_id(value, field: str, where: str):
    """A topic or run id as the answers' JSON text holds it (an integer as its digits)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return _token(value, field, where)
    return value  # strings and everything else: the answer records' own rule


def answer_records(answers, name: str = "answers") -> Iterable[tuple[str, object]]:
    """``(where, record)`` of every answer of a DataFrame or records (not a file).

    Records are the answer files' records (docs/formats.md): per answer a ``topic``, a
    ``run`` (optional when there is one run) and its ``entities``. A DataFrame has one
    answer per row: a topic column (``topic``, ``query_id``, ``qid`` or ``q_id``), a
    run column (``run_id``, ``run``, ``tag``, ``name`` or ``system``; optional) and an
    ``entities`` (or ``nuggets``) column of lists of entity dicts. ``where`` names the
    record: ``answers (DataFrame, index 2)``, ``answers records:2``. ``name`` is the parameter
    that gave ``answers``.
    """
    if _is_frame(answers):
        what = "answers DataFrame"
        place = _Place(_frame_name(what), answers.index)
        topics = _answer_field(answers, _ANSWER_TOPIC, what)
        runs = _answer_field(answers, RUN_COLUMNS, what, required=False)
        entities = _answer_field(answers, _ANSWER_ENTITIES, what)
        for ids, field in ((topics, "topic"), (runs, "run")):
            if ids is not None:  # 1 and "1": two ids, never one (other values: the records' rule)
                _texts(_Column(ids, place), field)
        records = []
        for i, (topic, entity_list) in enumerate(zip(topics, entities, strict=True)):
            where = place.at(i)
            rec = {"topic": _answer_id(topic, "topic", where)}
            if runs is not None:
                rec["run"] = _answer_id(runs[i], "run", where)
            is_array = isinstance(entity_list, np.ndarray)
            rec["entities"] = _plain_entities(list(entity_list) if is_array else entity_list)
            records.append((where, rec))
        return records
    if isinstance(answers, Iterable) and not isinstance(answers, (str, bytes, Mapping)):
        return (
            (f"answers records:{i}", _plain_answer(rec)) for i, rec in enumerate(answers, start=1)
        )
    raise fail_type(
        name,
        "be Answers, a path, a file object, a DataFrame or an iterable of answer records (dicts)",
        kind_of(answers),
    )


def _plain_number(x):
    """A numpy integer or float as the Python number it holds (a bool stays a bool)."""
    return x.item() if isinstance(x, (np.integer, np.floating)) else x


def _plain_vector(vector):
    """A membership vector given as a tuple or a 1-d array, as the list JSON would hold.

    As :func:`as_memberships` takes them: a sequence of numbers, numpy's included. A
    mapping, a set or anything else is left as it is, for the rule to refuse by name.
    """
    if isinstance(vector, np.ndarray) and vector.ndim == 1:
        return vector.tolist()
    if isinstance(vector, (list, tuple)):
        return list(map(_plain_number, vector))
    return vector


def _plain_entities(entities):
    """Entities given in memory as JSON would hold them.

    Numpy integer levels as ints, membership vectors as lists; anything else as it is,
    for the rules to name.
    """
    if not isinstance(entities, list):
        return entities
    out = []
    for e in entities:  # one per entity of an answer
        if isinstance(e, Mapping):
            e = dict(e)
            if isinstance(e.get("level"), np.integer):
                e["level"] = int(e["level"])
            if isinstance(e.get("groups"), Mapping):
                e["groups"] = {k: _plain_vector(v) for k, v in e["groups"].items()}
        out.append(e)
    return out


def _plain_answer(rec):
    """An answer record given in memory, its entities (or nuggets) as JSON would hold them."""
    if not isinstance(rec, Mapping):
        return rec
    key = "entities" if "entities" in rec else "nuggets"
    return {**rec, key: _plain_entities(rec[key])} if key in rec else rec
