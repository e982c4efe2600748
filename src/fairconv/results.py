"""Per-topic score tables shared by every measure: TSV, dicts and DataFrames.

A :class:`ScoreTable` holds values as an array (topics, runs, measures) with a mask of
the cells that exist (an attribute set covers only some topics). NaN marks an
undefined value (e.g. RIGF when GF-Re = 0): it is printed as ``NaN`` and left out of
the ``all`` mean, and a row ``n[<measure>]`` then says how many topics the mean covers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType
from typing import Any

import numpy as np

from . import _core
from ._files import write_output
from ._validation import (
    _short,
    caller,
    check_int,
    check_mapping,
    check_names,
    check_once,
    check_sequence_of,
    deprecated,
    did_you_mean,
    fail,
    fail_params,
    fail_type,
    first_bad_id,
    first_repeat,
    id_fault,
    kind_of,
    notice,
    public,
    shown,
)

__all__ = [
    "ScoreTable",
    "ScoreMeans",
    "MeasureName",
    "RENAMED",
    "DIRECTIONS",
    "cutoffs_of",
    "direction_of",
    "pick",
]

_WORDS = r"[A-Za-z0-9]+(?:[-*][A-Za-z0-9]+)*"
_NAME = re.compile(
    rf"^(?P<base>{_WORDS})(?:@(?P<cutoff>[1-9][0-9]*))?(?:\[(?P<set>[^\[\]\s]+)\])?$"
)
_BASE = re.compile(rf"^{_WORDS}$")
_WORD = re.compile(r"^[A-Za-z0-9]+$")

RENAMED = {
    "GF_Re": "GF-Re",
    "GF_Gen": "GF-Gen",
    "Recall_NtN": "Recall-NtN",
    "Precision_NtN": "Precision-NtN",
    "Recall_NtR": "Recall-NtR",
}
"""Measure bases that fairconv 1.0 renamed, old -> new (a name given in the old
spelling is an error naming the new one)."""


@dataclass(frozen=True, order=True)
class MeasureName:
    """A measure name in the style of ir_measures: ``BASE[@cutoff][[attribute set]]``.

    ``GFR@10`` is GFR at depth 10, ``GF-JSD@10[M-ORIGIN]`` the GF of attribute set
    M-ORIGIN with JSD at depth 10, ``ERR`` ERR at full depth. BASE is words of letters
    and digits joined by ``-`` (``GF-Re``, ``Recall-NtN``), or by ``*`` for a product
    (``nDCG*AWRF``). Every name fairconv prints is built by :meth:`__str__` (its BASE
    by :meth:`join` when it has several words) and read back by :meth:`parse`.

    Parameters
    ----------
    base : str
        The measure (``GFR``, ``ERR``, ``GF-JSD``, ``RIGF``, ``EGF``...).
    cutoff : int, optional
        The depth; None for full depth.
    attribute : str, optional
        The attribute set, for measures of one set.

    Raises
    ------
    ValueError
        For a BASE outside the grammar (an old name such as ``GF_Re`` names the new one).

    Examples
    --------
    >>> str(MeasureName(MeasureName.join("GF", "JSD"), 10, "M-ORIGIN"))
    'GF-JSD@10[M-ORIGIN]'
    >>> MeasureName.parse("GFR@20")
    MeasureName(base='GFR', cutoff=20, attribute=None)
    """

    base: str
    cutoff: int | None = None
    attribute: str | None = None

    @public
    def __post_init__(self) -> None:
        if not (isinstance(self.base, str) and _BASE.match(self.base)):
            raise ValueError(_not_a_name(self.base))

    def __str__(self) -> str:
        depth = "" if self.cutoff is None else f"@{self.cutoff}"
        group = "" if self.attribute is None else f"[{self.attribute}]"
        return f"{self.base}{depth}{group}"

    @staticmethod
    @public
    def join(*words: str | None, product: bool = False) -> str:
        """A BASE of several words: ``join("GF", "JSD")`` is ``'GF-JSD'``.

        With ``product``, the words are factors: ``join("nDCG", "AWRF", product=True)``
        is ``'nDCG*AWRF'``.

        Examples
        --------
        >>> MeasureName.join("GF", "JSD"), MeasureName.join("nDCG", "AWRF", product=True)
        ('GF-JSD', 'nDCG*AWRF')
        """
        checked = []
        for word in words:
            if not (isinstance(word, str) and _WORD.match(word)):
                raise ValueError(f"{word!r} is not a word of letters and digits")
            checked.append(word)
        return ("*" if product else "-").join(checked)

    @classmethod
    @public
    def parse(cls, name: str, /) -> MeasureName:
        """Read a measure name; ValueError if it is not of the form above.

        Examples
        --------
        >>> MeasureName.parse("GF-JSD@10[M-ORIGIN]")
        MeasureName(base='GF-JSD', cutoff=10, attribute='M-ORIGIN')
        """
        match = _NAME.match(name) if isinstance(name, str) else None
        if match is None:
            raise ValueError(_not_a_name(name))
        cutoff = match["cutoff"]
        return cls(match["base"], None if cutoff is None else int(cutoff), match["set"])


def renamed(name) -> str | None:
    """The 1.0 spelling of a name in an old spelling (``GF_Re@10`` -> ``GF-Re@10``)."""
    if not isinstance(name, str):
        return None
    base, sep, rest = name.partition("@") if "@" in name else name.partition("[")
    return RENAMED[base] + sep + rest if base in RENAMED else None


def _not_a_name(name) -> str:
    new = renamed(name)
    if new is not None:
        return f"{name!r} is now spelled {new!r}"
    return (
        f"{name!r} is not a measure name of the form BASE[@cutoff][[set]], BASE being "
        "words of letters and digits joined by '-' (e.g. 'GFR@10', 'GF-JSD@10[M-ORIGIN]')"
    )


def unknown_measure(name, valid: Sequence[str]) -> str:
    """A measure name that is not among ``valid``, described for a message.

    An old spelling names the new one; a name within one insertion, deletion,
    substitution or swap of adjacent letters of a valid one (case-insensitive) gets
    "did you mean"; else it is the name alone (the caller lists the valid ones).
    """
    new = renamed(name)
    if new is not None:
        return f"{name!r}, the old spelling of {new!r}"
    if isinstance(name, str):
        hint = did_you_mean(name, valid, ignore_case=True)
        if hint:
            return f"{name!r} ({hint.strip()})"
    return repr(name)


@public
def cutoffs_of(measures: Sequence[str], /) -> tuple[int, ...]:
    """The depths that measure names ask for (``GFR@10`` -> 10), sorted.

    Raises
    ------
    ValueError
        For a name that is not of the form ``BASE[@cutoff][[set]]``.

    Examples
    --------
    >>> cutoffs_of(["GFR@20", "ERR@10", "GF-JSD@10[M-ORIGIN]", "iRBU"])
    (10, 20)
    """
    names = []
    for m in check_names(measures, "measures", "measure names"):
        try:
            names.append(MeasureName.parse(m))
        except ValueError as exc:
            raise fail_params(
                "measures", "hold valid measure names", repr(m), hint=str(exc)
            ) from None
    return tuple(sorted({n.cutoff for n in names if n.cutoff is not None}))


DIRECTIONS = ("higher", "lower", "undirected")
"""Which way a measure points: a higher value is better, a lower one, or neither (a
descriptive statistic such as rankfair's ``LTwo``: scored and tested, never ranked)."""

_LOWER_IS_BETTER = frozenset({"EE-L", "EE-D", "NDKL", "rND", "rKL", "rRD", "IAA"})
"""fairconv's lower-is-better measure bases (a base may add words: ``EE-L-gERR``)."""
_EXPOSURE_STATISTICS = frozenset({"EXP", "EXPU", "EXPRU", "ATT", "ERBE", "ERBP", "ERBR", "ARP"})
_META_DIRECTIONS = {
    "MinMaxRatio": "higher",
    "MaxMinRatio": "lower",
    "MaxMinDiff": "lower",
    "MaxAbsDiff": "lower",
    "MeanAbsDev": "lower",
    "LTwo": "undirected",
    "Variance": "lower",
}
"""The direction of a ``STAT-M`` exposure measure is that of its meta-metric M."""


@public
def direction_of(measure: str, /) -> str:
    """The direction of one of fairconv's measure names; ``'higher'`` for other names.

    Parameters
    ----------
    measure : str
        A measure name as fairconv prints it (``GFR@10``, ``EE-D[geo]``), or any other
        tool's name (``ndcg_cut_10``: higher is better unless the user says otherwise).

    Returns
    -------
    {'higher', 'lower', 'undirected'}
        Whether a higher value is better, a lower one, or neither.

    Examples
    --------
    >>> direction_of("GFR@10"), direction_of("EE-D[geo]"), direction_of("P_10")
    ('higher', 'lower', 'higher')
    """
    try:
        words = MeasureName.parse(measure).base.split("-")
    except ValueError:
        return "higher"
    if len(words) == 2 and words[0] in _EXPOSURE_STATISTICS and words[1] in _META_DIRECTIONS:
        return _META_DIRECTIONS[words[1]]
    for k in range(1, len(words) + 1):
        if "-".join(words[:k]) in _LOWER_IS_BETTER:
            return "lower"
    return "higher"


def check_directions(given, measures: Sequence[str], listed: str) -> dict[str, str]:
    """A ``directions=`` mapping, checked; None is ``{}``.

    Each key is one of ``measures`` (``listed`` as a message lists them: "the table (A,
    B)"), each value one of :data:`DIRECTIONS`. The one rule of a direction given by
    the user, for tables and the score readers alike.
    """
    if given is None:
        return {}
    given = check_mapping(given, "directions", "measure names", "directions")
    unknown = [m for m in given if m not in set(measures)]
    if unknown:
        raise fail(
            "directions", f"name measures of {listed}", unknown_measure(unknown[0], measures)
        )
    for m, d in given.items():
        if d not in DIRECTIONS:
            raise fail(
                "directions",
                f"give each measure one of {', '.join(DIRECTIONS)}",
                f"{d!r} for {m!r}",
            )
    return dict(given)


def _directions(measures: tuple, given) -> MappingProxyType:
    """Each measure's direction: as given (a mapping), else fairconv's (direction_of)."""
    given = check_directions(given, measures, f"the table ({_listed(measures, 80)})")
    return MappingProxyType({m: given.get(m) or direction_of(m) for m in measures})


@public
def pick(table: ScoreTable, measures: Sequence[str] | None, /) -> ScoreTable:
    """The table of the measures asked for (all when None), in the order asked.

    Raises
    ------
    ValueError
        For an unknown name; the message lists the valid ones.

    Examples
    --------
    >>> from fairconv import gfr
    >>> from fairconv.datasets import fairweb1_pilot
    >>> p = fairweb1_pilot()
    >>> table = gfr.evaluate(p.qrels, p.runs, p.attributes, cutoffs=[10])
    >>> pick(table, ["GFR@10", "ERR@10"]).measures
    ('GFR@10', 'ERR@10')
    """
    if measures is None:
        return table
    names = list(measures)
    unknown = [m for m in names if m not in table.measures]
    if unknown or not names:
        raise fail(
            "measures",
            f"name measures it computes ({', '.join(table.measures)})",
            ", ".join(unknown_measure(m, table.measures) for m in unknown) or "none",
        )
    return table[names]


def few(ids: Sequence, limit: int = 5) -> str:
    """The first ``limit`` ids, and how many more (``P001, P003 and 4 more``)."""
    shown = ", ".join(map(str, ids[:limit]))
    return shown + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


def notice_missing_topics(
    topics: Sequence[str], runs: Sequence[str], missing: np.ndarray, /, *, item: str, action: str
) -> dict[str, int]:
    """The one notice of every family for a run that lacks topics it scores.

    One :class:`~fairconv.FairconvWarning` per run lacking some: "run 'bm25' has no
    ranked list for 2 of the 50 topics scored (P001, P003): they score 0 there".

    Parameters
    ----------
    topics, runs : sequence of str
        The topics scored and the runs.
    missing : ndarray of bool, shape (topics, runs)
        Where a run has no ``item`` for a topic.
    item : str
        What the run lacks: ``"ranked list"``, ``"conversation"``, ``"answer"``...
    action : str
        What the family did there: ``"they score 0 there"`` or ``"they are left out,
        as the official evaluation leaves them out"``.

    Returns
    -------
    dict of str to int
        Per run, the number of topics it lacks (0 for a run lacking none): the
        ``topics_missing`` entry of :attr:`ScoreTable.notices`.
    """
    ids = np.asarray(topics, dtype=object)
    counts = missing.sum(axis=0)
    for r in np.flatnonzero(counts).tolist():
        gone = list(ids[missing[:, r]])
        notice(
            f"run {runs[r]!r} has no {item} for {len(gone)} of the {len(topics)} topics "
            f"scored ({few(gone)}): {action}"
        )
    return dict(zip(runs, counts.tolist(), strict=True))


def notice_partial_topics(
    present: np.ndarray, topics: Sequence[str], measures: Sequence[str], runs: Sequence[str], /
) -> dict[str, Any]:
    """The one notice of a table whose runs have a measure on different topics.

    Given by the tables gathered from several sources (:func:`fairconv.io.read_scores`,
    :meth:`ScoreTable.concat`): one :class:`~fairconv.FairconvWarning` when some runs
    have a measure on topics where other runs lack it, counting the topics per measure.

    Parameters
    ----------
    present : ndarray of bool, shape (topics, runs, measures)
        The cells that exist.
    topics, runs, measures : sequence of str
        Their names.

    Returns
    -------
    dict
        For :attr:`ScoreTable.notices`: ``{"topics_missing_by_measure": {measure:
        topics lacking a value for some run}}`` for each such measure; empty when none.
    """
    measures = list(measures)
    some = np.asarray(present.any(axis=1))  # (topics, measures)
    every = np.asarray(present.all(axis=1))
    partial = (some & ~every).sum(axis=0)
    counts = {m: int(n) for m, n in zip(measures, partial.tolist(), strict=True) if n}
    if counts:
        i = measures.index(next(iter(counts)))
        t = int(np.flatnonzero(some[:, i] & ~every[:, i])[0])
        lacking = [runs[r] for r in np.flatnonzero(~present[t, :, i])[:3]]
        said = ", ".join(
            f"{m}: {n} of {int(some[:, measures.index(m)].sum())} topic(s)"
            for m, n in list(counts.items())[:3]
        )
        more = f" and {len(counts) - 3} more measure(s)" if len(counts) > 3 else ""
        notice(
            f"{caller()}: some runs lack a value on topics that others have ({said}{more}; "
            f"first: topic {topics[t]!r} of {measures[i]}, runs {', '.join(lacking)}); "
            "analyses of all runs use the topics every run has"
        )
    return {"topics_missing_by_measure": counts} if counts else {}


def _column_values(v, name: str, shape: tuple[int, int]) -> np.ndarray:
    """A measure's values for :meth:`ScoreTable.from_columns`: numbers of the table's shape.

    Numbers (not strings or other objects; None is NaN) of shape (topics, runs), or of
    a shape that broadcasts to it; else an error naming the measure (never numpy's own).
    """
    arr = np.asarray(v)
    if arr.dtype.kind not in "biuf":
        try:
            if arr.dtype.kind != "O":
                raise TypeError
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise fail_type(
                "columns",
                "give each measure's values as numbers",
                f"{arr.dtype.name if arr.dtype.kind != 'O' else 'objects'} for {name!r}",
            ) from None
    try:
        return np.broadcast_to(arr, shape)
    except ValueError:
        raise fail(
            "columns",
            f"give each measure's values of shape {shape} (topics, runs), or one that "
            "broadcasts to it",
            f"shape {arr.shape} for {name!r}",
        ) from None


def _unknown(kind: str, name, valid: Sequence[str]) -> KeyError:
    return KeyError(f"unknown {kind} {shown(name)}; valid {kind}s: {', '.join(map(repr, valid))}")


REPR_LIMIT = 500
"""The most characters ``repr`` of a table (or of its means) prints."""
HTML_RUNS = 20
"""The most runs the HTML table of a notebook shows (rows)."""
HTML_MEASURES = 12
"""The most measures the HTML table of a notebook shows (columns: about a notebook's width)."""
DECIMALS = 4
"""The decimals of the means a notebook shows (:meth:`ScoreTable.display` sets others)."""


def _clip(name: str, room: int = 24) -> str:
    """A name cut to ``room`` characters (an ellipsis marks the cut)."""
    return name if len(name) <= room else name[: room - 1] + "…"


def _listed(names: Sequence[str], room: int) -> str:
    """Names joined by commas within about ``room`` characters, then how many are left."""
    shown: list[str] = []
    used = 0
    for i, name in enumerate(names):
        text = _clip(str(name))
        if shown and used + len(text) + 2 > room:
            return ", ".join(shown) + f", … (+{len(names) - i})"
        shown.append(text)
        used += len(text) + 2
    return ", ".join(shown)


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _number(value: float) -> str:
    return "NaN" if np.isnan(value) else f"{value:.4g}"


class ScoreMeans(Mapping):
    """The ``all`` values of a :class:`ScoreTable` by name: ``{run: {measure: value}}``.

    A read-only mapping, as :meth:`ScoreTable.means` returns it: ``means["bm25"]["P_5"]``,
    ``means.items()`` and comparison with a dict work as on the dict itself; its
    ``repr`` is short and a notebook shows it as a table. :meth:`to_dict` gives the
    plain dict. An undefined mean is ``None``; a run lists only the measures that
    exist on some topic of it.

    Examples
    --------
    >>> import numpy as np
    >>> values = np.array([[0.4], [0.8]])
    >>> table = ScoreTable.from_items(["bm25", "bm25"], ["q1", "q2"], ["P@5"], values)
    >>> means = table.means()
    >>> round(means["bm25"]["P@5"], 4)
    0.6
    """

    def __init__(self, table: ScoreTable):
        mean, count = table.mean()
        exists = np.asarray(table.present.any(axis=0))  # (runs, measures)
        self._table = table
        self._mean, self._count = mean, count
        self._data = {
            run: {m: _plain(mean[r, i]) for i, m in enumerate(table.measures) if exists[r, i]}
            for r, run in enumerate(table.runs)
        }

    def __getitem__(self, run: str) -> dict[str, float | None]:
        return self._data[run]

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    @public
    def to_dict(self) -> dict[str, dict[str, float | None]]:
        """The means as a plain dict ``{run: {measure: value}}`` (a copy).

        Examples
        --------
        >>> import numpy as np
        >>> values = np.array([[0.5], [1.0]])
        >>> table = ScoreTable.from_items(["bm25", "bm25"], ["q1", "q2"], ["P@5"], values)
        >>> table.means().to_dict()
        {'bm25': {'P@5': 0.75}}
        """
        return {run: dict(per) for run, per in self._data.items()}

    def __repr__(self) -> str:
        t = self._table
        parts = []
        for r, run in enumerate(t.runs[:3]):
            cells = ", ".join(
                f"{_clip(m, 16)}={_number(self._mean[r, i])}" for i, m in enumerate(t.measures[:3])
            )
            parts.append(f"{_clip(run)}: {cells}")
        more = "" if len(t.runs) <= 3 and len(t.measures) <= 3 else "; …"
        text = (
            f"ScoreMeans({_count(len(t.runs), 'run')} x {_count(len(t.measures), 'measure')}; "
            + "; ".join(parts)
            + more
            + ")"
        )
        return text if len(text) <= REPR_LIMIT else text[: REPR_LIMIT - 2] + "…)"

    def _repr_html_(self) -> str:
        return self.display()._repr_html_()

    @public
    def display(self, *, decimals: int = DECIMALS) -> Shown:
        """The means as a notebook shows them, with ``decimals`` decimals.

        As :meth:`ScoreTable.display`.

        Parameters
        ----------
        decimals : int
            Decimals of every mean, 0 to 17 (4 by default).

        Returns
        -------
        Shown
            What a notebook shows as the table (its ``_repr_html_``).

        Examples
        --------
        >>> import numpy as np
        >>> table = ScoreTable.from_items(["bm25"], ["q1"], ["P@5"], np.array([[2 / 3]]))
        >>> "0.667" in table.means().display(decimals=3)._repr_html_()
        True
        """
        decimals = check_int(decimals, "decimals", minimum=0, maximum=17)
        return Shown(self._table, self._mean, self._count, "Means over topics", decimals)


class Shown:
    """A score table's means as a notebook shows them (:meth:`ScoreTable.display`).

    The measures with a cutoff come first (those of all attribute sets before those
    of one set), full depth last; each mean has fixed decimals; a count of topics is
    shown only where it differs from the table's (said once, in the caption): in a
    column's header when every run shown has it, else in the cell; long names are
    shortened, the whole name in a tooltip. At most :data:`HTML_RUNS` runs and
    :data:`HTML_MEASURES` measures are shown, the caption saying how many are left out.
    Display only: the TSV, JSON and other outputs keep the table's order and precision.
    """

    def __init__(self, table, mean, count, title: str, decimals: int):
        self._table, self._mean, self._count = table, mean, count
        self._title, self._decimals = title, decimals

    def __repr__(self) -> str:
        t = self._table
        return (
            f"Shown({self._title}: {_count(len(t.runs), 'run')} x "
            f"{_count(len(t.measures), 'measure')}, {self._decimals} decimals)"
        )

    def _repr_html_(self) -> str:
        from html import escape

        t, decimals = self._table, self._decimals
        order = shown_order(t.measures)
        runs, columns = range(min(len(t.runs), HTML_RUNS)), order[:HTML_MEASURES]
        topics = len(t.topics)
        heads, counts = [], []
        for i in columns:
            column = self._count[: len(runs), i]
            shared = len(column) > 0 and bool((column == column[0]).all())
            usual = int(column[0]) if shared else topics  # the column's count, said once
            counts.append(usual)
            name = t.measures[i]
            tip = name + _POINTING[t.directions[name]]
            note = "" if usual == topics else f"<br><small>n={usual}</small>"
            heads.append(f'<th title="{escape(tip)}">{escape(_short_measure(name))}{note}</th>')
        rows = []
        for r in runs:
            cells = []
            for k, i in enumerate(columns):
                n = int(self._count[r, i])
                note = "" if n == counts[k] else f" <small>(n={n})</small>"
                cells.append(f"<td>{_fixed(self._mean[r, i], decimals)}{note}</td>")
            run = t.runs[r]
            rows.append(
                f'<tr><th title="{escape(run)}">{escape(_clip(run))}</th>{"".join(cells)}</tr>'
            )
        left = []
        if len(t.runs) > HTML_RUNS:
            left.append(f"{len(t.runs) - HTML_RUNS} more runs")
        if len(t.measures) > HTML_MEASURES:
            hidden = [t.measures[i] for i in order[HTML_MEASURES:]]
            left.append(f"{len(hidden)} more measures ({_listed(hidden, 60)})")
        note = (
            f"; not shown: {' and '.join(left)} (select with table[...] or select())"
            if left
            else ""
        )
        caption = (
            f"{self._title}: {_count(len(t.runs), 'run')}, {_count(topics, 'topic')} "
            f"(each mean over the {topics}, or over the n shown), "
            f"{_count(len(t.measures), 'measure')}{note}"
        )
        return (
            f"<table><caption>{escape(caption)}</caption><thead><tr><th>run</th>"
            f"{''.join(heads)}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )


_POINTING = {"higher": "", "lower": " (lower is better)", "undirected": " (neither way is better)"}
"""A measure's direction in its header's tooltip (higher-is-better goes without saying)."""


def shown_order(measures: Sequence[str]) -> list[int]:
    """The positions of ``measures`` in the order a notebook shows them.

    Measures with a cutoff first (those of all attribute sets, then those of one),
    full depth last, each group in the table's order; a name that is not fairconv's
    (``ndcg_cut_10``) counts as one with a cutoff, of all sets.
    """

    def key(i: int):
        try:
            name = MeasureName.parse(measures[i])
        except ValueError:
            return (0, 0, i)
        return (name.cutoff is None, name.attribute is not None, i)

    return sorted(range(len(measures)), key=key)


def _short_measure(name: str, room: int = 24) -> str:
    """A measure name for a header: a long attribute-set list cut (``EE-D[geo,gen…]``)."""
    try:
        parsed = MeasureName.parse(name)
    except ValueError:
        return _clip(name, room)
    if parsed.attribute is None or len(name) <= room:
        return _clip(name, room)
    head = str(MeasureName(parsed.base, parsed.cutoff))
    keep = max(4, room - len(head) - 2)
    return f"{head}[{_clip(parsed.attribute, keep)}]"


def _fixed(value: float, decimals: int) -> str:
    """A mean with fixed decimals; ``NaN`` where undefined."""
    return "NaN" if np.isnan(value) else f"{value:.{decimals}f}"


@dataclass(frozen=True, eq=False, kw_only=True)
class ScoreTable:
    """Scores of several runs on several topics.

    Built by keyword (``ScoreTable(topics=..., runs=..., measures=..., values=...,
    present=...)``); the arrays' shapes are checked against the names.

    Attributes
    ----------
    topics, runs, measures : tuple of str
    values : ndarray, shape (len(topics), len(runs), len(measures))
        Higher is better for every fairconv score; NaN where undefined. Topics lead and
        runs follow, as in every array of fairconv.
    present : ndarray of bool, same shape
        Which cells exist (a measure of an attribute set exists on the topics it covers).
    overall : ndarray, shape (len(runs), len(measures)), optional
        The ``all`` values when they are not the mean over topics (e.g. pooled ratios).
    notices : mapping, optional
        Counts behind the notices a scoring call gives, by kind (e.g.
        ``topics_scored``, ``topics_missing``, ``topics_without_fairness``), filled by
        the function that builds the table; empty when there is nothing to say. Read
        only; the TSV and JSON outputs do not include it.
    directions : mapping of str to str, optional
        Each measure's direction (:data:`DIRECTIONS`): ``'higher'`` (a higher value is
        better), ``'lower'`` or ``'undirected'``. Measures not given take fairconv's
        own (:func:`direction_of`: ``EE-D`` is lower-is-better, another tool's name
        higher-is-better). The analyses (``stats.compare``, ``stats.report``,
        ``agreement.agree``, the plots) rank runs by it.

    Examples
    --------
    >>> import numpy as np
    >>> table = ScoreTable(
    ...     topics=("q1", "q2"), runs=("bm25",), measures=("P@5",),
    ...     values=np.array([[[0.5]], [[1.0]]]), present=np.ones((2, 1, 1), dtype=bool),
    ... )
    >>> table.value("bm25", "q2", "P@5"), table.value("bm25", "all", "P@5")
    (1.0, 0.75)
    """

    topics: tuple
    runs: tuple
    measures: tuple
    values: np.ndarray
    present: np.ndarray
    overall: np.ndarray | None = None
    notices: Mapping[str, Any] = field(default_factory=dict)
    directions: Mapping[str, str] = field(default_factory=dict)

    @public
    def __post_init__(self) -> None:
        for name in ("topics", "runs", "measures"):
            given = tuple(getattr(self, name))
            names = as_names(given, name)
            repeat = None if len(set(names)) == len(names) else first_repeat(names)
            if repeat is not None:
                i, j = repeat
                raise _fault(name, "hold distinct names", _same_name(given[i], given[j]))
            bad = first_bad_id(names)
            if bad >= 0:
                raise _fault(
                    name,
                    f"hold names that the score readers read back (each must "
                    f"{id_fault(names[bad])})",
                    f"{names[bad]!r} at position {bad}",
                )
            object.__setattr__(self, name, tuple(names))
        if "all" in self.topics:
            raise fail_params(
                "topics",
                "not hold the topic id 'all', which names the mean in every score output",
                "'all'",
                hint="rename the topic",
            )
        shape = (len(self.topics), len(self.runs), len(self.measures))
        for name in ("values", "present"):
            array = getattr(self, name)
            if not isinstance(array, np.ndarray) or array.shape != shape:
                got = getattr(array, "shape", type(array).__name__)
                raise fail(
                    name, f"be an array of shape (topics, runs, measures) = {shape}", f"{got}"
                )
        if self.present.dtype != bool:
            raise fail_type("present", "be a boolean array", f"dtype {self.present.dtype}")
        if self.values.dtype.kind not in "biuf":
            raise fail_type("values", "be an array of real numbers", f"dtype {self.values.dtype}")
        if self.overall is not None and np.shape(self.overall) != shape[1:]:
            raise fail(
                "overall",
                f"be an array of shape (runs, measures) = {shape[1:]}",
                f"{np.shape(self.overall)}",
            )
        self._refuse_infinite()
        object.__setattr__(self, "notices", MappingProxyType(dict(self.notices)))
        object.__setattr__(self, "directions", _directions(self.measures, self.directions))

    def _refuse_infinite(self) -> None:
        """No value is infinite: a score is a finite number, or NaN where undefined."""
        rule = "hold finite numbers, or NaN where a value is undefined"
        infinite = np.isinf(self.values)
        infinite &= self.present
        if infinite.any():
            t, r, m = np.argwhere(infinite)[0]
            raise _fault(
                "values",
                rule,
                f"{float(self.values[t, r, m])!r} for run {self.runs[r]!r}, topic "
                f"{self.topics[t]!r} and measure {self.measures[m]!r}",
            )
        if self.overall is not None:
            overall = np.asarray(self.overall, dtype=float)
            if np.isinf(overall).any():
                r, m = np.argwhere(np.isinf(overall))[0]
                raise _fault(
                    "overall",
                    rule,
                    f"{float(overall[r, m])!r} for run {self.runs[r]!r} and measure "
                    f"{self.measures[m]!r}",
                )

    @classmethod
    @public
    def from_items(
        cls,
        runs: Sequence[str],
        topics: Sequence[str],
        measures: Sequence[str],
        values: np.ndarray,
        /,
        *,
        missing: float = 0.0,
        sources=None,
    ) -> ScoreTable:
        """One (run, topic) cell per item (e.g. a conversation); ``values`` (items, M).

        Runs keep their order of first appearance and topics are sorted. A run without
        a topic that another run has scores ``missing`` there (0, as a run that returns
        nothing). Two items for the same (run, topic) are an error.

        Examples
        --------
        >>> import numpy as np
        >>> values = np.array([[0.5], [1.0], [0.25]])
        >>> runs, topics = ["bm25", "bm25", "qld"], ["q1", "q2", "q1"]
        >>> table = ScoreTable.from_items(runs, topics, ["P@5"], values)
        >>> table.runs, table.topics, table.value("qld", "q2", "P@5")
        (('bm25', 'qld'), ('q1', 'q2'), 0.0)
        """
        runs, topics = as_names(runs, "runs"), as_names(topics, "topics")
        run_names = tuple(dict.fromkeys(runs))
        topic_names = tuple(sorted(set(topics)))
        r_index = {r: i for i, r in enumerate(run_names)}
        t_index = {t: i for i, t in enumerate(topic_names)}
        r = np.fromiter(map(r_index.__getitem__, runs), np.int64, len(runs))
        t = np.fromiter(map(t_index.__getitem__, topics), np.int64, len(topics))
        cell = t * len(run_names) + r
        _, first, counts = np.unique(cell, return_index=True, return_counts=True)
        if (counts > 1).any():
            dup = np.flatnonzero(cell == cell[first[np.argmax(counts > 1)]])
            where = "" if sources is None else f" ({sources[dup[0]]} and {sources[dup[1]]})"
            raise ValueError(
                f"run {runs[dup[0]]!r} has two entries for topic {topics[dup[0]]!r}{where}"
            )
        table = np.full((len(topic_names), len(run_names), len(measures)), float(missing))
        table[t, r] = values
        present = np.ones(table.shape, dtype=bool)
        return cls(
            topics=topic_names,
            runs=run_names,
            measures=tuple(measures),
            values=table,
            present=present,
        )

    @classmethod
    @public
    def from_columns(
        cls,
        topics: Sequence[str],
        runs: Sequence[str],
        columns,
        /,
        *,
        notices: Mapping[str, Any] | None = None,
        directions: Mapping[str, str] | None = None,
    ) -> ScoreTable:
        """A table from its measures' columns: ``(measure, values, present)`` triples.

        The way every family builds its table: each measure's values and the cells
        where it exists, in output order, written once into the table's arrays.

        Parameters
        ----------
        topics, runs : sequence of str
        columns : iterable of (str or MeasureName, array_like, array_like or None)
            Per measure, its name, its values (topics, runs) (or anything that
            broadcasts to it) and the cells where it exists: None (everywhere), a bool
            array (topics,) (the topics where it exists, for every run) or (topics,
            runs).
        notices : mapping, optional
            As :attr:`notices`.
        directions : mapping of str to str, optional
            As :attr:`directions`.

        Returns
        -------
        ScoreTable

        Examples
        --------
        >>> import numpy as np
        >>> on_q1 = np.array([True, False])
        >>> cols = [("ERR", [[0.5], [0.25]], None), ("GF-JSD[A]", [[0.8], [0.0]], on_q1)]
        >>> table = ScoreTable.from_columns(["q1", "q2"], ["bm25"], cols)
        >>> table.measures, table.present[:, 0, 1].tolist()
        (('ERR', 'GF-JSD[A]'), [True, False])
        """
        columns = list(columns)
        shape = (len(topics), len(runs), len(columns))
        values = np.empty(shape)
        present = np.empty(shape, dtype=bool)
        names = []
        for i, (name, v, where) in enumerate(columns):
            names.append(str(name))
            values[:, :, i] = _column_values(v, str(name), shape[:2])
            if where is None:
                present[:, :, i] = True
            else:
                where = np.asarray(where, dtype=bool)
                present[:, :, i] = where[:, None] if where.ndim == 1 else where
        return cls(
            topics=tuple(topics),
            runs=tuple(runs),
            measures=tuple(names),
            values=values,
            present=present,
            notices={} if notices is None else notices,
            directions={} if directions is None else directions,
        )

    def __reduce__(self):
        """Pickle by the fields (the read-only ``notices`` view as a plain dict)."""
        return (_rebuilt, (self._fields(),))

    def _fields(self) -> dict[str, Any]:
        return dict(
            topics=self.topics,
            runs=self.runs,
            measures=self.measures,
            values=self.values,
            present=self.present,
            overall=self.overall,
            notices=dict(self.notices),
            directions=dict(self.directions),
        )

    def _replace(self, **changes) -> ScoreTable:
        fields = self._fields()
        if "measures" in changes and "directions" not in changes:
            fields["directions"] = {m: self.directions[m] for m in changes["measures"]}
        fields.update(changes)
        return ScoreTable(**fields)

    def _index(self, kind: str, name) -> int:
        names = getattr(self, kind + "s")
        try:
            return names.index(name)
        except ValueError:
            if kind == "measure":
                valid = ", ".join(map(repr, names))
                what = unknown_measure(name, names)
                raise KeyError(f"unknown measure {what}; valid measures: {valid}") from None
            raise _unknown(kind, name, names) from None

    @public
    def value(self, run: str, topic: str, measure: str, /) -> float:
        """One score; ``topic="all"`` gives the mean over topics.

        Raises
        ------
        KeyError
            For an unknown run, topic or measure (the message lists the valid names),
            or a cell that does not exist (an attribute set not covering the topic).

        Examples
        --------
        >>> import numpy as np
        >>> values = np.array([[0.5], [1.0]])
        >>> table = ScoreTable.from_items(["bm25", "bm25"], ["q1", "q2"], ["P@5"], values)
        >>> table.value("bm25", "q1", "P@5"), table.value("bm25", "all", "P@5")
        (0.5, 0.75)
        """
        r, m = self._index("run", run), self._index("measure", measure)
        if topic == "all":
            return float(self.mean()[0][r, m])
        t = self._index("topic", topic)
        if not self.present[t, r, m]:
            raise KeyError(f"{measure} is not defined on topic {topic!r} of run {run!r}")
        return float(self.values[t, r, m])

    def __getitem__(self, measure: str | Sequence[str]) -> ScoreTable:
        """The table of one measure (or of a list of measures), e.g. ``table["GFR@10"]``.

        Raises
        ------
        KeyError
            For an unknown measure; the message lists the valid ones.
        """
        names = [measure] if isinstance(measure, str) else list(measure)
        repeat = first_repeat(names)
        if repeat is not None:
            raise ValueError(
                f"table[...] names the measure {names[repeat[1]]!r} twice; name each once"
            )
        cols = [self._index("measure", m) for m in names]
        return self._replace(
            measures=tuple(names),
            values=self.values[:, :, cols],
            present=self.present[:, :, cols],
            overall=None if self.overall is None else self.overall[:, cols],
        )

    @public
    def select(
        self, *, runs: Sequence[str] | None = None, topics: Sequence[str] | None = None
    ) -> ScoreTable:
        """The table restricted to some runs and/or topics (in the order given).

        Parameters
        ----------
        runs, topics : sequence of str, optional
            The runs and topics to keep, each once; all when None.

        Returns
        -------
        ScoreTable

        Raises
        ------
        KeyError
            An unknown run or topic (the message lists the valid names).
        ValueError
            A run or topic named twice (it would count twice in every mean and test),
            or topics of a table whose ``all`` values are pooled.

        Examples
        --------
        >>> import numpy as np
        >>> values = np.array([[0.5], [1.0]])
        >>> table = ScoreTable.from_items(["a", "b"], ["q1", "q1"], ["P@5"], values)
        >>> table.select(runs=["b"]).runs
        ('b',)
        """
        for name, given in (("runs", runs), ("topics", topics)):
            if given is not None:
                check_names(given, name, name[:-1] + " names")
                check_once(given, name, what=name[:-1])
        r = list(range(len(self.runs))) if runs is None else [self._index("run", x) for x in runs]
        t = (
            list(range(len(self.topics)))
            if topics is None
            else [self._index("topic", x) for x in topics]
        )
        if self.overall is not None and topics is not None:
            raise ValueError("a table whose 'all' values are pooled cannot be cut by topic")
        return self._replace(
            topics=tuple(self.topics[i] for i in t),
            runs=tuple(self.runs[i] for i in r),
            values=self.values[np.ix_(t, r)],
            present=self.present[np.ix_(t, r)],
            overall=None if self.overall is None else self.overall[r],
        )

    @public
    def means(self) -> ScoreMeans:
        """The ``all`` values by name: ``{run: {measure: value}}`` (None if undefined).

        Returns
        -------
        ScoreMeans
            A read-only mapping with a short ``repr`` and an HTML table in a notebook;
            ``means().to_dict()`` is the plain dict. Only measures that exist on some
            topic of a run are listed for it.

        Examples
        --------
        >>> import numpy as np
        >>> values = np.array([[0.5], [1.0]])
        >>> table = ScoreTable.from_items(["bm25", "bm25"], ["q1", "q2"], ["P@5"], values)
        >>> table.means()["bm25"]
        {'P@5': 0.75}
        """
        return ScoreMeans(self)

    @public
    def mean(self):
        """Mean over the topics where a cell exists and is defined, and the count.

        The ``overall`` values take the mean's place when the table has them. Both
        arrays have shape (runs, measures); the mean is NaN where count is 0.

        Examples
        --------
        >>> import numpy as np
        >>> values = np.array([[0.5, np.nan], [1.0, 0.25]])
        >>> table = ScoreTable.from_items(["bm25", "bm25"], ["q1", "q2"], ["P@5", "AP"], values)
        >>> mean, count = table.mean()
        >>> mean.tolist(), count.tolist()
        ([[0.75, 0.25]], [[2, 1]])
        """
        defined = self.present & ~np.isnan(self.values)
        count = defined.sum(axis=0)
        if self.overall is not None:
            return self.overall, count
        return _core.defined_means(self.values, defined, count), count

    def __repr__(self) -> str:
        mean, _ = self.mean()
        shown = []
        for r, run in enumerate(self.runs[:2]):
            for i, m in enumerate(self.measures[:2]):
                shown.append(f"{_clip(run, 16)} {_clip(m, 16)}={_number(mean[r, i])}")
        extra = "" if len(self.runs) <= 2 and len(self.measures) <= 2 else ", …"
        text = (
            f"ScoreTable({_count(len(self.topics), 'topic')} x {_count(len(self.runs), 'run')} "
            f"x {_count(len(self.measures), 'measure')}; "
            f"runs: {_listed(self.runs, 90)}; measures: {_listed(self.measures, 110)}; "
            f"means: {', '.join(shown)}{extra})"
        )
        return text if len(text) <= REPR_LIMIT else text[: REPR_LIMIT - 2] + "…)"

    def _repr_html_(self) -> str:
        return self.display()._repr_html_()

    @public
    def display(self, *, decimals: int = DECIMALS) -> Shown:
        """The table as a notebook shows it: means by run and measure, fixed decimals.

        A notebook shows a table this way with 4 decimals; ``table.display(decimals=3)``
        shows it with 3. The measures with a cutoff come first (those of all
        attribute sets before those of one set), full depth last; a count of topics
        (n) is shown only where it differs from the table's, said once in the caption
        (in a column's header when its every run has it); long attribute-set lists
        are shortened, the whole name (and a lower-is-better direction) in a
        tooltip. At most :data:`HTML_RUNS` runs and :data:`HTML_MEASURES` measures,
        the caption naming those left out. Display only: :meth:`to_tsv`,
        :meth:`to_json` and the other outputs keep the table's order and precision.

        Parameters
        ----------
        decimals : int
            Decimals of every mean, 0 to 17 (4 by default).

        Returns
        -------
        Shown
            What a notebook shows as the table (its ``_repr_html_``).

        Raises
        ------
        ValueError
            ``decimals`` that is not an integer from 0 to 17.

        Examples
        --------
        >>> import numpy as np
        >>> values = np.array([[1 / 3, 0.5], [2 / 3, 0.25]])
        >>> table = ScoreTable.from_items(["bm25", "bm25"], ["q1", "q2"], ["ERR", "ERR@10"], values)
        >>> html = table.display(decimals=3)._repr_html_()
        >>> html.index("ERR@10") < html.index(">ERR<"), "0.500" in html  # cutoff first
        (True, True)
        """
        decimals = check_int(decimals, "decimals", minimum=0, maximum=17)
        mean, count = self.mean()
        return Shown(self, mean, count, "ScoreTable, means over topics", decimals)

    @public
    def join(self, *others: ScoreTable) -> ScoreTable:
        """The table beside others of the same runs, with other measures.

        Tables from fairconv and tables read from other tools' files combine, e.g.
        ``gfr_table.join(fairconv.io.read_scores({"bm25": "bm25.trec_eval"}))``.
        Measures follow in the order of the tables, and topics are the union of the
        tables' topics (sorted): a measure exists only on the topics of its table.

        Parameters
        ----------
        *others : ScoreTable
            The tables to add.

        Returns
        -------
        ScoreTable
            Runs in this table's order; the ``notices`` of every table.

        Raises
        ------
        TypeError
            Something that is not a ScoreTable.
        ValueError
            Tables with other runs (the message names runs that one table lacks), a
            measure in two tables (the same run, topic and measure twice), or tables
            that share no topic.

        Warns
        -----
        FairconvWarning
            When the tables' topics overlap only in part: how many topics each table
            lacks, and the first of them.

        See Also
        --------
        concat : tables of other runs.

        Examples
        --------
        >>> import numpy as np
        >>> ones = np.ones((2, 1, 1))
        >>> a = ScoreTable(topics=("q1", "q2"), runs=("r",), measures=("GFR@10",),
        ...                values=ones / 2, present=ones > 0)
        >>> b = ScoreTable(topics=("q1", "q2"), runs=("r",), measures=("ndcg_cut_10",),
        ...                values=ones / 4, present=ones > 0)
        >>> a.join(b).measures
        ('GFR@10', 'ndcg_cut_10')
        """
        tables = [self, *check_sequence_of(others, ScoreTable, "others")]
        runs = set(self.runs)
        for i, t in enumerate(others):
            if set(t.runs) != runs:
                lack = [r for r in self.runs if r not in set(t.runs)]
                extra = [r for r in t.runs if r not in runs]
                what = []
                if lack:
                    what.append(f"it lacks {_listed(lack, 80)}")
                if extra:
                    what.append(f"it has {_listed(extra, 80)}, which the first table lacks")
                raise fail_params(
                    "others", "hold the runs of the first table", f"table {i}", hint="; ".join(what)
                )
        seen: dict[str, int] = {}
        for i, t in enumerate(tables):
            for m in t.measures:
                if m in seen:
                    raise fail(
                        "others",
                        "give each measure once",
                        f"{m!r} in table {seen[m] - 1 if seen[m] else 'self'} and table {i - 1} "
                        "(the same run, topic and measure twice)",
                    )
                seen[m] = i
        topics = tuple(sorted(set().union(*(t.topics for t in tables))))
        common = set(topics).intersection(*(t.topics for t in tables))
        if not common:
            raise fail(
                "others",
                "share topics with the first table",
                f"tables without a common topic ({_listed(topics, 80)})",
            )
        if len(common) < len(topics):
            lacking = [
                (i, [x for x in topics if x not in set(t.topics)]) for i, t in enumerate(tables)
            ]
            said = "; ".join(
                f"{'self' if i == 0 else f'table {i - 1}'} lacks {len(x)} ({_listed(x, 60)})"
                for i, x in lacking
                if x
            )
            notice(
                f"ScoreTable.join: the tables share {len(common)} of {len(topics)} topics; "
                f"{said}. A measure exists only on the topics of its table."
            )
        t_index = {x: i for i, x in enumerate(topics)}
        shape = (len(topics), len(self.runs), sum(len(t.measures) for t in tables))
        values = np.zeros(shape)
        present = np.zeros(shape, dtype=bool)
        col = 0
        overall = []
        notices: dict[str, Any] = {}
        for t in tables:
            rows = np.fromiter(map(t_index.__getitem__, t.topics), np.int64, len(t.topics))
            order = [t.runs.index(r) for r in self.runs]
            cols = slice(col, col + len(t.measures))
            values[rows, :, cols] = t.values[:, order]
            present[rows, :, cols] = t.present[:, order]
            overall.append(t.mean()[0][order])
            for key, value in t.notices.items():
                notices.setdefault(key, value)
            col += len(t.measures)
        pooled = any(t.overall is not None for t in tables)
        return ScoreTable(
            topics=topics,
            runs=self.runs,
            measures=tuple(m for t in tables for m in t.measures),
            values=values,
            present=present,
            overall=np.hstack(overall) if pooled else None,
            notices=notices,
            directions={m: t.directions[m] for t in tables for m in t.measures},
        )

    @classmethod
    @public
    def concat(cls, *tables: ScoreTable) -> ScoreTable:
        """Tables of different runs as one table, runs in the order of the tables.

        The way to combine tools' scores of different runs (``join`` adds measures to
        the same runs). Measures are those of every table, in order of first
        appearance; topics are the union of the tables' topics (sorted). A run has a
        measure only where its table has it, so a topic or a measure that some tables
        lack gives the notice of scores gathered from several sources.

        Parameters
        ----------
        *tables : ScoreTable
            At least one; each run in one table only.

        Returns
        -------
        ScoreTable
            The ``notices`` of every table, and the counts behind the notice.

        Raises
        ------
        TypeError
            Something that is not a ScoreTable.
        ValueError
            No table, a run in two tables (both named), or a measure that two tables
            point different ways (:attr:`directions`).

        Warns
        -----
        FairconvWarning
            When some runs have a measure on topics where other runs lack it.

        See Also
        --------
        join : the same runs with other measures.

        Examples
        --------
        >>> import numpy as np
        >>> topics = ["q1", "q2"]
        >>> a = ScoreTable.from_items(["bm25"] * 2, topics, ["P@5"], np.array([[0.4], [0.6]]))
        >>> b = ScoreTable.from_items(["qld"] * 2, topics, ["P@5"], np.array([[0.2], [0.8]]))
        >>> both = ScoreTable.concat(a, b)
        >>> both.runs, both.means()["qld"]["P@5"]
        (('bm25', 'qld'), 0.5)
        """
        tables = tuple(check_sequence_of(tables, ScoreTable, "tables", min_len=1))
        owner: dict[str, int] = {}
        for i, t in enumerate(tables):
            for run in t.runs:
                if run in owner:
                    raise fail(
                        "tables",
                        "hold each run once (join adds measures to the same runs)",
                        f"run {run!r} in table {owner[run]} and in table {i}",
                    )
                owner[run] = i
        directions: dict[str, tuple[str, int]] = {}
        for i, t in enumerate(tables):
            for m, d in t.directions.items():
                first = directions.setdefault(m, (d, i))
                if first[0] != d:
                    raise fail(
                        "tables",
                        "give each measure one direction",
                        f"{m!r}, {first[0]} in table {first[1]} and {d} in table {i}",
                    )
        measures = tuple(directions)
        topics = tuple(sorted(set().union(*(t.topics for t in tables))))
        t_index = {x: i for i, x in enumerate(topics)}
        m_index = {x: i for i, x in enumerate(measures)}
        shape = (len(topics), len(owner), len(measures))
        values = np.zeros(shape)
        present = np.zeros(shape, dtype=bool)
        pooled = any(t.overall is not None for t in tables)
        overall = np.full(shape[1:], np.nan) if pooled else None
        notices: dict[str, Any] = {}
        col = 0
        for t in tables:
            at = (
                np.fromiter(map(t_index.__getitem__, t.topics), np.int64, len(t.topics)),
                np.arange(col, col + len(t.runs)),
                np.fromiter(map(m_index.__getitem__, t.measures), np.int64, len(t.measures)),
            )
            values[np.ix_(*at)] = t.values
            present[np.ix_(*at)] = t.present
            if overall is not None:
                overall[np.ix_(at[1], at[2])] = t.mean()[0]
            for key, value in t.notices.items():
                notices.setdefault(key, value)
            col += len(t.runs)
        runs = tuple(owner)
        notices.update(notice_partial_topics(present, topics, measures, runs))
        return cls(
            topics=topics,
            runs=runs,
            measures=measures,
            values=values,
            present=present,
            overall=overall,
            notices=notices,
            directions={m: d for m, (d, _) in directions.items()},
        )

    @public
    def to_dict(self) -> dict:
        """The scores as ``{run: {topic: {measure: value}}}``, ``"all"`` for the means.

        An undefined value is ``None`` (``null`` in JSON).

        Examples
        --------
        >>> import numpy as np
        >>> values = np.array([[0.5], [1.0]])
        >>> table = ScoreTable.from_items(["bm25", "bm25"], ["q1", "q2"], ["P@5"], values)
        >>> table.to_dict()
        {'bm25': {'q1': {'P@5': 0.5}, 'q2': {'P@5': 1.0}, 'all': {'P@5': 0.75}}}
        """
        mean, _ = self.mean()
        exists = np.asarray(self.present.any(axis=0))
        out = {}
        for r, run in enumerate(self.runs):
            per = {}
            for t, topic in enumerate(self.topics):
                cells = {
                    m: _plain(self.values[t, r, i])
                    for i, m in enumerate(self.measures)
                    if self.present[t, r, i]
                }
                if cells:
                    per[topic] = cells
            per["all"] = {
                m: _plain(mean[r, i]) for i, m in enumerate(self.measures) if exists[r, i]
            }
            out[run] = per
        return out

    @public
    def to_frame(self, *, wide: bool = False, all_rows: bool = False):
        """The scores as a pandas DataFrame (needs the pandas extra).

        Long by default: one row per existing cell with columns run, topic, measure and
        value, by run, then topic, then measure. With ``wide=True``: one row per (run,
        topic), one column per measure, NaN where a cell does not exist or is undefined.

        Parameters
        ----------
        wide : bool
            One column per measure.
        all_rows : bool
            Add each run's ``all`` values (topic ``"all"``) after its topics, as the TSV
            output does (NaN where the mean is undefined).

        See Also
        --------
        fairconv.io.read_scores : reads a long frame back (and the frames of
            ir_measures and PyTerrier), the ``all`` rows left out.

        Examples
        --------
        >>> import numpy as np
        >>> values = np.array([[0.5], [1.0]])
        >>> table = ScoreTable.from_items(["bm25", "bm25"], ["q1", "q2"], ["P@5"], values)
        >>> table.to_frame()["value"].tolist()
        [0.5, 1.0]
        >>> table.to_frame(wide=True, all_rows=True)["P@5"].tolist()
        [0.5, 1.0, 0.75]
        """
        try:
            import pandas as pd
        except ImportError:
            raise ImportError(f"{caller()} needs pandas: pip install 'fairconv[pandas]'") from None
        mean, _ = self.mean()
        exists = np.asarray(self.present.any(axis=0))  # (runs, measures)
        by_run = self.present.transpose(1, 0, 2)  # (runs, topics, measures)
        values = self.values.transpose(1, 0, 2)
        if all_rows:
            topics = (*self.topics, "all")
            by_run = np.concatenate([by_run, exists[:, None, :]], axis=1)
            values = np.concatenate([values, mean[:, None, :]], axis=1)
        else:
            topics = self.topics
        if wide:
            index = pd.MultiIndex.from_product([self.runs, topics], names=["run", "topic"])
            cells = np.where(by_run, values, np.nan)
            frame = pd.DataFrame(cells.reshape(-1, len(self.measures)), index=index)
            frame.columns = pd.Index(self.measures, name="measure")
            return frame
        r, t, m = np.nonzero(by_run)
        return pd.DataFrame(
            {
                "run": np.asarray(self.runs, dtype=object)[r],
                "topic": np.asarray(topics, dtype=object)[t],
                "measure": np.asarray(self.measures, dtype=object)[m],
                "value": values[r, t, m],
            }
        )

    @public
    def to_json(self, out, /, *, summary: bool = False, overwrite: bool = False) -> None:
        """Write :meth:`to_dict` as JSON (undefined values as ``null``, never ``NaN``).

        Parameters
        ----------
        out : path or text file
            Where to write: a path (a new file, written as UTF-8) or an open text file.
        summary : bool
            Only the ``all`` entries of each run.
        overwrite : bool
            Replace a file that is already at ``out``; by default that is an error.

        Raises
        ------
        FileExistsError
            ``out`` names a file that exists and ``overwrite`` is False.

        Examples
        --------
        >>> import io
        >>> import numpy as np
        >>> values = np.array([[0.5], [1.0]])
        >>> table = ScoreTable.from_items(["bm25", "bm25"], ["q1", "q2"], ["P@5"], values)
        >>> out = io.StringIO()
        >>> table.to_json(out, summary=True)
        >>> out.getvalue().split()
        ['{', '"bm25":', '{', '"all":', '{', '"P@5":', '0.75', '}', '}', '}']
        """
        import json

        data = self.to_dict()
        if summary:
            data = {run: {"all": per["all"]} for run, per in data.items()}

        def write(f) -> None:
            json.dump(data, f, indent=1, allow_nan=False)
            f.write("\n")

        write_output(out, write, overwrite=overwrite)

    @public
    def to_tsv(
        self,
        out,
        /,
        *,
        summary: bool = False,
        n_jobs: int | None = None,
        overwrite: bool = False,
    ) -> None:
        """Write ``run topic measure value`` rows with a header.

        Per-topic rows then ``all`` rows per run; values at full precision (``repr``),
        NaN as ``NaN``. With ``summary``, the ``all`` rows alone. The lines are laid
        out a block at a time, so that memory follows the block, not the table.

        Parameters
        ----------
        out : path or text file
            Where to write: a path (a new file, written as UTF-8) or an open text file.
        summary : bool
            Only the ``all`` rows.
        n_jobs : None
            Deprecated: it has no effect (the rows are written on the calling thread)
            and goes in the next release.
        overwrite : bool
            Replace a file that is already at ``out``; by default that is an error.

        Raises
        ------
        ValueError
            A run name starting with ``#``: its rows would read back as comment lines.
        FileExistsError
            ``out`` names a file that exists and ``overwrite`` is False.

        Warns
        -----
        DeprecationWarning
            When ``n_jobs`` is given.

        Examples
        --------
        >>> import io
        >>> import numpy as np
        >>> values = np.array([[0.5]])
        >>> table = ScoreTable.from_items(["bm25"], ["q1"], ["P@5"], values)
        >>> out = io.StringIO()
        >>> table.to_tsv(out)
        >>> out.getvalue().splitlines()[1].split()  # bm25, q1, P@5 and 0.5, tab-separated
        ['bm25', 'q1', 'P@5', '0.5']
        """
        if n_jobs is not None:
            deprecated(
                "ScoreTable.to_tsv(n_jobs=...) has no effect (the rows are written on the "
                "calling thread) and goes in the next release; leave it out"
            )
        for name in self.runs:
            if name.startswith("#"):
                raise ValueError(
                    f"the run name {name!r} starts with '#': its TSV rows would read back as "
                    "comment lines; rename the run"
                )
        write_output(out, partial(self._write_tsv, summary=summary), overwrite=overwrite)

    def _write_tsv(self, out, *, summary: bool) -> None:
        """The TSV rows of formats.md (Outputs), a run and a block of rows at a time.

        Each field is a str made once with the tab after it (a topic, a measure), or
        once per line (a value with its line end); a line is four references to them.
        """
        out.write("run\ttopic\tmeasure\tvalue\n")
        mean, count = self.mean()
        n_topics = self.present.sum(axis=0)  # (runs, measures)
        topics = _objects(map("{}\t".format, self.topics))
        measures = _objects(map("{}\t".format, self.measures))
        counts = _objects(map("n[{}]\t".format, self.measures))
        for r, run in enumerate(self.runs):
            if not summary:
                t, m = np.nonzero(self.present[:, r])
                for lo in range(0, len(t), TSV_BLOCK):
                    tb, mb = t[lo : lo + TSV_BLOCK], m[lo : lo + TSV_BLOCK]
                    values = _value_ends(self.values[tb, r, mb])
                    out.write(_tsv_lines(f"{run}\t", topics[tb], measures[mb], values))
            # the means, each followed by its count where the mean covers fewer topics
            m = np.flatnonzero(n_topics[r] > 0)
            partial_count = count[r, m] != n_topics[r, m]
            fields = np.stack((measures[m], counts[m]), axis=1).ravel()
            ends = _objects(map("{}\n".format, count[r, m].tolist()))
            texts = np.stack((_value_ends(mean[r, m]), ends), axis=1).ravel()
            keep = np.stack((np.ones(len(m), bool), partial_count), axis=1).ravel()
            out.write(_tsv_lines(f"{run}\t", "all\t", fields[keep], texts[keep]))


TSV_BLOCK = 1 << 14
"""The most lines :meth:`ScoreTable.to_tsv` lays out at a time."""


def _objects(strings) -> np.ndarray:
    """Strings as a 1-d object array (a ``U`` array would pad each to the longest)."""
    items = list(strings)
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


def _value_ends(values: np.ndarray) -> np.ndarray:
    """Each value and its line end: ``repr`` (the shortest round trip), NaN as ``NaN``."""
    texts = _objects(map("{!r}\n".format, values.tolist()))
    texts[np.isnan(values)] = "NaN\n"
    return texts


def _tsv_lines(run: str, topics, measures: np.ndarray, ends: np.ndarray) -> str:
    """TSV lines, one per item of ``measures``: run, topic, measure and value fields.

    ``run`` and ``topics`` (one str, or an object array as ``measures``) and
    ``measures`` carry their tab; ``ends`` are the values with their line end.
    """
    cells = np.empty((len(ends), 4), dtype=object)
    cells[:, 0], cells[:, 1], cells[:, 2], cells[:, 3] = run, topics, measures, ends
    return "".join(cells.ravel().tolist())


def as_names(items: Sequence, param: str, *, fault=None) -> list[str]:
    """Run, topic or measure names as str: integers (numpy's, from a DataFrame) by str().

    A str (numpy's included) and a :class:`MeasureName` are taken as their text. Two
    different items that become the same name (``1`` and ``"1"``) are an error naming
    both; anything else (a float, bytes, None, a bool) is a TypeError. ``fault(rule,
    got, error)`` builds the error (by default the table's, :func:`_fault`, for
    ``param``).
    """
    if fault is None:
        fault = partial(_fault, param)
    items = list(items)
    kinds = set(map(type, items))
    if kinds <= {str}:
        return items
    for kind in kinds:
        if issubclass(kind, (bool, np.bool_)) or not issubclass(
            kind, (str, int, np.integer, MeasureName)
        ):
            i = next(i for i, x in enumerate(items) if type(x) is kind)
            raise fault(
                "hold names as str (integers are converted with str())",
                f"{kind_of(items[i])} at position {i}: {_short(repr(items[i]))}",
                TypeError,
            )
    distinct = list(dict.fromkeys(items))
    names = list(map(str, distinct))
    if len(set(names)) < len(names):
        first: dict[str, Any] = {}
        for item, name in zip(distinct, names, strict=True):
            if name in first:
                raise fault("hold distinct names", _same_name(first[name], item), ValueError)
            first[name] = item
    return list(map(str, items))


def _fault(param: str, rule: str, got: str, error: type[Exception] = ValueError) -> Exception:
    """A rule a table's field breaks, said to whoever built the table.

    To a user building it (``ScoreTable(...)``, its methods), the template of every
    parameter (:func:`~fairconv._validation.fail`); inside another call (a family's
    ``evaluate``), as the table that call builds from the user's inputs.
    """
    if caller().startswith("results.ScoreTable"):
        return fail_type(param, rule, got) if error is TypeError else fail(param, rule, got)
    return error(f"{caller()}: the {param} of the score table it builds must {rule}; got {got}")


def _shown(item) -> str:
    """A name as the user wrote it: ``'q1'`` for a str, ``1`` for an integer."""
    return repr(str(item)) if isinstance(item, str) else str(item)


def _same_name(a, b) -> str:
    """Two items given for one name, for a message."""
    if type(a) is type(b) or (isinstance(a, str) and isinstance(b, str)):
        return f"{_shown(a)} twice"
    return f"{_shown(a)} and {_shown(b)}, both {str(a)!r} as names"


def _rebuilt(fields: dict[str, Any]) -> ScoreTable:
    """A pickled ScoreTable, built again from its fields."""
    return ScoreTable(**fields)


def _plain(value) -> float | None:
    """A Python float, or None for an undefined (NaN) value."""
    value = float(value)
    return None if np.isnan(value) else value
