"""The group fairness gap between retrieval and generation in RAG: RIGF and ADsim.

Tao and Sakai, "Measuring Group Fairness Differences in RAG Pipelines: A Pilot Study"
(BREV-RAG 2025). For a topic, attribute set m, retrieved list L and answer A:

.. math::
    GF_{Re} = \\sum_k Decay_k\\, DistrSim(d_{L,k} \\| d^*)   \\quad\\text{(GF of GFR, Eq. 1)}

    GF_{Gen} = DistrSim(d_A \\| d^*)   \\quad\\text{(Eq. 5, no decay)}

    RIGF = (GF_{Gen} - GF_{Re}) / GF_{Re} \\times 100   \\quad\\text{(Eq. 7, percent)}

    ADsim = DistrSim(d_L \\| d_A),\\quad
    d_L \\propto \\sum_k a_k / \\log_2(k+1)   \\quad\\text{(Eqs. 8-11)}

``d_A`` is the answer's page membership (normalised sum of its relevant entities'
vectors); GF_Gen is 0 when the answer names no relevant entity. ``a_k`` is the
membership vector of the doc at rank k when it is relevant, zero otherwise, so only
relevant docs give groups exposure. RIGF is undefined (NaN) when GF_Re = 0; ADsim when
the list has no relevant doc or the answer no relevant entity. Over attribute sets,
``GF_Re`` and ``GF_Gen`` are weighted sums (Eqs. 4, 6) and RIGF follows from them;
ADsim is per attribute set only.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from . import _core, gfr
from ._validation import SUM_TOLERANCE, check_distributions, check_weights, fail
from .results import ScoreTable

__all__ = [
    "rigf",
    "gf_gen",
    "adsim",
    "attention_distribution",
    "answer_distributions",
    "read_answers",
    "Answers",
    "evaluate",
]


# --------------------------------------------------------------------------- arrays
def rigf(gf_gen, gf_re, /):
    """RIGF in percent: (GF_Gen - GF_Re) / GF_Re * 100; NaN where GF_Re = 0.

    >>> round(float(rigf(0.6333, 0.7887)), 2)
    -19.7
    """
    gen, re_ = np.asarray(gf_gen, dtype=np.float64), np.asarray(gf_re, dtype=np.float64)
    return np.divide(
        (gen - re_) * 100.0, re_, out=np.full(np.broadcast(gen, re_).shape, np.nan), where=re_ != 0
    )


def gf_gen(answer_distribution, target, /, *, divergence):
    """DistrSim(d_A || target) (Eq. 5); 0 for an answer without a distribution (NaN row).

    >>> round(float(gf_gen([0, 0, 1, 0], [0.25] * 4, divergence="RNOD")), 4)
    0.4796
    """
    d = check_distributions(
        answer_distribution, "answer_distribution", "gf_gen", allow_nan_rows=True
    )
    missing = np.isnan(d).any(axis=-1)
    sim = _core.distr_sim(
        np.where(missing[..., None], 1.0 / d.shape[-1], d),
        check_distributions(target, "target", "gf_gen"),
        divergence,
    )
    return np.where(missing, 0.0, sim)


def adsim(list_distribution, answer_distribution, /, *, divergence):
    """DistrSim(d_L || d_A) with d_A in the target's place; NaN where either is missing."""
    dl = check_distributions(list_distribution, "list_distribution", "adsim", allow_nan_rows=True)
    da = check_distributions(
        answer_distribution, "answer_distribution", "adsim", allow_nan_rows=True
    )
    missing = np.isnan(dl).any(axis=-1) | np.isnan(da).any(axis=-1)
    g = dl.shape[-1]
    sim = _core.distr_sim(
        np.where(np.isnan(dl), 1.0 / g, dl), np.where(np.isnan(da), 1.0 / g, da), divergence
    )
    return np.where(missing, np.nan, sim)


