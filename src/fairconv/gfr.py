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
from ._accel import resolve_n_jobs, thread_map
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
    notice,
    public,
)
from .divergences import DIVERGENCE_NAMES, AttributeSet
from .io._frames import as_inputs
from .io._tables import Qrels, Run
from .rankings import AttributeData, RankedLists, join_options, prepare
from .results import MeasureName, ScoreTable, cutoffs_of, pick

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
    names = []
    for k in [None, *sorted(set(cutoffs))]:
        names += [str(MeasureName("ERR", k)), str(MeasureName("iRBU", k))]
        names += [
            str(MeasureName(MeasureName.join("GF", d), k, n))
            for n in set_names
            for d in DIVERGENCE_NAMES
        ]
        names.append(str(MeasureName("GFR", k)))
    return names


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


def _combine_gfr(out: dict, cut, utility, sets: Sequence[AttributeSet], w, covered=None):
    """Add ``GFR@k`` to ``out``: the utility and each set's GF with its own divergence.

    ``covered`` (sets, ...) says where each set covers; None means everywhere.
    """
    for k in cut:
        parts = [out[str(MeasureName(utility, k))]]
        parts += [
            out[str(MeasureName(MeasureName.join("GF", a.divergence), k, a.name))] for a in sets
        ]
        stack = np.stack(np.broadcast_arrays(*parts))
        cov = None
        if covered is not None:
            cov = np.concatenate([np.ones((1,) + covered.shape[1:], bool), covered])
        out[str(MeasureName("GFR", k))] = _core.combine(stack, w, cov)


