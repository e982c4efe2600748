"""Readers of the TREC Fair Ranking files (2021 and 2022), by the text and JSON rules.

- runs of Task 1 (``topic page``, the organisers' ``id page_id`` header, or TREC run
  lines) and Task 2 (``topic seq_no page``): :func:`read_run`;
- relevant pages: the organisers' topic files (JSON Lines with ``id`` and
  ``rel_docs``) or TREC qrels: :func:`read_qrels`;
- alignment tables, one per fairness dimension (tab- or comma-separated, a header of
  category names): :func:`read_alignment`;
- the organisers' per-page metadata files of 2021 and 2022, as records with the JSON
  field rules: :func:`read_page_records` (:func:`fairconv.trecfair.read_metadata`
  derives the dimensions and work levels from them, as the organisers did);
- targets in long (one row per topic and cell) or wide (one dimension) form:
  :func:`read_target_table`;
- background distributions (files or presets): :func:`read_background`;
- work levels: :func:`read_work`.

Tables are read as array work over their bytes (:mod:`fairconv.io._text`): the header
line is read on its own (category names may hold spaces), the body is tokenised once.
In a tab- or comma-separated body, spaces inside a field are kept (they become byte
0xFF, which UTF-8 text never holds, while the separators become the tokeniser's
spaces). Every error names the file and the line, or the JSON field.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from itertools import chain

import numpy as np

from .. import _accel, _core
from .._accel import first_occurrences
from .._validation import (
    _INT_LIMIT,
    Where,
    at_line,
    check_instance,
    check_int_choice,
    fail,
    file_error,
    first_bad_id,
    id_fault,
    public,
)
from ._json import iter_jsonl, json_repr
from ._tables import Qrels, Run
from ._tables import read_qrels as _read_trec_qrels
from ._text import (
    INTEGER,
    RANK,
    FileFormatError,
    Rows,
    checked_bytes,
    decimal,
    decoded,
    floats,
    integers,
    one_sample,
    source_name,
    split_rows,
    topic_codes,
)

__fairconv_home__ = "trecfair"
"""The module that exports this one's public names (their errors name it)."""

TASKS = (1, 2)
"""The tasks of TREC Fair Ranking: 1 (one ranking per topic), 2 (sequences of rankings)."""
EDITIONS = (2021, 2022)
"""The editions of TREC Fair Ranking whose rules fairconv follows."""

__all__ = [
    "Dimension",
    "WorkLevels",
    "TargetTable",
    "Background",
    "BACKGROUND_PRESETS",
    "WORK_LEVELS",
    "PageRecords",
    "is_unknown",
    "read_run",
    "read_qrels",
    "read_alignment",
    "read_page_records",
    "read_target_table",
    "read_background",
    "read_work",
]

WORK_LEVELS = ("Stub", "Start", "C", "B", "GA", "FA")
_SPACE = 0xFF  # a space inside a separated field, while the body is tokenised
_BLANK = re.compile(rb"(?m)^[\xff \t\r]+$")
"""A line of spaces (marked), tabs and carriage returns only, once the body is marked."""


_KEY_LIMIT = np.iinfo(np.int64).max
"""The largest (topic, cell) key of a target table: the topics times the cells stay below."""


def cells_fit(n_topics: int, sizes) -> bool:
    """Whether every (topic, cell) pair has a key ``topic * n_cells + cell`` in int64.

    ``sizes``: the category count of each dimension; a cell is one category of each.
    """
    return n_topics * math.prod(sizes) <= _KEY_LIMIT


def is_unknown(category: str) -> bool:
    """Whether a category is a dimension's unknown one (``@UNKNOWN``, ``Unknown``...)."""
    return category.lstrip("@").lower() == "unknown"


# --------------------------------------------------------------------------- records
@dataclass(frozen=True, eq=False)
class Dimension:
    r"""One fairness dimension: its categories and the alignment row of every page.

    Parameters
    ----------
    name : str
        The dimension's name (``geography``, ``gender``, ``sub-geo``...).
    categories : tuple of str
        Its categories in table order; an unknown category, if any, is first.
    pages : ndarray of bytes, shape (P,)
        The pages the table lists.
    rows : ndarray of float64, shape (P, G)
        Alignment rows, used as given (not normalised).
    source : str
        Where the table came from (for messages).

    Examples
    --------
    >>> import io
    >>> from fairconv import trecfair
    >>> table = io.StringIO("page_id,Unknown,female,male\n1,0,1,0\n")
    >>> gender = trecfair.read_alignment("gender", table)
    >>> gender.categories, gender.rows.tolist(), gender.has_unknown
    (('Unknown', 'female', 'male'), [[0.0, 1.0, 0.0]], True)
    """

    name: str
    categories: tuple
    pages: np.ndarray = field(repr=False)
    rows: np.ndarray = field(repr=False)
    source: str = "<memory>"

    @property
    def has_unknown(self) -> bool:
        """Whether category 0 is an unknown category."""
        return is_unknown(self.categories[0])


@dataclass(frozen=True, eq=False)
class WorkLevels:
    """Work level codes (0..5 = Stub..FA; -1 none) of pages.

    Parameters
    ----------
    source : str
        Where they came from (for messages).
    pages : ndarray of bytes, shape (n,)
        The pages.
    levels : ndarray of int, shape (n,)
        The level code of each page.

    Examples
    --------
    >>> from fairconv import trecfair
    >>> from fairconv.datasets import path
    >>> _, work = trecfair.read_metadata(
    ...     path("trecfair", "trec_2022_articles_discrete.jsonl"), edition=2022
    ... )
    >>> work.levels[:5].tolist()  # Stub, FA, GA, B, C
    [0, 5, 4, 3, 2]
    """

    source: str
    pages: np.ndarray = field(repr=False)
    levels: np.ndarray = field(repr=False)