def attention_distribution(levels, memberships, /, *, cutoff=None):
    """d_L: normalised sum of a_k / log2(k+1) over the relevant docs of each list.

    Parameters
    ----------
    levels : array_like of int, shape (..., K)
    memberships : array_like, shape (..., K, G)
    cutoff : int, optional
        Only the top ``cutoff`` ranks count.

    Returns
    -------
    ndarray, shape (..., G)
        NaN rows for lists without a relevant doc.
    """
    lev = np.asarray(levels)
    memb = np.asarray(memberships, dtype=np.float64)
    return _attention(lev, memb, cutoff)


def _attention(level, memb, cutoff):
    depth = level.shape[-1]
    weight = 1.0 / np.log2(np.arange(2, depth + 2, dtype=np.float64))
    if cutoff is not None:
        weight[cutoff:] = 0.0
    w = np.where(level > 0, weight, 0.0)
    exposure = np.einsum("...k,...kg->...g", w, memb)
    total = exposure.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, exposure / total, np.nan)


# --------------------------------------------------------------------------- answers
class Answers:
    """Generated answers: per (run, topic), each attribute set's answer distribution.

    ``distributions[name]`` is (n, G) with NaN rows for answers that name no relevant
    entity; ``runs``, ``topics`` and ``sources`` have one entry per answer.
    """

    def __init__(self, runs, topics, distributions, sources):
        self.runs, self.topics = tuple(runs), tuple(topics)
        self.distributions, self.sources = distributions, tuple(sources)

    def __len__(self):
        return len(self.topics)


def answer_distributions(
    entity_lists: Sequence[Sequence[dict]], attribute_sets, *, sources=None
) -> dict:
    """d_A per answer from its entities' levels and group vectors (page membership).

    Each answer is a list of ``{"level": l, "groups": {name: vector}}``; entities of
    level 0 do not count. Returns {name: (answers, G)} with NaN rows for answers
    without a relevant entity.
    """
    sources = sources or [f"answer {i + 1}" for i in range(len(entity_lists))]
    counts = [len(e) for e in entity_lists]
    owner = np.repeat(np.arange(len(entity_lists)), counts)
    first = np.concatenate(([0], np.cumsum(counts)))
    flat = [e for entities in entity_lists for e in entities]

    def where(j):
        i = int(owner[j])
        return f"{sources[i]}: entity {j - first[i] + 1}"

    raw = [e.get("level", 0) or 0 for e in flat]
    ok = [isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in raw]
    if not all(ok):
        j = ok.index(False)
        raise ValueError(f"{where(j)}: its level must be a non-negative integer; got {raw[j]!r}")
    relevant = np.flatnonzero(np.array(raw, dtype=np.int64) > 0) if flat else np.zeros(0, int)
    out = {}
    for a in attribute_sets:
        vectors = [(flat[j].get("groups") or {}).get(a.name) for j in relevant.tolist()]
        bad = next(
            (k for k, v in enumerate(vectors) if not isinstance(v, list) or len(v) != a.n_groups),
            None,
        )
        if bad is None and vectors:
            v = np.array(vectors, dtype=np.float64)
            wrong = (
                ~np.isfinite(v).all(axis=1)
                | (v < 0).any(axis=1)
                | (np.abs(v.sum(axis=1) - 1) > SUM_TOLERANCE)
            )
            bad = int(np.argmax(wrong)) if wrong.any() else None
        if bad is not None:
            raise ValueError(
                f"{where(int(relevant[bad]))}: it is relevant, so its {a.name} "
                f"membership must be {a.n_groups} non-negative numbers summing "
                f"to 1; got {vectors[bad]!r}"
            )
        sums = np.zeros((len(entity_lists), a.n_groups))
        if vectors:
            np.add.at(sums, owner[relevant], v)
        totals = sums.sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[a.name] = np.where(totals > 0, sums / totals, np.nan)
    return out


