"""Per-topic score files: what ``fairconv compare``, ``discpower`` and ``agree`` read.

Three layouts are read (docs/formats.md):

- fairconv's own TSV (any fairconv command): a header ``run topic measure value``, then
  one row per value; ``all`` rows (means) and ``n[...]`` rows are left out.
- ``trec_eval -q`` output: ``measure topic value`` rows; the ``runid`` row names the run
  (else the file's name); ``all`` rows are left out.
- ir_measures per-query output (``ir_measures -q``, or ``iter_calc`` printed as
  ``query_id measure value``): the run is the file's name; the ``all`` rows that
  follow the per-query rows are left out.

The layout is detected, or forced with ``input_format``. Several files add runs; the
means are always recomputed from the topic rows.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence

import numpy as np

from .._validation import check_choice, check_once
from ..results import ScoreTable
from ._text import checked_bytes, source_name

__all__ = ["read_scores", "read_topics", "SCORE_FORMATS"]

SCORE_FORMATS = ("fairconv", "trec_eval", "ir_measures")
"""The per-topic layouts :func:`read_scores` reads."""

_NUMBER = re.compile(r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")


def _lines(path, what: str) -> list[tuple[int, list[str]]]:
    """(line number, fields) of every line with a record, by the text rules of every reader.

    As in every text reader, the fields are split at spaces, tabs and CR (not at other
    Unicode white space), and blank lines and lines whose first field starts with
    ``#`` are skipped. A file without records is an error.
    """
    data = checked_bytes(path, table=True)
    out = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        fields = raw.split()  # the checked bytes hold no other ASCII white space
        if fields and not fields[0].startswith(b"#"):
            out.append((number, [f.decode("utf-8") for f in fields]))
    if not out:
        raise ValueError(f"{source_name(path)}: the file is empty (no {what} rows)")
    return out


def _value(token: str, where: str) -> float:
    if token in ("NaN", "nan"):
        return math.nan
    if not _NUMBER.match(token):
        raise ValueError(f"{where}: the value {token!r} is not a number")
    value = float(token)
    if not math.isfinite(value):
        raise ValueError(f"{where}: the value {token!r} is not finite")
    return value


def _detect(rows, where: str) -> str:
    first = rows[0][1]
    if [f.lower() for f in first] == ["run", "topic", "measure", "value"]:
        return "fairconv"
    if any(len(f) != 3 for _, f in rows):
        number = next(n for n, f in rows if len(f) != 3)
        raise ValueError(
            f"{where}:{number}: not a per-topic score file (fairconv TSV with a header, "
            "trec_eval -q or ir_measures rows of 3 columns)"
        )
    if any(f[0] == "runid" or f[1] == "all" for _, f in rows):
        return "trec_eval"
    if any(f[0] == "all" for _, f in rows):
        return "ir_measures"  # its summary rows: all measure value
    first_col = {f[0] for _, f in rows}
    second_col = {f[1] for _, f in rows}
    if len(first_col) < len(second_col):
        return "trec_eval"  # measure topic value: fewer measures than topics
    if len(first_col) > len(second_col):
        return "ir_measures"  # query_id measure value
    raise ValueError(
        f"{where}: cannot tell trec_eval -q rows (measure topic value) from ir_measures "
        "rows (query_id measure value); give input_format (--input-format)"
    )


def _records(path, input_format: str | None):
    """(run, topic, measure, value, where) of every topic row of one file."""
    where = source_name(path)
    rows = _lines(path, "score")
    fmt = _detect(rows, where) if input_format is None else input_format
    base = os.path.basename(where)
    out: list[tuple[str | None, str, str, float, str]] = []
    if fmt == "fairconv":
        if [f.lower() for f in rows[0][1]] != ["run", "topic", "measure", "value"]:
            raise ValueError(f"{where}:{rows[0][0]}: expected the header 'run topic measure value'")
        for number, f in rows[1:]:
            at = f"{where}:{number}"
            if len(f) != 4:
                raise ValueError(f"{at}: expected 4 columns (run topic measure value)")
            if f[1] == "all":
                continue
            out.append((f[0], f[1], f[2], _value(f[3], at), at))
        if not out:
            raise ValueError(f"{where}: no per-topic rows, only the header and 'all' rows")
        return out
    run = base
    for number, f in rows:
        at = f"{where}:{number}"
        if len(f) != 3:
            raise ValueError(f"{at}: expected 3 columns in a {fmt} row")
        if fmt == "trec_eval":
            measure, topic, value = f
            if measure == "runid":
                run = value
                continue
            if topic == "all":
                continue
        else:
            topic, measure, value = f
            if topic == "all":
                continue
        out.append((None, topic, measure, _value(value, at), at))
    if not out:
        raise ValueError(
            f"{where}: no per-topic rows, only 'all' rows (write it with trec_eval -q or "
            "ir_measures -q)"
        )
    return [(run if r is None else r, t, m, v, w) for r, t, m, v, w in out]


def read_topics(path) -> tuple[str, ...]:
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
    seen: dict[str, int] = {}
    for number, fields in _lines(path, "topic"):
        if len(fields) != 1:
            raise ValueError(f"{source_name(path)}:{number}: expected one topic id per line")
        if fields[0] in seen:
            raise ValueError(
                f"{source_name(path)}:{number}: topic {fields[0]!r} is listed twice "
                f"(first on line {seen[fields[0]]})"
            )
        seen[fields[0]] = number
    return tuple(seen)


def read_scores(
    paths,
    *,
    measures: Sequence[str] | None = None,
    topics: Sequence[str] | None = None,
    input_format: str | None = None,
) -> ScoreTable:
    r"""Read per-topic score files into a :class:`~fairconv.results.ScoreTable`.

    Parameters
    ----------
    paths : path, file or sequence of them
        Each file adds its runs.
    measures : sequence of str, optional
        Keep only these measures; an unknown name is an error listing the valid ones.
    topics : sequence of str, optional
        Keep only these topics (all by default); a topic no file has is an error.
    input_format : {'fairconv', 'trec_eval', 'ir_measures'}, optional
        The layout; detected when not given.

    Returns
    -------
    ScoreTable
        Runs in order of first appearance, topics sorted; a cell exists where a file
        gives a value (``NaN`` marks an undefined one).

    Raises
    ------
    ValueError
        Naming file and line: not UTF-8, a control character, an empty file, a value
        that is not a finite number (``NaN`` excepted), a row of the wrong width, two
        values for one run, topic and measure, a run found in two files.

    Examples
    --------
    >>> import io
    >>> rows = ["P_5 q1 0.4", "P_5 q2 0.6", "P_5 all 0.5", "runid all bm25"]
    >>> t = read_scores([io.StringIO("\n".join(rows))], input_format="trec_eval")
    >>> t.runs, t.topics, t.means()["bm25"]["P_5"]
    (('bm25',), ('q1', 'q2'), 0.5)
    """
    func = "read_scores"
    if input_format is not None:
        input_format = check_choice(input_format, "input_format", func, SCORE_FORMATS)
    if isinstance(paths, (str, bytes, os.PathLike)) or hasattr(paths, "read"):
        paths = [paths]
    records = []
    owner: dict[str, str] = {}
    for path in paths:
        mine = _records(path, input_format)
        for run in dict.fromkeys(r for r, *_ in mine):
            if run in owner:
                raise ValueError(
                    f"run {run!r} is in two files: {owner[run]} and {source_name(path)}; give each "
                    "run once"
                )
            owner[run] = source_name(path)
        records += mine
    if not records:
        raise ValueError(f"The 'paths' parameter of {func} must name a file. Got none instead.")
    runs = tuple(dict.fromkeys(r for r, *_ in records))
    all_topics = sorted({t for _, t, *_ in records})
    names = tuple(dict.fromkeys(m for _, _, m, *_ in records))
    if measures is not None:
        check_once(measures, "measures", func)
        unknown = [m for m in measures if m not in names]
        if unknown or not list(measures):
            raise ValueError(
                f"The 'measures' parameter of {func} must name measures of the files "
                f"({', '.join(names)}). Got {', '.join(map(repr, unknown)) or 'none'} instead."
            )
        names = tuple(measures)
    if topics is not None:
        if isinstance(topics, (str, bytes)) or not isinstance(topics, Sequence):
            raise TypeError(
                f"The 'topics' parameter of {func} must be a sequence of topic ids. "
                f"Got {type(topics).__name__} instead."
            )
        check_once(topics, "topics", func)
        missing = [t for t in topics if t not in all_topics]
        if missing:
            raise ValueError(
                f"The 'topics' parameter of {func}: no file has topic(s) "
                f"{', '.join(map(repr, missing[:10]))}"
            )
        all_topics = list(topics)
    r_index = {r: i for i, r in enumerate(runs)}
    t_index = {t: i for i, t in enumerate(all_topics)}
    m_index = {m: i for i, m in enumerate(names)}
    values = np.zeros((len(runs), len(all_topics), len(names)))
    present = np.zeros(values.shape, dtype=bool)
    where: dict[tuple[int, int, int], str] = {}
    for run, topic, measure, value, at in records:
        if topic not in t_index or measure not in m_index:
            continue
        cell = (r_index[run], t_index[topic], m_index[measure])
        if present[cell]:
            raise ValueError(
                f"{at}: a second value for run {run!r}, topic {topic!r} and measure "
                f"{measure!r} (first at {where[cell]})"
            )
        present[cell] = True
        values[cell] = value
        where[cell] = at
    return ScoreTable(runs, tuple(all_topics), names, values, present)