@dataclass(frozen=True, eq=False)
class TargetTable:
    """Targets as a file gives them: non-zero values at (topic, cell) keys, sorted.

    ``keys = topic index * n_cells + cell`` with cells row-major over ``categories``.
    A topic whose target is undefined (written ``nan``) has no key and is True in
    ``undefined``.
    """

    source: str
    topics: tuple
    dimensions: tuple
    categories: tuple
    keys: np.ndarray = field(repr=False)
    values: np.ndarray = field(repr=False)
    lines: np.ndarray = field(repr=False)  # the line of each key's value
    undefined: np.ndarray = field(repr=False)  # (topics,) bool


@dataclass(frozen=True, eq=False)
class Background:
    """A background distribution over categories (weights divided by their sum).

    Parameters
    ----------
    source : str
        A preset's name or the file (for messages).
    categories : tuple of str
        The categories it weighs.
    weights : ndarray of float64, shape (len(categories),)
        Their weights (a distribution when read; divided by their sum when used).

    Examples
    --------
    >>> from fairconv import trecfair
    >>> trecfair.read_background("trec2022-gender")
    Background(source='trec2022-gender', categories=('female', 'male', 'NB'))
    """

    source: str
    categories: tuple
    weights: np.ndarray = field(repr=False)


# --------------------------------------------------------------------------- tables
@dataclass
class _Table:
    path: str
    header: list
    header_line: int
    rows: Rows | None  # None: no body rows


def _separated(path, what: str, ncols=None) -> _Table:
    """A table with a header line: tab- or comma-separated (spaces kept), or whitespace."""
    name = source_name(path)
    data = checked_bytes(path, table=True)
    start, line = 0, 1
    while True:  # the header is the first line that is neither blank nor a comment
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        text = data[start:end].strip()
        if text and not text.startswith(b"#"):
            break
        if end >= len(data):
            raise FileFormatError(name, None, f"the file is empty (no {what} header)")
        start, line = end + 1, line + 1
    raw = data[start:end].rstrip(b"\r")
    if b"\t" in raw:
        sep: bytes | None = b"\t"
    elif b"," in raw:
        sep = b","
    else:
        sep = None
    header = [f.strip() for f in decoded(raw).split(sep.decode() if sep else None)]
    if sep is not None:
        data = data.translate(bytes.maketrans(b" " + sep, bytes([_SPACE]) + b" "))
        # a line of nothing but spaces is blank, as in every text input
        data = _BLANK.sub(lambda m: b" " * len(m.group()), data)
    body = bytearray(data)
    body[start:end] = b" " * (end - start)  # the body keeps its line numbers
    buf = _accel.padded(bytes(body))
    width = len(header) if ncols is None else ncols
    shaped = _accel.table(buf, width, 1)
    if shaped is None:
        return _Table(name, header, line, None)
    if isinstance(shaped, _accel.OtherWidth):
        raise FileFormatError(
            name,
            shaped.line,
            f"expected {shaped.width} fields in this {what} line (as its header has), "
            f"found {shaped.found}",
        )
    rows = Rows(name, buf, *shaped)
    if sep is not None:
        _refuse_spaces_around(rows, what, "tab" if sep == b"\t" else "comma")
    return _Table(name, header, line, rows)


def _refuse_spaces_around(rows: Rows, what: str, sep: str) -> None:
    """A field of a separated table that starts or ends with a space: an error naming it.

    Spaces inside a field are kept (category names hold them); around it they would
    make another id or category than the one meant.
    """
    edge = (rows.buf[rows.starts] == _SPACE) | (rows.buf[rows.ends - 1] == _SPACE)
    if edge.any():
        i, c = (int(x) for x in np.argwhere(edge)[0])
        raise FileFormatError(
            rows.path,
            rows.line(i),
            f"field {c + 1} of this {what} line, {_text(rows.token(i, c))!r}, has a space "
            f"next to its {sep}: the fields of a {sep}-separated file hold no space around "
            "them",
        )


def _id_column(rows: Rows, c: int, what: str) -> np.ndarray:
    """Column c as ids: byte strings without spaces."""
    col = rows.strings(c)
    spaced = np.flatnonzero(np.char.find(col, bytes([_SPACE])) >= 0)
    if len(spaced):
        i = int(spaced[0])
        raise FileFormatError(
            rows.path, rows.line(i), f"a {what} must not contain spaces; found {_text(col[i])!r}"
        )
    return col


def _text(token: bytes) -> str:
    return bytes(token).replace(bytes([_SPACE]), b" ").decode("utf-8")


_SAME_LENGTH = ((b"True", b"1.00"), (b"False", b"0.000"))
"""pandas writes one-hot tables as True/False: read as numbers of the same length."""
_NAN_WORDS = ((b"nan", b"0.0"), (b"NaN", b"0.0"), (b"NAN", b"0.0"))
"""How an undefined value is written (``repr(float('nan'))`` gives ``nan``)."""


