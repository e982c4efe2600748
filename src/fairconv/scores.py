"""Per-topic scores of fairconv and of the other tools, side by side.

Read the per-topic files of fairconv (its TSV), ``trec_eval -q``, ir_measures and ranx
into one :class:`~fairconv.results.ScoreTable`, turn ``ir_measures.iter_calc`` results
into one, and join tables of the same runs with different measures, so that GFR and
nDCG of the same runs can be compared (``fairconv.stats.compare``,
``fairconv agree``)::

    from fairconv import scores

    table = scores.read_scores(["gfr.tsv", {"bm25": "bm25.trec_eval"}])
    both = gfr_table.join(scores.from_ir_measures(results, name="bm25"))

Names read from other tools' files are kept as they print them (``ndcg_cut_20``,
``P_5``, ``nDCG@10``).
"""

from __future__ import annotations

from .io._scores import SCORE_FORMATS, from_ir_measures, read_scores, read_topics
from .results import ScoreTable

__all__ = ["SCORE_FORMATS", "from_ir_measures", "merge", "read_scores", "read_topics"]


def merge(*tables: ScoreTable) -> ScoreTable:
    """Tables of the same runs with different measures, as one (:meth:`ScoreTable.join`).

    Parameters
    ----------
    *tables : ScoreTable
        At least one table.

    Returns
    -------
    ScoreTable
        The runs of the first table, every table's measures in order, the union of
        the topics.

    Raises
    ------
    TypeError, ValueError
        As :meth:`ScoreTable.join`: no table, other runs, a measure in two tables, no
        common topic.

    Examples
    --------
    >>> import numpy as np
    >>> ones = np.ones((1, 1, 1))
    >>> a = ScoreTable(topics=("q1",), runs=("r",), measures=("GFR@10",), values=ones,
    ...                present=ones > 0)
    >>> b = ScoreTable(topics=("q1",), runs=("r",), measures=("P_5",), values=ones / 5,
    ...                present=ones > 0)
    >>> merge(a, b).measures
    ('GFR@10', 'P_5')
    """
    if not tables:
        raise ValueError("The 'tables' parameter of merge must hold a table. Got none instead.")
    if not isinstance(tables[0], ScoreTable):
        raise TypeError(
            "The 'tables' parameter of merge must be ScoreTables. Got "
            f"{type(tables[0]).__name__} at position 0 instead."
        )
    return tables[0].join(*tables[1:])
