"""The organisers' ``.GFRnev`` layout of GFR scores (NTCIREVAL's ``GFRcompute``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .._validation import public
from ..results import MeasureName, ScoreTable
from ._tables import Qrels

if TYPE_CHECKING:
    from ..rankings import AttributeData, RankedLists

__all__ = ["write_nev"]


@public
def write_nev(
    table: ScoreTable,
    qrels: Qrels,
    attributes: Sequence[AttributeData],
    out,
    /,
    *,
    lists: RankedLists,
    run_index: int | None = None,
    attribute_index: int | None = None,
) -> None:
    r"""Write the organisers' ``.GFRnev`` layout for the given run and attribute set.

    Parameters
    ----------
    table : ScoreTable
        The output of :func:`fairconv.gfr.evaluate` for these inputs.
    qrels : Qrels
        The judgments (for the ``jrel`` and ``jnonrel`` counts).
    attributes : sequence of AttributeData
        The attribute sets of the evaluation.
    out : text file
        Where to write.
    lists : RankedLists
        The joined runs (:func:`fairconv.rankings.prepare`), for the ``syslen`` of each
        list.
    run_index, attribute_index : int, optional
        Write only this run / attribute set (default: all, one after the other).

    Notes
    -----
    One block per covered topic: ``<topic> # syslen=<n> jrel=<n> jnonrel=<n>``, then
    ``<topic> <name>=`` (left-justified in 21 columns) and the value to 4 decimals for
    ERR, iRBU, GF-JSD, GF-NMD, GF-RNOD at full depth and each cutoff (``ERR@0010=``),
    as NTCIREVAL's ``GFRcompute`` prints them.

    Examples
    --------
    >>> import io
    >>> from fairconv import gfr
    >>> from fairconv.datasets import fairweb1_pilot
    >>> from fairconv.rankings import prepare
    >>> p = fairweb1_pilot()
    >>> lists = prepare(p.qrels, p.runs, p.attributes)
    >>> table = gfr.evaluate(p.qrels, p.runs, p.attributes, cutoffs=[10, 20, 100], lists=lists)
    >>> origin = [a.attribute.name for a in p.attributes].index("M-ORIGIN")
    >>> out = io.StringIO()
    >>> write_nev(table, p.qrels, p.attributes, out, lists=lists, run_index=0,
    ...           attribute_index=origin)
    >>> print("\n".join(out.getvalue().splitlines()[:3]))
    P002 # syslen=100 jrel=37 jnonrel=35
    P002 ERR=                 0.3401
    P002 iRBU=                0.9626
    """
    syslen = lists.syslen()
    runs = lists.runs
    names = [MeasureName.parse(m) for m in table.measures]
    cutoffs = sorted({n.cutoff for n in names if n.base == "ERR" and n.cutoff is not None})
    run_ids = range(len(runs)) if run_index is None else [run_index]
    set_ids = range(len(attributes)) if attribute_index is None else [attribute_index]
    lines = []
    for r in run_ids:
        for m in set_ids:
            a = attributes[m].attribute
            for topic in sorted(attributes[m].memberships.topics):
                t = table.topics.index(topic)
                n = syslen.get((r, topic), 0)
                lines.append(
                    f"{topic} # syslen={n} jrel={qrels.n_relevant.get(topic, 0)} "
                    f"jnonrel={qrels.n_nonrelevant.get(topic, 0)}"
                )
                for k in [None, *cutoffs]:
                    tag = "" if k is None else f"@{k:04d}"
                    for base, group in (
                        ("ERR", None),
                        ("iRBU", None),
                        ("GF-JSD", a.name),
                        ("GF-NMD", a.name),
                        ("GF-RNOD", a.name),
                    ):
                        col = table.measures.index(str(MeasureName(base, k, group)))
                        lines.append(f"{topic} {f'{base}{tag}=':<21}{table.values[t, r, col]:.4f}")
    out.write("".join(line + "\n" for line in lines))
