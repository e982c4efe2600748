r"""Nugget recall and precision of RAG answers from match labels (TREC iKAT 2024).

Abbasiantaeb et al., "Conversational Gold: Evaluating Personalized Conversational
Search System using Gold Nuggets". Given, for one evaluated turn, the gold nuggets,
the nuggets extracted from the response, and labels saying which pairs match (the
matching itself, by an LLM or an NLI model, happens elsewhere):

.. math::
    Recall_{NtN} = \\frac{|\\{g : (e, g) \\in ntn\\}|}{|gold|},\\quad
    Precision_{NtN} = \\frac{|\\{e : (e, g) \\in ntn\\}|}{|extracted|},\\quad
    Recall_{NtR} = \\frac{|ntr|}{|gold|}

0/0 is undefined (NaN) and left out of means. A run's score is the mean over its
turns (macro) or the pooled ratio over all its turns (micro).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ._validation import check_choice
from .results import ScoreTable

__all__ = ["MatchLabels", "read_labels", "labels_from_records", "coverage", "MEASURES"]

MEASURES = ("Recall_NtN", "Precision_NtN", "Recall_NtR")


@dataclass(frozen=True, eq=False)
class MatchLabels:
    """Per evaluated turn: its run, topic and turn ids and the counts behind the measures.

    The counts are (matched gold, gold, matched extracted, extracted, gold entailed).
    """

    runs: tuple
    topics: tuple
    turns: tuple
    counts: np.ndarray  # (turns, 5): gold_ntn, gold, extracted_ntn, extracted, ntr
    sources: tuple


def labels_from_records(records: Sequence[dict], *, sources=None) -> MatchLabels:
    """Check match-label records (docs/formats.md) and count them."""
    sources = tuple(sources or (f"record {i + 1}" for i in range(len(records))))
    counts = np.zeros((len(records), 5), dtype=np.int64)
    for i, (rec, where) in enumerate(zip(records, sources, strict=False)):  # one record per turn
        if not isinstance(rec, dict):
            raise ValueError(f"{where}: a label record must be a JSON object")
        for key in ("topic", "turn", "gold", "extracted"):
            if key not in rec:
                raise ValueError(f"{where}: a label record needs {key!r}")
        gold, extracted = rec["gold"], rec["extracted"]
        if not isinstance(gold, list) or not isinstance(extracted, list):
            raise ValueError(f"{where}: 'gold' and 'extracted' must be lists of nugget ids")
        gold_set, ext_set = set(map(str, gold)), set(map(str, extracted))
        if len(gold_set) != len(gold) or len(ext_set) != len(extracted):
            raise ValueError(f"{where}: a nugget id is listed twice in 'gold' or 'extracted'")
        pairs = rec.get("ntn", [])
        if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 for p in pairs
        ):
            raise ValueError(f"{where}: 'ntn' must be a list of [extracted, gold] pairs")
        unknown_e = {str(e) for e, _ in pairs} - ext_set
        unknown_g = {str(g) for _, g in pairs} - gold_set
        if unknown_e or unknown_g:
            raise ValueError(
                f"{where}: 'ntn' names nuggets that are not in 'extracted' or "
                f"'gold': {sorted(unknown_e | unknown_g)}"
            )
        ntr = rec.get("ntr", [])
        if not isinstance(ntr, list):
            raise ValueError(f"{where}: 'ntr' must be a list of gold nugget ids")
        unknown = set(map(str, ntr)) - gold_set
        if unknown:
            raise ValueError(
                f"{where}: 'ntr' names nuggets that are not in 'gold': {sorted(unknown)}"
            )
        counts[i] = (
            len({str(g) for _, g in pairs}),
            len(gold_set),
            len({str(e) for e, _ in pairs}),
            len(ext_set),
            len(set(map(str, ntr))),
        )
    return MatchLabels(
        tuple(str(r.get("run", "")) for r in records),
        tuple(str(r["topic"]) for r in records),
        tuple(str(r["turn"]) for r in records),
        counts,
        sources,
    )


def read_labels(path) -> MatchLabels:
    """Read match labels, one evaluated turn per line (JSON Lines)."""
    import os

    from .conversation import _json_lines

    records, lines = _json_lines(path)
    run = os.path.basename(str(path))
    records = [dict(r, run=r.get("run", run)) if isinstance(r, dict) else r for r in records]
    return labels_from_records(records, sources=[f"{path}:{n}" for n in lines])


def _ratios(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    return np.divide(num, den, out=np.full(np.shape(num), np.nan, dtype=np.float64), where=den > 0)


def coverage(labels: MatchLabels, *, average: str = "macro") -> ScoreTable:
    """Recall_NtN, Precision_NtN and Recall_NtR per turn, and per run.

    Rows are turns, named ``<topic>/<turn>`` unless the turn id already names the
    topic; the run scores are the ``all`` rows: the mean over turns
    (``average="macro"``) or the pooled ratio (``"micro"``). Undefined ratios (0/0)
    are NaN and left out of macro means.
    """
    average = check_choice(average, "average", "coverage", ("macro", "micro"))
    c = labels.counts.astype(np.float64)
    per_turn = np.column_stack(
        [_ratios(c[:, 0], c[:, 1]), _ratios(c[:, 2], c[:, 3]), _ratios(c[:, 4], c[:, 1])]
    )
    units = [
        t if t.startswith(f"{p}") else f"{p}/{t}"
        for p, t in zip(labels.topics, labels.turns, strict=False)
    ]
    table = ScoreTable.from_items(
        labels.runs, units, MEASURES, per_turn, missing=np.nan, sources=labels.sources
    )
    table = ScoreTable(
        table.runs,
        table.topics,
        table.measures,
        table.values,
        ~np.isnan(table.values) | _has_item(table, labels, units),
    )
    if average == "macro":
        return table
    run_index = {r: i for i, r in enumerate(table.runs)}
    r = np.fromiter(map(run_index.__getitem__, labels.runs), np.int64, len(labels.runs))
    pooled = np.zeros((len(table.runs), 5))
    np.add.at(pooled, r, c)
    overall = np.column_stack(
        [
            _ratios(pooled[:, 0], pooled[:, 1]),
            _ratios(pooled[:, 2], pooled[:, 3]),
            _ratios(pooled[:, 4], pooled[:, 1]),
        ]
    )
    return ScoreTable(
        table.runs, table.topics, table.measures, table.values, table.present, overall=overall
    )


def _has_item(table, labels, units):
    """Cells that a label record gives (present even when their ratio is undefined)."""
    mask = np.zeros(table.values.shape, dtype=bool)
    r_index = {r: i for i, r in enumerate(table.runs)}
    t_index = {t: i for i, t in enumerate(table.topics)}
    r = [r_index[x] for x in labels.runs]
    t = [t_index[x] for x in units]
    mask[r, t] = True
    return mask