def read_answers(path, attribute_sets) -> Answers:
    """Read RAG answers (JSON Lines, docs/formats.md): ``entities`` per answer, or an
    annotated conversation record whose nuggets are the entities.
    """
    from .conversation import _json_lines

    records, lines = _json_lines(path)
    sources = [f"{path}:{n}" for n in lines]
    entity_lists, runs, topics = [], [], []
    for rec, where in zip(records, sources):
        if not isinstance(rec, dict) or "topic" not in rec:
            raise ValueError(f"{where}: an answer record needs a 'topic'")
        entities = rec.get("entities", rec.get("nuggets"))
        if not isinstance(entities, list) or not all(isinstance(e, dict) for e in entities):
            raise ValueError(
                f"{where}: an answer record needs a list of 'entities' (or of 'nuggets')"
            )
        entity_lists.append(entities)
        runs.append(str(rec.get("run", "")))
        topics.append(str(rec["topic"]))
    return Answers(
        runs, topics, answer_distributions(entity_lists, attribute_sets, sources=sources), sources
    )


# --------------------------------------------------------------------------- evaluation
def evaluate(
    qrels,
    runs,
    attributes,
    answers: Answers,
    *,
    cutoff=None,
    weights=None,
    gains=(1, 3),
    order="file",
    duplicates="error",
) -> ScoreTable:
    """GF_Re, GF_Gen, RIGF and ADsim per attribute set, and the weighted overall values.

    Parameters
    ----------
    qrels, runs, attributes
        As :func:`fairconv.gfr.evaluate`; each attribute set covers its gmemb topics.
    answers : Answers
        One answer per (run, topic); an answer's ``run`` must be a run's tag (or empty,
        when there is one run). A run topic without an answer counts as an answer that
        names no relevant entity (GF_Gen = 0).
    cutoff : int, optional
        Depth of the retrieved list L for GF_Re and d_L (full depth by default).
    weights : sequence of float, optional
        w_m over the attribute sets for the overall values (default equal over the sets
        covering a topic); sum to 1.

    Returns
    -------
    ScoreTable
        Measures ``GF_Re[<set>]``, ``GF_Gen[<set>]``, ``RIGF[<set>]``, ``ADsim[<set>]``
        and ``GF_Re``, ``GF_Gen``, ``RIGF``. Undefined values are NaN and left out of
        the ``all`` means, whose coverage ``to_tsv`` reports as ``n[<measure>]``.
    """
    func = "ragfair.evaluate"
    attributes = list(attributes)
    runs = list(runs)
    if cutoff is not None and (
        isinstance(cutoff, bool) or not isinstance(cutoff, (int, np.integer)) or cutoff < 1
    ):
        raise fail("cutoff", func, "be a positive integer or None", repr(cutoff))
    n_sets = len(attributes)
    if n_sets == 0:
        raise fail("attributes", func, "hold at least one attribute set", "none")
    w = (
        np.full(n_sets, 1.0 / n_sets)
        if weights is None
        else check_weights(weights, n_sets, "weights", func)
    )
    lists = gfr.prepare(qrels, runs, attributes, order=order, duplicates=duplicates)
    topics = lists.topics
    t_index = {t: i for i, t in enumerate(topics)}
    r_of = _answer_runs(answers, runs, lists.runs)
    t_of = np.array([t_index.get(t, -1) for t in answers.topics], dtype=np.int64)
    lacking = (t_of < 0) | (lists.lengths[np.maximum(t_of, 0), r_of] == 0)
    if lacking.any():
        i = int(np.argmax(lacking))
        raise ValueError(
            f"{answers.sources[i]}: the answer names topic {answers.topics[i]!r}, "
            f"which run {lists.runs[r_of[i]]!r} has no ranked list for"
        )
    cell = r_of * len(topics) + t_of
    if len(np.unique(cell)) != len(cell):
        dup = int(np.flatnonzero(np.bincount(cell) > 1)[0])
        where = [answers.sources[i] for i in np.flatnonzero(cell == dup)]
        raise ValueError(
            f"two answers for run {lists.runs[dup // len(topics)]!r} and topic "
            f"{topics[dup % len(topics)]!r} ({where[0]} and {where[1]})"
        )

    prob = gfr.stop_probabilities(gains)
    if qrels.max_level > len(prob) - 1:
        raise ValueError(
            f"{qrels.source}: has level L{qrels.max_level} but the gain table "
            f"covers levels 1..{len(prob) - 1}"
        )
    decay = _core.err_decay(prob[lists.level])
    n_r, n_t = len(runs), len(topics)
    names = []
    for a in attributes:
        names += [
            f"GF_Re[{a.attribute.name}]",
            f"GF_Gen[{a.attribute.name}]",
            f"RIGF[{a.attribute.name}]",
            f"ADsim[{a.attribute.name}]",
        ]
    names += ["GF_Re", "GF_Gen", "RIGF"]
    col = {n: i for i, n in enumerate(names)}
    values = np.zeros((n_r, n_t, len(names)))
    present = np.zeros(values.shape, dtype=bool)
    weight_sum = np.zeros(n_t)
    for m, data in enumerate(attributes):
        a = data.attribute
        cov = lists.covered[m]
        weight_sum[cov] += w[m]
        memb = lists.memberships(m, cov)  # (Tm, R, K, G)
        re_ = _core.gf_at_cutoffs(decay[cov], memb, a.target, [a.divergence], [cutoff])[
            (a.divergence, cutoff)
        ]  # (Tm, R)
        d_l = _attention(lists.level[cov], memb, cutoff)  # (Tm, R, G)
        d_a = np.full((n_t, n_r, a.n_groups), np.nan)
        d_a[t_of, r_of] = answers.distributions[a.name]
        d_a = d_a[cov]
        gen = gf_gen(d_a, a.target, divergence=a.divergence)
        ad = adsim(d_l, d_a, divergence=a.divergence)
        for name, v in (
            (f"GF_Re[{a.name}]", re_),
            (f"GF_Gen[{a.name}]", gen),
            (f"RIGF[{a.name}]", rigf(gen, re_)),
            (f"ADsim[{a.name}]", ad),
        ):
            values[:, cov, col[name]] = v.T
            present[:, cov, col[name]] = True
        values[:, cov, col["GF_Re"]] += w[m] * re_.T
        values[:, cov, col["GF_Gen"]] += w[m] * gen.T
    any_set = weight_sum > 0
    if weights is None:
        scale = np.divide(1.0, weight_sum, out=np.zeros(n_t), where=any_set)
        values[:, :, col["GF_Re"]] *= scale
        values[:, :, col["GF_Gen"]] *= scale
    else:
        bad = any_set & (np.abs(weight_sum - 1.0) > SUM_TOLERANCE)
        if bad.any():
            t = topics[int(np.argmax(bad))]
            raise ValueError(
                f"the weights of the attribute sets covering topic {t!r} sum to "
                f"{weight_sum[bad][0]:.6g}, not 1"
            )
    values[:, :, col["RIGF"]] = rigf(values[:, :, col["GF_Gen"]], values[:, :, col["GF_Re"]])
    for name in ("GF_Re", "GF_Gen", "RIGF"):
        present[:, any_set, col[name]] = True
    return ScoreTable(lists.runs, topics, tuple(names), values, present)


def _answer_runs(answers: Answers, runs, names) -> np.ndarray:
    """Index of the run of every answer (by tag or file name; empty: the only run)."""
    index = {n: i for i, n in enumerate(names)}
    index.update({r.tag: i for i, r in enumerate(runs) if r.tag not in index})
    index.update({os.path.basename(r.source): i for i, r in enumerate(runs)})
    out = []
    for run, where in zip(answers.runs, answers.sources):
        if run == "" and len(runs) == 1:
            out.append(0)
        elif run in index:
            out.append(index[run])
        else:
            raise ValueError(
                f"{where}: the answer's run {run!r} is none of the runs given ({', '.join(names)})"
            )
    return np.array(out, dtype=np.int64)
