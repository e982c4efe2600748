"""GFRC2: word-level expected experience of a conversation.

The alternative to GFRC in Sakai et al.'s GFRC2 paper (Eqs. 11-21). Users abandon the
conversation at the end of a relevant nugget; the users who stop at word ``wc`` (a
user cluster) have read every word up to wc. For each cluster:

.. math::
    GWCrel(wc) = \\sum_l l\\, WCrel_l(wc),\\qquad
    GNP(wc) = \\frac{GWCrel(wc)}{WCnonrel(wc) + GWCrel(wc)}

    Experience(wc) = w_0\\, GNP(wc) + \\sum_m w_m\\, DistrSim(D^m(wc) \\| D^{m*})

where ``WCrel_l(wc)`` counts the words of level-l relevant nuggets among the first wc
words, ``WCnonrel(wc)`` the other words among them (user turns and nonrelevant text
included) and ``D^m(wc)`` is the mean membership of the relevant nuggets up to wc.
``Prob(wc) = 1/L`` when wc <= L, else 0, and

.. math::
    GFRC2 = \\sum_{wc} Prob(wc)\\, Experience(wc),\\quad
    EGNP = \\sum Prob\\, GNP,\\quad EGF^m = \\sum Prob\\, DistrSim^m.

Everything is computed from nugget positions and lengths with cumulative sums over
the relevant nuggets: memory grows with nuggets, not words.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _core
from ._validation import check_weights, fail
from .conversation import ConversationBatch
from .results import ScoreTable

__all__ = ["gfrc2", "gfrc2_arrays", "clusters", "Clusters"]


def _options(batch, L, weights, lmax, func):
    if not isinstance(L, (int, float, np.integer, np.floating)) or not L > 1:
        raise fail("L", func, "be a patience in words greater than 1", repr(L))
    n = len(batch.attributes)
    if n == 0:
        raise fail("batch", func, "carry at least one attribute set", "none")
    w = (
        np.full(n + 1, 1.0 / (n + 1))
        if weights is None
        else check_weights(weights, n + 1, "weights", func)
    )
    if isinstance(lmax, bool) or not isinstance(lmax, (int, np.integer)) or lmax < 1:
        raise fail("lmax", func, "be an integer >= 1", repr(lmax))
    return float(L), w


@dataclass(frozen=True, eq=False)
class Clusters:
    """The per-cluster table: one row per relevant nugget end (user cluster).

    ``conversation[i]`` is the conversation index of row i; ``achieved[name]`` (rows, G)
    and ``sim[name]`` (rows,) are per attribute set; ``prob`` is 1/L within L, else 0.
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


def clusters(batch: ConversationBatch, /, *, L=1000, weights=None, lmax=2, dedupe=True) -> Clusters:
    """Per-cluster values of every conversation of a batch (the GFRC2 paper, Tables 1-2).

    Parameters
    ----------
    batch : ConversationBatch
    L : float
        Patience in words (default 1000).
    weights : sequence of float, optional
        w_0 (GNP) and w_1..w_M (attribute sets); default 1/(M+1) each; sum to 1.
    lmax : int
        Highest relevance level (levels above it are an error).
    dedupe : bool
        Later mentions of an already credited entity count as nonrelevant words.
    """
    L, w = _options(batch, L, weights, lmax, "gfrc2")
    level = batch.effective_levels(lmax, dedupe=dedupe, func="gfrc2")
    rel = np.flatnonzero(level > 0)
    batch.check_relevant_groups(level > 0)
    conv = batch.conversation_of[rel]
    n_conv = len(batch)
    firsts = np.searchsorted(conv, np.arange(n_conv))
    firsts = firsts[firsts < len(rel)]
    words = (batch.end[rel] - batch.start[rel] + 1).astype(np.float64)
    wc = batch.end[rel].astype(np.float64)
    gwc_rel = _core.segment_cumsum(words * level[rel], firsts)
    wc_nonrel = wc - _core.segment_cumsum(words, firsts)
    gnp = gwc_rel / (wc_nonrel + gwc_rel)
    count = (
        np.arange(len(rel))
        - firsts[np.searchsorted(firsts, np.arange(len(rel)), side="right") - 1]
        + 1
        if len(rel)
        else np.zeros(0)
    )
    achieved, sim = {}, {}
    experience = w[0] * gnp
    for m, a in enumerate(batch.attributes):
        d = _core.segment_cumsum(batch.groups[a.name][rel], firsts) / count[:, None]
        achieved[a.name] = d
        sim[a.name] = _core.distr_sim(d, a.target, a.divergence)
        experience = experience + w[m + 1] * sim[a.name]
    prob = np.where(wc <= L, 1.0 / L, 0.0)
    return Clusters(conv, batch.end[rel], gwc_rel, wc_nonrel, gnp, achieved, sim, experience, prob)


def gfrc2_arrays(batch: ConversationBatch, /, *, L=1000, weights=None, lmax=2, dedupe=True) -> dict:
    """EGNP, EGF per attribute set and GFRC2 of every conversation of a batch.

    Returns
    -------
    dict of str to ndarray (conversations,)
        ``EGNP``, ``EGF[<set>]``, ``GFRC2``; higher is better. Each is a sum of at most
        L terms of size 1/L, so it lies in [0, 1] (EGF with RNOD against a target with
        zero entries can be negative). A conversation without relevant nuggets scores 0.

    Examples
    --------
    >>> from fairconv.conversation import read_attribute_sets, read_conversations
    >>> from fairconv.datasets import path
    >>> sets = read_attribute_sets(path("cases", "r112-attributes.json"))
    >>> batch = read_conversations(path("cases", "r112-fairweb2.jsonl"), sets)
    >>> [round(x, 6) for x in gfrc2_arrays(batch)["GFRC2"].tolist()]
    [0.002677, 0.002038]
    """
    c = clusters(batch, L=L, weights=weights, lmax=lmax, dedupe=dedupe)
    n = len(batch)
    out = {"EGNP": np.bincount(c.conversation, weights=c.prob * c.gnp, minlength=n)}
    for a in batch.attributes:
        out[f"EGF[{a.name}]"] = np.bincount(
            c.conversation, weights=c.prob * c.sim[a.name], minlength=n
        )
    out["GFRC2"] = np.bincount(c.conversation, weights=c.prob * c.experience, minlength=n)
    return out


def gfrc2(batch: ConversationBatch, /, **options) -> ScoreTable:
    """GFRC2 scores per run and topic; options as :func:`gfrc2_arrays`."""
    return batch.table(gfrc2_arrays(batch, **options))


def write_clusters(batch: ConversationBatch, c: Clusters, out) -> None:
    """The per-cluster table as TSV: run, topic, wc, GWCrel, WCnonrel, GNP, then D and
    DistrSim per attribute set, Experience and Prob (full precision).
    """
    names = [a.name for a in batch.attributes]
    header = ["run", "topic", "wc", "GWCrel", "WCnonrel", "GNP"]
    for n in names:
        header += [f"D[{n}]", f"DistrSim[{n}]"]
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