def _numbers(rows: Rows, columns, what: str, label: str, *, nan: bool = False) -> np.ndarray:
    """Columns as finite non-negative numbers; ``True``/``False`` read as 1 and 0.

    With ``nan``, the word ``nan`` (``NaN``, ``NAN``) is read as NaN: an undefined value.
    """
    for c in columns:  # a space inside: no number (and not the reader's marker shown)
        col = rows.strings(c)
        spaced = np.flatnonzero(np.char.find(col, bytes([_SPACE])) >= 0)
        if len(spaced):
            i = int(spaced[0])
            raise FileFormatError(
                rows.path,
                rows.line(i),
                f"the {label} of a {what} line must be a finite number; found {_text(col[i])!r}",
            )
    undefined = np.zeros((len(rows), len(columns)), dtype=bool)
    words = _SAME_LENGTH + (_NAN_WORDS if nan else ())
    for k, c in enumerate(columns):
        s, e = rows.starts[:, c], rows.ends[:, c]
        for word, same in words:
            cand = np.flatnonzero(e - s == len(word))
            if len(cand) == 0:
                continue
            hit = cand[_accel.strings(rows.buf, s[cand], e[cand]) == word]
            if len(hit):
                at = s[hit][:, None] + np.arange(len(word))
                rows.buf[at] = np.frombuffer(same, dtype=np.uint8)
                undefined[hit, k] |= (word, same) in _NAN_WORDS
    values = floats(rows, list(columns), what, label)
    neg = values < 0
    if neg.any():
        i = int(np.argmax(neg.any(axis=1)))
        raise FileFormatError(
            rows.path,
            rows.line(i),
            f"the {label} of a {what} line must be >= 0; found {values[i][neg[i]][0]:g}",
        )
    values[undefined] = np.nan
    return values


def repeated_at(keys: np.ndarray) -> int:
    """The first index whose key appeared before, or -1."""
    if len(keys) == 0:
        return -1
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    again = np.flatnonzero(first[inverse.reshape(-1)] != np.arange(len(keys)))
    return int(again[0]) if len(again) else -1


def _first_index(keys: np.ndarray, i: int) -> int:
    return int(np.flatnonzero(keys == keys[i])[0])


# --------------------------------------------------------------------------- runs


@public
def read_run(path, /, *, task: int, name: str | None = None) -> Run:
    """Read a TREC Fair run of Task 1 or Task 2 as a :class:`~fairconv.io.Run`.

    Task 1: ``topic page`` (the organisers' files: tab-separated with a first line
    ``id page_id``), or TREC run lines ``topic Q0 page rank score tag`` (the rank must
    be an integer and the score a number). Task 2: ``topic seq_no page`` (header ``id
    seq_no page_id``), ``seq_no`` an integer. A first line whose first field is ``id``
    is a header; the header again on a later line (two runs joined into one file) is an
    error.

    The run's name is ``name``, else the TREC tag, else the file's name without a
    trailing ``.gz``. A topic's lines (Task 2: a ranking's lines) must be contiguous
    and a page may appear once per ranking; errors name the file and line.

    Parameters
    ----------
    path : path or file object
        The run file (``.gz`` read too).
    task : {1, 2}
        Task 1 (one ranking per topic) or Task 2 (sequences of rankings).
    name : str, optional
        The run's name.

    Returns
    -------
    Run
        Its lines in file order (``order`` is ``'file'``, the organisers' rule), each
        line's page in ``docs`` and its file line in ``lines``. Task 2: each line's
        sample id is its ``seq_no`` (:attr:`~fairconv.io.Run.samples` holds them as
        decimal text, in order of first appearance: a ranking is a topic and a
        sample); Task 1: every line is in one sample, ``Q0``. ``scores``: the TREC
        score column, or NaN on every line where the file has none (``topic page``,
        ``topic seq_no page``): such a run is ranked in file order only.

    Raises
    ------
    FileFormatError
        Naming the file and line (docs/trecfair.md, section 9, Runs).

    See Also
    --------
    fairconv.io.read_run : the TREC run files of the other ranked-list families.

    Examples
    --------
    >>> from fairconv import datasets, trecfair
    >>> run = trecfair.read_run(datasets.path("trecfair", "t1-relfirst"), task=1)
    >>> run.name, run.topics, run.order
    ('t1-relfirst', ('101', '102', '103'), 'file')
    >>> run = trecfair.read_run(datasets.path("trecfair", "t2-shuffled"), task=2)
    >>> run.samples[:3], run.sample_ids[:3].tolist()
    (('1', '2', '3'), [0, 0, 0])
    """
    task = check_int_choice(task, "task", TASKS)
    if name is not None:
        check_instance(name, str, "name")
    rows = split_rows(path, None, "run")
    width = rows.width
    allowed = (2, 6) if task == 1 else (3,)
    if width not in allowed:
        form = (
            "'topic page' (or a TREC run 'topic Q0 page rank score tag')"
            if task == 1
            else "'topic seq_no page'"
        )
        raise FileFormatError(
            rows.path, rows.line(0), f"a Task {task} run line is {form}; found {width} fields"
        )
    lines = np.arange(1, len(rows) + 1) if rows.line_numbers is None else rows.line_numbers.copy()
    if rows.token(0, 0) == b"id":  # the organisers' header
        rows = Rows(rows.path, rows.buf, rows.starts[1:], rows.ends[1:], lines[1:])
        lines = lines[1:]
        if len(rows) == 0:
            raise FileFormatError(rows.path, None, "the file is empty (no run rows)")
    if width in _HEADERS:  # a header again: two runs joined into one file (cat)
        words = _HEADERS[width]
        again = np.ones(len(rows), dtype=bool)
        for c, word in enumerate(words):
            again &= rows.strings(c) == word
        if again.any():
            i = int(np.argmax(again))
            raise FileFormatError(
                rows.path,
                int(lines[i]),
                f"a header line ({' '.join(w.decode() for w in words)!r}) after the first "
                "line: two runs joined into one file? give each run its own file",
            )
    if width == 6:  # a TREC run: its scores say when they rise (the evaluation's notice)
        integers(rows, 3, RANK, "a rank (4th column) must be an integer >= 0")
        scores = floats(rows, [4], "run", "score (5th column)")[:, 0]
    page_col = {2: 1, 3: 2, 6: 2}[width]
    if task == 2:
        seq = integers(rows, 1, INTEGER, "a seq_no (2nd field) must be an integer")
        samples, sample_ids = _seq_samples(seq)
    else:
        samples, sample_ids = one_sample(b"Q0", len(rows))
    if name is None:
        if width == 6:
            name = decoded(rows.token(0, 5))
        else:
            base = os.path.basename(rows.path)
            name = base[:-3] if base.endswith(".gz") else base
    if id_fault(name) is not None:
        raise FileFormatError(
            rows.path, None, f"the run name {name!r} must be non-empty, without whitespace"
        )
    topics, ids = topic_codes(rows.strings(0))
    run = Run(
        rows.path,
        topics,
        ids,
        rows.strings(page_col),
        name,
        scores if width == 6 else np.broadcast_to(_NO_SCORE, (len(rows),)),
        lines,
        samples=samples,
        sample_ids=sample_ids,
    )
    check_rankings(run, task=task, in_order=True)
    return run


