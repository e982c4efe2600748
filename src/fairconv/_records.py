"""The base class of every result record: ``to_dict``, ``to_frame``, a short repr, HTML.

A record is a frozen dataclass (:func:`record`) that derives from :class:`Record`.
It states its table once, in :meth:`Record._table` (columns of equal length, run
names rather than indices); ``to_frame`` and the notebook's HTML both show that
table, so that the two never disagree. ``to_dict`` gives plain Python values that
``json.dump`` takes as they are: NaN as None, arrays as nested lists, numpy scalars
as Python numbers.
"""

from __future__ import annotations

import dataclasses
import html
import math
from collections.abc import Mapping, Sequence
from typing import Any, dataclass_transform

import numpy as np

REPR_LIMIT = 500
"""The longest ``repr`` of a record, in characters."""

HTML_ROWS = 20
"""Rows (and columns) a record's HTML table shows; it says what it leaves out."""


def plain(value: Any) -> Any:
    """``value`` as plain Python: NaN as None, arrays as lists, numpy scalars as numbers."""
    if isinstance(value, Record):
        return value.to_dict()
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) or (
        isinstance(value, Sequence) and not isinstance(value, (str, bytes))
    ):
        return [plain(v) for v in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (float, np.floating)):
        return None if math.isnan(value) else float(value)
    if isinstance(value, np.integer):
        return int(value)
    return value


def pandas(owner: str):
    """pandas, or an ImportError saying which extra gives it."""
    try:
        import pandas as pd
    except ImportError:
        raise ImportError(
            f"{owner}.to_frame needs pandas: pip install 'fairconv[pandas]'"
        ) from None
    return pd


def _short(value: Any) -> str:
    """One field as the repr shows it: numbers to 6 digits, arrays by their shape."""
    if isinstance(value, Record):
        return f"{type(value).__name__}(...)"
    if isinstance(value, np.ndarray):
        return f"<array {'x'.join(map(str, value.shape)) or 'scalar'}>"
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.6g}"
    if isinstance(value, (str, int, np.integer)) or value is None:
        return repr(value.item() if isinstance(value, np.integer) else value)
    if isinstance(value, (tuple, list)) or (
        isinstance(value, Sequence) and not isinstance(value, (str, bytes))
    ):
        items = list(value[:3]) if len(value) > 3 else list(value)
        if all(isinstance(v, (str, int, float)) for v in items):
            shown = ", ".join(_short(v) for v in items)
            return f"[{shown}{', ...' if len(value) > 3 else ''}] ({len(value)})"
        return f"<{len(value)} items>"
    return f"<{type(value).__name__}>"


def _cell(value: Any) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(_cell(v) for v in value) + ")"
    if isinstance(value, (float, np.floating)):
        return "NaN" if value != value else f"{float(value):.6g}"
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    return str(value)


@dataclass_transform(frozen_default=True, eq_default=True, field_specifiers=(dataclasses.field,))
def record(cls=None, /, *, eq: bool = True):
    """``dataclass(frozen=True, repr=False)``: a record keeps :class:`Record`'s repr.

    ``eq=False`` for records holding arrays (whose ``==`` is not a bool).
    """

    def wrap(c):
        return dataclasses.dataclass(frozen=True, eq=eq, repr=False)(c)

    return wrap if cls is None else wrap(cls)


