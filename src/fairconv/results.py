"""Per-topic score tables shared by every measure: TSV, dicts and DataFrames.

A :class:`ScoreTable` holds values as an array (runs, topics, measures) with a mask of
the cells that exist (an attribute set covers only some topics). NaN marks an
undefined value (e.g. RIGF when GF-Re = 0): it is printed as ``NaN`` and left out of
the ``all`` mean, and a row ``n[<measure>]`` then says how many topics the mean covers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain, repeat

import numpy as np

from . import _accel

__all__ = ["ScoreTable", "MeasureName", "RENAMED", "cutoffs_of", "pick"]

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

    def __post_init__(self) -> None:
        if not (isinstance(self.base, str) and _BASE.match(self.base)):
            raise ValueError(_not_a_name(self.base))

    def __str__(self) -> str:
        depth = "" if self.cutoff is None else f"@{self.cutoff}"
        group = "" if self.attribute is None else f"[{self.attribute}]"
        return f"{self.base}{depth}{group}"

    @staticmethod
    def join(*words: str | None, product: bool = False) -> str:
        """A BASE of several words: ``join("GF", "JSD")`` is ``'GF-JSD'``.

        With ``product``, the words are factors: ``join("nDCG", "AWRF", product=True)``
        is ``'nDCG*AWRF'``.
        """
        checked = []
        for word in words:
            if not (isinstance(word, str) and _WORD.match(word)):
                raise ValueError(f"{word!r} is not a word of letters and digits")
            checked.append(word)
        return ("*" if product else "-").join(checked)

    @classmethod
    def parse(cls, name: str) -> MeasureName:
        """Read a measure name; ValueError if it is not of the form above."""
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


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by at most one edit.

    An edit is an insertion, deletion, substitution or swap of adjacent letters.
    """
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        swap = a[i + 2 :] == b[i + 2 :] and a[i : i + 2] == b[i : i + 2][::-1]
        return a[i + 1 :] == b[i + 1 :] or swap
    return a[i + 1 :] == b[i:] if len(a) > len(b) else a[i:] == b[i + 1 :]


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
        close = [v for v in valid if _one_edit(name.lower(), v.lower())]
        if close:
            return f"{name!r} (did you mean {' or '.join(map(repr, close))}?)"
    return repr(name)


def cutoffs_of(measures: Sequence[str], func: str) -> tuple[int, ...]:
    """The depths that measure names ask for (``GFR@10`` -> 10), sorted.

    Raises
    ------
    ValueError
        For a name that is not of the form ``BASE[@cutoff][[set]]``.
    """
    if isinstance(measures, str) or not hasattr(measures, "__iter__"):
        raise TypeError(
            f"The 'measures' parameter of {func} must be a sequence of measure names. "
            f"Got {measures!r} instead."
        )
    try:
        names = [MeasureName.parse(m) for m in measures]
    except ValueError as exc:
        raise ValueError(f"The 'measures' parameter of {func}: {exc}") from None
    return tuple(sorted({n.cutoff for n in names if n.cutoff is not None}))


def pick(table: ScoreTable, measures: Sequence[str] | None, func: str) -> ScoreTable:
    """The table of the measures asked for (all when None), in the order asked.

    Raises
    ------
    ValueError
        For an unknown name; the message lists the valid ones.
    """
    if measures is None:
        return table
    names = list(measures)
    unknown = [m for m in names if m not in table.measures]
    if unknown:
        raise ValueError(
            f"The 'measures' parameter of {func} must name measures it computes "
            f"({', '.join(table.measures)}). Got "
            f"{', '.join(unknown_measure(m, table.measures) for m in unknown)} instead."
        )
    if not names:
        raise ValueError(
            f"The 'measures' parameter of {func} must name measures it computes "
            f"({', '.join(table.measures)}). Got {', '.join(map(repr, unknown)) or 'none'} "
            "instead."
        )
    return table[names]


def _unknown(kind: str, name, valid: Sequence[str]) -> KeyError:
    return KeyError(f"unknown {kind} {name!r}; valid {kind}s: {', '.join(map(repr, valid))}")


