"""Per-topic score tables shared by every measure: TSV, dicts and DataFrames.

A :class:`ScoreTable` holds values as an array (runs, topics, measures) with a mask of
the cells that exist (an attribute set covers only some topics). NaN marks an
undefined value (e.g. RIGF when GF_Re = 0): it is printed as ``NaN`` and left out of
the ``all`` mean, and a row ``n[<measure>]`` then says how many topics the mean covers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["ScoreTable"]


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

    def value(self, run: str, topic: str, measure: str) -> float:
        """One score; ``topic="all"`` gives the mean over topics."""
        r, m = self.runs.index(run), self.measures.index(measure)
        if topic == "all":
            return float(self.mean()[0][r, m])
        t = self.topics.index(topic)
        if not self.present[r, t, m]:
            raise KeyError(f"{measure} is not defined on topic {topic!r} of run {run!r}")
        return float(self.values[r, t, m])

    def mean(self):
        """(mean, count): mean over the topics where a cell exists and is defined (or
        the ``overall`` values, when the table has them).

        Both arrays have shape (runs, measures); the mean is NaN where count is 0.
        """
        defined = self.present & ~np.isnan(self.values)
        count = defined.sum(axis=1)
        if self.overall is not None:
            return self.overall, count
        total = np.where(defined, self.values, 0.0).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(count > 0, total / np.maximum(count, 1), np.nan)
        return mean, count

    def to_dict(self) -> dict:
        """``{run: {topic: {measure: value}}}`` with an ``"all"`` topic for the means;
        an undefined value is ``None``.
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

    def to_frame(self):
        """A long pandas DataFrame (run, topic, measure, value); needs the pandas extra."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError(
                "ScoreTable.to_frame needs pandas: pip install 'fairconv[pandas]'"
            ) from None
        r, t, m = np.nonzero(self.present)
        return pd.DataFrame(
            {
                "run": np.asarray(self.runs, dtype=object)[r],
                "topic": np.asarray(self.topics, dtype=object)[t],
                "measure": np.asarray(self.measures, dtype=object)[m],
                "value": self.values[r, t, m],
            }
        )

    def to_tsv(self, out) -> None:
        """Write ``run topic measure value`` rows with a header, per-topic rows then
        ``all`` rows per run; values at full precision (``repr``), NaN as ``NaN``.
        """
        out.write("run\ttopic\tmeasure\tvalue\n")
        runs = np.asarray(self.runs, dtype=object)
        topics = np.asarray(self.topics, dtype=object)
        measures = np.asarray(self.measures, dtype=object)
        mean, count = self.mean()
        n_topics = self.present.sum(axis=1)
        row = "{}\t{}\t{}\t{!r}\n".format
        for r in range(len(self.runs)):
            t, m = np.nonzero(self.present[r])
            vals = self.values[r, t, m].tolist()
            out.write(
                "".join(map(row, runs[[r] * len(t)], topics[t], measures[m], vals)).replace(
                    "\tnan\n", "\tNaN\n"
                )
            )
            lines = []
            for i, name in enumerate(self.measures):
                if n_topics[r, i] == 0:
                    continue
                lines.append(row(self.runs[r], "all", name, float(mean[r, i])))
                if count[r, i] != n_topics[r, i]:
                    lines.append(f"{self.runs[r]}\tall\tn[{name}]\t{int(count[r, i])}\n")
            out.write("".join(lines).replace("\tnan\n", "\tNaN\n"))


def _plain(value) -> float | None:
    """A Python float, or None for an undefined (NaN) value."""
    value = float(value)
    return None if np.isnan(value) else value