class Record:
    """Base of the result records: ``to_dict``, ``to_frame``, ``repr`` and HTML.

    Subclasses are frozen dataclasses made by :func:`record`. They override
    :meth:`_table` when their natural table is not one row of their scalar fields
    (pairs of runs, a matrix).
    """

    def _fields(self) -> list[str]:
        return [f.name for f in dataclasses.fields(self)]  # type: ignore[arg-type]

    def to_dict(self) -> dict:
        """The fields as plain Python values (NaN as None, arrays as nested lists).

        Returns
        -------
        dict
            ``{field: value}`` in field order, values as JSON can hold them.

        Examples
        --------
        >>> from fairconv import stats
        >>> stats.randomisation_test([0.5, 0.75, 0.5, 0.25], [0.25, 0.5, 0.5, 0.25]).to_dict()
        {'statistic': 0.125, 'pvalue': 0.5, 'exact': True, 'n_resamples': 16, 'n_topics': 4}
        """
        return {name: plain(getattr(self, name)) for name in self._fields()}

    def _table(self) -> dict[str, Sequence]:
        """The record's table as columns of equal length (one row of scalars here)."""
        out: dict[str, Sequence] = {}
        for name in self._fields():
            value = getattr(self, name)
            if value is None or isinstance(
                value, (str, bool, int, float, np.bool_, np.integer, np.floating)
            ):
                out[name] = [value]
        return out

    def to_frame(self):
        """The record's table as a pandas DataFrame (needs the pandas extra).

        Runs appear by name. The frame holds plain values: NaN where a value is
        undefined.

        Returns
        -------
        pandas.DataFrame
            One row of the scalar fields, or the record's own table (one row per pair of
            runs, per item, per measure...).

        Examples
        --------
        >>> from fairconv import stats
        >>> frame = stats.randomisation_test([0.5, 0.6, 0.7, 0.4], [0.4, 0.6, 0.5, 0.3]).to_frame()
        >>> frame.columns.tolist()
        ['statistic', 'pvalue', 'exact', 'n_resamples', 'n_topics']
        """
        pd = pandas(type(self).__name__)
        return pd.DataFrame({k: list(v) if not isinstance(v, np.ndarray) else v
                             for k, v in self._table().items()})  # fmt: skip

    def _summary(self) -> list[tuple[str, Any]]:
        """The scalar fields the repr and the HTML caption show, in field order."""
        return [
            (name, getattr(self, name))
            for name in self._fields()
            if not isinstance(getattr(self, name), (Record,))
        ]

    def __repr__(self) -> str:
        parts = [f"{name}={_short(value)}" for name, value in self._summary()]
        text = f"{type(self).__name__}({', '.join(parts)})"
        if len(text) > REPR_LIMIT:
            text = text[: REPR_LIMIT - 5] + " ...)"
        return text

    def _repr_html_(self) -> str:
        """A compact table for notebooks: at most 20 rows and 20 columns, and a caption."""
        scalars = [
            f"{name}={_short(value)}"
            for name, value in self._summary()
            if not isinstance(value, (np.ndarray, list, tuple, Sequence)) or isinstance(value, str)
        ]
        caption = ", ".join(scalars[:12]) + (", ..." if len(scalars) > 12 else "")
        return html_table(self._table(), type(self).__name__, caption)


def html_table(table: Mapping[str, Sequence], title: str, caption: str = "") -> str:
    """Columns as an HTML table of at most 20 rows and 20 columns, saying what it leaves out."""
    names = list(table)
    n_rows = len(next(iter(table.values()))) if table else 0
    shown_cols = names[:HTML_ROWS]
    shown_rows = min(n_rows, HTML_ROWS)
    head = "".join(f"<th>{html.escape(c)}</th>" for c in shown_cols)
    body = "".join(
        "<tr>"
        + "".join(f"<td>{html.escape(_cell(table[c][i]))}</td>" for c in shown_cols)
        + "</tr>"
        for i in range(shown_rows)
    )
    left = []
    if n_rows > shown_rows:
        left.append(f"{n_rows - shown_rows} more rows")
    if len(names) > len(shown_cols):
        left.append(f"{len(names) - len(shown_cols)} more columns")
    note = f"<p>{html.escape('; '.join(left))} not shown</p>" if left else ""
    text = f"<b>{html.escape(title)}</b>" + (f" {html.escape(caption)}" if caption else "")
    return (
        f"<div><p>{text}</p><table><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table>{note}</div>"
    )
