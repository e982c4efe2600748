r"""GFR: group fairness and relevance of ranked lists (SERPs).

Sakai, Kim and Kang (ACM TOIS 2023); the official measure of NTCIR-17 FairWeb-1 and
NTCIR-18 FairWeb-2. A user stops at rank k with probability
``p_k = gain(l_k) / (gain(lmax) + 1)`` (ERR user model), so

.. math::
    Decay_k = p_k \prod_{j<k} (1 - p_j),\quad
    ERR@K = \sum_{k \le K} Decay_k / k,\quad
    iRBU@K = \sum_{k \le K} Decay_k \phi^k,\quad
    GF@K = \sum_{k \le K} Decay_k\, DistrSim(D_k \| D^*)

where ``D_k`` is the mean membership vector of **all** top-k docs, a nonrelevant,
unjudged or unlisted doc counting as uniform. GFR is a weighted mean of one utility
and one GF per attribute set (default: ERR and each set's default divergence, equal
weights). No normalisation; a list shorter than K keeps its last value.

Two entry points, as in every measure family: :func:`gfr` scores padded arrays
(topics x runs x ranks) in one call and returns a dict of arrays; :func:`evaluate`
scores runs against qrels and membership files and returns a
:class:`~fairconv.results.ScoreTable`. The join of runs, qrels and memberships lives in
:mod:`fairconv.rankings`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import _core
from ._validation import (
    as_float_array,
    check_choice,
    check_cutoffs,
    check_distributions,
    check_gains,
    check_real,
    check_sequence_of,
    check_unique_names,
    check_weights,
    fail,
    fail_type,
    fill_doc,
    notice,
    public,
)
from .divergences import DIVERGENCE_NAMES, AttributeSet
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
from .results import MeasureName, ScoreTable, few

__all__ = [
    "gfr",
    "evaluate",
    "stop_probabilities",
    "measure_names",
    "DEFAULT_CUTOFFS",
]

DEFAULT_CUTOFFS = (10, 20, 100)


# --------------------------------------------------------------------------- options
@public
def stop_probabilities(gains: Sequence[float] = (1, 3), /) -> np.ndarray:
    """Satisfaction probability of each level 0..lmax: gain(l) / (gain(lmax) + 1).

    Parameters
    ----------
    gains : sequence of float
        Positive, non-decreasing gains of levels 1..lmax (lmax <= 100).

    Returns
    -------
    ndarray, shape (lmax + 1,)
        In [0, 1); level 0 has probability 0.

    Raises
    ------
    ValueError
        If the gains are not positive, finite and non-decreasing.

    References
    ----------
    Chapelle et al., CIKM 2009 (ERR); Sakai, Kim and Kang, TOIS 2023, Section 4.

    Examples
    --------
    >>> stop_probabilities((1, 3)).tolist()
    [0.0, 0.25, 0.75]
    """
    return _stop(gains)


def _stop(gains) -> np.ndarray:
    """:func:`stop_probabilities`, its errors naming ``func`` (the function called)."""
    return _core.stop_probabilities(check_gains(gains, "gains"))


@public
def measure_names(
    set_names: Sequence[str], /, *, cutoffs: Sequence[int] = DEFAULT_CUTOFFS
) -> list[str]:
    """Measure names in output order: full depth first, then each cutoff.

    Parameters
    ----------
    set_names : sequence of str
        The attribute sets, in order.
    cutoffs : sequence of int
        Depths besides full depth.

    Returns
    -------
    list of str
        ``ERR``, ``iRBU``, ``GF-<divergence>[<set>]`` for each set and divergence,
        ``GFR``, then the same at each cutoff (``ERR@10`` ...).

    Examples
    --------
    >>> measure_names(["M-RATINGS"], cutoffs=[10])[:6]
    ['ERR', 'iRBU', 'GF-JSD[M-RATINGS]', 'GF-NMD[M-RATINGS]', 'GF-RNOD[M-RATINGS]', 'GFR']
    """
    cut = [None, *sorted(set(cutoffs))]
    return [str(c.name) for c in _columns(cut, "ERR", set_names)]


def _columns(cut, utility: str, set_names: Sequence[str], divergences=None) -> list[Column]:
    """GFR's measures in output order: per depth ERR, iRBU, each set's GF, GFR.

    ``divergences`` gives each set's own (GFR's part); None: not known (names only).
    """
    out = []
    for k in cut:
        out += [Column(MeasureName("ERR", k)), Column(MeasureName("iRBU", k))]
        out += [
            Column(_gf_name(d, k, n), sets=(m,))
            for m, n in enumerate(set_names)
            for d in DIVERGENCE_NAMES
        ]
        parts: tuple[MeasureName, ...] = ()
        if divergences is not None:
            parts = (MeasureName(utility, k),) + tuple(
                _gf_name(d, k, n) for n, d in zip(set_names, divergences, strict=True)
            )
        out.append(Column(MeasureName("GFR", k), needs=parts))
    return out


def _options(cutoffs, gains, phi, utility):
    cut = [None, *check_cutoffs(cutoffs, "cutoffs")]
    prob = _stop(gains)
    phi = check_real(phi, "phi", low=0.0, high=1.0, closed="neither")
    utility = check_choice(utility, "utility", ("ERR", "iRBU"))
    return cut, prob, phi, utility


def _weights(weights, n_sets):
    if weights is None:
        return np.full(n_sets + 1, 1.0 / (n_sets + 1))
    return check_weights(weights, n_sets + 1, "weights")


def _combine_gfr(values: dict, cut, utility, sets: Sequence[AttributeSet], w, covered=None):
    """``[(GFR@k, values)]``: the utility and each set's GF with its own divergence.

    ``values`` holds the parts by MeasureName; ``covered`` (sets, ...) says where each set
    covers (None: everywhere), each set's weight renormalised away where it does not.
    """
    out = []
    for k in cut:
        parts = [values[MeasureName(utility, k)]]
        parts += [values[_gf_name(a.divergence, k, a.name)] for a in sets]
        stack = np.stack(np.broadcast_arrays(*parts))
        cov = None
        if covered is not None:
            cov = np.concatenate([np.ones((1,) + covered.shape[1:], bool), covered])
        out.append((MeasureName("GFR", k), _core.combine(stack, w, cov)))
    return out


RANKED_DOCS = {
    "inputs": """qrels : Qrels, path, DataFrame, dict or records
    Relevance judgments (:func:`fairconv.io.read_qrels`, or any input of
    :func:`fairconv.io.as_qrels`).
