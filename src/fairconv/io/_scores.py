"""Per-topic score files: what ``fairconv compare``, ``discpower`` and ``agree`` read.

Four layouts are read (docs/formats.md, Per-topic score files):

- fairconv's own TSV (any fairconv command): a header ``run topic measure value``, then
  one row per value; ``all`` rows (means) and ``n[...]`` rows are left out.
- ``trec_eval -q`` output: ``measure topic value`` rows; the ``runid`` row names the run
  (else the file's name); ``all`` rows are left out.
- ir_measures per-query output (``query_id measure value`` rows, as
  ``ir_measures.iter_calc`` results print): the run is the file's name; ``all`` rows
  are left out.
- ranx per-query scores as JSON: ``{measure: {query_id: value}}`` (a ``Run``'s
  ``scores``; the run is the file's name) or ``{run: {measure: {query_id: value}}}``.

Long DataFrames of scores (run, topic, measure, value, under the column names of
fairconv, ir_measures and PyTerrier) are read beside the files, by the same rules.

The layout is detected, or forced with ``input_format``. A text file is read as array
work over its bytes (the tokeniser of every reader), with no Python loop per line. The
means are always recomputed from the topic rows.

A run may be spread over several files (GFR in fairconv's TSV, nDCG in a trec_eval
file) when its name comes from inside the files (a ``run`` column, a ``runid`` row, a
ranx file's run keys) or from the caller (``{name: path}``, ``NAME=FILE`` on the
command line). A run named after its file's name is never merged with another.
"""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import attrgetter
from typing import Any

import numpy as np

from .. import _accel
from .._validation import (
    IndexLabel,
    Where,
    caller,
    check_choice,
    check_once,
    fail,
    fail_params,
    fail_type,
    file_error,
    first_bad_id,
    id_fault,
    json_repr,
    notice,
    public,
)
from ..results import (
    ScoreTable,
    as_names,
    check_directions,
    direction_of,
    few,
    notice_partial_topics,
)
from ._frames import (
    RUN_COLUMNS,
    _Column,
    _is_frame,
    _is_missing,
    _number_ok,
    _objects,
    _Place,
    _texts,
    _token,
)
from ._text import (
    ALL_DECIMALS,
    FileFormatError,
    checked_bytes,
    decimal,
    decoded,
    source_name,
    split_rows,
)

__all__ = ["read_scores", "read_topics", "from_ir_measures", "SCORE_FORMATS"]

SCORE_FORMATS = ("fairconv", "trec_eval", "ir_measures", "ranx")
"""The per-topic layouts :func:`read_scores` reads."""

_HEADER = [b"run", b"topic", b"measure", b"value"]


@dataclass
class _Part:
    """The topic rows of one source, coded: names once, then a code per row."""

    source: str
    runs: list[str]
    named: list[bool]  # per run: named inside the source or by the caller (mergeable)
    topics: list[str]
    measures: list[str]
    run: np.ndarray
    topic: np.ndarray
    measure: np.ndarray
    value: np.ndarray
    lines: np.ndarray | None  # file line of each row; None: JSON or items
    item: str = "line"
    layout: str = "fairconv"  # the tool that wrote it: its measures' directions (_directions)
    guess: str = ""  # how the layout was guessed from the columns; "" when the file says
    labels: Any = None  # a DataFrame's index label of each row (item "row")

    def where(self, i: int) -> str:
        """Where row ``i`` is: ``file:line``, the JSON field, the item or the frame's row."""
        if self.labels is not None:
            return _frame_row(self.source, self.labels[i])
        if self.lines is not None:
            return Where(self.source, int(self.lines[i]))
        run, m, t = (
            self.runs[self.run[i]],
            self.measures[self.measure[i]],
            self.topics[self.topic[i]],
        )
        if self.item == "item":
            return f"{self.source} (item {i}: run {run!r}, query {t!r}, measure {m!r})"
        return Where(self.source, None, f"field {run!r}/{m!r}/{t!r}")


_STEP = 1 << 16  # rows per step of the name coding and of the slow number route


def _is(rows, col: int, word: bytes) -> np.ndarray:
    """Which tokens of column ``col`` are ``word``, read in place (no string per row)."""
    starts = rows.starts[:, col]
    same = (rows.ends[:, col] - starts) == len(word)
    for k, byte in enumerate(word):
        same &= rows.buf[starts + k] == byte
    return same