_HEADERS = {2: (b"id", b"page_id"), 3: (b"id", b"seq_no", b"page_id")}
"""The organisers' run headers, by the number of fields."""
_NO_SCORE = np.float64(np.nan)
"""The score of a line of a run file without scores (``topic page``): NaN, no score."""


def _seq_samples(seq: np.ndarray):
    """The sample codes of Task 2 lines: each ``seq_no`` as its decimal text.

    As :func:`fairconv.io._text.sample_codes`: names in order of first appearance,
    the code of each line (one view of 0 when every line has one ``seq_no``).
    """
    unique, first, inverse = np.unique(seq, return_index=True, return_inverse=True)
    if len(unique) == 1:
        return one_sample(str(int(unique[0])).encode(), len(seq))
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return tuple(map(str, unique[order].tolist())), rank[inverse.ravel()]


def seq_numbers(run: Run) -> np.ndarray:
    """The ``seq_no`` of every line of a Task 2 run: its sample id, an integer.

    A run read by :func:`read_run` has them; a run from elsewhere (a DataFrame's
    ``sample`` column, column 2 of a TREC run line) must give integers, one per
    ranking: a sample id that is not an integer (``Q0``), or two that are one integer
    (``1`` and ``01``), is an error naming the first line holding it.
    """
    values = np.empty(len(run.samples), dtype=np.int64)
    for k, sample in enumerate(run.samples):  # one per ranking of a topic, not per line
        text = sample.encode("utf-8")
        if INTEGER.match(text) is None:
            raise FileFormatError(
                run.source,
                run.line(int(np.argmax(run.sample_ids == k))),
                f"a Task 2 ranking is named by its seq_no, an integer (the sample id: a "
                f"'sample' column, or column 2 of a TREC run line); found {sample!r}",
            )
        values[k] = int(text)
    again = repeated_at(values)
    if again >= 0:
        first = int(np.argmax(values == values[again]))
        raise FileFormatError(
            run.source,
            run.line(int(np.argmax(run.sample_ids == again))),
            f"the seq_no {run.samples[again]!r} is the seq_no {run.samples[first]!r} of line "
            f"{run.line(int(np.argmax(run.sample_ids == first)))}: give each ranking one "
            "spelling of its seq_no",
        )
    return values[run.sample_ids]


def check_rankings(run: Run, *, task: int, in_order: bool) -> None:
    """The rankings of a TREC Fair run: contiguous in file order, each page once.

    A ranking is a topic's lines (Task 1) or a topic's lines of one ``seq_no`` (its
    sample, Task 2). ``in_order``: the run is ranked in the order of its lines, where
    a topic's (and a ranking's) lines must form one block (the official rank counters
    restart where they resume); a run ranked by score has no such rule. Errors name
    the run's file and line (a DataFrame's row).
    """
    ids = run.topic_ids
    if in_order:
        _contiguous(run, ids, "topic", lambda i: run.topics[ids[i]])
    code = ids
    if task == 2 and len(run.samples) > 1:
        code = ids * len(run.samples) + run.sample_ids
        if in_order:
            _contiguous(
                run,
                code,
                "ranking",
                lambda i: f"{run.topics[ids[i]]} seq_no {run.samples[run.sample_ids[i]]}",
            )
    first = first_occurrences(code, run.docs)
    twice = np.flatnonzero(first != np.arange(len(code)))
    if len(twice):
        i = int(twice[0])
        raise FileFormatError(
            run.source,
            run.line(i),
            f"page {decoded(run.docs[i])!r} appears twice in one ranking "
            f"(first {at_line(run.line(int(first[i])))})",
        )


def _contiguous(run: Run, codes, what, label) -> None:
    """Each code's lines must form one block; else name the line where it comes back."""
    n = len(codes)
    change = np.ones(n, dtype=bool)
    np.not_equal(codes[1:], codes[:-1], out=change[1:])
    heads = np.flatnonzero(change)
    again = repeated_at(codes[heads])
    if again >= 0:
        i = int(heads[again])
        raise FileFormatError(
            run.source,
            run.line(i),
            f"the lines of {what} {label(i)} are not contiguous (they resume here): "
            f"give each {what}'s lines together",
        )


