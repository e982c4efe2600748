r"""GFRC2: word-level expected experience of a conversation.

The alternative to GFRC in Sakai et al.'s GFRC2 paper (Eqs. 11-21). Users abandon the
conversation at the end of a relevant nugget; the users who stop at word ``wc`` (a
user cluster) have read every word up to wc. For each cluster:

.. math::
    GWCrel(wc) = \sum_l l\, WCrel_l(wc),\qquad
    GNP(wc) = \frac{GWCrel(wc)}{WCnonrel(wc) + GWCrel(wc)}

    Experience(wc) = w_0\, GNP(wc) + \sum_m w_m\, DistrSim(D^m(wc) \| D^{m*})

where ``WCrel_l(wc)`` counts the words of level-l relevant nuggets among the first wc
words, ``WCnonrel(wc)`` the other words among them (user turns and nonrelevant text
included) and ``D^m(wc)`` is the mean membership of the relevant nuggets up to wc.
``Prob(wc) = 1/L`` when wc <= L, else 0, and

.. math::
    GFRC2 = \sum_{wc} Prob(wc)\, Experience(wc),\quad
    EGNP = \sum Prob\, GNP,\quad EGF^m = \sum Prob\, DistrSim^m.

Everything is computed from nugget positions and lengths with cumulative sums over
the relevant nuggets: memory grows with nuggets, not words.

Two entry points, as in every measure family: :func:`gfrc2` returns a dict of arrays
(one value per conversation), :func:`evaluate` a :class:`~fairconv.results.ScoreTable`
by run and topic; :func:`clusters` gives the per-cluster table behind them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import _core
from ._records import record
from ._validation import fill_doc, public
from .conversation import BATCH_DOC, PRESET_DOC, measure_setup, option_docs
from .gfrc import _ConversationRows
from .io._conversation_records import ConversationBatch
from .results import MeasureName, ScoreTable, pick

__all__ = ["gfrc2", "evaluate", "clusters", "Clusters", "write_clusters"]

_OPTIONS = option_docs("L", "lmax", "dedupe")
_WEIGHTS = """weights : sequence of float, optional
    M + 1 weights, w_0 for GNP then one per attribute set; finite, non-negative,
    summing to 1. Default 1/(M+1) each."""
_DOCS = dict(batch=BATCH_DOC, preset=PRESET_DOC, weights=_WEIGHTS, options=_OPTIONS)


@record(eq=False)
class Clusters(_ConversationRows):
    """The per-cluster table: one row per relevant nugget end (user cluster).

    ``repr`` gives counts; in a notebook the record shows a table of at most 20 rows
    (run, topic, wc, gwc_rel, wc_nonrel, gnp, D and DistrSim per attribute set,
    experience, prob), as ``to_frame()`` gives it whole; ``to_dict()`` gives plain
    Python values.

    Parameters
    ----------
    conversation : ndarray of int, shape (rows,)
        The conversation of each row, an index into ``runs`` and ``topics``.
    wc : ndarray of int, shape (rows,)
        The cluster: the word where its users stop (a relevant nugget's end).
    gwc_rel : ndarray of float, shape (rows,)
        GWCrel(wc), the level-weighted words of relevant nuggets up to wc.
    wc_nonrel : ndarray of float, shape (rows,)
        WCnonrel(wc), the other words up to wc.
    gnp : ndarray of float, shape (rows,)
        GNP(wc), in [0, 1].
    achieved : dict of str to ndarray of float, shape (rows, G)
        D^m(wc), the mean membership of the relevant nuggets up to wc, per attribute
        set.
    sim : dict of str to ndarray of float, shape (rows,)
        Its DistrSim against the set's target, per attribute set.
    experience : ndarray of float, shape (rows,)
        Experience(wc).
    prob : ndarray of float, shape (rows,)
        Prob(wc): 1/L when wc <= L, else 0.
    runs, topics : tuple of str, optional
        The run and topic of each conversation of the batch (empty when not known).

    Examples
    --------
    >>> from fairconv.datasets import load_case
    >>> from fairconv.gfrc2 import clusters
    >>> c = clusters(load_case("r112").conversations)
    >>> c  # doctest: +ELLIPSIS
    Clusters(rows=11, conversations=2, runs=[...] (2), attribute_sets=['PRONOUN', 'HINDEX'] (2))
    >>> c.to_frame()[["run", "wc", "gnp"]].head(3).round(4)
                    run  wc     gnp
    0  COPWA-CS-QD-MN-2  33  0.1143
    1  COPWA-CS-QD-MN-2  36  0.2439
    2  COPWA-CS-QD-MN-2  39  0.3404
    """

    conversation: np.ndarray
    wc: np.ndarray
    gwc_rel: np.ndarray
    wc_nonrel: np.ndarray
    gnp: np.ndarray
    achieved: dict
    sim: dict
    experience: np.ndarray
    prob: np.ndarray
    runs: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    _BEFORE = ("wc", "gwc_rel", "wc_nonrel", "gnp")
    _AFTER = ("experience", "prob")


@public
@fill_doc(**_DOCS)
def clusters(
    batch: ConversationBatch,
    /,
    *,
    preset: str | None = None,
    weights: Sequence[float] | None = None,
    L: int | None = None,
    lmax: int | None = None,
    dedupe: bool | None = None,
) -> Clusters:
    """Per-cluster values of every conversation of a batch (the GFRC2 paper, Tables 1-2).

    Parameters
    ----------
    {batch}
    {preset}
    {weights}
    {options}

    Returns
    -------
    Clusters
        One row per relevant nugget end.

    Raises
    ------
    ValueError
        For bad options or weights, a nugget above ``lmax`` or a relevant nugget
        without a membership.

    See Also
    --------
    gfrc2 : the expectations over these clusters.
    write_clusters : the table as TSV.

    Examples
    --------
    >>> from fairconv.datasets import load_case
    >>> from fairconv.gfrc2 import clusters
    >>> c = clusters(load_case("r112").conversations)
    >>> c.wc[c.conversation == 0].tolist()
    [33, 36, 39, 54, 63, 87]
    >>> [round(x, 4) for x in c.gnp[:3].tolist()]
    [0.1143, 0.2439, 0.3404]
    """
    opts, w = measure_setup(batch, preset, weights, dict(L=L, lmax=lmax, dedupe=dedupe))
    L, lmax, dedupe = opts.L, opts.lmax, opts.dedupe
    level = batch.effective_levels(lmax, dedupe=dedupe)
    rel = np.flatnonzero(level > 0)
    batch.check_relevant_groups(level > 0)
    conv = batch.conversation_of[rel]
    firsts = _core.group_starts(conv)
    words = (batch.end[rel] - batch.start[rel] + 1).astype(np.float64)
    wc = batch.end[rel].astype(np.float64)
    gwc_rel, wc_nonrel, gnp = _core.gnp(words, wc, level[rel], firsts)
    achieved, sim = {}, {}
    for a in batch.attribute_sets:
        d = _core.running_segment_means(batch.memberships[a.name][rel], firsts)
        achieved[a.name] = d
        sim[a.name] = _core.distr_sim(d, a.target, a.divergence)
    experience = _core.combine(
        np.vstack([gnp[None], *(sim[a.name][None] for a in batch.attribute_sets)]), w
    )
    prob = _core.cluster_probability(wc, L)
    return Clusters(
        conv,
        batch.end[rel],
        gwc_rel,
        wc_nonrel,
        gnp,
        achieved,
        sim,
        experience,
        prob,
        tuple(batch.runs),
        tuple(batch.topics),
    )


@public
@fill_doc(**_DOCS)
def gfrc2(
    batch: ConversationBatch,
    /,
    *,
    preset: str | None = None,
    weights: Sequence[float] | None = None,
    L: int | None = None,
    lmax: int | None = None,
    dedupe: bool | None = None,
) -> dict[str, np.ndarray]:
    r"""EGNP, EGF per attribute set and GFRC2 of every conversation of a batch.

    Parameters
    ----------
    {batch}
    {preset}
    {weights}
    {options}

    Returns
    -------
    dict of str to ndarray (conversations,)
        ``EGNP``, ``EGF[<set>]``, ``GFRC2``; higher is better. Each is a sum of at most
        L terms of size 1/L, so it lies in [0, 1] (EGF with RNOD against a target with
        zero entries can be negative). A conversation without relevant nuggets scores 0.

    Raises
    ------
    ValueError
        As :func:`clusters`.

    See Also
    --------
    evaluate : the same measures as a table by run and topic.
    clusters : the per-cluster values behind them.

    Notes
    -----
    .. math::
        GFRC2 = \sum_{wc \le L} \frac{1}{L} \Big(w_0\, GNP(wc)
        + \sum_m w_m\, DistrSim(D^m(wc) \| D^{m*})\Big)

    References
    ----------
    T. Sakai et al., the GFRC2 paper, Eqs. 11-21 and Tables 1-3.

    Examples
    --------
    >>> from fairconv.datasets import load_case
    >>> [round(x, 6) for x in gfrc2(load_case("r112").conversations)["GFRC2"].tolist()]
    [0.002677, 0.002038]
    """
    return dict(_scores(batch, preset, weights, L, lmax, dedupe))


def _scores(batch, preset, weights, L, lmax, dedupe) -> list[tuple[str, np.ndarray]]:
    """(measure, values per conversation) of :func:`gfrc2`, in output order."""
    c = clusters(batch, preset=preset, weights=weights, L=L, lmax=lmax, dedupe=dedupe)
    n = len(batch)
    out = [("EGNP", _core.expectation(c.conversation, c.prob, c.gnp, n))]
    for a in batch.attribute_sets:
        egf = _core.expectation(c.conversation, c.prob, c.sim[a.name], n)
        out.append((str(MeasureName("EGF", None, a.name)), egf))
    out.append(("GFRC2", _core.expectation(c.conversation, c.prob, c.experience, n)))
    return out


@public
@fill_doc(**_DOCS)
def evaluate(
    batch: ConversationBatch,
    /,
    *,
    measures: Sequence[str] | None = None,
    preset: str | None = None,
    weights: Sequence[float] | None = None,
    L: int | None = None,
    lmax: int | None = None,
    dedupe: bool | None = None,
) -> ScoreTable:
    """GFRC2 scores per run and topic (one conversation per run and topic).

    Parameters
    ----------
    {batch}
    measures : sequence of str, optional
        Only these measures, by the names the output prints (``GFRC2``,
        ``EGF[PRONOUN]``...); default all.
    {preset}
    {weights}
    {options}

    Returns
    -------
    ScoreTable
        The measures of :func:`gfrc2` by run and topic. A run without a conversation
        for a topic that another run has scores 0 there, with a notice naming the run
        and the topics (:meth:`~fairconv.io.ConversationBatch.table`).

    Raises
    ------
    ValueError
        As :func:`clusters`; for an unknown measure, or two conversations of one run
        for one topic.

    See Also
    --------
    gfrc2 : the same measures per conversation, as arrays.

    Examples
    --------
    >>> from fairconv.datasets import load_case
    >>> table = evaluate(load_case("r112").conversations)
    >>> round(table.value("ORG-CS-D-MN-1", "R112", "GFRC2"), 6)
    0.002038
    """
    # _scores checks the batch before batch.table reads it
    scores = _scores(batch, preset, weights, L, lmax, dedupe)
    return pick(batch.table(scores), measures)


@public
def write_clusters(batch: ConversationBatch, c: Clusters, out, /) -> None:
    r"""Write the per-cluster table as TSV.

    Columns: run, topic, wc, GWCrel, WCnonrel, GNP, then D and DistrSim per attribute
    set, Experience and Prob (full precision).

    Parameters
    ----------
    batch : ConversationBatch
        The conversations the clusters were computed from (their runs and topics).
    c : Clusters
        The clusters (:func:`clusters`).
    out : text file
        An open text stream, written into.

    See Also
    --------
    clusters : the table it writes.

    Examples
    --------
    >>> import io
    >>> from fairconv.datasets import load_case
    >>> from fairconv.gfrc2 import clusters, write_clusters
    >>> batch = load_case("r112").conversations
    >>> out = io.StringIO()
    >>> write_clusters(batch, clusters(batch), out)
    >>> out.getvalue().splitlines()[1].split("\t")[:6]
    ['COPWA-CS-QD-MN-2', 'R112', '33', '4.0', '31.0', '0.11428571428571428']
    """
    names = [a.name for a in batch.attribute_sets]
    header = ["run", "topic", "wc", "GWCrel", "WCnonrel", "GNP"]
    for n in names:
        header += [str(MeasureName("D", None, n)), str(MeasureName("DistrSim", None, n))]
    out.write("\t".join(header + ["Experience", "Prob"]) + "\n")
    rows = []
    for i, conv in enumerate(c.conversation.tolist()):
        cells = [
            batch.runs[conv],
            batch.topics[conv],
            str(int(c.wc[i])),
            repr(float(c.gwc_rel[i])),
            repr(float(c.wc_nonrel[i])),
            repr(float(c.gnp[i])),
        ]
        for n in names:
            cells.append("(" + ",".join(repr(float(x)) for x in c.achieved[n][i]) + ")")
            cells.append(repr(float(c.sim[n][i])))
        cells += [repr(float(c.experience[i])), repr(float(c.prob[i]))]
        rows.append("\t".join(cells) + "\n")
    out.write("".join(rows))