# --------------------------------------------------------------------------- arrays
@public
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
    gains : sequence of float
        Gain of levels 1..lmax (default 1, 3: FairWeb's L1 = 1, L2 = 3).
    phi : float
        iRBU persistence, in (0, 1).
    utility : {'ERR', 'iRBU'}
        The utility in GFR.
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
    out = {}
    for (name, k), v in _core.utility_at_cutoffs(decay, cut, phi).items():
        out[str(MeasureName(name, k))] = v
    for x, a in zip(arrays, sets, strict=True):
        for (d, k), v in _core.gf_at_cutoffs(decay, x, a.target, DIVERGENCE_NAMES, cut).items():
            out[str(MeasureName(MeasureName.join("GF", d), k, a.name))] = v
    _combine_gfr(out, cut, utility, sets, w)
    return {n: out[n] for n in measure_names([a.name for a in sets], cutoffs=cut[1:])}


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
    qrels : Qrels, path, DataFrame, dict or records
        Relevance judgments (:func:`fairconv.io.read_qrels`, or any input of
        :func:`fairconv.io.as_qrels`).
    runs : sequence of runs, or a mapping from run name to run
        The runs (:func:`fairconv.io.read_run`, paths, DataFrames, dicts or
        records: :func:`fairconv.io.as_runs`); their names must be distinct.
    attributes : sequence of AttributeData
        Attribute sets with their memberships (:func:`fairconv.rankings.load_attribute`).
        Each set covers the topics of its gmemb file: its GF cells exist only there.
    cutoffs : sequence of int, optional
        Depths besides full depth; default (10, 20, 100), or those the ``measures``
        ask for.
    measures : sequence of str, optional
        Only these measures, by the names the output prints (``GFR@10``,
        ``GF-RNOD@20[M-RATINGS]``); their depths are the cutoffs. An unknown name is
        an error listing the valid ones.
    gains, phi, utility : as :func:`gfr`
    weights : sequence of float, optional
        M + 1 weights, w_0 for the utility and w_m per attribute set, summing to 1. On
        each topic GFR combines the utility with the sets that cover the topic, their
        weights renormalised to sum to 1 there; by default they are equal (FairWeb-2:
        ``(ERR + GF[RATINGS] + GF[ORIGIN]) / 3`` on a movie topic). Where the utility
        and every set covering a topic have weight 0 (``w_0 = 0`` and the weighted
        sets do not cover it), GFR is undefined there: NaN, left out of the ``all``
        means and counted by ``n[GFR]`` in ``to_tsv``.
    order : {None, 'file', 'score'}
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
        :func:`fairconv.rankings.prepare`.
    lists : RankedLists, optional
        The output of :func:`fairconv.rankings.prepare` for these inputs, when the
        caller has it already (e.g. for the list lengths of the nev layout).
    n_jobs : int, optional
        Threads that convert in-memory inputs, join the runs and score blocks of
        topics: None for ``FAIRCONV_THREADS`` or else every available core, -1 for
        every core, 1 for none (no thread started). The scores are the same.

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

    Examples
    --------
    >>> from fairconv.datasets import fairweb1_pilot
    >>> p = fairweb1_pilot()
    >>> table = evaluate(p.qrels, p.runs, p.attributes, cutoffs=[10])
    >>> round(table.value("Anserini-bm25", "P002", "GFR@10"), 4)
    0.5998
    """
    threads = resolve_n_jobs(n_jobs)
    qrels, runs = as_inputs(qrels, runs, n_jobs=threads)
    runs = check_sequence_of(runs, Run, "runs", min_len=1)
    order, duplicates, nonrelevant_membership = join_options(
        order, duplicates, nonrelevant_membership
    )
    cutoffs = _cutoffs(cutoffs, measures, DEFAULT_CUTOFFS)
    cut, prob, phi, utility = _options(cutoffs, gains, phi, utility)
    lmax = len(prob) - 1
    qrels.check_gains(lmax)
    attributes = check_sequence_of(attributes, AttributeData, "attributes")
    set_names = [a.attribute.name for a in attributes]
    check_unique_names(set_names, "attributes")
    w = _weights(weights, len(attributes))
    if lists is None:
        lists = prepare(
            qrels,
            runs,
            attributes,
            order=order,
            duplicates=duplicates,
            nonrelevant_membership=nonrelevant_membership,
            n_jobs=threads,
        )
    topics, n_t, n_r = lists.topics, len(lists.topics), len(lists.runs)
    gfr_asked = measures is None or any(str(m).startswith("GFR") for m in measures)
    notices = coverage_notices(qrels, runs, lists, utility if gfr_asked else None)

    names = measure_names(set_names, cutoffs=cut[1:])
    m_index = {m: i for i, m in enumerate(names)}
    present = np.zeros((len(names), n_t), dtype=bool)
    out: dict[str, np.ndarray] = {}
    for name in ("ERR", "iRBU"):
        for k in cut:
            out[str(MeasureName(name, k))] = np.zeros((n_t, n_r))
            present[m_index[str(MeasureName(name, k))]] = True
    # (attribute set or None for the utilities, block of topics of bounded padded size):
    # scored on a few threads
    work: list = [(None, tt) for tt in lists.blocks(np.arange(n_t))]
    covered = np.zeros((len(attributes), n_t), dtype=bool)
    for m, data in enumerate(attributes):
        a = data.attribute
        cov = lists.covered[m]
        covered[m, cov] = True
        for d, k in ((d, k) for d in DIVERGENCE_NAMES for k in cut):
            col = str(MeasureName(MeasureName.join("GF", d), k, a.name))
            out[col] = np.zeros((n_t, n_r))
            present[m_index[col], cov] = True
        work += [(m, tt) for tt in lists.blocks(cov, width=a.n_groups)]

    def score(m, tt):
        decay = _core.err_decay(prob[lists.padded_levels(tt)])
        if m is None:
            return _core.utility_at_cutoffs(decay, cut, phi)
        target = attributes[m].attribute.target
        return _core.gf_at_cutoffs(
            decay, lists.padded_memberships(m, tt), target, DIVERGENCE_NAMES, cut
        )

    scored = thread_map(lambda job: score(*job), work, n_jobs=threads)
    for (m, tt), values in zip(work, scored, strict=True):
        for (d, k), v in values.items():
            if m is None:  # d is ERR or iRBU
                out[str(MeasureName(d, k))][tt] = v
            else:
                out[str(MeasureName(MeasureName.join("GF", d), k, attributes[m].attribute.name))][
                    tt
                ] = v
    _combine_gfr(out, cut, utility, [a.attribute for a in attributes], w, covered[:, :, None])
    for k in cut:
        present[m_index[str(MeasureName("GFR", k))]] = True
    values = np.zeros((n_t, n_r, len(names)))
    for name, v in out.items():
        values[:, :, m_index[name]] = v
    table_present = np.broadcast_to(present.T[:, None, :], (n_t, n_r, len(names)))
    table = ScoreTable(
        topics=tuple(topics),
        runs=lists.runs,
        measures=tuple(names),
        values=values,
        present=table_present.copy(),
        notices=notices,
    )
    return pick(table, measures)


def _few(ids, limit: int = 5) -> str:
    """The first ``limit`` ids, and how many more."""
    shown = ", ".join(map(str, ids[:limit]))
    return shown + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


def check_shared_topics(qrels: Qrels, runs: Sequence[Run], names) -> None:
    """A run that shares no topic with the qrels is an error naming a few ids of each."""
    judged = set(qrels.topics)
    for name, run in zip(names, runs, strict=True):
        if judged.isdisjoint(run.topics):
            raise fail(
                "runs",
                "hold runs that share topics with the qrels (are they of one track?)",
                f"run {name!r} with topics {_few(run.topics)} against the qrels' topics "
                f"{_few(qrels.topics)}",
            )


def coverage_notices(qrels: Qrels, runs: Sequence[Run], lists: RankedLists, utility):
    """Check and report which topics the scores cover; return the counts.

    A run that shares no topic with the qrels is an error naming the run and a few
    ids of each side (its scores would all be 0, a mistake rather than a result). A
    notice (:class:`~fairconv.FairconvWarning`) reports a run without a ranked list
    for some of the topics scored (they score 0), and the topics on which GFR is the
    utility alone because no attribute set covers them.

    Returns
    -------
    dict
        ``topics_scored`` (the number of topics), ``topics_missing`` (run name -> the
        number of topics without a list) and ``topics_without_fairness`` (the number of
        topics no attribute set covers).
    """
    check_shared_topics(qrels, runs, lists.runs)
    topics = np.asarray(lists.topics, dtype=object)
    n_t = len(topics)
    missing = lists.lengths == 0  # (topics, runs)
    for r in np.flatnonzero(missing.any(axis=0)):
        gone = topics[missing[:, r]]
        notice(
            f"run {lists.runs[r]!r} has no ranked list for {len(gone)} of the {n_t} topics "
            f"scored ({_few(list(gone))}): they score 0 there"
        )
    uncovered = np.ones(n_t, dtype=bool)
    for cov in lists.covered:
        uncovered[cov] = False
    if uncovered.any() and utility is not None:
        which = (
            "no attribute set is given"
            if not lists.covered
            else f"no attribute set covers them ({_few(list(topics[uncovered]))})"
        )
        notice(f"GFR is {utility} alone on {int(uncovered.sum())} of the {n_t} topics: {which}")
    return {
        "topics_scored": n_t,
        "topics_missing": dict(zip(lists.runs, missing.sum(axis=0).tolist(), strict=True)),
        "topics_without_fairness": int(uncovered.sum()),
    }


def _cutoffs(cutoffs, measures, default):
    """The cutoffs given, or those the measure names ask for, or the default.

    Cutoffs and measures together must agree: every depth a measure name asks for is
    one of the cutoffs.
    """
    if measures is None:
        return default if cutoffs is None else cutoffs
    asked = cutoffs_of(measures)
    if cutoffs is None:
        return asked
    given = check_cutoffs(cutoffs, "cutoffs")
    lacking = [k for k in asked if k not in given]
    if lacking:
        raise fail(
            "cutoffs",
            f"include the depths the measures ask for ({', '.join(map(str, asked))})",
            f"{', '.join(map(str, given)) or 'no cutoff'}, without {lacking[0]}",
        )
    return given