runs : sequence of runs, or a mapping from run name to run
    The runs (:func:`fairconv.io.read_run`, paths, DataFrames, dicts or
    records: :func:`fairconv.io.as_runs`); their names must be distinct.
attributes : sequence of AttributeData
    Attribute sets with their memberships (:func:`fairconv.io.load_attribute`).
    Each set covers the topics of its gmemb file: its GF cells exist only there.""",
    "join": """order : {None, 'file', 'score'}
    Rank order: the order of a topic's lines in the run file or rows in the
    DataFrame (as the organisers' tool), or trec_eval's (score descending, ties by
    doc id descending). None (default): runs read from files in file order, runs
    from DataFrames, dicts or records by score (as ir_measures and pytrec_eval
    rank them; a ``rank`` column is ignored).
duplicates : {'error', 'first'}
    A doc twice in one ranked list is an error naming file and line, or only its
    first occurrence is kept.
nonrelevant_membership : {'uniform', 'listed'}
    How a judged-nonrelevant doc counts in GF: uniform (the papers' rule) or with
    the vector its gmemb file lists (the organisers' tool); see
    :func:`fairconv.rankings.prepare`.""",
    "n_jobs": """n_jobs : int, optional
    Threads that convert in-memory inputs, join the runs and score blocks of
    topics: None for ``FAIRCONV_THREADS`` or else every available core, -1 for
    every core, 1 for none (no thread started). The scores are the same.""",
    "gains": """gains : sequence of float
    Gain of levels 1..lmax (default 1, 3: FairWeb's L1 = 1, L2 = 3).""",
    "phi": """phi : float
    iRBU persistence, in (0, 1).""",
    "utility": """utility : {'ERR', 'iRBU'}
    The utility in GFR.""",
}
"""numpydoc Parameters entries that the ranked-list families share (:func:`evaluate` and
:func:`fairconv.ragfair.evaluate`): written once, filled in by
:func:`fairconv._validation.fill_doc`."""


# --------------------------------------------------------------------------- arrays
@public
@fill_doc(**RANKED_DOCS)
def gfr(
    levels,
    memberships,
    attribute_sets: Sequence[AttributeSet],
    /,
    *,
    lengths=None,
    cutoffs: Sequence[int] = DEFAULT_CUTOFFS,
    gains: Sequence[float] = (1, 3),
    phi: float = 0.99,
    utility: str = "ERR",
    weights: Sequence[float] | None = None,
) -> dict[str, np.ndarray]:
    r"""Score padded ranked lists: ERR, iRBU, GF-JSD/NMD/RNOD per attribute set, GFR.

    Parameters
    ----------
    levels : array_like of int, shape (..., K)
        Relevance level of the doc at each rank (0 = nonrelevant or unjudged), e.g.
        (topics, runs, K). Positions at or beyond ``lengths`` are ignored: neither
        checked nor used.
    memberships : sequence of array_like, each (..., K, G_m)
        Membership vector of each ranked doc for each attribute set. Only the rows of
        relevant docs within ``lengths`` are checked and used; the others count as
        uniform and may hold anything (zeros, NaN). An all-NaN row marks a relevant
        doc missing from the membership data, which also counts as uniform.
    attribute_sets : sequence of AttributeSet
        Targets and default divergences, in the order of ``memberships``.
    lengths : array_like of int, shape (...), optional
        Length of each list; default K.
    cutoffs : sequence of int
        Depths K at which to report, besides full depth.
    {gains}
    {phi}
    {utility}
    weights : sequence of float, optional
        M + 1 weights: w_0 for the utility, then one per attribute set; finite,
        non-negative, summing to 1. Default equal.

    Returns
    -------
    dict of str to ndarray (...)
        Keys as :func:`measure_names`. ERR, iRBU and GF lie in [0, 1] (GF with RNOD
        against a target with zero entries can be negative); higher is better.

    Raises
    ------
    ValueError
        For levels outside 0..lmax, memberships of the wrong shape, a relevant doc's
        membership not summing to 1, bad cutoffs, gains, phi or weights.
    TypeError
        For non-numeric arrays or attribute sets that are not :class:`AttributeSet`.

    See Also
    --------
    evaluate : the same measures of runs read from files or frames, as a table.
    measure_names : the keys of the dict, in output order.

    Notes
    -----
    .. math::
        GFR@K = w_0\, U@K + \sum_m w_m\, GF^m@K

    with U the utility (ERR or iRBU) and GF^m computed with the default divergence of
    attribute set m (JSD for nominal, RNOD for ordinal sets).

    References
    ----------
    T. Sakai, J. Kim and I. Kang, "A Versatile Framework for Evaluating Ranked Lists in
    terms of Group Fairness and Relevance", ACM TOIS 42(1), 2023, Eqs. 1-6.

    Examples
    --------
    >>> import numpy as np
    >>> from fairconv import AttributeSet
    >>> a = AttributeSet("A", [0.5, 0.5], "nominal")
    >>> s = gfr([[2, 0]], [np.array([[[1.0, 0.0], [0.5, 0.5]]])], [a], cutoffs=[1])
    >>> round(float(s["ERR"][0]), 4), round(float(s["GF-JSD[A]"][0]), 4)
    (0.75, 0.5165)
    """
    sets = check_sequence_of(attribute_sets, AttributeSet, "attribute_sets")
    check_unique_names([a.name for a in sets], "attribute_sets")
    cut, prob, phi, utility = _options(cutoffs, gains, phi, utility)
    lev, arrays = _padded(levels, memberships, sets, lengths, len(prob) - 1)
    w = _weights(weights, len(sets))
    decay = _core.err_decay(prob[lev])
    values = {
        MeasureName(u, k): v for (u, k), v in _core.utility_at_cutoffs(decay, cut, phi).items()
    }
    for x, a in zip(arrays, sets, strict=True):
        for (d, k), v in _core.gf_at_cutoffs(decay, x, a.target, DIVERGENCE_NAMES, cut).items():
            values[_gf_name(d, k, a.name)] = v
    values.update(_combine_gfr(values, cut, utility, sets, w))
    return {str(c.name): values[c.name] for c in _columns(cut, utility, [a.name for a in sets])}


def _padded(levels, memberships, sets: Sequence[AttributeSet], lengths, lmax: int):
    """Check padded ranked lists; return their levels and per-set membership arrays.

    Only what the measures use is checked: positions at or beyond a list's length are
    neither checked nor used (they come back as level 0), and a membership row only
    where the doc is relevant (an all-NaN row passes there). The arrays returned hold a
    uniform row wherever a doc counts as uniform: nonrelevant, padding, or all-NaN.
    """
    lev = np.asarray(levels)
    if lev.ndim == 0 or not np.issubdtype(lev.dtype, np.integer):
        raise fail(
            "levels", "be an integer array (..., K)", f"dtype {lev.dtype}, shape {lev.shape}"
        )
    if isinstance(memberships, np.ndarray) or not hasattr(memberships, "__iter__"):
        raise fail_type(
            "memberships",
            "be a sequence of arrays, one per attribute set",
            type(memberships).__name__,
        )
    members = list(memberships)
    if len(sets) != len(members):
        raise fail(
            "attribute_sets",
            "hold one AttributeSet per membership array",
            f"{len(sets)} for {len(members)} arrays",
        )
    depth = lev.shape[-1]
    inside = np.ones(lev.shape, dtype=bool)
    if lengths is not None:
        n = np.asarray(lengths)
        if (
            n.shape != lev.shape[:-1]
            or not np.issubdtype(n.dtype, np.integer)
            or (n < 0).any()
            or (n > depth).any()
        ):
            raise fail(
                "lengths",
                f"be integers in 0..{depth} of shape {lev.shape[:-1]}",
                f"dtype {n.dtype}, shape {n.shape}",
            )
        inside = _core.length_mask(n, depth)
    if lev.size and ((lev < 0) | (lev > lmax))[inside].any():
        used = lev[inside]
        raise fail(
            "levels",
            f"lie in 0..{lmax} (the gain table has {lmax} levels)",
            f"levels {int(used.min())}..{int(used.max())}",
        )
    lev = np.where(inside, lev, 0).astype(np.intp)
    relevant = lev > 0
    arrays = []
    for m, (memb, a) in enumerate(zip(members, sets, strict=True)):
        name = f"memberships[{m}]"
        x = as_float_array(memb, name)
        if x.ndim == 0 or x.shape[:-1] != lev.shape or x.shape[-1] != a.n_groups:
            raise fail(
                name,
                f"have shape {lev.shape + (a.n_groups,)} (levels plus "
                f"the {a.n_groups} groups of {a.name})",
                f"shape {x.shape}",
            )
        uniform = 1.0 / a.n_groups
        x = np.where(relevant[..., None], x, uniform)  # a new array: filled in place below
        check_distributions(x, name, allow_nan_rows=True)
        x[np.isnan(x)] = uniform  # the all-NaN rows of relevant docs
        arrays.append(x)
    return lev, arrays


# --------------------------------------------------------------------------- files
@public
@fill_doc(**RANKED_DOCS)
def evaluate(
    qrels: Qrels,
    runs: Sequence[Run],
    attributes: Sequence[AttributeData],
    /,
    *,
    cutoffs: Sequence[int] | None = None,
    measures: Sequence[str] | None = None,
    gains: Sequence[float] = (1, 3),
    phi: float = 0.99,
    utility: str = "ERR",
    weights: Sequence[float] | None = None,
    order: str | None = None,
    duplicates: str = "error",
    nonrelevant_membership: str = "uniform",
    lists: RankedLists | None = None,
    n_jobs: int | None = None,
) -> ScoreTable:
    """Score runs against qrels and attribute sets; one vectorised pass per set.

    Parameters
    ----------
    {inputs}
    cutoffs : sequence of int, optional
        Depths besides full depth; default (10, 20, 100), or those the ``measures``
        ask for.
    measures : sequence of str, optional
        Only these measures, by the names the output prints (``GFR@10``,
        ``GF-RNOD@20[M-RATINGS]``); their depths are the cutoffs. An unknown name is
        an error listing the valid ones.
    {gains}
    {phi}
    {utility}
    weights : sequence of float, optional
        M + 1 weights, w_0 for the utility and w_m per attribute set, summing to 1. On
        each topic GFR combines the utility with the sets that cover the topic, their
        weights renormalised to sum to 1 there; by default they are equal (FairWeb-2:
        ``(ERR + GF[RATINGS] + GF[ORIGIN]) / 3`` on a movie topic). Where the utility
        and every set covering a topic have weight 0 (``w_0 = 0`` and the weighted
        sets do not cover it), GFR is undefined there: NaN, left out of the ``all``
        means and counted by ``n[GFR]`` in ``to_tsv``.
    {join}
    lists : RankedLists, optional
        The output of :func:`fairconv.rankings.prepare` for these inputs, when the
        caller has it already (e.g. for the list lengths of the nev layout).
    {n_jobs}

    Returns
    -------
    ScoreTable
        Topics: every topic of the qrels and of the gmemb files, sorted. A run without
        a topic scores 0 on it (as the organisers' tool); a topic with no relevant doc
        scores 0; run topics that neither qrels nor gmemb know are ignored (as
        trec_eval does).

    Raises
    ------
    ValueError
        For a qrels level beyond the gain table, two attribute sets or runs with one
        name, bad options, or a doc listed twice (with ``duplicates='error'``).

    See Also
    --------
    gfr : the same measures of padded arrays, as a dict.
    fairconv.ragfair.evaluate : GF of generated answers against the same runs.

    Examples
    --------
    >>> from fairconv.datasets import fairweb1_pilot
    >>> p = fairweb1_pilot()
    >>> table = evaluate(p.qrels, p.runs, p.attributes, cutoffs=[10])
    >>> round(table.value("Anserini-bm25", "P002", "GFR@10"), 4)
    0.5998
    """
    cutoffs = cutoffs_for(cutoffs, measures, DEFAULT_CUTOFFS)
    cut, prob, phi, utility = _options(cutoffs, gains, phi, utility)
    family = _GFRFamily(cut, prob, phi, utility, weights)
    join = join_options(order, duplicates, nonrelevant_membership)
    return evaluate_lists(
        qrels, runs, attributes, family, measures=measures, join=join, lists=lists, n_jobs=n_jobs
    )


class _GFRFamily(RankedFamily):
    """GFR's measures and kernel on the ranked-list route (:func:`evaluate_lists`)."""

    def __init__(self, cut, prob, phi, utility, weights):
        self.cut, self.prob, self.phi, self.utility = cut, prob, phi, utility
        self.weights = weights
        self.sets: list[AttributeSet] = []

    def columns(self, sets: Sequence[AttributeSet]) -> list[Column]:
        self.sets = list(sets)
        self.w = _weights(self.weights, len(sets))  # one per set: checked once sets are known
        return _columns(
            self.cut, self.utility, [a.name for a in sets], [a.divergence for a in sets]
        )

    def check(self, qrels: Qrels, attributes) -> None:
        qrels.check_gains(len(self.prob) - 1)

    def jobs(self, lists: RankedLists, wanted: frozenset) -> list:
        n_t = len(lists.topics)
        work: list = []
        if any(MeasureName(u, k) in wanted for u in ("ERR", "iRBU") for k in self.cut):
            work += [(None, tt) for tt in lists.blocks(np.arange(n_t))]
        for m, a in enumerate(self.sets):
            if any(_gf_name(d, k, a.name) in wanted for d in DIVERGENCE_NAMES for k in self.cut):
                work += [(m, tt) for tt in lists.blocks(lists.covered[m], width=a.n_groups)]
        return work

    def score(self, lists: RankedLists, job, wanted: frozenset):
        m, tt = job
        decay = _core.err_decay(self.prob[lists.padded_levels(tt)])
        if m is None:
            names = [
                u for u in ("ERR", "iRBU") if any(MeasureName(u, k) in wanted for k in self.cut)
            ]
            values = _core.utility_at_cutoffs(decay, self.cut, self.phi, names)
            return tt, [(MeasureName(u, k), v) for (u, k), v in values.items()]
        a = self.sets[m]
        divs = [
            d for d in DIVERGENCE_NAMES if any(_gf_name(d, k, a.name) in wanted for k in self.cut)
        ]
        values = _core.gf_at_cutoffs(
            decay, lists.padded_memberships(m, tt), a.target, divs, self.cut
        )
        return tt, [(_gf_name(d, k, a.name), v) for (d, k), v in values.items()]

    def finish(self, values: dict, covered: np.ndarray, wanted: frozenset):
        cut = [k for k in self.cut if MeasureName("GFR", k) in wanted]
        return _combine_gfr(values, cut, self.utility, self.sets, self.w, covered[:, :, None])

    def notices(self, lists: RankedLists, wanted: frozenset) -> dict:
        uncovered = np.ones(len(lists.topics), dtype=bool)
        for cov in lists.covered:
            uncovered[cov] = False
        n = int(uncovered.sum())
        if n and any(MeasureName("GFR", k) in wanted for k in self.cut):
            alone = np.asarray(lists.topics)[uncovered].tolist()
            which = (
                "no attribute set is given"
                if not lists.covered
                else f"no attribute set covers them ({few(alone)})"
            )
            notice(f"GFR is {self.utility} alone on {n} of the {len(lists.topics)} topics: {which}")
        return {"topics_without_fairness": n}


def _gf_name(divergence: str | None, cutoff, attribute: str) -> MeasureName:
    """``GF-JSD@10[M-ORIGIN]``."""
    return MeasureName(MeasureName.join("GF", divergence), cutoff, attribute)
