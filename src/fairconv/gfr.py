"""GFR: group fairness and relevance of ranked lists (SERPs).

Sakai, Kim and Kang (ACM TOIS 2023); the official measure of NTCIR-17 FairWeb-1 and
NTCIR-18 FairWeb-2. A user stops at rank k with probability
``p_k = gain(l_k) / (gain(lmax) + 1)`` (ERR user model), so

.. math::
    Decay_k = p_k \\prod_{j<k} (1 - p_j),\\quad
    ERR@K = \\sum_{k \\le K} Decay_k / k,\\quad
    iRBU@K = \\sum_{k \\le K} Decay_k \\phi^k,\\quad
    GF@K = \\sum_{k \\le K} Decay_k\\, DistrSim(D_k \\| D^*)

where ``D_k`` is the mean membership vector of **all** top-k docs, a nonrelevant,
unjudged or unlisted doc counting as uniform. GFR is a weighted mean of one utility
and one GF per attribute set (default: ERR and each set's default divergence, equal
weights). No normalisation; a list shorter than K keeps its last value.

Two entry points: :func:`gfr` scores padded arrays (topics x runs x ranks) in one call,
:func:`evaluate` scores runs read from qrels, gmemb and run files.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import _core
from ._keys import KeyTable, first_occurrences, key_hashes
from ._validation import as_float_array, check_choice, check_distributions, check_weights, fail
from .divergences import DIVERGENCE_NAMES, AttributeSet
from .readers import FileFormatError, GroupMemberships, Qrels, Run, read_gmemb, read_golddistr
from .results import ScoreTable

__all__ = [
    "gfr",
    "evaluate",
    "prepare",
    "RankedLists",
    "AttributeData",
    "load_attribute",
    "write_nev",
    "list_lengths",
    "stop_probabilities",
    "measure_names",
    "DEFAULT_CUTOFFS",
]

DEFAULT_CUTOFFS = (10, 20, 100)
_CHUNK_ELEMENTS = 1 << 22  # membership elements per block of topics (bounds memory)


# --------------------------------------------------------------------------- options
def _check_gains(gains, func):
    g = as_float_array(gains, "gains", func)
    if (
        g.ndim != 1
        or len(g) == 0
        or not np.isfinite(g).all()
        or (g <= 0).any()
        or (np.diff(g) < 0).any()
    ):
        raise fail(
            "gains",
            func,
            "give a positive, non-decreasing gain for each level 1..lmax (e.g. (1, 3))",
            repr(np.asarray(gains).tolist()),
        )
    return g


def stop_probabilities(gains=(1, 3)) -> np.ndarray:
    """Satisfaction probability per level 0..lmax: gain(l) / (gain(lmax) + 1).

    >>> stop_probabilities((1, 3)).tolist()
    [0.0, 0.25, 0.75]
    """
    g = _check_gains(gains, "stop_probabilities")
    return np.concatenate(([0.0], g / (g[-1] + 1.0)))


def _check_cutoffs(cutoffs, func):
    out = []
    for k in cutoffs:
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
            raise fail(
                "cutoffs",
                func,
                "hold positive integers (full depth is always included)",
                repr(list(cutoffs)),
            )
        out.append(int(k))
    return [None] + sorted(set(out))


def _check_phi(phi, func):
    if not isinstance(phi, (int, float, np.floating)) or not 0 < phi < 1:
        raise fail("phi", func, "be a persistence in (0, 1)", repr(phi))
    return float(phi)


def _suffix(cutoff):
    return "" if cutoff is None else f"@{cutoff}"


def measure_names(set_names: Sequence[str], cutoffs=DEFAULT_CUTOFFS) -> list[str]:
    """Measure names in output order: full depth first, then each cutoff.

    >>> measure_names(["M-RATINGS"], [10])[:6]
    ['ERR', 'iRBU', 'GF-JSD[M-RATINGS]', 'GF-NMD[M-RATINGS]', 'GF-RNOD[M-RATINGS]', 'GFR']
    """
    names = []
    for k in [None] + sorted(set(cutoffs)):
        s = _suffix(k)
        names += [f"ERR{s}", f"iRBU{s}"]
        names += [f"GF-{d}{s}[{n}]" for n in set_names for d in DIVERGENCE_NAMES]
        names.append(f"GFR{s}")
    return names


# --------------------------------------------------------------------------- arrays
def gfr(
    levels,
    memberships,
    attribute_sets,
    /,
    *,
    lengths=None,
    cutoffs=DEFAULT_CUTOFFS,
    gains=(1, 3),
    phi=0.99,
    utility="ERR",
    weights=None,
) -> dict:
    """Score padded ranked lists: ERR, iRBU, GF-JSD/NMD/RNOD per attribute set, GFR.

    Parameters
    ----------
    levels : array_like of int, shape (..., K)
        Relevance level of the doc at each rank (0 = nonrelevant or unjudged), e.g.
        (topics, runs, K). Positions at or beyond ``lengths`` are ignored.
    memberships : sequence of array_like, each (..., K, G_m)
        Membership vector of each ranked doc for each attribute set. Rows of
        nonrelevant docs are not used (they count as uniform); an all-NaN row marks a
        relevant doc missing from the membership data, which also counts as uniform.
    attribute_sets : sequence of AttributeSet
        Targets and default divergences, in the order of ``memberships``.
    lengths : array_like of int, shape (...), optional
        Length of each list; default K.
    cutoffs : sequence of int
        Depths K at which to report, besides full depth.
    gains : sequence of float
        Gain of levels 1..lmax (default 1, 3: FairWeb's L1 = 1, L2 = 3).
    phi : float
        iRBU persistence.
    utility : {'ERR', 'iRBU'}
        The utility in GFR.
    weights : sequence of float, optional
        w_0 (utility), w_1..w_M (sets); default equal; must sum to 1.

    Returns
    -------
    dict of str to ndarray (...)
        Keys as :func:`measure_names`. Every score is in [0, 1] (GF with RNOD against a
        target with zero entries can be negative); higher is better.

    Examples
    --------
    >>> import numpy as np
    >>> from fairconv import AttributeSet
    >>> a = AttributeSet("A", [0.5, 0.5], "nominal")
    >>> s = gfr([[2, 0]], [np.array([[[1.0, 0.0], [0.5, 0.5]]])], [a], cutoffs=[1])
    >>> round(float(s["ERR"][0]), 4), round(float(s["GF-JSD[A]"][0]), 4)
    (0.75, 0.5165)
    """
    func = "gfr"
    lev = np.asarray(levels)
    if lev.ndim == 0 or not np.issubdtype(lev.dtype, np.integer):
        raise fail(
            "levels", func, "be an integer array (..., K)", f"dtype {lev.dtype}, shape {lev.shape}"
        )
    sets = list(attribute_sets)
    members = list(memberships)
    if len(sets) != len(members) or not all(isinstance(a, AttributeSet) for a in sets):
        raise fail(
            "attribute_sets",
            func,
            "hold one AttributeSet per membership array",
            f"{len(sets)} for {len(members)} arrays",
        )
    prob = stop_probabilities(gains)
    lmax = len(prob) - 1
    if (lev < 0).any() or (lev > lmax).any():
        raise fail(
            "levels",
            func,
            f"lie in 0..{lmax} (the gain table has {lmax} levels)",
            f"levels {int(lev.min())}..{int(lev.max())}",
        )
    depth = lev.shape[-1]
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
                func,
                f"be integers in 0..{depth} of shape {lev.shape[:-1]}",
                f"shape {n.shape}",
            )
        inside = _core.length_mask(n, depth)
    else:
        inside = np.ones(lev.shape, dtype=bool)
    relevant = (lev > 0) & inside
    stop = np.where(inside, prob[lev], 0.0)
    arrays = []
    for m, (memb, a) in enumerate(zip(members, sets)):
        name = f"memberships[{m}]"
        x = check_distributions(memb, name, func, allow_nan_rows=True)
        if x.shape[:-1] != lev.shape or x.shape[-1] != a.n_groups:
            raise fail(
                name,
                func,
                f"have shape {lev.shape + (a.n_groups,)} (levels plus "
                f"the {a.n_groups} groups of {a.name})",
                f"shape {x.shape}",
            )
        use = relevant & ~np.isnan(x).any(axis=-1)
        arrays.append(np.where(use[..., None], x, 1.0 / a.n_groups))
    cut = _check_cutoffs(cutoffs, func)
    w = _weights(weights, len(sets), func)
    decay = _core.err_decay(stop)
    util = _core.utility_at_cutoffs(decay, cut, _check_phi(phi, func))
    utility = check_choice(utility, "utility", func, ("ERR", "iRBU"))
    out = {}
    gf = [
        _core.gf_at_cutoffs(decay, x, a.target, DIVERGENCE_NAMES, cut) for x, a in zip(arrays, sets)
    ]
    for k in cut:
        s = _suffix(k)
        out[f"ERR{s}"], out[f"iRBU{s}"] = util[("ERR", k)], util[("iRBU", k)]
        combined = w[0] * util[(utility, k)]
        for m, a in enumerate(sets):
            for d in DIVERGENCE_NAMES:
                out[f"GF-{d}{s}[{a.name}]"] = gf[m][(d, k)]
            combined = combined + w[m + 1] * gf[m][(a.divergence, k)]
        out[f"GFR{s}"] = combined
    return out


def _weights(weights, n_sets, func):
    if weights is None:
        return np.full(n_sets + 1, 1.0 / (n_sets + 1))
    return check_weights(weights, n_sets + 1, "weights", func)


# --------------------------------------------------------------------------- files
@dataclass(frozen=True, eq=False)
class AttributeData:
    """An attribute set with the membership file that covers its topics."""

    attribute: AttributeSet
    memberships: GroupMemberships

    def __post_init__(self):
        if self.memberships.n_groups != self.attribute.n_groups:
            raise FileFormatError(
                self.memberships.source,
                None,
                f"has {self.memberships.n_groups} groups but the target "
                f"of {self.attribute.name} has {self.attribute.n_groups}",
            )


def load_attribute(name: str, gmemb, target, scale: str, *, divergence=None) -> AttributeData:
    """Read one attribute set: a gmemb file and a target (golddistr path or vector).

    The CLI's ``--attribute NAME GMEMB TARGET SCALE``.
    """
    if isinstance(target, (str, bytes)) or hasattr(target, "__fspath__"):
        source = str(target)
        vector = read_golddistr(target)
    else:
        source, vector = None, target
    try:
        attribute = AttributeSet(name, vector, scale, divergence)
    except ValueError as exc:
        if source is None:
            raise
        raise ValueError(f"{source}: {exc}") from None
    return AttributeData(attribute, read_gmemb(gmemb, attribute.n_groups))


def _global_topic_ids(table, t_index: dict) -> np.ndarray:
    """Topic id of each row of a qrels, gmemb or run in the evaluation's topic list."""
    ids = np.array([t_index.get(t, -1) for t in table.topics], dtype=np.int64)
    return ids[table.topic_ids] if len(ids) else np.full(len(table.docs), -1, np.int64)


def _rank_lines(run: Run, t_index: dict, judged: KeyTable, order: str, duplicates: str):
    """A run's kept lines in rank order as arrays: topic id, judgment row (-1 when
    unjudged), rank (0-based) and the list length of every topic.
    """
    tid = _global_topic_ids(run, t_index)
    keep = np.flatnonzero(tid >= 0)  # topics absent from qrels and gmemb are ignored
    if order == "file":
        idx = keep[np.argsort(tid[keep], kind="stable")]
    else:  # trec_eval: score descending, ties broken by doc id descending
        docs = np.array(run.docs, dtype=np.bytes_)[keep] if len(keep) else np.zeros(0, "S1")
        _, doc_rank = np.unique(docs, return_inverse=True)
        idx = keep[np.lexsort((-doc_rank, -run.scores[keep], tid[keep]))]
    docs = list(map(run.docs.__getitem__, idx.tolist()))
    hashes = key_hashes(tid[idx], docs)
    first = first_occurrences(tid[idx], docs, hashes)
    repeated = first != np.arange(len(idx))
    if repeated.any():
        if duplicates == "error":
            j = int(np.argmax(repeated))
            raise FileFormatError(
                run.source,
                run.line(int(idx[j])),
                f"doc "
                f"{docs[j].decode()!r} appears twice in the ranked list of "
                f"topic {run.topics[run.topic_ids[idx[j]]]!r} (first on line "
                f"{run.line(int(idx[first[j]]))}); pass duplicates='first' "
                "(--keep-first-duplicate) to keep its first occurrence",
            )
        kept = np.flatnonzero(~repeated)
        idx, hashes = idx[kept], hashes[kept]
        docs = list(map(docs.__getitem__, kept.tolist()))
    tid = tid[idx]
    counts = np.bincount(tid, minlength=len(t_index))
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    rank = np.arange(len(idx)) - starts[tid]
    return tid, judged.find(tid, docs, hashes), rank, counts


def evaluate(
    qrels: Qrels,
    runs: Sequence[Run],
    attributes: Sequence[AttributeData],
    *,
    cutoffs=DEFAULT_CUTOFFS,
    gains=(1, 3),
    phi=0.99,
    utility="ERR",
    weights=None,
    order="file",
    duplicates="error",
    lists=None,
) -> ScoreTable:
    """Score runs against qrels and attribute sets; one vectorised pass per set.

    Parameters
    ----------
    qrels : Qrels
    runs : sequence of Run
    attributes : sequence of AttributeData
        Each set covers the topics of its gmemb file: its GF rows exist only there.
    cutoffs, gains, phi, utility : as :func:`gfr`
    weights : sequence of float, optional
        w_0 for the utility and w_m per attribute set. On each topic GFR combines the
        utility with the sets that cover the topic, and their weights must sum to 1;
        by default they are equal (FairWeb: ``(ERR + GF[RATINGS] + GF[ORIGIN]) / 3``).
    order : {'file', 'score'}
        Rank order: the order of a topic's lines in the run file (as the organisers'
        tool), or trec_eval's (score descending, ties by doc id descending).
    duplicates : {'error', 'first'}
        A doc twice in one ranked list is an error naming file and line, or only its
        first occurrence is kept.
    lists : RankedLists, optional
        The output of :func:`prepare` for these inputs, when the caller has it
        already (e.g. for the list lengths of :func:`write_nev`).

    Returns
    -------
    ScoreTable
        Topics: every topic of the qrels and of the gmemb files, sorted. A run without
        a topic scores 0 on it (as the organisers' tool); a topic with no relevant doc
        scores 0; run topics that neither qrels nor gmemb know are ignored (as
        trec_eval does).
    """
    func = "evaluate"
    order = check_choice(order, "order", func, ("file", "score"))
    duplicates = check_choice(duplicates, "duplicates", func, ("error", "first"))
    utility = check_choice(utility, "utility", func, ("ERR", "iRBU"))
    prob = stop_probabilities(gains)
    lmax = len(prob) - 1
    if qrels.max_level > lmax:
        raise ValueError(
            f"{qrels.source}: has level L{qrels.max_level} but the gain table "
            f"covers levels 1..{lmax}; give a gain for every level "
            "(e.g. --gains 1:3:7)"
        )
    cut = _check_cutoffs(cutoffs, func)
    phi = _check_phi(phi, func)
    attributes = list(attributes)
    names = [a.attribute.name for a in attributes]
    if len(set(names)) != len(names):
        raise fail("attributes", func, "have distinct names", repr(names))
    w = _weights(weights, len(attributes), func)
    if lists is None:
        lists = prepare(qrels, runs, attributes, order=order, duplicates=duplicates)
    topics, n_t, n_r = lists.topics, len(lists.topics), len(runs)
    decay = _core.err_decay(prob[lists.level])

    measures = measure_names(names, [k for k in cut if k is not None])
    m_index = {m: i for i, m in enumerate(measures)}
    values = np.zeros((n_r, n_t, len(measures)))
    present = np.zeros_like(values, dtype=bool)
    util = _core.utility_at_cutoffs(decay, cut, phi)
    for (name, k), v in util.items():
        values[:, :, m_index[f"{name}{_suffix(k)}"]] = v.T
        present[:, :, m_index[f"{name}{_suffix(k)}"]] = True

    covered = np.zeros((len(attributes), n_t), dtype=bool)
    for m, data in enumerate(attributes):
        a = data.attribute
        cov = lists.covered[m]
        covered[m, cov] = True
        block = max(1, _CHUNK_ELEMENTS // max(1, n_r * lists.depth * a.n_groups))
        for start in range(0, len(cov), block):
            tt = cov[start : start + block]
            gf = _core.gf_at_cutoffs(
                decay[tt], lists.memberships(m, tt), a.target, DIVERGENCE_NAMES, cut
            )
            for (d, k), v in gf.items():
                col = m_index[f"GF-{d}{_suffix(k)}[{a.name}]"]
                values[:, tt, col] = v.T
                present[:, tt, col] = True

    # GFR per topic: the utility and the sets covering the topic
    comp_w = np.where(covered.T, w[1:], 0.0)  # (topics, sets)
    total_w = w[0] + comp_w.sum(axis=1)
    if weights is None:
        comp_w = comp_w / total_w[:, None]
        util_w = w[0] / total_w
    else:
        bad = np.abs(total_w - 1.0) > 1e-5
        if bad.any():
            t = topics[int(np.argmax(bad))]
            raise ValueError(
                f"the weights of the utility and of the attribute sets covering "
                f"topic {t!r} sum to {total_w[bad][0]:.6g}, not 1"
            )
        util_w = np.full(n_t, w[0])
    for k in cut:
        s = _suffix(k)
        combined = util_w * values[:, :, m_index[f"{utility}{s}"]]
        for m, data in enumerate(attributes):
            a = data.attribute
            gf = values[:, :, m_index[f"GF-{a.divergence}{s}[{a.name}]"]]
            combined = combined + comp_w[:, m] * gf
        values[:, :, m_index[f"GFR{s}"]] = combined
        present[:, :, m_index[f"GFR{s}"]] = True
    return ScoreTable(lists.runs, tuple(topics), tuple(measures), values, present)


def run_names(runs: Sequence[Run]) -> tuple:
    """Run tags, with the file name in place of a tag that several runs share."""
    tags = [r.tag for r in runs]
    return tuple(
        t if tags.count(t) == 1 else os.path.basename(r.source) for t, r in zip(tags, runs)
    )


@dataclass(frozen=True, eq=False)
class RankedLists:
    """Runs laid out as padded arrays over (topics, runs, ranks), joined with the qrels
    and the membership files: what every measure on ranked lists works from.

    ``level[t, r, k]`` is the level of the doc at rank k+1 (0 beyond the list's end);
    ``lengths[t, r]`` the list lengths; ``covered[m]`` the topic indices that attribute
    set m covers. :meth:`memberships` gives the membership vectors of ranked docs, the
    uniform vector standing for nonrelevant, unjudged, unlisted and padded positions.
    """

    topics: tuple
    runs: tuple
    level: np.ndarray
    lengths: np.ndarray
    covered: list
    tables: list  # per set: (n_rows + 1, G) vectors, the last one uniform
    rows: list  # per set: (topics, runs, ranks) row of ``tables``

    @property
    def depth(self) -> int:
        return self.level.shape[-1]

    def syslen(self) -> dict:
        """{(run index, topic): length of that ranked list} for :func:`write_nev`."""
        t, r = np.nonzero(self.lengths)
        return {(int(j), self.topics[i]): int(self.lengths[i, j]) for i, j in zip(t, r)}

    def memberships(self, m: int, topics: np.ndarray) -> np.ndarray:
        """(len(topics), runs, ranks, G) membership vectors for attribute set m."""
        return self.tables[m][self.rows[m][topics]]


def prepare(
    qrels: Qrels,
    runs: Sequence[Run],
    attributes: Sequence[AttributeData],
    *,
    order="file",
    duplicates="error",
) -> RankedLists:
    """Join runs with qrels and membership files into :class:`RankedLists`."""
    topics = sorted(set(qrels.topics).union(*(a.memberships.topics for a in attributes)))
    t_index = {t: i for i, t in enumerate(topics)}
    judged = KeyTable(_global_topic_ids(qrels, t_index), qrels.docs)
    ranked = [_rank_lines(run, t_index, judged, order, duplicates) for run in runs]
    n_t, n_r = len(topics), len(runs)
    depth = max([int(r[3].max()) if len(r[3]) else 0 for r in ranked] + [1])
    judged_level = np.append(qrels.levels, 0)  # row -1 (unjudged) reads the last entry
    level = np.zeros((n_t, n_r, depth), dtype=np.int64)
    lengths = np.zeros((n_t, n_r), dtype=np.int64)
    for r, (tid, rows, rank, counts) in enumerate(ranked):
        level[tid, r, rank] = judged_level[rows]
        lengths[:, r] = counts
    tables, row_arrays, covered = [], [], []
    for data in attributes:
        a, gm = data.attribute, data.memberships
        uniform = gm.matrix.shape[0]
        tables.append(np.vstack([gm.matrix, np.full((1, a.n_groups), 1.0 / a.n_groups)]))
        # membership row of each judgment (the extra last entry: unjudged docs); only
        # relevant docs listed in the gmemb file have their own vector, all others uniform
        row_of_judged = np.full(len(qrels.docs) + 1, uniform, dtype=np.int64)
        hit = judged.find(_global_topic_ids(gm, t_index), gm.docs)
        listed = hit >= 0
        row_of_judged[hit[listed]] = np.flatnonzero(listed)
        row_of_judged[:-1][qrels.levels == 0] = uniform
        row_of = np.full((n_t, n_r, depth), uniform, dtype=np.int64)
        for r, (tid, rows, rank, _) in enumerate(ranked):
            row_of[tid, r, rank] = row_of_judged[rows]
        row_arrays.append(row_of)
        covered.append(np.array(sorted(t_index[t] for t in gm.topics), np.int64))
    return RankedLists(tuple(topics), run_names(runs), level, lengths, covered, tables, row_arrays)


# --------------------------------------------------------------------------- NEV output
def write_nev(
    table: ScoreTable,
    qrels: Qrels,
    runs: Sequence[Run],
    attributes: Sequence[AttributeData],
    out,
    *,
    run_index: int | None = None,
    attribute_index: int | None = None,
    syslen=None,
) -> None:
    """Write the organisers' ``.GFRnev`` layout for the given run and attribute set.

    One block per covered topic: ``<topic> # syslen=<n> jrel=<n> jnonrel=<n>``, then
    ``<topic> <name>=`` (left-justified in 21 columns) and the value to 4 decimals for
    ERR, iRBU, GF-JSD, GF-NMD, GF-RNOD at full depth and each cutoff (``ERR@0010=``).
    ``syslen`` maps (run index, topic) to the length of that ranked list.
    """
    cutoffs = sorted({int(m.split("@")[1]) for m in table.measures if m.startswith("ERR@")})
    run_ids = range(len(runs)) if run_index is None else [run_index]
    set_ids = range(len(attributes)) if attribute_index is None else [attribute_index]
    lines = []
    for r in run_ids:
        for m in set_ids:
            a = attributes[m].attribute
            for topic in sorted(attributes[m].memberships.topics):
                t = table.topics.index(topic)
                n = 0 if syslen is None else syslen.get((r, topic), 0)
                lines.append(
                    f"{topic} # syslen={n} jrel={qrels.n_relevant.get(topic, 0)} "
                    f"jnonrel={qrels.n_nonrelevant.get(topic, 0)}"
                )
                for k in [None] + cutoffs:
                    tag = "" if k is None else f"@{k:04d}"
                    for base, name in (
                        ("ERR", "ERR"),
                        ("iRBU", "iRBU"),
                        ("GF-JSD", f"GF-JSD[{a.name}]"),
                        ("GF-NMD", f"GF-NMD[{a.name}]"),
                        ("GF-RNOD", f"GF-RNOD[{a.name}]"),
                    ):
                        key = (
                            name.replace("[", f"{_suffix(k)}[")
                            if "[" in name
                            else f"{name}{_suffix(k)}"
                        )
                        v = table.values[r, t, table.measures.index(key)]
                        lines.append(f"{topic} {f'{base}{tag}=':<21}{v:.4f}")
    out.write("".join(line + "\n" for line in lines))


def list_lengths(
    runs: Sequence[Run], topics: Sequence[str], order="file", duplicates="error"
) -> dict:
    """{(run index, topic): number of ranked docs} for the nev header's syslen."""
    t_index = {t: i for i, t in enumerate(topics)}
    nothing = KeyTable(np.zeros(0, np.int64), [])
    out = {}
    for r, run in enumerate(runs):
        counts = _rank_lines(run, t_index, nothing, order, duplicates)[3]
        out.update({(r, topics[t]): int(c) for t, c in enumerate(counts) if c})
    return out
