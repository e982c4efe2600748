r"""The group fairness gap between retrieval and generation in RAG: RIGF and ADsim.

Tao and Sakai, "Measuring Group Fairness Differences in RAG Pipelines: A Pilot Study"
(BREV-RAG 2025). For a topic, attribute set m, retrieved list L and answer A:

.. math::
    GF_{Re} = \sum_k Decay_k\, DistrSim(d_{L,k} \| d^*)   \quad\text{(GF of GFR, Eq. 1)}

    GF_{Gen} = DistrSim(d_A \| d^*)   \quad\text{(Eq. 5, no decay)}

    RIGF = (GF_{Gen} - GF_{Re}) / GF_{Re} \times 100   \quad\text{(Eq. 7, percent)}

    ADsim = DistrSim(d_L \| d_A),\quad
    d_L \propto \sum_k a_k / \log_2(k+1)   \quad\text{(Eqs. 8-11)}

``d_A`` is the answer's page membership (normalised sum of its relevant entities'
vectors); GF-Gen is 0 when the answer names no relevant entity. ``a_k`` is the
membership vector of the doc at rank k when it is relevant, zero otherwise, so only
relevant docs give groups exposure. RIGF is undefined (NaN) when GF-Re = 0; ADsim when
the list has no relevant doc or the answer no relevant entity. Over attribute sets,
``GF-Re`` and ``GF-Gen`` are weighted sums (Eqs. 4, 6) and RIGF follows from them;
ADsim is per attribute set only.

Two entry points, as in every measure family: :func:`ragfair` scores padded arrays
and returns a dict of arrays, :func:`evaluate` scores runs and answers read from files
and returns a :class:`~fairconv.results.ScoreTable`. Measure names carry the depth of
the retrieved list: ``GF-Re@10[ORIGIN]``, ``RIGF@10[ORIGIN]``, ``ADsim@10[ORIGIN]``,
``GF-Gen[ORIGIN]`` (the answer has no depth), and the overall ``GF-Re@10``, ``GF-Gen``,
``RIGF@10``; full depth drops the ``@``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import _core
from ._validation import (
    SUM_TOLERANCE,
    as_float_array,
    check_cutoffs,
    check_distributions,
    check_int,
    check_sequence_of,
    check_unique_names,
    check_weights,
    fail,
    file_error,
    moved,
    public,
)
from .divergences import AttributeSet, resolve_divergence
from .gfr import _padded, _stop
from .io import _answers
from .io._answers import answer_distributions
from .io._tables import Qrels, Run
from .rankings import (
    AttributeData,
    Column,
    RankedFamily,
    RankedLists,
    cutoffs_for,
    evaluate_lists,
    join_options,
)
from .results import MeasureName, ScoreTable, notice_missing_topics

__all__ = [
    "ragfair",
    "evaluate",
    "rigf",
    "gf_gen",
    "adsim",
    "attention_distribution",
    "answer_distributions",
]


# --------------------------------------------------------------------------- formulas
GF_RANGE = (1.0 - float(np.sqrt(2.0)), 1.0)
"""The values GF can take: DistrSim is at most 1 and, RNOD being at most sqrt(2), at
least 1 - sqrt(2); GF-Re (decays summing to at most 1) and weighted means keep to it."""


@public
def rigf(gf_gen, gf_re, /) -> np.ndarray:
    """RIGF in percent: (GF-Gen - GF-Re) / GF-Re * 100 (Eq. 7); NaN where GF-Re = 0.

    Parameters
    ----------
    gf_gen, gf_re : array_like
        GF of the generated answer and of the retrieved list; broadcastable, each in
        the range of GF, [1 - sqrt(2), 1] (within 1e-5): at most 1, and below 0 only
        with RNOD against a target with zero entries, RNOD being at most sqrt(2).

    Returns
    -------
    ndarray
        Percent; negative when the answer is less fair than the list. NaN (undefined)
        where GF-Re = 0.

    Raises
    ------
    ValueError
        For values outside the range of GF (NaN and infinity included), shapes that
        do not broadcast, or a nonzero GF_Re so close to 0 (below about 1e-306 in
        magnitude) that the percentage exceeds the float range.

    References
    ----------
    Z. Tao and T. Sakai, BREV-RAG 2025, Eq. 7.

    Examples
    --------
    >>> round(float(rigf(0.6333, 0.7887)), 2)
    -19.7
    """
    gen = as_float_array(gf_gen, "gf_gen")
    re_ = as_float_array(gf_re, "gf_re")
    for name, x in (("gf_gen", gen), ("gf_re", re_)):
        if not np.isfinite(x).all():
            raise fail(name, "hold finite values", "NaN or infinity")
    try:
        shape = np.broadcast_shapes(gen.shape, re_.shape)
    except ValueError:
        raise fail(
            "gf_re", "broadcast with 'gf_gen'", f"shapes {gen.shape} and {re_.shape}"
        ) from None
    for name, x in (("gf_gen", gen), ("gf_re", re_)):
        outside = (x < GF_RANGE[0] - SUM_TOLERANCE) | (x > GF_RANGE[1] + SUM_TOLERANCE)
        if outside.any():  # absurd values, and the overflow of gf_gen - gf_re
            first = tuple(int(i) for i in np.argwhere(outside)[0]) if x.ndim else ()
            where = f" at index {first}" if first else ""
            raise fail(
                name,
                f"hold GF values, in [1 - sqrt(2), 1] (within {SUM_TOLERANCE:g})",
                f"{float(x[first]):.10g}{where}",
            )
    out = _core.rigf(gen, re_)
    over = np.isinf(out)
    if over.any():  # a GF_Re within ~1e-306 of 0: the percentage exceeds the float range
        first = tuple(int(i) for i in np.argwhere(over)[0]) if out.ndim else ()
        value = float(np.broadcast_to(re_, shape)[first])
        where = f" at index {first}" if first else ""
        raise fail(
            "gf_re",
            "be 0 or far enough from 0 for the percentage to be a finite float",
            f"{value!r}{where}",
        )
    return out


@public
def gf_gen(answer_distribution, target, /, *, divergence: str) -> np.ndarray:
    """GF of a generated answer: DistrSim(d_A || target) (Eq. 5).

    Parameters
    ----------
    answer_distribution : array_like, shape (..., G)
        d_A; an all-NaN row marks an answer naming no relevant entity (GF-Gen = 0).
    target : array_like, shape (G,) or broadcastable
    divergence : {'JSD', 'NMD', 'RNOD'}
        Case-insensitive.

    Returns
    -------
    ndarray, shape (...)
        In [0, 1] (RNOD against a target with zero entries can go below 0); higher is
        fairer.

    Examples
    --------
    >>> round(float(gf_gen([0, 0, 1, 0], [0.25] * 4, divergence="RNOD")), 4)
    0.4796
    """
    div = resolve_divergence(divergence, None)
    d = check_distributions(answer_distribution, "answer_distribution", allow_nan_rows=True)
    t = check_distributions(target, "target")
    if d.shape[-1] != t.shape[-1]:
        raise fail("target", f"have the {d.shape[-1]} groups of the answer", f"{t.shape}")
    return _core.gf_gen(d, t, div)


@public
def adsim(list_distribution, answer_distribution, /, *, divergence: str) -> np.ndarray:
    """ADsim: DistrSim(d_L || d_A), the answer's distribution in the target's place.

    Parameters
    ----------
    list_distribution, answer_distribution : array_like, shape (..., G)
        d_L and d_A; all-NaN rows where missing.
    divergence : {'JSD', 'NMD', 'RNOD'}
        Case-insensitive.

    Returns
    -------
    ndarray, shape (...)
        Higher means the answer keeps the list's exposure of groups; NaN where either
        distribution is missing.

    References
    ----------
    Z. Tao and T. Sakai, BREV-RAG 2025, Eqs. 8-11.

    Examples
    --------
    >>> from fairconv.ragfair import adsim
    >>> round(float(adsim([0.5, 0.5, 0, 0], [0.25, 0.25, 0.25, 0.25], divergence="JSD")), 4)
    0.6887
    """
    div = resolve_divergence(divergence, None)
    dl = check_distributions(list_distribution, "list_distribution", allow_nan_rows=True)
    da = check_distributions(answer_distribution, "answer_distribution", allow_nan_rows=True)
    if dl.shape[-1] != da.shape[-1]:
        raise fail(
            "answer_distribution",
            "have the groups of 'list_distribution'",
            f"shapes {dl.shape} and {da.shape}",
        )
    return _core.adsim(dl, da, div)


def _levels(levels):
    lev = np.asarray(levels)
    if lev.ndim == 0 or not np.issubdtype(lev.dtype, np.integer) or (lev < 0).any():
        raise fail(
            "levels",
            "be an array (..., K) of non-negative integer levels",
            f"dtype {lev.dtype}, shape {lev.shape}",
        )
    return lev


@public
def attention_distribution(levels, memberships, /, *, cutoff: int | None = None) -> np.ndarray:
    """d_L: the normalised sum of a_k / log2(k+1) over the relevant docs of each list.

    Parameters
    ----------
    levels : array_like of int, shape (..., K)
        Relevance levels by rank; 0 = nonrelevant.
    memberships : array_like, shape (..., K, G)
        Membership vectors by rank (rows of nonrelevant docs are neither checked nor
        used).
    cutoff : int, optional
        Only the top ``cutoff`` ranks count.

    Returns
    -------
    ndarray, shape (..., G)
        Sums to 1; NaN rows for lists without a relevant doc.

    References
    ----------
    Z. Tao and T. Sakai, BREV-RAG 2025, Eqs. 8-10.

    Examples
    --------
    >>> attention_distribution([1, 0, 1], [[1, 0], [0, 1], [0, 1]]).round(4).tolist()
    [0.6667, 0.3333]
    """
    lev = _levels(levels)
    memb = as_float_array(memberships, "memberships")
    if memb.ndim == 0 or memb.shape[:-1] != lev.shape:
        raise fail("memberships", f"have shape {lev.shape} + (G,)", f"shape {memb.shape}")
    # only the rows of relevant docs are used, so only they are checked
    uniform = 1.0 / max(memb.shape[-1], 1)
    memb = check_distributions(np.where((lev > 0)[..., None], memb, uniform), "memberships")
    if cutoff is not None:
        cutoff = check_int(cutoff, "cutoff", minimum=1)
    return _core.attention(lev, memb, cutoff)


# --------------------------------------------------------------------------- scoring
def _per_set(decay, level, memb, d_a, a: AttributeSet, cut, wanted=None) -> list:
    """``[(measure, values)]``: GF-Gen, and GF-Re, RIGF and ADsim at each depth, of one set.

    Only the measures in ``wanted`` (all when None) and those they need are computed.
    """

    def asked(base, k=None):
        return wanted is None or MeasureName(base, k, a.name) in wanted

    out = []
    gen = _core.gf_gen(d_a, a.target, a.divergence) if asked("GF-Gen") else None
    if gen is not None:
        out.append((MeasureName("GF-Gen", None, a.name), gen))
    depths = [k for k in cut if asked("GF-Re", k)]
    re_all = _core.gf_at_cutoffs(decay, memb, a.target, [a.divergence], depths)
    for k in cut:
        if k in depths:
            re_ = re_all[(a.divergence, k)]
            out.append((MeasureName("GF-Re", k, a.name), re_))
            if asked("RIGF", k):
                assert gen is not None  # RIGF needs GF-Gen: asked with it
                out.append((MeasureName("RIGF", k, a.name), _core.rigf(gen, re_)))
        if asked("ADsim", k):
            d_l = _core.attention(level, memb, k)
            out.append((MeasureName("ADsim", k, a.name), _core.adsim(d_l, d_a, a.divergence)))
    return out


def _set_columns(cut, name: str, m: int = 0) -> list[Column]:
    """The measures of one attribute set (its ``m``-th): GF-Gen, then per depth the rest."""
    gen = MeasureName("GF-Gen", None, name)
    out = [Column(gen, sets=(m,))]
    for k in cut:
        re_ = MeasureName("GF-Re", k, name)
        out += [
            Column(re_, sets=(m,)),
            Column(MeasureName("RIGF", k, name), sets=(m,), needs=(gen, re_)),
            Column(MeasureName("ADsim", k, name), sets=(m,)),
        ]
    return out


def _columns(cut, set_names: Sequence[str]) -> list[Column]:
    """Every measure of :func:`ragfair` and :func:`evaluate`, in output order."""
    out = [c for m, n in enumerate(set_names) for c in _set_columns(cut, n, m)]
    every = tuple(range(len(set_names)))
    gen = MeasureName("GF-Gen")
    out.append(
        Column(gen, sets=every, needs=tuple(MeasureName("GF-Gen", None, n) for n in set_names))
    )
    for k in cut:
        re_ = MeasureName("GF-Re", k)
        out += [
            Column(re_, sets=every, needs=tuple(MeasureName("GF-Re", k, n) for n in set_names)),
            Column(MeasureName("RIGF", k), sets=every, needs=(gen, re_)),
        ]
    return out


def measure_names(set_names: Sequence[str], cutoffs: Sequence[int] = ()) -> list[str]:
    """The measures of :func:`ragfair` and :func:`evaluate`, in output order.

    Examples
    --------
    >>> measure_names(["ORIGIN"], [10])[4:7]
    ['GF-Re@10[ORIGIN]', 'RIGF@10[ORIGIN]', 'ADsim@10[ORIGIN]']
    >>> measure_names(["ORIGIN"], [10])[7:]
    ['GF-Gen', 'GF-Re', 'RIGF', 'GF-Re@10', 'RIGF@10']
    """
    return [str(c.name) for c in _columns([None, *sorted(set(cutoffs))], set_names)]


def _overall(values: dict, sets, cut, w, covered=None, wanted=None) -> list:
    """``[(measure, values)]``: the weighted overall GF-Gen, GF-Re@k, RIGF@k (Eqs. 4, 6, 7)."""

    def stack(base, k):
        parts = [values[MeasureName(base, k, a.name)] for a in sets]
        return np.stack(np.broadcast_arrays(*parts))

    def asked(name):
        return wanted is None or name in wanted

    out = []
    gen = None
    if asked(MeasureName("GF-Gen")):
        gen = _core.combine(stack("GF-Gen", None), w, covered)
        out.append((MeasureName("GF-Gen"), gen))
    for k in cut:
        if asked(MeasureName("GF-Re", k)):
            re_ = _core.combine(stack("GF-Re", k), w, covered)
            out.append((MeasureName("GF-Re", k), re_))
            if asked(MeasureName("RIGF", k)):
                assert gen is not None  # RIGF needs GF-Gen: asked with it
                out.append((MeasureName("RIGF", k), _core.rigf(gen, re_)))
    return out


@public
def ragfair(
    levels,
    memberships,
    answer_distributions,
    attribute_sets: Sequence[AttributeSet],
    /,
    *,
    lengths=None,
    cutoffs: Sequence[int] = (),
    gains: Sequence[float] = (1, 3),
    weights: Sequence[float] | None = None,
) -> dict[str, np.ndarray]:
    """GF-Re, GF-Gen, RIGF and ADsim of padded retrieved lists and their answers.

    Parameters
    ----------
    levels : array_like of int, shape (..., K)
        Relevance level of the doc at each rank of the retrieved list.
    memberships : sequence of array_like, each (..., K, G_m)
        Membership vectors by rank, one array per attribute set; as in
        :func:`fairconv.gfr.gfr`, only the rows of relevant docs within ``lengths`` are
        checked and used, and an all-NaN row there counts as uniform.
    answer_distributions : sequence of array_like, each (..., G_m)
        d_A of each answer per attribute set; all-NaN rows for answers naming no
        relevant entity (:func:`answer_distributions`).
    attribute_sets : sequence of AttributeSet
    lengths : array_like of int, shape (...), optional
        List lengths; default K. Positions at or beyond them are neither checked nor
        used.
    cutoffs : sequence of int
        Depths of the retrieved list besides full depth.
    gains : sequence of float
        Gains of levels 1..lmax for the ERR decay of GF-Re.
    weights : sequence of float, optional
        M weights of the attribute sets for the overall values (Eqs. 4, 6); finite,
        non-negative, summing to 1; default equal.

    Returns
    -------
    dict of str to ndarray (...)
        Keys as :func:`measure_names`. RIGF is in percent and NaN where GF-Re = 0;
        ADsim is NaN where the list has no relevant doc or the answer no relevant
        entity.

    References
    ----------
    Z. Tao and T. Sakai, "Measuring Group Fairness Differences in RAG Pipelines: A
    Pilot Study", BREV-RAG 2025, Eqs. 1-11.

    Examples
    --------
    >>> from fairconv import AttributeSet
    >>> a = AttributeSet("A", [0.5, 0.5], "nominal")
    >>> s = ragfair([[1, 1]], [[[[1, 0], [1, 0]]]], [[[0.5, 0.5]]], [a])
    >>> round(float(s["GF-Gen[A]"][0]), 4), round(float(s["RIGF"][0]), 1)
    (1.0, 231.9)
    """
    sets = check_sequence_of(attribute_sets, AttributeSet, "attribute_sets", min_len=1)
    check_unique_names([a.name for a in sets], "attribute_sets")
    answers = list(answer_distributions)
    if len(answers) != len(sets):
        raise fail("answer_distributions", "hold one array per attribute set", f"{len(answers)}")
    depths = check_cutoffs(cutoffs, "cutoffs")
    cut: list[int | None] = [None, *depths]
    prob = _stop(gains)
    lev, arrays = _padded(levels, memberships, sets, lengths, len(prob) - 1)
    decay = _core.err_decay(prob[lev])
    w = _set_weights(weights, len(sets))
    values: dict = {}
    for m, (a, x, d_a) in enumerate(zip(sets, arrays, answers, strict=True)):
        da = check_distributions(d_a, f"answer_distributions[{m}]", allow_nan_rows=True)
        if da.shape != lev.shape[:-1] + (a.n_groups,):
            raise fail(
                f"answer_distributions[{m}]",
                f"have shape {lev.shape[:-1] + (a.n_groups,)}",
                f"shape {da.shape}",
            )
        values.update(_per_set(decay, lev, x, da, a, cut))
    values.update(_overall(values, sets, cut, w))
    return {str(c.name): values[c.name] for c in _columns(cut, [a.name for a in sets])}


def _set_weights(weights, n_sets):
    if weights is None:
        return np.full(n_sets, 1.0 / n_sets)
    return check_weights(weights, n_sets, "weights")


# --------------------------------------------------------------------------- evaluation
@public
def evaluate(
    qrels: Qrels,
    runs: Sequence[Run],
    attributes: Sequence[AttributeData],
    answers,
    /,
    *,
    cutoffs: Sequence[int] | None = None,
    measures: Sequence[str] | None = None,
    weights: Sequence[float] | None = None,
    gains: Sequence[float] = (1, 3),
    order: str | None = None,
    duplicates: str = "error",
    nonrelevant_membership: str = "uniform",
    n_jobs: int | None = None,
) -> ScoreTable:
    """GF-Re, GF-Gen, RIGF and ADsim per attribute set, and the weighted overall values.

    Parameters
    ----------
    qrels, runs, attributes
        As :func:`fairconv.gfr.evaluate`; each attribute set covers its gmemb topics.
    answers : Answers, path, file object, DataFrame or records
        Any input of :func:`fairconv.io.as_answers`, read with the attribute sets
        scored. One answer per (run, topic); an answer's ``run`` must be a run's tag (or empty,
        when there is one run). A run topic without an answer counts as an answer that
        names no relevant entity (GF-Gen = 0), with a notice where another run answers
        the topic (counted in the table's ``notices["answers_missing"]``).
    cutoffs : sequence of int, optional
        Depths of the retrieved list L for GF-Re and d_L, besides full depth (none by
        default, or those the ``measures`` ask for).
    measures : sequence of str, optional
        Only these measures (``RIGF@10[M-ORIGIN]``, ``GF-Gen``...); their depths are the
        cutoffs. An unknown name is an error listing the valid ones.
    weights : sequence of float, optional
        M weights of the attribute sets for the overall values, summing to 1; on each
        topic they are renormalised over the sets that cover it (default equal). Where
        every set covering a topic has weight 0, the overall values are undefined
        there (NaN).
    gains, order, duplicates, nonrelevant_membership, n_jobs
        As :func:`fairconv.gfr.evaluate`.

    Returns
    -------
    ScoreTable
        Measures as :func:`measure_names`. Undefined values are NaN and left out of
        the ``all`` means, whose coverage ``to_tsv`` reports as ``n[<measure>]``.

    Examples
    --------
    >>> from fairconv.datasets import fairweb1_pilot, path
    >>> from fairconv.io import read_answers
    >>> p = fairweb1_pilot()
    >>> movies = [a for a in p.attributes if a.attribute.name in ("M-RATINGS", "M-ORIGIN")]
    >>> answers = read_answers(path("rag", "pilot-answers.jsonl"), [a.attribute for a in movies])
    >>> t = evaluate(p.qrels, p.runs, movies, answers, cutoffs=[10])
    >>> sorted(t.measures)[:3]
    ['ADsim@10[M-ORIGIN]', 'ADsim@10[M-RATINGS]', 'ADsim[M-ORIGIN]']
    """
    depths = check_cutoffs(cutoffs_for(cutoffs, measures, ()), "cutoffs")
    family = _RAGFamily([None, *depths], _stop(gains), weights, answers)
    join = join_options(order, duplicates, nonrelevant_membership)
    return evaluate_lists(
        qrels, runs, attributes, family, measures=measures, join=join, n_jobs=n_jobs
    )


class _RAGFamily(RankedFamily):
    """RIGF's measures and kernel on the ranked-list route (:func:`evaluate_lists`)."""

    def __init__(self, cut, prob, weights, answers):
        self.cut, self.prob, self.weights, self.answers = cut, prob, weights, answers
        self.sets: list[AttributeSet] = []

    def columns(self, sets: Sequence[AttributeSet]) -> list[Column]:
        self.sets = list(sets)
        if not sets:
            raise fail("attributes", "hold at least one attribute set", "none")
        self.w = _set_weights(self.weights, len(sets))
        return _columns(self.cut, [a.name for a in sets])

    def check(self, qrels: Qrels, attributes) -> None:
        qrels.check_gains(len(self.prob) - 1)
        self.answers = _answers.as_answers(self.answers, self.sets)
        lacking = [a.name for a in self.sets if a.name not in self.answers.distributions]
        if lacking:
            raise fail(
                "answers",
                "give each answer a distribution for every attribute set scored (read them "
                "with the same attribute sets)",
                f"answers without the attribute set {lacking[0]!r}",
            )

    def notices(self, lists: RankedLists, wanted: frozenset) -> dict:
        """A run without an answer for a topic that another run has one for: GF-Gen 0.

        The notice of every family for what a run lacks
        (:func:`~fairconv.results.notice_missing_topics`), on the topics an attribute
        set covers, when a measure of the answers is asked for; the counts are
        ``answers_missing``.
        """
        answered = self._answer_of(lists) >= 0
        used = np.zeros(len(lists.topics), dtype=bool)
        for cov in lists.covered:
            used[cov] = True
        if not any(not str(name).startswith("GF-Re") for name in wanted):
            used[:] = False  # GF-Re alone reads no answer
        missing = (lists.lengths > 0) & ~answered & (answered.any(axis=1) & used)[:, None]
        return {
            "answers_missing": notice_missing_topics(
                lists.topics,
                lists.runs,
                missing,
                item="answer",
                action="GF-Gen is 0 there, as for an answer that names no relevant entity",
            )
        }

    def attach(self, lists: RankedLists) -> None:
        self.answer_of = self._answer_of(lists)

    def _answer_of(self, lists: RankedLists) -> np.ndarray:
        """Each (topic, run)'s answer: its row of the distributions, -1 where none."""
        answers, topics = self.answers, lists.topics
        t_index = {t: i for i, t in enumerate(topics)}
        r_of = _answer_runs(answers, lists.runs)
        t_of = np.array([t_index.get(t, -1) for t in answers.topics], dtype=np.int64)
        lacking = (t_of < 0) | (lists.lengths[np.maximum(t_of, 0), r_of] == 0)
        if lacking.any():
            i = int(np.argmax(lacking))
            raise file_error(
                answers.sources[i],
                f"the answer names topic {answers.topics[i]!r}, "
                f"which run {lists.runs[r_of[i]]!r} has no ranked list for",
            )
        cell = r_of * len(topics) + t_of
        if len(np.unique(cell)) != len(cell):
            dup = int(np.flatnonzero(np.bincount(cell) > 1)[0])
            where = [answers.sources[i] for i in np.flatnonzero(cell == dup)]
            raise ValueError(
                f"two answers for run {lists.runs[dup // len(topics)]!r} and topic "
                f"{topics[dup % len(topics)]!r} ({where[0]} and {where[1]})"
            )
        answer_of = np.full((len(topics), len(lists.runs)), -1, dtype=np.int64)
        answer_of[t_of, r_of] = np.arange(len(t_of))
        return answer_of

    def jobs(self, lists: RankedLists, wanted: frozenset) -> list:
        return [
            (m, tt)
            for m, a in enumerate(self.sets)
            if any(c.name in wanted for c in _set_columns(self.cut, a.name))
            for tt in lists.blocks(lists.covered[m], width=a.n_groups)
        ]

    def score(self, lists: RankedLists, job, wanted: frozenset):
        m, tt = job
        a = self.sets[m]
        level = lists.padded_levels(tt)
        decay = _core.err_decay(self.prob[level])
        d_all = np.vstack([self.answers.distributions[a.name], np.full((1, a.n_groups), np.nan)])
        d_a = d_all[self.answer_of[tt]]  # -1 (no answer) reads the NaN row: no relevant entity
        memberships = lists.padded_memberships(m, tt)
        return tt, _per_set(decay, level, memberships, d_a, a, self.cut, wanted)

    def finish(self, values: dict, covered: np.ndarray, wanted: frozenset):
        return _overall(values, self.sets, self.cut, self.w, covered[:, :, None], wanted)


def _answer_runs(answers: _answers.Answers, names: Sequence[str]) -> np.ndarray:
    """Index of the run of every answer (by name; empty: the only run)."""
    index = {n: i for i, n in enumerate(names)}
    out = []
    for run, where in zip(answers.runs, answers.sources, strict=True):
        if run == "" and len(names) == 1:
            out.append(0)
        elif run in index:
            out.append(index[run])
        else:
            raise file_error(
                where, f"the answer's run {run!r} is none of the runs given ({', '.join(names)})"
            )
    return np.array(out, dtype=np.int64)


__getattr__ = moved(__name__, "fairconv.io", {"Answers": _answers.Answers})
