"""The organisers' ``.GFRnev`` layout of GFR scores (NTCIREVAL's ``GFRcompute``)."""

from __future__ import annotations

from collections.abc import Sequence

from .._files import write_output
from .._validation import check_int_array, check_sequence_of, fail, public
from ..results import MeasureName, ScoreTable
from ._attributes import AttributeData
from ._tables import Qrels

__all__ = ["write_nev"]


@public
def write_nev(
    table: ScoreTable,
    qrels: Qrels,
    attributes: Sequence[AttributeData],
    out,
    /,
    *,
    lengths,
    run_index: int | None = None,
    attribute_index: int | None = None,
    overwrite: bool = False,
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
    out : path or text file
        Where to write: an open file is written into; a path is written whole or not
        at all (the output rule of every writer), never over a file unless
        ``overwrite``.
    lengths : array_like of int, shape (topics, runs)
        The length of each ranked list (``syslen``), rows and columns as the table's
        topics and runs: the ``lengths`` of the evaluation's
        :class:`~fairconv.rankings.RankedLists`.
    run_index, attribute_index : int, optional
        Write only this run / attribute set (default: all, one after the other).
    overwrite : bool
        Replace a file already at the path ``out``.

    Raises
    ------
    ValueError
        If ``lengths`` is not (topics, runs) non-negative integers.
    FileExistsError
        If a file is at the path ``out`` and ``overwrite`` is False.

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
    >>> write_nev(table, p.qrels, p.attributes, out, lengths=lists.lengths, run_index=0,
    ...           attribute_index=origin)
    >>> print("\n".join(out.getvalue().splitlines()[:3]))
    P002 # syslen=100 jrel=37 jnonrel=35
    P002 ERR=                 0.3401
    P002 iRBU=                0.9626
    """
    attributes = check_sequence_of(attributes, AttributeData, "attributes")
    syslen = check_int_array(lengths, "lengths", ndim=2, low=0)
    shape = (len(table.topics), len(table.runs))
    if syslen.shape != shape:
        raise fail(
            "lengths",
            f"give a length per topic and run of the table, shape {shape}",
            f"shape {syslen.shape}",
        )
    names = [MeasureName.parse(m) for m in table.measures]
    cutoffs = sorted({n.cutoff for n in names if n.base == "ERR" and n.cutoff is not None})
    run_ids = range(len(table.runs)) if run_index is None else [run_index]
    set_ids = range(len(attributes)) if attribute_index is None else [attribute_index]
    lines = []
    for r in run_ids:
        for m in set_ids:
            a = attributes[m].attribute
            for topic in sorted(attributes[m].memberships.topics):
                t = table.topics.index(topic)
                lines.append(
                    f"{topic} # syslen={syslen[t, r]} jrel={qrels.n_relevant.get(topic, 0)} "
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
    text = "".join(line + "\n" for line in lines)
    write_output(out, lambda f: f.write(text), overwrite=overwrite)