@dataclass(frozen=True, eq=False)
class ScoreTable:
    """Scores of several runs on several topics.

    Attributes
    ----------
    runs, topics, measures : tuple of str
    values : ndarray, shape (len(runs), len(topics), len(measures))
        Higher is better for every fairconv score; NaN where undefined.
    present : ndarray of bool, same shape
        Which cells exist (a measure of an attribute set exists on the topics it covers).
    overall : ndarray, shape (len(runs), len(measures)), optional
        The ``all`` values when they are not the mean over topics (e.g. pooled ratios).
    """

    runs: tuple
    topics: tuple
    measures: tuple
    values: np.ndarray
    present: np.ndarray
    overall: np.ndarray | None = None  # (runs, measures): 'all' values other than means

    @classmethod
    def from_items(
        cls,
        runs: Sequence[str],
        topics: Sequence[str],
        measures: Sequence[str],
        values: np.ndarray,
        *,
        missing: float = 0.0,
        sources=None,
    ) -> ScoreTable:
        """One (run, topic) cell per item (e.g. a conversation); ``values`` (items, M).

        Runs keep their order of first appearance and topics are sorted. A run without
        a topic that another run has scores ``missing`` there (0, as a run that returns
        nothing). Two items for the same (run, topic) are an error.
        """
        run_names = tuple(dict.fromkeys(runs))
        topic_names = tuple(sorted(set(topics)))
        r_index = {r: i for i, r in enumerate(run_names)}
        t_index = {t: i for i, t in enumerate(topic_names)}
        r = np.fromiter(map(r_index.__getitem__, runs), np.int64, len(runs))
        t = np.fromiter(map(t_index.__getitem__, topics), np.int64, len(topics))
        cell = r * len(topic_names) + t
        _, first, counts = np.unique(cell, return_index=True, return_counts=True)
        if (counts > 1).any():
            dup = np.flatnonzero(cell == cell[first[np.argmax(counts > 1)]])
            where = "" if sources is None else f" ({sources[dup[0]]} and {sources[dup[1]]})"
            raise ValueError(
                f"run {runs[dup[0]]!r} has two entries for topic {topics[dup[0]]!r}{where}"
            )
        table = np.full((len(run_names), len(topic_names), len(measures)), float(missing))
        table[r, t] = values
        present = np.ones(table.shape, dtype=bool)
        return cls(run_names, topic_names, tuple(measures), table, present)

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

    def value(self, run: str, topic: str, measure: str) -> float:
        """One score; ``topic="all"`` gives the mean over topics.

        Raises
        ------
        KeyError
            For an unknown run, topic or measure (the message lists the valid names),
            or a cell that does not exist (an attribute set not covering the topic).
        """
        r, m = self._index("run", run), self._index("measure", measure)
        if topic == "all":
            return float(self.mean()[0][r, m])
        t = self._index("topic", topic)
        if not self.present[r, t, m]:
            raise KeyError(f"{measure} is not defined on topic {topic!r} of run {run!r}")
        return float(self.values[r, t, m])

    def __getitem__(self, measure: str | Sequence[str]) -> ScoreTable:
        """The table of one measure (or of a list of measures), e.g. ``table["GFR@10"]``.

        Raises
        ------
        KeyError
            For an unknown measure; the message lists the valid ones.
        """
        names = [measure] if isinstance(measure, str) else list(measure)
        cols = [self._index("measure", m) for m in names]
        return ScoreTable(
            self.runs,
            self.topics,
            tuple(names),
            self.values[:, :, cols],
            self.present[:, :, cols],
            None if self.overall is None else self.overall[:, cols],
        )

    def select(
        self, *, runs: Sequence[str] | None = None, topics: Sequence[str] | None = None
    ) -> ScoreTable:
        """The table restricted to some runs and/or topics (in the order given)."""
        r = list(range(len(self.runs))) if runs is None else [self._index("run", x) for x in runs]
        t = (
            list(range(len(self.topics)))
            if topics is None
            else [self._index("topic", x) for x in topics]
        )
        if self.overall is not None and topics is not None:
            raise ValueError("a table whose 'all' values are pooled cannot be cut by topic")
        return ScoreTable(
            tuple(self.runs[i] for i in r),
            tuple(self.topics[i] for i in t),
            self.measures,
            self.values[np.ix_(r, t)],
            self.present[np.ix_(r, t)],
            None if self.overall is None else self.overall[r],
        )

    def means(self) -> dict[str, dict[str, float | None]]:
        """The ``all`` values by name: ``{run: {measure: value}}`` (None if undefined).

        Only measures that exist on some topic of a run are listed for it.
        """
        mean, _ = self.mean()
        return {
            run: {
                m: _plain(mean[r, i])
                for i, m in enumerate(self.measures)
                if self.present[r, :, i].any()
            }
            for r, run in enumerate(self.runs)
        }

    def mean(self):
        """Mean over the topics where a cell exists and is defined, and the count.

        The ``overall`` values take the mean's place when the table has them. Both
        arrays have shape (runs, measures); the mean is NaN where count is 0.
        """
        defined = self.present & ~np.isnan(self.values)
        count = defined.sum(axis=1)
        if self.overall is not None:
            return self.overall, count
        cells = np.where(defined, self.values, 0.0)
        n = np.maximum(count, 1)
        with np.errstate(invalid="ignore", over="ignore"):  # inf and -inf: a NaN mean
            mean = np.where(count > 0, cells.sum(axis=1) / n, np.nan)
            # a sum past the largest double: the values are divided before they are added
            over = np.isinf(mean) & np.isfinite(cells).all(axis=1)
            if over.any():
                mean[over] = (cells / n[:, None, :]).sum(axis=1)[over]
        return mean, count

    def to_dict(self) -> dict:
        """The scores as ``{run: {topic: {measure: value}}}``, ``"all"`` for the means.

        An undefined value is ``None`` (``null`` in JSON).
        """
        mean, _ = self.mean()
        out = {}
        for r, run in enumerate(self.runs):
            per = {}
            for t, topic in enumerate(self.topics):
                cells = {
                    m: _plain(self.values[r, t, i])
                    for i, m in enumerate(self.measures)
                    if self.present[r, t, i]
                }
                if cells:
                    per[topic] = cells
            per["all"] = {
                m: _plain(mean[r, i])
                for i, m in enumerate(self.measures)
                if self.present[r, :, i].any()
            }
            out[run] = per
        return out

    def to_frame(self, *, wide: bool = False):
        """The scores as a pandas DataFrame (needs the pandas extra).

        Long by default: one row per existing cell with columns run, topic, measure and
        value. With ``wide=True``: one row per (run, topic), one column per measure,
        NaN where a cell does not exist or is undefined.
        """
        try:
            import pandas as pd
        except ImportError:
            raise ImportError(
                "ScoreTable.to_frame needs pandas: pip install 'fairconv[pandas]'"
            ) from None
        if wide:
            index = pd.MultiIndex.from_product([self.runs, self.topics], names=["run", "topic"])
            cells = np.where(self.present, self.values, np.nan)
            frame = pd.DataFrame(cells.reshape(-1, len(self.measures)), index=index)
            frame.columns = pd.Index(self.measures, name="measure")
            return frame
        r, t, m = np.nonzero(self.present)
        return pd.DataFrame(
            {
                "run": np.asarray(self.runs, dtype=object)[r],
                "topic": np.asarray(self.topics, dtype=object)[t],
                "measure": np.asarray(self.measures, dtype=object)[m],
                "value": self.values[r, t, m],
            }
        )

    def to_json(self, out, *, summary: bool = False) -> None:
        """Write :meth:`to_dict` as JSON (undefined values as ``null``, never ``NaN``).

        With ``summary``, only the ``all`` entries of each run.
        """
        import json

        data = self.to_dict()
        if summary:
            data = {run: {"all": per["all"]} for run, per in data.items()}
        json.dump(data, out, indent=1, allow_nan=False)
        out.write("\n")

    def to_tsv(self, out, *, summary: bool = False, n_jobs: int | None = None) -> None:
        """Write ``run topic measure value`` rows with a header.

        Per-topic rows then ``all`` rows per run; values at full precision (``repr``),
        NaN as ``NaN``. With ``summary``, the ``all`` rows alone.

        Parameters
        ----------
        out : text file
            Where to write.
        summary : bool
            Only the ``all`` rows.
        n_jobs : int, optional
            Threads that lay out the runs' per-topic rows, a few runs at a time: None
            for ``FAIRCONV_THREADS`` or else every available core, -1 for every core, 1
            for none. The output is the same.

        Raises
        ------
        ValueError
            A run name starting with ``#``: its rows would read back as comment lines;
            a bad ``n_jobs``.
        """
        threads = _accel.resolve_n_jobs(n_jobs, "ScoreTable.to_tsv")
        for name in self.runs:
            if name.startswith("#"):
                raise ValueError(
                    f"the run name {name!r} starts with '#': its TSV rows would read back as "
                    "comment lines; rename the run"
                )
        out.write("run\ttopic\tmeasure\tvalue\n")
        mean, count = self.mean()
        n_topics = self.present.sum(axis=1)
        measures = _encoded([f"{x}\t" for x in self.measures])
        runs = range(len(self.runs))
        cells = partial(self._cells, measures=measures)
        with _accel.thread_imap(cells, [] if summary else runs, n_jobs=threads) as texts:
            for r, text in zip(runs, chain(texts, repeat("")), strict=False):  # "": summary
                out.write(text)
                lines = []
                for i, name in enumerate(self.measures):
                    if n_topics[r, i] == 0:
                        continue
                    value = "NaN" if np.isnan(mean[r, i]) else repr(float(mean[r, i]))
                    lines.append(f"{self.runs[r]}\tall\t{name}\t{value}\n")
                    if count[r, i] != n_topics[r, i]:
                        lines.append(f"{self.runs[r]}\tall\tn[{name}]\t{int(count[r, i])}\n")
                out.write("".join(lines))

    def _cells(self, r: int, *, measures) -> str:
        """The per-topic TSV lines of run ``r`` (``measures``: :func:`_encoded` names).

        A line is its (run, topic) prefix, its measure and its value: each prefix is
        encoded once, the values formatted as one text, and the lines cut from them as
        array work (:func:`fairconv._accel.lines`).
        """
        t, m = np.nonzero(self.present[r])
        values = self.values[r, t, m]
        prefixes = _encoded([f"{self.runs[r]}\t{x}\t" for x in self.topics])
        nan = np.isnan(values)
        text, defined_at, defined_size = _accel.repr_text(values[~nan])
        parts = [prefixes[0], measures[0], text, b"NaN"]
        base = np.cumsum([0] + [len(p) for p in parts])
        at = np.full(len(values), base[3] - base[2])  # NaN: the text after the values
        size = np.full(len(values), 3)
        at[~nan], size[~nan] = defined_at, defined_size
        starts = np.stack((prefixes[1][t], base[1] + measures[1][m], base[2] + at), axis=1)
        lengths = np.stack((prefixes[2][t], measures[2][m], size), axis=1)
        return str(_accel.lines(b"".join(parts), starts, lengths).data, "utf-8", "surrogatepass")


def _encoded(texts: list[str]) -> tuple[bytes, np.ndarray, np.ndarray]:
    """Texts as one UTF-8 string, with the start and length (in bytes) of each.

    Lone surrogates pass through, as a text stream such as ``io.StringIO`` takes them.
    """
    encoded = [x.encode("utf-8", "surrogatepass") for x in texts]
    lengths = np.fromiter(map(len, encoded), np.int64, len(encoded))
    starts = np.cumsum(lengths) - lengths
    return b"".join(encoded), starts, lengths


def _plain(value) -> float | None:
    """A Python float, or None for an undefined (NaN) value."""
    value = float(value)
    return None if np.isnan(value) else value