# --------------------------------------------------------------------------- qrels
@public
def read_qrels(path, /) -> Qrels:
    """Read the relevant pages: the organisers' topic file or TREC qrels.

    JSON Lines (the first non-blank character is ``{``): one object per topic with
    ``id`` (integer or string) and ``rel_docs`` (array of page ids, integers or
    strings); other fields are ignored and a page repeated in ``rel_docs`` counts once.
    Otherwise TREC qrels ``topic iter page level`` (level > 0 relevant), read by
    :func:`fairconv.io.read_qrels`. A topic twice, a missing or mistyped field and a
    pair judged twice are errors.

    Parameters
    ----------
    path : path or file object
        The qrels file (``.gz`` read too).

    Returns
    -------
    Qrels
        Every topic of the file (one without a relevant page included). From a topic
        file, each relevant page at level 1 (relevance is binary), its line that of its
        topic; from TREC qrels, every judgment as :func:`fairconv.io.read_qrels` reads
        it (a page is relevant when its level is above 0).

    Raises
    ------
    FileFormatError
        Naming the file and line (or JSON field).

    See Also
    --------
    fairconv.io.read_qrels : the qrels of the other ranked-list families.

    Examples
    --------
    >>> from fairconv import datasets, trecfair
    >>> qrels = trecfair.read_qrels(datasets.path("trecfair", "trec_fair_eval_reldocs.jsonl"))
    >>> qrels.topics, len(qrels.docs), qrels.levels[:3].tolist(), qrels.line(0)
    (('101', '102', '103'), 45, [1, 1, 1], 1)
    """
    data = checked_bytes(path)
    if data.lstrip()[:1] != b"{":
        return _read_trec_qrels(path)
    name = source_name(path)
    records = iter_jsonl(path)
    topics: list[str] = []
    seen: dict[str, int] = {}
    parts = []
    for line, rec in records:
        where = Where(name, line)
        if type(rec) is not dict:
            raise file_error(where, f"a topic must be a JSON object, got {json_repr(rec)}")
        tid = _json_id(rec.get("id"), "id", where)
        if tid in seen:
            raise file_error(where, f'topic "id" {tid!r} appears twice (first on line {seen[tid]})')
        seen[tid] = line
        docs = rec.get("rel_docs")
        if type(docs) is not list:
            raise file_error(
                where, f'"rel_docs" must be an array of page ids, got {json_repr(docs)}'
            )
        parts.append(_json_ids(docs, "rel_docs", where))
        topics.append(tid)
    counts = [len(p) for p in parts]
    ids = np.repeat(np.arange(len(topics)), counts)
    lines = np.repeat(np.fromiter(seen.values(), np.int64, len(seen)), counts)
    pages = np.concatenate(parts) if parts else np.zeros(0, "S1")
    if len(pages):
        keep = first_occurrences(ids, pages) == np.arange(len(pages))
        ids, pages, lines = ids[keep], pages[keep], lines[keep]
    return Qrels(name, tuple(topics), ids, pages, np.ones(len(pages), np.int64), lines)


def _json_id(value, field_name: str, where: str) -> str:
    if type(value) is int and abs(value) <= _INT_LIMIT:
        return str(value)
    if type(value) is str and id_fault(value) is None:
        return value
    raise file_error(
        where,
        f'"{field_name}" must be an integer or a string without whitespace, got {json_repr(value)}',
    )


def _json_ids(values: list, field_name: str, where: str) -> np.ndarray:
    """Ids given as JSON integers or strings, as byte strings."""
    kinds = set(map(type, values))
    if not values:
        return np.zeros(0, "S1")
    if kinds == {int}:
        arr = np.array(values, dtype=object)
        try:
            ints = arr.astype(np.int64)
        except OverflowError:
            ints = None
        if ints is not None and np.abs(ints).max() <= _INT_LIMIT:
            return ints.astype("S")
    elif kinds == {str}:
        if first_bad_id(values) < 0:
            return np.char.encode(np.array(values), "utf-8")
    for v in values:  # name the first bad one
        _json_id(v, field_name + " item", where)
    return np.array([str(v).encode("utf-8") for v in values])


# --------------------------------------------------------------------------- alignment
_DIMENSION_NAME = "be a non-empty dimension name without whitespace, brackets or commas"


def dimension_name_fault(name: str) -> str | None:
    """The rule a dimension name breaks, or None: it names the measures (``AWRF[a,b]``)."""
    if id_fault(name) is not None or any(ch in name for ch in "[],"):
        return _DIMENSION_NAME
    return None


@public
def read_alignment(name: str, path, /) -> Dimension:
    r"""Read one dimension's alignment table.

    A header ``page_id`` (or ``page``, or an empty first field) then the category
    names; one row per page: the page id and one number per category. Tab-separated,
    or comma-separated when the header has no tab (category names may hold spaces, not
    commas); ``True``/``False`` read as 1/0. An unknown category (``@UNKNOWN``,
    ``Unknown``, ``unknown``) must be first. Errors: no or a repeated category, an
    unknown category not first, a page twice, a wrong field count, a negative or
    non-finite value, a space next to a separator.

    Parameters
    ----------
    name : str
        The dimension's name (no whitespace, brackets or commas: it names measures,
        ``AWRF[geography,gender]``).
    path : path or file object
        The table (``.gz`` read too).

    Returns
    -------
    Dimension
        Its categories in the header's order and a row per page, as given.

    Raises
    ------
    FileFormatError
        Naming the file and line.

    Examples
    --------
    >>> import io
    >>> from fairconv import trecfair
    >>> table = io.StringIO("page_id\tUnknown\tfemale\tmale\n1\t0\t1\t0\n2\t1\t0\t0\n")
    >>> trecfair.read_alignment("gender", table).categories
    ('Unknown', 'female', 'male')
    """
    if not isinstance(name, str) or dimension_name_fault(name):
        raise fail("name", _DIMENSION_NAME, repr(name))
    t = _separated(path, "alignment")
    first = t.header[0] if t.header else ""
    if first not in ("page_id", "page", ""):
        raise FileFormatError(
            t.path,
            t.header_line,
            f"the header must start with 'page_id' (or 'page'); found {first!r}",
        )
    categories = _categories(t.header[1:], t.path, t.header_line)
    if t.rows is None:
        raise FileFormatError(t.path, None, "the table lists no page")
    pages = _id_column(t.rows, 0, "page id")
    rows = _numbers(t.rows, range(1, len(t.header)), "table", "value")
    first = first_occurrences(np.zeros(len(pages), np.int64), pages)
    twice = np.flatnonzero(first != np.arange(len(pages)))
    if len(twice):
        i = int(twice[0])
        raise FileFormatError(
            t.path,
            t.rows.line(i),
            f"page {decoded(pages[i])!r} is listed twice (first on line "
            f"{t.rows.line(int(first[i]))})",
        )
    return Dimension(name, categories, pages, rows, t.path)