def _names(rows, col: int, index: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Column ``col`` on the rows ``index``: its names (first appearance) and row codes.

    A block of rows at a time: the block's tokens as strings, their distinct values
    found by one sort and looked up in the names found so far, so that memory holds
    a block of strings and a code per row, never a string per row.
    """
    codes = np.empty(len(index), np.int32)
    known: dict[bytes, int] = {}
    for lo in range(0, len(index), _STEP):
        rows_of = index[lo : lo + _STEP]
        strings = _accel.strings(rows.buf, rows.starts[rows_of, col], rows.ends[rows_of, col])
        unique, first, inverse = np.unique(strings, return_index=True, return_inverse=True)
        in_order = np.argsort(first, kind="stable")
        names = np.empty(len(unique), dtype=object)
        names[:] = unique[in_order].tolist()
        code = np.fromiter(map(known.get, names, repeat(-1)), np.int64, len(names))
        new = np.flatnonzero(code < 0)
        code[new] = np.arange(len(known), len(known) + len(new))
        known.update(zip(names[new].tolist(), code[new].tolist(), strict=True))
        local = np.empty(len(unique), np.int32)
        local[in_order] = code
        codes[lo : lo + len(rows_of)] = local[inverse.ravel()]
    return list(map(bytes.decode, known)), codes


def _values(rows, index: np.ndarray, col: int) -> np.ndarray:
    """Column ``col`` of rows ``index`` as numbers: finite decimals, or ``NaN``/``nan``.

    A step of rows at a time (bounded working memory): the fast decimal forms in one
    pass; the other tokens (exponents, more than 15 digits, as ``repr`` writes a
    double) checked against the rule by one regex pass and parsed by ``float`` in one
    C-level map; the first bad token, in file order, names its line.
    """
    values = np.empty(len(index))
    for lo in range(0, len(index), _STEP):
        at = index[lo : lo + _STEP]
        starts, ends = rows.starts[at, col], rows.ends[at, col]
        step, ok = _accel.decimals(rows.buf, starts, ends)
        values[lo : lo + len(at)] = step
        bad = np.flatnonzero(~ok)
        if len(bad) == 0:
            continue
        tokens = _accel.strings(rows.buf, starts[bad], ends[bad])
        nan = (tokens == b"NaN") | (tokens == b"nan")
        values[lo + bad[nan]] = np.nan
        rest, text = bad[~nan], tokens[~nan].tolist()
        del tokens
        if not text:
            continue
        if ALL_DECIMALS.fullmatch(b"\n".join(text)):
            parsed = np.fromiter(map(float, text), np.float64, len(text))
            if np.isfinite(parsed).all():
                values[lo + rest] = parsed
                continue
        for i, token in zip(rest.tolist(), text, strict=True):
            if decimal(token) is None:
                raise FileFormatError(
                    rows.path,
                    rows.line(int(at[i])),
                    f"the value of a score line must be a finite number or NaN; found "
                    f"{decoded(token)!r}",
                )
        raise AssertionError("unreachable")  # pragma: no cover
    return values


_ROWS_OF = {
    "trec_eval": "trec_eval -q rows (measure topic value)",
    "ir_measures": "ir_measures rows (query_id measure value)",
}


def _detect(rows) -> tuple[str, str]:
    """The layout of a text score file, and how it was guessed ("" when the file says).

    A fairconv header, a ``runid`` row or an ``all`` topic (trec_eval) and an ``all``
    query (ir_measures) say which layout a file is; failing them, the column with fewer
    distinct values is taken for the measures, a guess that the notice and the errors
    about measures and topics name.
    """
    first = [rows.token(0, c) for c in range(rows.width)]
    if [f.lower() for f in first] == _HEADER:
        return "fairconv", ""
    if rows.width != 3:
        raise FileFormatError(
            rows.path,
            rows.line(0),
            "not a per-topic score file: expected fairconv's header 'run topic measure "
            "value', or rows of 3 columns (trec_eval -q: measure topic value; "
            "ir_measures: query_id measure value)",
        )
    if _is(rows, 0, b"runid").any() or _is(rows, 1, b"all").any():
        return "trec_eval", ""
    if _is(rows, 0, b"all").any():
        return "ir_measures", ""  # its summary rows: all measure value
    every = np.arange(len(rows))
    n_first, n_second = len(_names(rows, 0, every)[0]), len(_names(rows, 1, every)[0])
    if n_first != n_second:
        fmt = "trec_eval" if n_first < n_second else "ir_measures"  # fewer measures
        guess = (
            f"read as {_ROWS_OF[fmt]}, a guess: it has no runid row and no 'all' row, and "
            f"its first column has {n_first} distinct value(s), its second {n_second}, "
            "the measures being taken for the fewer"
        )
        notice(
            f"{rows.path}: {guess}; if its columns are the other way round, give "
            "input_format (--input-format)"
        )
        return fmt, guess
    raise FileFormatError(
        rows.path,
        None,
        "cannot tell trec_eval -q rows (measure topic value) from ir_measures rows "
        "(query_id measure value); give input_format (--input-format)",
    )


def _is_stream(path) -> bool:
    """Whether a path names a FIFO or a device (bytes that can be read only once)."""
    if hasattr(path, "read"):
        return False
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, TypeError, ValueError):
        return False  # the reader reports it


def _is_json(path) -> bool:
    """Whether a file's first non-blank byte opens a JSON object (a ranx file)."""
    if hasattr(path, "read") or str(path).endswith(".gz"):
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return False  # the reader reports it
    return head.startswith(b"{")


def _text_part(path, fmt: str | None, name: str | None) -> _Part:
    """The topic rows of a whitespace score file (fairconv TSV, trec_eval, ir_measures)."""
    rows = split_rows(path, None, "score", min_cols=3)
    source = rows.path
    fmt, guess = _detect(rows) if fmt is None else (fmt, "")
    if fmt == "fairconv":
        if rows.width != 4 or [rows.token(0, c).lower() for c in range(4)] != _HEADER:
            raise FileFormatError(
                source, rows.line(0), "expected fairconv's header 'run topic measure value'"
            )
        columns = {"run": 0, "topic": 1, "measure": 2, "value": 3}
        first = 1
    elif rows.width != 3:
        raise FileFormatError(
            source, rows.line(0), f"expected 3 columns in a {fmt} row, found {rows.width}"
        )
    elif fmt == "trec_eval":
        columns = {"measure": 0, "topic": 1, "value": 2}
        first = 0
    else:
        columns = {"topic": 0, "measure": 1, "value": 2}
        first = 0
    keep = ~_is(rows, columns["topic"], b"all")
    keep[:first] = False
    run_name, named = None, True
    if fmt == "trec_eval":
        runid = np.flatnonzero(_is(rows, columns["measure"], b"runid"))
        if len(runid) > 1:
            raise FileFormatError(
                source,
                rows.line(int(runid[1])),
                f"a second runid row (the first is on line {rows.line(int(runid[0]))}): one "
                "trec_eval -q output holds one run; give each run its own file",
            )
        keep[runid] = False
        if len(runid):
            run_name = decoded(rows.token(int(runid[0]), 2))
    if fmt != "fairconv" and run_name is None and name is None:
        run_name, named = _named_after_file(source), False
    index = np.flatnonzero(keep)
    del keep
    if len(index) == 0:
        raise FileFormatError(
            source,
            None,
            "no per-topic rows, only 'all' rows (write it with trec_eval -q, "
            "ir_measures per query, or fairconv without --summary)",
        )
    values = _values(rows, index, columns["value"])
    topics, topic = _names(rows, columns["topic"], index)
    measures, measure = _names(rows, columns["measure"], index)
    if fmt == "fairconv":
        runs, run = _names(rows, columns["run"], index)
        if name is not None:
            if len(runs) != 1:
                raise FileFormatError(
                    source,
                    None,
                    f"the name {name!r} is given to a file of {len(runs)} runs "
                    f"({', '.join(runs[:5])}); name only files of one run",
                )
            runs = [name]
    else:
        runs, run = [str(name if name is not None else run_name)], np.zeros(len(index), np.int32)
        named = named or name is not None
    lines = (index + 1 if rows.line_numbers is None else rows.line_numbers[index]).astype(np.int32)
    del index
    rows.release()
    return _Part(
        source,
        runs,
        [named] * len(runs),
        topics,
        measures,
        run,
        topic,
        measure,
        values,
        lines,
        layout=fmt,
        guess=guess,
    )


def _json_numbers(values: list, where: Where) -> np.ndarray:
    """Scores of a ranx file as floats: numbers, ``null`` (undefined) as NaN.

    A list of numbers takes one C-level pass; anything else names the first value that
    is neither a number nor ``null`` (a string, a bool, a number too large to hold).
    """
    kinds = set(map(type, values))
    if kinds <= {float, int}:
        return np.fromiter(values, np.float64, len(values))
    if kinds <= {float, int, type(None)}:
        cells = np.array(values, dtype=object)
        cells[cells == None] = np.nan  # noqa: E711 (elementwise)
        return cells.astype(np.float64)
    value = next(v for v in values if type(v) not in (float, int, type(None)))
    shown = repr(value) if isinstance(value, (str, bool)) else json_repr(value)
    raise file_error(where, f"a score must be a number or null; found {shown}")


def _named_after_file(source: str) -> str:
    """The run of a file that names none: the file's base name, which must be an id."""
    base = os.path.basename(source)
    fault = id_fault(base)
    if fault is not None:
        raise FileFormatError(
            source,
            None,
            f"the file names no run, and its name {base!r} is no run name (a run name must "
            f"{fault}); name the run ({{name: path}} in the API, NAME=FILE on the command "
            "line)",
        )
    return base


def _ranx_part(path, name: str | None) -> _Part:
    """The topic rows of a ranx JSON file of per-query scores.

    One pass per (run, measure) object: its query ids and scores are taken as lists,
    checked and coded in C-level passes (no Python loop per query).
    """
    from ._json import read_json

    source = source_name(path)
    data = read_json(path)
    if not isinstance(data, dict) or not data:
        raise FileFormatError(
            source,
            None,
            "a ranx score file holds a non-empty JSON object "
            "{measure: {query_id: value}} or {run: {measure: {query_id: value}}}",
        )
    first = next(iter(data.values()))
    nested = isinstance(first, dict) and any(isinstance(v, dict) for v in first.values())
    if nested:
        if name is not None and len(data) != 1:
            raise FileFormatError(
                source,
                None,
                f"the name {name!r} is given to a file of {len(data)} runs; "
                "name only files of one run",
            )
        by_run = data if name is None else {name: first}
        named = True
    else:
        by_run = {name if name is not None else _named_after_file(source): data}
        named = name is not None
    runs = list(by_run)
    measures: dict[str, int] = {}
    run_codes, measure_codes, values, keys = [], [], [], []

    def field(*keys) -> str:  # the keys as the file holds them: a flat file has no run key
        return "field " + "/".join(map(repr, keys if nested else keys[1:]))

    for r, (run, per) in enumerate(by_run.items()):
        if id_fault(run) is not None:
            raise FileFormatError(source, None, f"{field(run)}: a run name must {id_fault(run)}")
        if not isinstance(per, dict):
            raise FileFormatError(source, None, f"{field(run)}: expected an object")
        for measure, scores in per.items():
            where = Where(source, None, field(run, measure))
            if id_fault(measure) is not None:
                raise file_error(where, f"a measure name must {id_fault(measure)}")
            if not isinstance(scores, dict):
                raise file_error(where, "expected an object {query_id: value}")
            if "all" in scores:
                raise FileFormatError(
                    source,
                    None,
                    f"{field(run, measure, 'all')}: the topic id 'all' "
                    "names the mean in every score output; rename the topic",
                )
            queries = list(scores)
            bad = first_bad_id(queries)
            if bad >= 0:
                raise FileFormatError(
                    source,
                    None,
                    f"{field(run, measure, queries[bad])}: a query id must "
                    f"{id_fault(queries[bad])}",
                )
            m = measures.setdefault(measure, len(measures))
            keys += queries
            values.append(_json_numbers(list(scores.values()), where))
            run_codes.append(np.full(len(scores), r, np.int32))
            measure_codes.append(np.full(len(scores), m, np.int32))
    if not keys:
        raise FileFormatError(source, None, "no per-query scores")
    topics = list(dict.fromkeys(keys))
    index = dict(zip(topics, range(len(topics)), strict=True))
    topic = np.fromiter(map(index.__getitem__, keys), np.int32, len(keys))
    del keys, index
    return _Part(
        source,
        runs,
        [named] * len(runs),
        topics,
        list(measures),
        np.concatenate(run_codes),
        topic,
        np.concatenate(measure_codes),
        np.concatenate(values),
        None,
        "field",
        "ranx",
    )


_FRAME_COLUMNS = {
    "run": RUN_COLUMNS,
    "topic": ("topic", "query_id", "qid", "q_id"),
    "measure": ("measure",),
    "value": ("value",),
}
"""The columns of a long DataFrame of scores, by the names each tool gives them: fairconv
(``ScoreTable.to_frame``: run, topic), ir_measures (query_id), PyTerrier's
``Experiment(perquery=True)`` (name, qid)."""


def _frame_row(source: str, label) -> Where:
    """A row of a DataFrame as messages name it: by its index label, what ``df.loc`` takes."""
    return Where(source, IndexLabel(label))


def _frame_field(frame, kind: str, source: str):
    """The column of ``kind`` (the first of its names present), or None."""
    taken = [str(c) for c in frame.columns]
    for name in _FRAME_COLUMNS[kind]:
        if taken.count(name) > 1:
            raise ValueError(f"{source} has {taken.count(name)} columns named {name!r}; keep one")
        if name in taken:
            return frame.iloc[:, taken.index(name)]
    if kind == "run":
        return None
    raise ValueError(
        f"{source} needs a {kind} column named one of {', '.join(_FRAME_COLUMNS[kind])}; it "
        f"has {', '.join(taken)}"
    )


def _frame_names(column, source: str, labels, field: str, rows=None):
    """A column of ids (str or integers) as (names in order of first appearance, codes).

    ``rows``: the rows kept (all when None). The first row whose id breaks the rule
    (missing, neither a str nor an integer, the id rule) raises, named by its label.
    """
    texts, bad = _texts(_Column(column, _Place(source, labels)), field)
    if texts is None:
        _token(column.iloc[bad], field, _frame_row(source, labels[bad]))
        raise AssertionError("unreachable")  # pragma: no cover (_token raises there)
    if rows is not None:
        texts = texts[rows]
    names = list(dict.fromkeys(texts))
    wrong = first_bad_id(names)
    if wrong >= 0:
        at = int(np.argmax(texts == names[wrong]))
        row = at if rows is None else int(rows[at])
        _token(names[wrong], field, _frame_row(source, labels[row]))
    index = dict(zip(names, range(len(names)), strict=True))
    return names, np.fromiter(map(index.__getitem__, texts), np.int32, len(texts))


def _frame_measures(column, source: str, labels) -> tuple[list[str], np.ndarray]:
    """Measure names: strings, or ir_measures' measures (as ir_measures prints them)."""
    cells = _objects(column)
    distinct = list(dict.fromkeys(cells))
    for value in distinct:
        if isinstance(value, (bool, np.bool_, float, np.floating)) or _is_missing(value):
            at = next(i for i, x in enumerate(cells) if x is value or x == value)
            raise file_error(
                _frame_row(source, labels[at]),
                f"a measure must be named by a string, got {value!r}",
            )
    text = {value: str(value) for value in distinct}
    names = list(dict.fromkeys(text.values()))
    wrong = first_bad_id(names)
    if wrong >= 0:
        at = next(i for i, x in enumerate(cells) if text[x] == names[wrong])
        raise file_error(
            _frame_row(source, labels[at]),
            f"the measure {names[wrong]!r} must {id_fault(names[wrong])}",
        )
    position = dict(zip(names, range(len(names)), strict=True))
    index = {value: position[name] for value, name in text.items()}
    return names, np.fromiter(map(index.__getitem__, cells), np.int32, len(cells))


def _frame_values(column, source: str, labels) -> np.ndarray:
    """Scores as floats: numbers, and NaN (or a missing value) where undefined."""
    kind = getattr(column.dtype, "kind", "O")
    if kind in "iuf" and str(column.dtype) != "category":
        values = column.to_numpy(dtype=np.float64, na_value=np.nan)
    else:
        cells = np.array(_objects(column), dtype=object)  # a copy: NaN goes where missing
        missing = np.asarray(column.isna(), dtype=bool)
        ok = missing.copy()
        ok[~missing] = np.fromiter(map(_number_ok, cells[~missing]), bool, int((~missing).sum()))
        if not ok.all():
            at = int(np.argmax(~ok))
            value = cells[at]
            rule = "finite" if isinstance(value, (float, np.floating)) else "a number"
            raise file_error(
                _frame_row(source, labels[at]),
                f"a score must be {rule} (NaN where undefined), got {_shown(value)}",
            )
        cells[missing] = np.nan
        values = cells.astype(np.float64)
    infinite = np.isinf(values)
    if infinite.any():
        at = int(np.argmax(infinite))
        raise file_error(
            _frame_row(source, labels[at]),
            f"a score must be finite (NaN where undefined), got {_shown(values[at])}",
        )
    return values


def _shown(value) -> str:
    """A value as the user wrote it: ``inf``, ``'x'``, never ``np.float64(inf)``."""
    if isinstance(value, (np.generic,)):
        value = value.item()
    return repr(value)


def _frame_part(frame, name: str | None) -> _Part:
    """The topic rows of a long DataFrame of scores (run, topic, measure, value).

    A frame with a run column holds one run per value (named by the caller when it
    holds one); without one, the caller names its run. Rows of topic ``all`` are means
    (``to_frame(all_rows=True)``), left out as in the files.
    """
    source = "scores (DataFrame)" if name is None else f"run {name!r} (DataFrame)"
    labels = frame.index
    run_col = _frame_field(frame, "run", source)
    topic_col, measure_col, value_col = (
        _frame_field(frame, k, source) for k in ("topic", "measure", "value")
    )
    if len(frame) == 0:
        raise ValueError(f"{source} has no rows (no scores)")
    topics_all, topic_all = _frame_names(topic_col, source, labels, "topic")
    rows = np.flatnonzero(topic_all != topics_all.index("all")) if "all" in topics_all else None
    if rows is not None and len(rows) == 0:
        raise ValueError(f"{source} has only 'all' rows (means), no per-topic scores")
    take = (lambda c: c.iloc[rows]) if rows is not None else (lambda c: c)
    kept = labels if rows is None else labels[rows]
    topics, topic = _frame_names(topic_col, source, labels, "topic", rows)
    measures, measure = _frame_measures(take(measure_col), source, kept)
    values = _frame_values(take(value_col), source, kept)
    if run_col is None:
        if name is None:
            raise ValueError(
                f"{source} has no run column ({', '.join(RUN_COLUMNS)}); name its run: "
                "{name: frame}"
            )
        runs, run = [name], np.zeros(len(topic), np.int32)
    else:
        runs, run = _frame_names(run_col, source, labels, "run name", rows)
        if name is not None:
            if len(runs) != 1:
                raise ValueError(
                    f"the name {name!r} is given to a DataFrame of {len(runs)} runs "
                    f"({few(runs)}); name only frames of one run"
                )
            runs = [name]
    return _Part(
        source,
        runs,
        [True] * len(runs),
        topics,
        measures,
        run,
        topic,
        measure,
        values,
        None,
        "row",
        labels=kept,
    )


def _part(path, fmt: str | None, name: str | None) -> _Part:
    if _is_frame(path):
        return _frame_part(path, name)
    if fmt is None and _is_stream(path):  # a FIFO is read once: its bytes serve both looks
        with open(path, "rb") as f:
            data = io.BytesIO(f.read())
        data.name = str(path)
        path = data
    if fmt == "ranx" or (fmt is None and _is_json(path)):
        return _ranx_part(path, name)
    return _text_part(path, fmt, name)


def _sources(paths) -> list[tuple[str | None, object]]:
    """(name or None, path) of every file: paths, files, and ``{name: path(s)}`` mappings."""
    if isinstance(paths, (str, bytes, os.PathLike, Mapping)) or hasattr(paths, "read"):
        paths = [paths]
    if _is_frame(paths):
        paths = [paths]
    if not isinstance(paths, Sequence):
        raise fail_type(
            "paths",
            "be a path, a file, a DataFrame, a mapping {name: path} or a sequence of them",
            type(paths).__name__,
        )
    out: list[tuple[str | None, object]] = []
    for item in paths:
        if isinstance(item, Mapping):
            for name, value in item.items():
                if not isinstance(name, str) or id_fault(name) is not None:
                    raise fail(
                        "paths", "name runs by non-empty strings without whitespace", repr(name)
                    )
                many = isinstance(value, Sequence) and not isinstance(value, (str, bytes))
                out += [(name, p) for p in (value if many else [value])]
        elif isinstance(item, (str, os.PathLike)) or hasattr(item, "read") or _is_frame(item):
            out.append((None, item))
        else:
            raise fail_type(
                "paths",
                "hold paths, files, DataFrames or mappings {name: path}",
                type(item).__name__,
            )
    if not out:
        raise fail("paths", "name a file", "none")
    return out


def _guesses(parts: list[_Part]) -> str:
    """For an error about measure or topic names: the files whose layout was guessed."""
    guessed = [p for p in parts if p.guess]
    if not guessed:
        return ""
    p = guessed[0]
    more = f" (and {len(guessed) - 1} more file(s))" if len(guessed) > 1 else ""
    return (
        f"{p.source} was {p.guess}{more}; if its columns are the other way round, give "
        "input_format (--input-format)"
    )


def _fault_of(param: str, what: str):
    """The errors of :func:`~fairconv.results.as_names` for ``what`` in ``param``."""

    def fault(rule: str, got: str, error: type[Exception]) -> Exception:
        return (fail_type if error is TypeError else fail)(param, f"{rule} ({what})", got)

    return fault


def _directions(parts: list[_Part], names: list[str], chosen: list[str], given) -> dict[str, str]:
    """The direction of each ``chosen`` measure: as ``given``, else by its files' tool.

    ``given`` may name any measure of the files (``names``).
    A measure of fairconv's TSV takes fairconv's direction (:func:`direction_of`);
    another tool's measure is higher-is-better. A measure that the two rules point
    different ways (``EE-D`` in a fairconv TSV and in a trec_eval file) must be given.
    """
    given = check_directions(given, names, f"the files ({few(names, 10)})")
    out: dict[str, str] = {}
    source: dict[str, str] = {}
    wanted = set(chosen)
    for part in parts:
        for m in part.measures:
            if m in given or m not in wanted:
                continue
            d = direction_of(m) if part.layout == "fairconv" else "higher"
            if m in out and out[m] != d:
                raise fail_params(
                    "directions",
                    "say which way a measure points when its files disagree",
                    f"{m!r}, {out[m]}-is-better in {source[m]} and {d}-is-better in {part.source}",
                    hint="a measure of fairconv's TSV takes fairconv's direction, another "
                    f"tool's measure is higher-is-better; give directions={{{m!r}: ...}}",
                )
            out.setdefault(m, d)
            source.setdefault(m, part.source)
    return {m: given.get(m) or out[m] for m in chosen}


def _table(parts: list[_Part], measures, topics, directions=None) -> ScoreTable:
    """The parts joined by run, topic and measure; the same cell twice is an error."""
    run_index: dict[str, int] = {}
    owner: dict[str, tuple[bool, str]] = {}
    for part in parts:
        for run, named in zip(part.runs, part.named, strict=True):
            if run in owner:
                was_named, where = owner[run]
                if not (named and was_named):
                    unnamed = part.source if not named else where
                    raise ValueError(
                        f"run {run!r} is in {where} and in {part.source}, and {unnamed} names "
                        "it only by its file name, which is never merged; name the run (a "
                        "runid row, {name: path} in the API, NAME=FILE on the command line) "
                        "or give each file a name of its own"
                    )
            else:
                owner[run] = (named, part.source)
                run_index[run] = len(run_index)
    all_topics = sorted({t for p in parts for t in p.topics})
    names = list(dict.fromkeys(m for p in parts for m in p.measures))
    t_index = {t: i for i, t in enumerate(all_topics)}
    m_index = {m: i for i, m in enumerate(names)}
    n_r, n_m = len(run_index), len(names)

    def positions(names: list[str], index: dict[str, int]) -> np.ndarray:
        return np.fromiter(map(index.__getitem__, names), np.int64, len(names))

    # a part's codes -> positions in the whole, for its topics, runs and measures
    whole = [
        (positions(p.topics, t_index), positions(p.runs, run_index), positions(p.measures, m_index))
        for p in parts
    ]

    def cells(k: int, lo: int = 0, hi: int | None = None):
        """(topic, run, measure) of rows ``lo:hi`` of part k, as positions in the whole."""
        p, (t, r, m) = parts[k], whole[k]
        return t[p.topic[lo:hi]], r[p.run[lo:hi]], m[p.measure[lo:hi]]

    def steps(p: _Part):
        return range(0, len(p.value), _STEP)

    # every cell of every file once: a mark per cell of the whole grid, a step at a time
    seen = np.zeros(len(all_topics) * n_r * n_m, dtype=bool)
    rows = 0
    for k, p in enumerate(parts):
        for lo in steps(p):
            t, r, m = cells(k, lo, lo + _STEP)
            seen[(t * n_r + r) * n_m + m] = True
            rows += len(t)
    if np.count_nonzero(seen) < rows:
        del seen
        every = [cells(k) for k in range(len(parts))]
        _refuse_repeats(parts, every, all_topics, list(run_index), names)
    del seen
    if measures is not None:
        if isinstance(measures, (str, bytes)):  # "MN" is one name, not the names M and N
            raise fail_params(
                "measures",
                "be a list of measure names",
                f"the string {measures!r}",
                hint=f"write [{measures!r}]",
                error=TypeError,
            )
        check_once(measures, "measures")
        unknown = [m for m in measures if m not in m_index]
        if unknown or not list(measures):
            raise fail_params(
                "measures",
                f"name measures of the files ({few(names, 10)})",
                ", ".join(map(repr, unknown)) or "none",
                hint=_guesses(parts),
            )
    chosen_m = names if measures is None else list(measures)
    pointing = _directions(parts, names, chosen_m, directions)
    if topics is not None:
        if isinstance(topics, (str, bytes)) or not isinstance(topics, Sequence):
            raise fail_type("topics", "be a sequence of topic ids", type(topics).__name__)
        check_once(topics, "topics")
        missing = [t for t in topics if t not in t_index]
        if missing:
            guesses = _guesses(parts)
            raise fail_params(
                "topics",
                "name topics of the files",
                ", ".join(map(repr, missing[:10])),
                hint="no file has topic(s) by these ids" + (f"; {guesses}" if guesses else ""),
            )
    chosen_t = all_topics if topics is None else list(topics)
    # position in the whole -> position in the table (-1: not kept)
    new_t = np.full(len(all_topics), -1, np.int64)
    new_t[[t_index[t] for t in chosen_t]] = np.arange(len(chosen_t))
    new_m = np.full(n_m, -1, np.int64)
    new_m[[m_index[m] for m in chosen_m]] = np.arange(len(chosen_m))
    shape = (len(chosen_t), n_r, len(chosen_m))
    values = np.zeros(shape)
    present = np.zeros(shape, dtype=bool)
    for k, p in enumerate(parts):
        for lo in steps(p):
            t, r, m = cells(k, lo, lo + _STEP)
            t, m = new_t[t], new_m[m]
            kept = (t >= 0) & (m >= 0)
            t, r, m = t[kept], r[kept], m[kept]
            values[t, r, m] = p.value[lo : lo + _STEP][kept]
            present[t, r, m] = True
    notices = notice_partial_topics(present, chosen_t, chosen_m, list(run_index))
    return ScoreTable(
        topics=tuple(chosen_t),
        runs=tuple(run_index),
        measures=tuple(chosen_m),
        values=values,
        present=present,
        notices=notices,
        directions=pointing,
    )


def _refuse_repeats(parts: list[_Part], cells: list, topics, runs, measures) -> None:
    """The error naming the first cell two rows give (both places), in the whole's order."""
    n_r, n_m = len(runs), len(measures)
    cell = np.concatenate([(t * n_r + r) * n_m + m for t, r, m in cells])
    order = np.argsort(cell, kind="stable")
    same = np.flatnonzero(cell[order][1:] == cell[order][:-1])
    bounds = np.cumsum([0] + [len(c[0]) for c in cells])

    def place(i: int) -> str:
        k = int(np.searchsorted(bounds, i, side="right") - 1)
        return parts[k].where(i - int(bounds[k]))

    a, b = int(order[same[0]]), int(order[same[0] + 1])
    c = int(cell[a])
    raise file_error(
        place(b),
        f"a second value for run {runs[(c // n_m) % n_r]!r}, topic {topics[c // n_m // n_r]!r} "
        f"and measure {measures[c % n_m]!r} (first at {place(a)})",
    )


@public
def read_topics(path, /) -> tuple[str, ...]:
    r"""Read a topic file: one topic id per line (``fairconv compare --topics``).

    Parameters
    ----------
    path : path or file
        A text file by the rules of every reader (UTF-8, a BOM skipped); blank lines
        and lines starting with ``#`` are skipped.

    Returns
    -------
    tuple of str
        The ids in file order.

    Raises
    ------
    ValueError
        Naming file and line: more than one field on a line, an id listed twice, or an
        empty file.

    Examples
    --------
    >>> import io
    >>> read_topics(io.StringIO("# pilot topics\nP001\n\nP003\n"))
    ('P001', 'P003')
    """
    data = checked_bytes(path, table=True)
    seen: dict[str, int] = {}
    for number, raw in enumerate(data.split(b"\n"), start=1):
        fields = raw.split()
        if not fields or fields[0].startswith(b"#"):
            continue
        if len(fields) != 1:
            raise FileFormatError(source_name(path), number, "expected one topic id per line")
        topic = fields[0].decode("utf-8")
        if topic in seen:
            raise FileFormatError(
                source_name(path),
                number,
                f"topic {topic!r} is listed twice (first on line {seen[topic]})",
            )
        seen[topic] = number
    if not seen:
        raise FileFormatError(source_name(path), None, "the file is empty (no topic rows)")
    return tuple(seen)


@public
def read_scores(
    paths,
    /,
    *,
    measures: Sequence[str] | None = None,
    topics: Sequence[str] | None = None,
    input_format: str | None = None,
    directions: Mapping[str, str] | None = None,
) -> ScoreTable:
    r"""Read per-topic score files of fairconv, trec_eval, ir_measures or ranx.

    Parameters
    ----------
    paths : path, file, DataFrame, mapping or sequence of them
        The files, or long DataFrames of scores: a run column (``run``, ``run_id``,
        ``tag``, ``name`` or ``system``; optional), a topic column (``topic``,
        ``query_id``, ``qid`` or ``q_id``), ``measure`` and ``value``, as
        ``ScoreTable.to_frame()``, ``pandas.DataFrame(ir_measures.iter_calc(...))``
        and PyTerrier's ``Experiment(..., perquery=True)`` (name, qid, measure,
        value) give them; integer ids are taken as their digits, a missing or NaN
        value is undefined, and rows of topic ``all`` (means) are left out. A mapping
        ``{name: path}`` (or ``{name: [paths]}``) names the run of each file or
        frame, as ``NAME=FILE`` does on the command line; a sequence may mix them. A
        run named inside its files (a ``run`` column, a ``runid`` row, a ranx file's
        run keys) or by a mapping may be spread over several sources with different
        measures. A run named only by its file's base name is never merged with a run
        of another file.
    measures : sequence of str, optional
        Keep only these measures; an unknown name is an error listing the valid ones.
        Names are kept as the files print them (``ndcg_cut_20``, ``P_5``).
    topics : sequence of str, optional
        Keep only these topics (all by default); a topic no file has is an error.
    input_format : {'fairconv', 'trec_eval', 'ir_measures', 'ranx'}, optional
        The layout of every file (not of DataFrames); detected per file when not given.
    directions : mapping of str to {'higher', 'lower', 'undirected'}, optional
        Which way measures point, by name as the files print them (any measure of the
        files, kept or not), e.g. ``{"ndcg_loss": "lower"}``; the analyses rank runs by
        it (:attr:`ScoreTable.directions`). A measure not named takes the direction of
        the tool that wrote its file: fairconv's own for a fairconv TSV and a
        DataFrame (:func:`~fairconv.results.direction_of`: ``EE-D`` is
        lower-is-better, another tool's name higher-is-better), higher is better for a
        trec_eval, ir_measures or ranx file, which do not say.

    Returns
    -------
    ScoreTable
        Runs in order of first appearance, topics sorted; a cell exists where a source
        gives a value (``NaN`` marks an undefined one).

    Raises
    ------
    ValueError
        Naming file and line (or JSON field): not UTF-8, a control character, an empty
        file, a value that is not a finite number (``NaN`` excepted), a row of the
        wrong width, two ``runid`` rows in one trec_eval file, the same run, topic and
        measure twice (both places named), a run named by its file's name in two
        files, a topic ``all`` in a ranx file, a ranx id that breaks the id rule (empty,
        whitespace), a run named after a file whose base name is no id; ``measures`` or
        ``topics`` the files lack (naming any file whose layout was guessed);
        ``directions`` naming a measure the files lack or a direction not in
        :data:`~fairconv.results.DIRECTIONS`, or missing for a measure that a fairconv
        TSV and another tool's file point different ways. A DataFrame's row is named
        by its index label (``scores (DataFrame, index 5)``): an id that is missing or
        breaks the id rule, a value that is not a number or is infinite, a measure
        not named by a string, a missing column; a frame without a run column and
        without a name.

    Warns
    -----
    FairconvWarning
        When some runs have a measure on topics where other runs lack it, and for each
        file whose layout is guessed from its columns (no ``runid`` row, no ``all``
        row): what it was read as, and that ``input_format`` says otherwise.

    Examples
    --------
    >>> import io
    >>> rows = ["P_5 q1 0.4", "P_5 q2 0.6", "P_5 all 0.5", "runid all bm25"]
    >>> t = read_scores([io.StringIO("\n".join(rows))], input_format="trec_eval")
    >>> t.runs, t.topics, t.means()["bm25"]["P_5"]
    (('bm25',), ('q1', 'q2'), 0.5)
    >>> rows = ["q1 judged_loss 0.4", "q2 judged_loss 0.2"]
    >>> t = read_scores({"bm25": io.StringIO("\n".join(rows))}, input_format="ir_measures",
    ...                 directions={"judged_loss": "lower"})
    >>> dict(t.directions)
    {'judged_loss': 'lower'}
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"name": ["bm25", "bm25"], "qid": ["q1", "q2"],
    ...                       "measure": ["map", "map"], "value": [0.25, 0.75]})
    >>> read_scores(frame).means()["bm25"]["map"]  # PyTerrier's per-query frame
    0.5
    """
    if input_format is not None:
        input_format = check_choice(input_format, "input_format", SCORE_FORMATS)
    parts = [_part(path, input_format, name) for name, path in _sources(paths)]
    return _table(parts, measures, topics, directions)


@public
def from_ir_measures(
    metrics, /, *, name: str | None = None, directions: Mapping[str, str] | None = None
) -> ScoreTable:
    """A ScoreTable of ``ir_measures.iter_calc`` results (one run, or ``{run: results}``).

    Parameters
    ----------
    metrics : iterable of Metric, or mapping of str to iterable of Metric
        What ``ir_measures.iter_calc(measures, qrels, run)`` yields: items with
        ``query_id``, ``measure`` and ``value``. A mapping gives several runs by name.
    name : str, optional
        The run's name, for one iterable (required then).
    directions : mapping of str to {'higher', 'lower', 'undirected'}, optional
        Which way measures point, by name as ir_measures prints them; a measure not
        named is higher-is-better (ir_measures does not say), as in
        :func:`read_scores`.

    Returns
    -------
    ScoreTable
        Measure names as ir_measures prints them (``nDCG@10``), topics sorted.

    Raises
    ------
    ValueError
        No name for one run, a query id ``all``, a value that is not a number, the
        same run, query and measure twice (both items named), or ``directions`` naming
        a measure the results lack.

    Examples
    --------
    >>> from collections import namedtuple
    >>> Metric = namedtuple("Metric", "query_id measure value")
    >>> t = from_ir_measures([Metric("q1", "nDCG@10", 0.5), Metric("q2", "nDCG@10", 1.0)],
    ...                      name="bm25")
    >>> t.means()["bm25"]["nDCG@10"]
    0.75
    """
    if isinstance(metrics, Mapping):
        if name is not None:
            raise fail("name", "be None when 'metrics' maps run names to results", repr(name))
        runs = as_names(list(metrics), "metrics", fault=_fault_of("metrics", "run names"))
        by_run = dict(zip(runs, metrics.values(), strict=True))
    else:
        if not isinstance(name, str) or id_fault(name) is not None:
            raise fail("name", "name the run of the results (a run name, an id)", repr(name))
        by_run = {name: metrics}
    for run in by_run:
        if id_fault(run) is not None:
            raise fail(
                "metrics", f"map run names to results (each must {id_fault(run)})", repr(run)
            )
    parts = []
    for run, results in by_run.items():
        items = list(results)
        try:
            queries = as_names(
                list(map(attrgetter("query_id"), items)),
                "metrics",
                fault=_fault_of("metrics", f"query ids of run {run!r}"),
            )
            names = list(map(str, map(attrgetter("measure"), items)))
            raw = list(map(attrgetter("value"), items))
        except AttributeError:
            i = next(
                i
                for i, x in enumerate(items)
                if not hasattr(x, "query_id")
                or not hasattr(x, "measure")
                or not hasattr(x, "value")
            )
            raise fail_type(
                "metrics",
                "yield items with query_id, measure and value (ir_measures' Metric)",
                f"{type(items[i]).__name__} at item {i} of run {run!r}",
            ) from None
        if not items:
            raise fail("metrics", "hold results for every run", f"run {run!r} without any")
        for what, ids in (("query ids", queries), ("measure names", list(dict.fromkeys(names)))):
            bad = first_bad_id(ids)
            if bad >= 0:
                raise fail(
                    "metrics",
                    f"hold {what} that the score readers read back (each must "
                    f"{id_fault(ids[bad])})",
                    f"{ids[bad]!r} in run {run!r}",
                )
        if "all" in queries:
            raise fail_params(
                "metrics",
                "not use the query id 'all', which names the mean in every score output",
                f"it at item {queries.index('all')} of run {run!r}",
                hint="rename the query",
            )
        kinds = set(map(type, raw))
        if not all(k in (int, float) or issubclass(k, (np.floating, np.integer)) for k in kinds):
            i = next(
                i
                for i, v in enumerate(raw)
                if isinstance(v, bool) or not isinstance(v, (int, float, np.floating, np.integer))
            )
            raise fail(
                "metrics", "hold numbers as values", f"{raw[i]!r} at item {i} of run {run!r}"
            )
        values = np.asarray(raw, dtype=float)
        if np.isinf(values).any():
            i = int(np.argmax(np.isinf(values)))
            raise fail(
                "metrics",
                "hold finite numbers as values (NaN where undefined)",
                f"{float(values[i])!r} at item {i} of run {run!r}",
            )
        topics, topic = np.unique(np.array(queries, dtype=object), return_inverse=True)
        measures = list(dict.fromkeys(names))
        m_index = {m: i for i, m in enumerate(measures)}
        measure = np.fromiter(map(m_index.__getitem__, names), np.int32, len(names))
        parts.append(
            _Part(
                caller(),
                [run],
                [True],
                topics.tolist(),
                measures,
                np.zeros(len(items), np.int32),
                topic.ravel().astype(np.int32),
                measure,
                values,
                None,
                "item",
                "ir_measures",
            )
        )
    return _table(parts, None, None, directions)