def _categories(names, path, line) -> tuple:
    if not names:
        raise FileFormatError(path, line, "the header names no category")
    for i, c in enumerate(names):
        if not c:
            raise FileFormatError(path, line, f"category {i + 1} of the header has no name")
        if c in names[:i]:
            raise FileFormatError(path, line, f"category {c!r} appears twice in the header")
        if i > 0 and is_unknown(c):
            raise FileFormatError(
                path,
                line,
                f"the unknown category {c!r} must be the first category (found at position "
                f"{i + 1})",
            )
    return tuple(names)


# --------------------------------------------------------------------------- metadata
class PageRecords:
    """The organisers' per-page metadata records, with the JSON rules of their fields.

    One JSON object per line (``trec_2022_articles_discrete[_assessed].json.gz``,
    ``trec_metadata[_eval].json.gz``), each with a ``page_id``; a page listed again is
    ignored (the first listing wins). Read with :func:`read_page_records`;
    :func:`fairconv.trecfair.read_metadata` derives the dimensions from them.

    Attributes
    ----------
    name : str
        The file, for messages.
    pages : ndarray of bytes, shape (P,)
        The pages, in the order of their first listing.
    records : list of dict
        Their records.
    lines : ndarray of int, shape (P,)
        The line of each record.
    """

    def __init__(self, path):
        self.name = source_name(path)
        lines, recs = [], []
        for line, rec in iter_jsonl(path):
            if type(rec) is not dict:
                raise FileFormatError(
                    self.name, line, f"a page must be a JSON object, got {json_repr(rec)}"
                )
            lines.append(line)
            recs.append(rec)
        ids = [
            _json_id(r.get("page_id"), "page_id", Where(self.name, n))
            for n, r in zip(lines, recs, strict=True)
        ]
        pages = np.char.encode(np.array(ids), "utf-8")
        _, first = np.unique(pages, return_index=True)
        first.sort()
        self.pages = pages[first]
        self.records = [recs[i] for i in first.tolist()]
        self.lines = np.asarray(lines)[first]

    def values(self, key: str, kinds: tuple, what: str, *, nullable: bool = False) -> list:
        """The field of every record; missing or of another JSON type: an error."""
        out = [r.get(key, _MISSING) for r in self.records]
        allowed = set(kinds) | ({type(None)} if nullable else set())
        if not set(map(type, out)) <= allowed:
            for i, v in enumerate(out):
                if type(v) not in allowed:
                    got = "nothing (the field is missing)" if v is _MISSING else json_repr(v)
                    raise FileFormatError(
                        self.name, int(self.lines[i]), f'"{key}" must be {what}, got {got}'
                    )
        return out

    def flat(self, lists: list, key: str):
        """(record index, value) of every item of list fields; items must be strings."""
        counts = np.fromiter(map(len, lists), np.int64, len(lists))
        items = list(chain.from_iterable(lists))
        if not set(map(type, items)) <= {str}:
            k = next(i for i, v in enumerate(items) if type(v) is not str)
            rec = int(np.searchsorted(np.cumsum(counts), k, side="right"))
            raise FileFormatError(
                self.name,
                int(self.lines[rec]),
                f'"{key}" must hold strings, got {json_repr(items[k])}',
            )
        return np.repeat(np.arange(len(lists)), counts), items

    def error(self, i: int, message: str) -> ValueError:
        """The error of ``message`` at record ``i`` (its file and line)."""
        return FileFormatError(self.name, int(self.lines[i]), message)


_MISSING = object()


def read_page_records(path, /) -> PageRecords:
    """The records of the organisers' per-page metadata file (:class:`PageRecords`)."""
    return PageRecords(path)


# --------------------------------------------------------------------------- targets
def read_target_table(path, dimensions, /) -> TargetTable:
    """Read targets in long or wide form, mapped onto the dimensions' categories by name.

    Long form: a header ``topic_id``, the dimension names (any order), ``target``; one
    row per topic and cell; cells not listed are 0. Wide form (one dimension): a header
    ``topic_id`` then categories, one row per topic (the unknown column may be left
    out: 0). A topic whose target is undefined has ``nan`` as its value (on each of
    its rows; :meth:`fairconv.trecfair.TopicTargets.to_tsv` writes one). Errors: a
    header naming other dimensions or categories, an unknown category, a cell twice, a
    negative value, a topic summing to 0, a topic mixing ``nan`` and numbers.
    """
    dims = list(dimensions)
    t = _separated(path, "target")
    header = t.header
    if not header or header[0] != "topic_id":
        raise FileFormatError(
            t.path, t.header_line, f"the header must start with 'topic_id'; found {header[:1]}"
        )
    names = tuple(d.name for d in dims)
    cats = tuple(tuple(d.categories) for d in dims)
    sizes = [len(c) for c in cats]
    n_cells = math.prod(sizes)
    if t.rows is None:
        raise FileFormatError(t.path, None, "the file lists no target")
    rows = t.rows
    if header[-1] == "target":  # long form
        given = header[1:-1]
        if sorted(given) != sorted(names) or len(set(given)) != len(given):
            raise FileFormatError(
                t.path,
                t.header_line,
                f"the header names the dimensions {', '.join(given) or 'none'}; the evaluation "
                f"has {', '.join(names)}",
            )
        topics, tid = topic_codes(_id_column(rows, 0, "topic id"))
        values = _numbers(rows, [len(header) - 1], "target", "target value", nan=True)[:, 0]
        cell = np.zeros(len(rows), dtype=np.int64)
        for j, dname in enumerate(names):
            c = 1 + given.index(dname)
            col = rows.strings(c)
            uniq, inv = np.unique(col, return_inverse=True)
            code = {cat.encode().replace(b" ", bytes([_SPACE])): i for i, cat in enumerate(cats[j])}
            mapped = np.asarray([code.get(u, -1) for u in _utf(uniq)], dtype=np.int64)
            codes = mapped[inv.reshape(-1)]
            if (codes < 0).any():
                i = int(np.argmax(codes < 0))
                raise FileFormatError(
                    t.path,
                    rows.line(i),
                    f"{_text(col[i])!r} is not a category of dimension {dname!r} "
                    f"({', '.join(cats[j])})",
                )
            cell = cell * sizes[j] + codes
        lines = np.arange(1, len(rows) + 1) if rows.line_numbers is None else rows.line_numbers
    else:  # wide form: one dimension
        if len(dims) != 1:
            raise FileFormatError(
                t.path,
                t.header_line,
                "a wide target table (topic_id and categories) is for one dimension; "
                f"the evaluation has {len(dims)} (give the long form: topic_id, "
                f"{', '.join(names)}, target)",
            )
        given = header[1:]
        order = list(cats[0])
        extra = [c for c in given if c not in order]
        missing = [c for c in order if c not in given and not (c == order[0] and is_unknown(c))]
        if extra or missing or len(set(given)) != len(given):
            raise FileFormatError(
                t.path,
                t.header_line,
                f"the header's categories must be those of dimension {names[0]!r} "
                f"({', '.join(order)}); "
                + (
                    f"not listed: {', '.join(missing)}"
                    if missing
                    else f"unknown: {', '.join(extra) or 'a repeated one'}"
                ),
            )
        topics, tid0 = topic_codes(_id_column(rows, 0, "topic id"))
        wide = _numbers(rows, range(1, len(header)), "target", "target value", nan=True)
        col = np.asarray([order.index(c) for c in given])
        tid = np.repeat(tid0, len(given))
        cell = np.tile(col, len(rows))
        values = wide.reshape(-1)
        base = np.arange(1, len(rows) + 1) if rows.line_numbers is None else rows.line_numbers
        lines = np.repeat(base, len(given))
        again = repeated_at(tid0)
        if again >= 0:
            raise FileFormatError(
                t.path, int(base[again]), f"topic {topics[tid0[again]]!r} is listed twice"
            )
    if not cells_fit(len(topics), sizes):
        raise FileFormatError(
            t.path,
            t.header_line,
            f"{len(topics)} topics times {math.prod(sizes)} cells (the product of the "
            f"dimensions' category counts) are more than {_KEY_LIMIT} cells to index",
        )
    keys = tid.astype(np.int64) * n_cells + cell
    again = repeated_at(keys)
    if again >= 0:
        raise FileFormatError(
            t.path,
            int(lines[again]),
            f"the cell of topic {topics[tid[again]]!r} is listed twice (first on line "
            f"{int(lines[_first_index(keys, again)])})",
        )
    nan = np.isnan(values)
    undefined = np.bincount(tid, weights=nan, minlength=len(topics)) > 0
    mixed = np.flatnonzero(undefined[tid] & ~nan)
    if len(mixed):
        i = int(mixed[0])
        raise FileFormatError(
            t.path,
            int(lines[i]),
            f"topic {topics[tid[i]]!r} has a target value here and nan (an undefined "
            f"target) on line {int(lines[np.argmax(nan & (tid == tid[i]))])}: an undefined "
            "target is nan alone",
        )
    total = np.bincount(tid, weights=np.where(nan, 0.0, values), minlength=len(topics))
    zero = np.flatnonzero(~(total > 0) & ~undefined)
    if len(zero):
        raise FileFormatError(
            t.path, None, f"the targets of topic {topics[int(zero[0])]!r} sum to 0"
        )
    nz = (values != 0) & ~nan
    order_ = np.argsort(keys[nz], kind="stable")
    return TargetTable(
        t.path,
        topics,
        names,
        cats,
        keys[nz][order_],
        values[nz][order_],
        lines[nz][order_],
        undefined,
    )


def _utf(arr: np.ndarray) -> list:
    return [bytes(x) for x in arr.tolist()]


# --------------------------------------------------------------------------- backgrounds
def _world_pop_2022() -> tuple:
    # UN population of the subregions (the 2022 track's data/world-pop.csv), Oceania
    # as one region, as the sub-geo categories have it
    return (
        ("Antarctica", 1106),
        ("Caribbean", 42517000),
        ("Central America", 167387000),
        ("Central Asia", 64370000),
        ("Eastern Africa", 373202000),
        ("Eastern Asia", 1620807000),
        ("Eastern Europe", 294162000),
        ("Middle Africa", 135750000),
        ("Northern Africa", 210002000),
        ("Northern America", 355361000),
        ("Northern Europe", 100404000),
        ("Oceania", 38304000),
        ("South America", 406740000),
        ("South-eastern Asia", 618793000),
        ("Southern Africa", 60425000),
        ("Southern Asia", 1749046000),
        ("Southern Europe", 155827000),
        ("Western Africa", 331255000),
        ("Western Asia", 245707000),
        ("Western Europe", 192060000),
    )


BACKGROUND_PRESETS = {
    "trec2022-world-pop": _world_pop_2022(),
    "trec2022-gender": (("female", 0.495), ("male", 0.495), ("NB", 0.01)),
    "trec2021-geography": (
        ("Africa", 0.155070563),
        ("Antarctica", 1.54424e-07),
        ("Asia", 0.600202585),
        ("Europe", 0.103663858),
        ("Latin America and the Caribbean", 0.08609797),
        ("Northern America", 0.049616733),
        ("Oceania", 0.005348137),
    ),
    "trec2021-gender": (("female", 0.495), ("male", 0.495), ("third", 0.01)),
}
"""The official backgrounds by name: category and weight (divided by the sum when used)."""


@public
def read_background(source, /) -> Background:
    """A background distribution: a preset name or a table ``category weight``.

    The table has a header line (the names of its two columns) and rows of a category
    and a weight (tab- or comma-separated; category names may hold spaces there);
    weights are divided by their sum. Presets: :data:`BACKGROUND_PRESETS`. Errors: no
    header (a first line of a category and a number), a category twice, a negative
    weight, all weights 0.

    Parameters
    ----------
    source : str, path or file object
        A preset's name (:data:`BACKGROUND_PRESETS`) or a table.

    Returns
    -------
    Background
        Weights summing to 1.

    Raises
    ------
    FileFormatError
        Naming the file and line.

    Examples
    --------
    >>> from fairconv import trecfair
    >>> background = trecfair.read_background("trec2022-gender")
    >>> background.categories, [round(w, 3) for w in background.weights.tolist()]
    (('female', 'male', 'NB'), [0.495, 0.495, 0.01])
    """
    if isinstance(source, str) and source in BACKGROUND_PRESETS:
        names, w = zip(*BACKGROUND_PRESETS[source], strict=True)
        weights = np.asarray(w, dtype=np.float64)
        return Background(source, tuple(names), _core.sum_to_one(weights[None, :])[0])
    source_name(source, "source")  # a path or an open file, beyond the presets
    t = _separated(source, "background", ncols=2)
    if len(t.header) == 2 and decimal(t.header[1].encode()) is not None:
        raise FileFormatError(
            t.path,
            t.header_line,
            f"the first line must be the header, the names of the columns (e.g. "
            f"'category<TAB>weight'); found {' '.join(t.header)!r}, a category and its "
            "weight: add the header",
        )
    if t.rows is None:
        raise FileFormatError(t.path, None, "the background lists no category")
    rows = t.rows
    cats = [_text(c) for c in rows.column(0)]
    weights = _numbers(rows, [1], "background", "weight")[:, 0]
    arr = np.asarray(cats, dtype=object)
    again = repeated_at(np.asarray(cats))
    if again >= 0:
        raise FileFormatError(t.path, rows.line(again), f"category {arr[again]!r} is listed twice")
    if not weights.max(initial=0.0) > 0:
        raise FileFormatError(t.path, None, "the weights sum to 0")
    return Background(t.path, tuple(cats), _core.sum_to_one(weights[None, :])[0])


# --------------------------------------------------------------------------- work levels
_LEVEL_COLUMNS = ("level", "quality", "qual_cat", "quality_score_disc")


@public
def read_work(path, /) -> WorkLevels:
    r"""Work levels: a header, then ``page_id level`` rows (level Stub, Start, C, B, GA, FA).

    A comma-separated file whose header names ``page_id`` and ``quality`` (the
    organisers' ``page-quality.csv.gz``) is read by those columns. Errors: another
    level, a page twice.

    Parameters
    ----------
    path : path or file object
        The table (``.gz`` read too).

    Returns
    -------
    WorkLevels
        The level code of each page listed.

    Raises
    ------
    FileFormatError
        Naming the file and line.

    Examples
    --------
    >>> import io
    >>> from fairconv import trecfair
    >>> trecfair.read_work(io.StringIO("page_id level\n1 Stub\n2 FA\n"))
    WorkLevels(source='<stream>')
    """
    t = _separated(path, "work level")
    header = t.header
    if len(header) == 2 and header[1] not in _LEVEL_COLUMNS and header[0] != "page_id":
        raise FileFormatError(
            t.path, t.header_line, f"the header must be 'page_id level'; found {' '.join(header)!r}"
        )
    try:
        pc = header.index("page_id") if "page_id" in header else 0
        lc = next(i for i, h in enumerate(header) if h in _LEVEL_COLUMNS) if len(header) != 2 else 1
    except StopIteration:
        raise FileFormatError(
            t.path, t.header_line, "the header must name the columns page_id and level"
        ) from None
    if t.rows is None:
        raise FileFormatError(t.path, None, "the file lists no page")
    rows = t.rows
    pages = _id_column(rows, pc, "page id")
    raw = rows.strings(lc)
    code = {w.encode(): i for i, w in enumerate(WORK_LEVELS)}
    uniq, inv = np.unique(raw, return_inverse=True)
    mapped = np.asarray([code.get(bytes(u), -1) for u in uniq.tolist()])
    levels = mapped[inv.reshape(-1)]
    if (levels < 0).any():
        i = int(np.argmax(levels < 0))
        raise FileFormatError(
            t.path,
            rows.line(i),
            f"a work level must be one of {', '.join(WORK_LEVELS)}; found {_text(raw[i])!r}",
        )
    again = repeated_at(pages)
    if again >= 0:
        raise FileFormatError(
            t.path, rows.line(again), f"page {decoded(pages[again])!r} is listed twice"
        )
    return WorkLevels(t.path, pages, levels.astype(np.int64))
